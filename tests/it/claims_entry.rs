//! The error a failing example is expected to raise when its text names none: the error of the
//! entry its article is about. A fixture article (tests/fixtures/verify/entry-error) names its
//! entry in `errors:` and never the entry's exception; its examples are read as failing, run
//! once on this host, and the site judges each run against the entry's error: one raises it
//! (fails as described), one raises another (fails differently, named), and one whose text
//! names its own exception is judged against that. On this repository's pages: the seed
//! article says where its expected error came from, and the entry's workaround 1 reports its
//! error without the warning Python printed at exit.

use crate::verify_support::{build, catalog, section, text_of, verify};
use serde_json::Value;

/// The article's blocks as `errbook claims --format json` lists them.
fn blocks(root: &std::path::Path) -> Vec<Value> {
    let o = crate::common::errbook()
        .arg("--root")
        .arg(root)
        .args(["claims", "--format", "json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    v["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["page"] == "articles/averages")
        .cloned()
        .collect()
}

/// `verify` judges each block against the claim the pages show: the entry's error.
fn verify_agrees_with_the_pages(ran: &crate::verify_support::Ran) {
    let said = format!("{}{}", ran.stdout, ran.stderr);
    assert!(
        said.contains("verify: 4 confirmed, 1 different error"),
        "{ran}"
    );
    assert!(
        said.contains(
            "article/averages#snippet-2: Claimed: fails with ZeroDivisionError \u{201c}division \
             by zero\u{201d}; but it exited 1 with KeyError: 'bob'."
        ),
        "{ran}"
    );
}

#[test]
fn a_failing_example_is_judged_against_the_error_of_the_entry_it_is_about() {
    let t = catalog("entry-error");
    let ran = verify(
        t.path(),
        None,
        &["--gpus", "none", "--allow-contradictions"],
    );
    assert_eq!(ran.code, Some(0), "{ran}");
    verify_agrees_with_the_pages(&ran);

    let html =
        std::fs::read_to_string(build(t.path()).join("articles/averages/index.html")).unwrap();
    let ids = ["code-snippet-1", "code-snippet-2", "code-snippet-3"];
    let block = |id: &str| text_of(section(&html, id, &ids));
    let expected = "expected to raise the error of the entry it is about \
                    (ZeroDivisionError: division by zero)";

    // (a) It raised the entry's error: failed as claimed.
    let one = block("code-snippet-1");
    assert!(
        one.contains(&format!(
            "Read as the failing case (\u{2018}The Problematic Approach\u{2019}; \
             \u{2018}flawed\u{2019}), {expected}"
        )),
        "{one}"
    );
    assert!(one.contains("fails as described"), "{one}");
    assert!(
        one.contains(
            "Failed as claimed, with the error of the entry it is about: it exited 1 with \
             ZeroDivisionError: division by zero."
        ),
        "{one}"
    );

    // (b) It raised another error: failed differently, and the page names what it raised.
    let two = block("code-snippet-2");
    assert!(two.contains(expected), "{two}");
    assert!(two.contains("fails differently"), "{two}");
    assert!(!two.contains("Failed as claimed"), "{two}");
    assert!(
        two.contains(
            "Failed differently: expected the error of the entry it is about \
             (ZeroDivisionError: division by zero), but it exited 1 with KeyError: 'bob'."
        ),
        "{two}"
    );

    // The text names its own exception: that wins over the entry's.
    let three = block("code-snippet-3");
    assert!(!three.contains("the entry it is about"), "{three}");
    assert!(three.contains("fails as described"), "{three}");

    // `errbook claims` shows the error judged against, says where it came from, and gives the
    // same verdicts.
    let b = blocks(t.path());
    assert_eq!(b.len(), 3, "{b:?}");
    for x in &b[..2] {
        assert_eq!(x["claim"], "fails");
        assert_eq!(x["source"], "inferred");
        assert_eq!(
            x["error"],
            serde_json::json!({"type": "ZeroDivisionError", "match": "division by zero"})
        );
        let from_entry = x["evidence"].as_array().unwrap().iter().any(|e| {
            e["text"].as_str().is_some_and(|t| {
                t.starts_with("the error of the entry it is about, demo/empty-average")
            })
        });
        assert!(from_entry, "{x}");
    }
    assert_eq!(b[0]["verdicts"][0]["verdict"], "confirmed", "{}", b[0]);
    assert_eq!(
        b[1]["verdicts"][0]["verdict"], "different_error",
        "{}",
        b[1]
    );
    assert_eq!(
        b[2]["error"],
        serde_json::json!({"type": "ValueError", "match": null})
    );
    assert_eq!(b[2]["verdicts"][0]["verdict"], "confirmed", "{}", b[2]);
}

#[test]
fn the_repository_s_pages_say_where_the_expectation_came_from_and_no_exit_warning() {
    let (_t, out) = crate::common::build(&crate::common::repo(), &[]);
    let read = |rel: &str| std::fs::read_to_string(out.join(rel)).unwrap();
    // The seed article as written: no error named, its entry inferred from its text.
    let art =
        read("articles/why-does-torchutilsdatadataloader-with-cuda-and-numworkers-/index.html");
    let one = text_of(section(&art, "code-snippet-1", &["code-snippet-2"]));
    assert!(
        one.contains(
            "Read as the failing case (\u{2018}The Problematic Approach\u{2019}; \u{2018}likely \
             fail\u{2019}), expected to raise the error of the entry it is about (RuntimeError: \
             Cannot re-initialize CUDA in forked subprocess)"
        ),
        "{one}"
    );
    assert!(
        art.contains("the error is that of the entry pytorch/dataset-worker-fork-cuda (inferred from the article&#39;s text, score"),
        "the claim's title says which entry and how errbook knows"
    );
    // Workaround 1's H100 run ended with a warning of multiprocessing's resource tracker after
    // its final error: the page reports the error, and the warning only in the log.
    let entry = read("errors/pytorch/dataset-worker-fork-cuda/index.html");
    let w1 = text_of(section(&entry, "workaround-1", &["workaround-2"]));
    let facts = &w1[..w1.find(" Log ").unwrap_or(w1.len())];
    assert!(
        facts.contains(
            "Reported as RuntimeError: DataLoader worker (pid(s) 21) exited unexpectedly Exit \
             status 1"
        ),
        "{facts}"
    );
    assert!(!facts.contains("UserWarning"), "{facts}");
    assert!(
        w1.contains("UserWarning: resource_tracker"),
        "the log keeps it: {w1}"
    );
}
