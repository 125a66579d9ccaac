//! Broken explicit references, as users meet them: `errbook check` on tests/fixtures/bad-links/
//! prints an `E-link` error at file:line:col with the offending line and a did-you-mean hint for
//! each, and exits 1; `build` stops and writes nothing.

use crate::common::*;

struct Case {
    location: &'static str,
    message: &'static str,
    shown: &'static str,
    hint: &'static str,
}

const CASES: &[Case] = &[
    Case {
        location: "content/articles/workers.md:5:11",
        message: "`errors:` names `pytorch/fork-cdua`, which is no entry of the catalog",
        shown: "5 │ errors: [\"pytorch/fork-cdua\"]",
        hint: "did you mean one of: `pytorch/fork-cuda`",
    },
    Case {
        location: "content/articles/workers.md:7:13",
        message: "`links: reject` item `snippet-1 -> pytorch/fork-cuda#dead-end-3`: `pytorch/fork-cuda` has no dead end 3",
        shown: "7 │   reject: [\"snippet-1 -> pytorch/fork-cuda#dead-end-3\"]",
        hint: "it has 1 dead end(s)",
    },
    Case {
        location: "content/articles/workers.md:10:14",
        message: "the link `../errors/pytorch/cuda_oom.md` points to no entry or article",
        shown: "10 │ [memory one](../errors/pytorch/cuda_oom.md)",
        hint: "did you mean `@/errors/pytorch/cuda-oom.md`?",
    },
    Case {
        location: "content/articles/workers.md:10:67",
        message: "the link `@/articles/worker-guide.md` points to no entry or article",
        shown: "see also [the guide](@/articles/worker-guide.md)",
        hint: "did you mean `@/articles/workers.md`?",
    },
    Case {
        location: "content/errors/pytorch/fork-cuda.md:2:11",
        message: "`related:` names `pytorch/oom-cuda`, which is no entry of the catalog",
        shown: "2 │ related: [pytorch/oom-cuda]",
        hint: "did you mean one of: `pytorch/cuda-oom`",
    },
    Case {
        location: "content/errors/pytorch/fork-cuda.md:14:62",
        message: "the link `@/errors/pytorch/cuda-om.md` points to no entry or article",
        shown: "[the OOM entry](@/errors/pytorch/cuda-om.md)",
        hint: "did you mean `@/errors/pytorch/cuda-oom.md`?",
    },
];

fn fixture() -> std::path::PathBuf {
    repo().join("tests/fixtures/bad-links")
}

#[test]
fn check_reports_every_broken_reference_located() {
    let o = errbook()
        .arg("--root")
        .arg(fixture())
        .arg("check")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_cases(&err);
    assert!(err.contains("check: 6 errors"), "{err}");
    // The link to an entry that exists is not reported.
    assert!(!err.contains("`../errors/pytorch/fork-cuda.md`"), "{err}");
}

/// A build drops each entry's text once parsed: its diagnostics are still located and show
/// the offending line, as `check`'s.
#[test]
fn build_reports_every_broken_reference_located() {
    let tmp = tempfile::tempdir().unwrap();
    let o = errbook()
        .arg("--root")
        .arg(fixture())
        .args(["build", "-d"])
        .arg(tmp.path().join("site"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert_cases(&err);
    assert_eq!(err.matches("error[E-link]").count(), CASES.len(), "{err}");
}

/// Every case of `CASES` in `err`, with its line shown and its hint.
fn assert_cases(err: &str) {
    // One block per diagnostic: header line up to the next header.
    let blocks: Vec<&str> = err.split("\nerror[").collect();
    for c in CASES {
        let header = format!("E-link]: {}: {}", c.location, c.message);
        let block = blocks
            .iter()
            .find(|b| b.contains(&header))
            .unwrap_or_else(|| panic!("no diagnostic `{header}` in:\n{err}"));
        assert!(
            block.contains(c.shown),
            "offending line `{}` not shown:\n{block}",
            c.shown
        );
        assert!(
            block.contains(c.hint),
            "hint `{}` missing:\n{block}",
            c.hint
        );
    }
}

#[test]
fn build_stops_on_broken_references_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let o = errbook()
        .arg("--root")
        .arg(fixture())
        .args(["build", "-d"])
        .arg(&out)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("error[E-link]: content/articles/workers.md:5:11"),
        "{err}"
    );
    assert!(!out.exists(), "a failed build wrote {}", out.display());
}

#[test]
fn seed_catalog_links_are_sound() {
    let as_written = errbook()
        .arg("--root")
        .arg(repo())
        .args(["check", "--links", "content/articles"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&as_written.stderr);
    assert!(
        as_written.status.success() && !err.contains("E-link"),
        "{err}"
    );
    // With the article's entry declared, its examples' links to that entry's parts are drawn.
    let declared = crate::common::seed_declaring_errors();
    let o = errbook()
        .arg("--root")
        .arg(declared.path())
        .args([
            "check",
            "--links",
            "content/articles/why-does-torchutilsdatadataloader-with-cuda-and-numworkers-.md",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{err}");
    assert!(!err.contains("E-link"), "{err}");
    // Example 3 sets num_workers=0: the entry's first dead end, flagged with its evidence.
    assert!(
        out.contains("\u{201c}Example 3:  Process-Level Data Preprocessing\u{201d}) falls into dead end pytorch/dataset-worker-fork-cuda#dead-end-1\n    score 1.00, inferred"),
        "{out}"
    );
    assert!(out.contains("setting `num_workers=0`"), "{out}");
    // Example 1, the problematic approach, applies no workaround.
    assert!(
        !out.contains("The Problematic Approach\u{201d}) applies"),
        "{out}"
    );
}
