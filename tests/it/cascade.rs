//! One bad line is reported once, where it is: an entry that does not parse gives its own error,
//! not "broken link" errors on the pages that name it, nor "orphan record" warnings (with their
//! advice to prune) for its verification records.

use crate::common::errbook;

#[test]
fn a_broken_entry_is_one_error_not_a_cascade() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cat");
    crate::common::init(&dir);
    // Records for the entry's code block, as a contributor would have committed them.
    let v = errbook()
        .arg("--root")
        .arg(&dir)
        .args(["verify", "--sandbox", "none"])
        .output()
        .unwrap();
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stderr));
    // The article links to the entry in its text too.
    let art = dir.join(crate::common::INIT_ARTICLE);
    let text = std::fs::read_to_string(&art).unwrap();
    std::fs::write(
        &art,
        format!("{text}\nSee [the entry](@/errors/python/recursion-depth-exceeded.md).\n"),
    )
    .unwrap();
    // One bad line: the title line is gone.
    let entry = dir.join("content/errors/python/recursion-depth-exceeded.md");
    crate::common::replace_in(
        &entry,
        "# RecursionError: maximum recursion depth exceeded\n",
        "",
    );

    let o = errbook()
        .arg("--root")
        .arg(&dir)
        .arg("check")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("error[E-title]: content/errors/python/recursion-depth-exceeded.md"),
        "{err}"
    );
    assert!(
        !err.contains("E-link"),
        "no broken-link errors on the article: {err}"
    );
    assert!(!err.contains("W-verify-orphan"), "no orphan records: {err}");
    assert!(
        !err.contains("--prune"),
        "nothing suggests deleting records: {err}"
    );
    assert!(err.contains("check: 1 error"), "{err}");
}
