//! Drafts: a page with `draft: true` is checked like any other but left out of `build` (its
//! page, the lists, the search index, the sitemap) unless `--drafts`.

use crate::common::errbook;
use std::path::Path;

fn catalog(dir: &Path) {
    crate::common::init(dir);
    let art = dir.join(crate::common::INIT_ARTICLE);
    crate::common::replace_in(&art, "tags:", "draft: true\ntags:");
}

fn build(dir: &Path, out: &Path, extra: &[&str]) {
    let o = errbook()
        .arg("--root")
        .arg(dir)
        .args(["build", "-d"])
        .arg(out)
        .args(extra)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn drafts_are_left_out_unless_asked_for() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cat");
    catalog(&dir);
    let page = "articles/why-does-my-recursive-function-fail/index.html";

    let out = tmp.path().join("published");
    build(&dir, &out, &[]);
    assert!(!out.join(page).exists(), "a draft has no page");
    let search: Vec<String> = crate::common::files(&out.join("search"))
        .into_iter()
        .map(|f| format!("search/{f}"))
        .collect();
    assert!(search.contains(&"search/m.json".to_string()), "{search:?}");
    for f in ["articles/index.html", "sitemap.xml", "api/catalog.json"]
        .into_iter()
        .map(String::from)
        .chain(search)
    {
        let text = std::fs::read_to_string(out.join(&f)).unwrap();
        assert!(
            !text.contains("why-does-my-recursive-function-fail"),
            "{f} names the draft"
        );
    }

    let out = tmp.path().join("drafts");
    build(&dir, &out, &["--drafts"]);
    assert!(out.join(page).exists(), "--drafts builds it");

    let o = errbook()
        .arg("--root")
        .arg(&dir)
        .arg("check")
        .output()
        .unwrap();
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("1 article parsed"),
        "check reads drafts too: {err}"
    );
}

#[test]
fn draft_must_be_true_or_false() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cat");
    catalog(&dir);
    let art = dir.join(crate::common::INIT_ARTICLE);
    let text = std::fs::read_to_string(&art).unwrap();
    std::fs::write(&art, text.replace("draft: true", "draft: maybe")).unwrap();
    let o = errbook()
        .arg("--root")
        .arg(&dir)
        .arg("check")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("`draft` must be true or false"), "{err}");
}
