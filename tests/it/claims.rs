//! `errbook claims` on this repository's catalog as written: the seed articles byte for byte,
//! every example's claim read from the text with its evidence, the JSON shape other tools read,
//! `--write` making the readings declared, and a claim changed with no rerun.

use crate::common::{copy_tree, errbook, replace_in, repo};
use serde_json::Value;
use std::path::PathBuf;

/// The seed catalog as it arrives: ERRBOOK_SEED_CATALOG, else `../shared/seed-catalog` beside
/// the repository.
fn seed_catalog() -> PathBuf {
    let dir = std::env::var_os("ERRBOOK_SEED_CATALOG")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("../shared/seed-catalog"));
    assert!(
        dir.is_dir(),
        "the seed catalog is not at {}: set ERRBOOK_SEED_CATALOG to the folder of the four .txt files",
        dir.display()
    );
    dir
}

#[test]
fn the_articles_are_the_seed_articles_byte_for_byte() {
    let mut n = 0;
    for f in std::fs::read_dir(seed_catalog()).unwrap() {
        let path = f.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let Some(id) = text.lines().find_map(|l| l.strip_prefix("id: \"")) else {
            continue;
        };
        let id = id.trim_end_matches('"');
        let ours =
            std::fs::read_to_string(repo().join(format!("content/articles/{id}.md"))).unwrap();
        assert!(
            ours == text,
            "content/articles/{id}.md differs from {}",
            path.display()
        );
        n += 1;
    }
    assert_eq!(n, 3, "the three seed articles");
}

