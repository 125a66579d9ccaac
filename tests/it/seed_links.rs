//! The seed catalog verbatim (tests/fixtures/seed-verbatim: `../shared/seed-catalog`'s entry and
//! three articles, byte for byte, with no `errors:` front matter): every article is linked to
//! the entry it is about although none quotes its message, from the calls, settings and causes
//! it shares with the entry, with that evidence shown; articles on other subjects put beside
//! them are not linked.

use crate::common::{copy_tree, errbook, repo};
use serde_json::Value;
use std::path::Path;

const ENTRY: &str = "pytorch/dataset-worker-fork-cuda";
const SEEDS: [&str; 3] = [
    "why-does-torchutilsdatadataloader-with-cuda-and-numworkers-",
    "why-am-i-getting-a-cuda-initialization-error",
    "how-to-use-multiprocessing-with-shared-memory-and",
];

/// The `discusses` links of a build of `root`, as (article, entry, evidence phrases).
fn discusses(root: &Path) -> Vec<(String, String, Vec<String>)> {
    let out = tempfile::tempdir().unwrap();
    errbook()
        .arg("--root")
        .arg(root)
        .args(["build", "--dest-dir"])
        .arg(out.path())
        .assert()
        .success();
    let text = std::fs::read_to_string(out.path().join("api/links.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["links"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["kind"] == "discusses")
        .map(|l| {
            let ev = l["evidence"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| format!("{}: {}", e["signal"], e["excerpt"]))
                .collect();
            (
                l["from"]["id"].as_str().unwrap().to_string(),
                l["to"]["id"].as_str().unwrap().to_string(),
                ev,
            )
        })
        .collect()
}

#[test]
fn the_seed_articles_as_written_link_to_the_entry_they_are_about() {
    let t = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("tests/fixtures/seed-verbatim"), t.path());
    for a in SEEDS {
        let text =
            std::fs::read_to_string(t.path().join(format!("content/articles/{a}.md"))).unwrap();
        assert!(!text.contains("errors:") && !text.contains("Cannot re-initialize"));
    }
    let links = discusses(t.path());
    for a in SEEDS {
        let l = links
            .iter()
            .find(|l| l.0 == a && l.1 == ENTRY)
            .unwrap_or_else(|| panic!("{a} is not linked to {ENTRY}: {links:?}"));
        assert!(
            l.2.iter()
                .any(|e| e.contains("of the entry's distinctive terms")),
            "{l:?}"
        );
    }
    // What `check --links` shows a maintainer: the terms, and how to reject the link.
    let out = errbook()
        .arg("--root")
        .arg(t.path())
        .args(["check", "--links"])
        .arg(t.path().join(format!("content/articles/{}.md", SEEDS[0])))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains(&format!("discusses {ENTRY}")), "{said}");
    assert!(
        said.contains("worker_init_fn") && said.contains("num_workers"),
        "{said}"
    );
}

#[test]
fn articles_on_other_subjects_beside_the_seeds_are_not_linked() {
    let t = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("tests/fixtures/seed-verbatim"), t.path());
    let others = [
        "how-to-use-automatic-mixed-precision-correctly",
        "how-to-make-cudnn-convolutions-deterministic",
        "why-does-backward-fail-the-second-time",
        "jax-preallocate-after-import",
    ];
    for a in others {
        let from = repo().join(format!("bench/claims/content/articles/{a}.md"));
        std::fs::copy(from, t.path().join(format!("content/articles/{a}.md"))).unwrap();
    }
    let links = discusses(t.path());
    for a in others {
        assert!(
            !links.iter().any(|l| l.0 == a),
            "{a} is about something else: {links:?}"
        );
    }
    assert_eq!(links.iter().filter(|l| l.1 == ENTRY).count(), SEEDS.len());
}