fn claims(root: &std::path::Path, args: &[&str]) -> Value {
    let o = errbook()
        .arg("--root")
        .arg(root)
        .args(["claims", "--format", "json"])
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn every_example_of_the_seed_articles_has_its_reading() {
    let v = claims(&repo(), &["content/articles"]);
    let blocks = v["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), 9);
    let keys = [
        "page",
        "block",
        "line",
        "lang",
        "claim",
        "source",
        "error",
        "gpus",
        "continues",
        "runnable",
        "why_not",
        "evidence",
        "confidence",
        "verdicts",
    ];
    for b in blocks {
        let mut got: Vec<&str> = b.as_object().unwrap().keys().map(String::as_str).collect();
        let mut want = keys.to_vec();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want, "the shape other tools read");
        assert_eq!(b["source"], "inferred");
        assert_eq!(b["runnable"], true, "{b}");
    }
    let at = |page: &str, n: u64| {
        blocks
            .iter()
            .find(|b| b["page"] == format!("articles/{page}") && b["block"] == n)
            .unwrap()
            .clone()
    };
    let dl = "why-does-torchutilsdatadataloader-with-cuda-and-numworkers-";
    let one = at(dl, 1);
    assert_eq!(one["claim"], "fails");
    // The text names no error: the error of the entry the article is about (claims_entry.rs).
    let entry_error = serde_json::json!({
        "type": "RuntimeError", "match": "Cannot re-initialize CUDA in forked subprocess"
    });
    assert_eq!(one["error"], entry_error);
    assert!(one["evidence"].as_array().unwrap().iter().any(|e| e["text"]
        .as_str()
        .unwrap()
        .starts_with("the error of the entry it is about, pytorch/dataset-worker-fork-cuda")));
    assert_eq!(
        one["evidence"][0],
        serde_json::json!({"line": 16, "text": "The Problematic Approach"})
    );
    assert!(one["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["text"] == "likely fail" && e["line"] == 31));
    assert_eq!(one["gpus"], 1);
    let two = at(dl, 2);
    assert_eq!(
        (two["claim"].as_str(), two["continues"].clone()),
        (Some("runs"), serde_json::json!([1]))
    );
    assert_eq!(at(dl, 3)["continues"], serde_json::json!([1]));
    let dist = "why-am-i-getting-a-cuda-initialization-error";
    assert_eq!(at(dist, 1)["claim"], "fails");
    assert_eq!(at(dist, 1)["error"], entry_error);
    assert_eq!(at(dist, 2)["claim"], "runs");
    assert_eq!(
        at(dist, 1)["gpus"],
        2,
        "world_size = 2 with mp.spawn and NCCL"
    );
    assert_eq!(
        at("how-to-use-multiprocessing-with-shared-memory-and", 1)["claim"],
        "runs"
    );
}

#[test]
fn the_entry_s_workaround_blocks_repeat_the_prose_and_get_no_claim() {
    let e = claims(&repo(), &["content/errors"]);
    let prose = e["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["line"] == 53)
        .unwrap()
        .clone();
    assert_eq!(
        (prose["claim"].as_str(), prose["runnable"].as_bool()),
        (Some("none"), Some(false))
    );
    assert!(
        prose["why_not"].as_str().unwrap().starts_with("prose"),
        "{prose}"
    );
}

#[test]
fn human_output_names_claim_evidence_and_reasons() {
    let o = errbook()
        .arg("--root")
        .arg(repo())
        .args(["claims"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    assert!(
        out.contains(
            "block 1 (line 18, python): fails with RuntimeError \u{201c}Cannot re-initialize \
             CUDA in forked subprocess\u{201d} [inferred, confidence"
        ),
        "{out}"
    );
    assert!(
        out.contains("line 16: \u{201c}The Problematic Approach\u{201d}"),
        "{out}"
    );
    assert!(
        out.contains("runs after the definitions of block 1"),
        "{out}"
    );
    assert!(
        out.contains("not run: prose or pseudo-code, not Python"),
        "{out}"
    );
}

#[test]
fn write_declares_the_readings() {
    let t = tempfile::tempdir().unwrap();
    for part in ["content", "verify"] {
        copy_tree(&repo().join(part), &t.path().join(part));
    }
    std::fs::copy(repo().join("book.toml"), t.path().join("book.toml")).unwrap();
    let before = claims(t.path(), &[]);
    let o = errbook()
        .arg("--root")
        .arg(t.path())
        .args(["claims", "--write"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && out.contains("3 file(s) changed"),
        "{out}"
    );
    let dl = t
        .path()
        .join("content/articles/why-does-torchutilsdatadataloader-with-cuda-and-numworkers-.md");
    let text = std::fs::read_to_string(&dl).unwrap();
    assert!(
        text.contains(
            "```python run expect=RuntimeError match='Cannot re-initialize CUDA in forked \
             subprocess' gpus=1 needs=torch,numpy\n"
        ),
        "{text}"
    );
    let after = claims(t.path(), &[]);
    for (b, a) in before["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .zip(after["blocks"].as_array().unwrap())
    {
        assert_eq!(
            (&b["claim"], &b["continues"], &b["gpus"]),
            (&a["claim"], &a["continues"], &a["gpus"])
        );
        if b["source"] == "inferred" && b["runnable"] == true {
            assert_eq!(a["source"], "declared", "{a}");
        }
    }
}

/// An article in the seeds' layout whose one example is read as failing.
const READ_ARTICLE: &str = "---\ntitle: \"Why does indexing fail?\"\ndate: \"2025-01-30\"\nid: \"indexing\"\n---\nText.\n\n**Example 1: The Problematic Approach**\n\n```python\nitems = [1, 2]\nprint(items[1])\n```\n\nThis example is flawed.\n";

#[test]
fn a_reading_runs_once_and_an_edited_claim_is_judged_again_without_a_rerun() {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join("book.toml"), "[site]\ntitle = \"read\"\n").unwrap();
    std::fs::create_dir_all(t.path().join("content/articles")).unwrap();
    let article = t.path().join("content/articles/indexing.md");
    std::fs::write(&article, READ_ARTICLE).unwrap();
    let ran = crate::verify_support::verify(
        t.path(),
        None,
        &["--gpus", "none", "--allow-contradictions"],
    );
    assert!(ran.stdout.contains("article/indexing#snippet-1"), "{ran}");
    let v = claims(t.path(), &[]);
    assert_eq!(v["blocks"][0]["claim"], "fails");
    assert_eq!(
        v["blocks"][0]["verdicts"][0]["verdict"], "contradicted",
        "{v}"
    );
    // The author's prose now presents it as working: the same record confirms it, no rerun.
    replace_in(&article, "The Problematic Approach", "The Correct Approach");
    replace_in(
        &article,
        "This example is flawed.",
        "This example is correct.",
    );
    let v = claims(t.path(), &[]);
    assert_eq!(v["blocks"][0]["claim"], "runs", "{v}");
    assert_eq!(v["blocks"][0]["verdicts"][0]["verdict"], "confirmed", "{v}");
    let dry = crate::verify_support::verify(t.path(), None, &["--gpus", "none", "--dry-run"]);
    assert!(dry.stdout.contains("up to date"), "{dry}");
    // An edit of the code makes the record stale.
    replace_in(&article, "print(items[1])", "print(items[0])");
    let dry = crate::verify_support::verify(t.path(), None, &["--gpus", "none", "--dry-run"]);
    assert!(!dry.stdout.contains("up to date"), "{dry}");
}
