//! Precision and recall of link inference on tests/fixtures/links/, against the answer key in
//! tests/fixtures/links/answers.toml. Drives `errbook build` and reads `api/links.json`, the
//! graph the site shows. Fails below precision 0.9 or recall 0.8.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// Copy the fixture and the repository's theme into a temp root (the fixture has no theme).
fn fixture_root() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let repo = crate::common::repo();
    for (from, to) in [
        (repo.join("tests/fixtures/links"), tmp.path().to_path_buf()),
        (repo.join("themes"), tmp.path().join("themes")),
    ] {
        for e in walkdir::WalkDir::new(&from)
            .into_iter()
            .filter_map(Result::ok)
        {
            let rel = e.path().strip_prefix(&from).unwrap();
            let dest = to.join(rel);
            if e.file_type().is_dir() {
                std::fs::create_dir_all(&dest).unwrap();
            } else {
                std::fs::copy(e.path(), &dest).unwrap();
            }
        }
    }
    tmp
}

fn node(v: &Value) -> String {
    let s = |k: &str| v[k].as_str().unwrap_or("?").to_string();
    match v["type"].as_str().unwrap_or("") {
        "entry" | "article" => s("id"),
        "workaround" => format!("{}#workaround-{}", s("entry"), v["number"]),
        "dead_end" => format!("{}#dead-end-{}", s("entry"), v["number"]),
        "snippet" => format!(
            "{}/snippet-{}",
            v["page"]["id"].as_str().unwrap_or("?"),
            v["index"].as_u64().unwrap_or(0) + 1
        ),
        other => format!("?{other}"),
    }
}

fn key(l: &Value) -> String {
    let (a, b) = (node(&l["from"]), node(&l["to"]));
    match l["kind"].as_str().unwrap_or("") {
        "related" => {
            let (x, y) = if a < b { (a, b) } else { (b, a) };
            format!("related {x} <-> {y}")
        }
        k => format!("{k} {a} -> {b}"),
    }
}

fn answers() -> BTreeSet<String> {
    let text =
        std::fs::read_to_string(crate::common::repo().join("tests/fixtures/links/answers.toml"))
            .unwrap();
    let v: toml::Value = toml::from_str(&text).unwrap();
    v["true_links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

fn inferred(root: &Path) -> (BTreeSet<String>, Value) {
    let (_tmp, out) = crate::common::build(root, &[]);
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("api/links.json")).unwrap())
            .unwrap();
    let links = json["links"].as_array().unwrap();
    let got = links
        .iter()
        .filter(|l| l["origin"] == "inferred")
        .map(key)
        .collect();
    (got, json)
}

#[test]
fn inference_precision_and_recall() {
    let root = fixture_root();
    let truth = answers();
    let (got, json) = inferred(root.path());
    let tp: Vec<&String> = got.intersection(&truth).collect();
    let fp: Vec<&String> = got.difference(&truth).collect();
    let missed: Vec<&String> = truth.difference(&got).collect();
    let precision = tp.len() as f64 / got.len().max(1) as f64;
    let recall = tp.len() as f64 / truth.len() as f64;
    eprintln!(
        "link inference: precision {precision:.2} ({} of {} inferred), recall {recall:.2} ({} of {} true)\nfalse: {fp:#?}\nmissed: {missed:#?}",
        tp.len(),
        got.len(),
        tp.len(),
        truth.len()
    );
    assert!(
        precision >= 0.9,
        "precision {precision:.2} < 0.9; false links: {fp:#?}"
    );
    assert!(
        recall >= 0.8,
        "recall {recall:.2} < 0.8; missed: {missed:#?}"
    );
    // Every inferred link says why.
    for l in json["links"].as_array().unwrap() {
        if l["origin"] == "inferred" {
            let ev = l["evidence"].as_array().unwrap();
            assert!(!ev.is_empty(), "no evidence: {}", key(l));
            assert!(ev[0]["excerpt"].as_str().is_some_and(|s| !s.is_empty()));
        }
    }
}

#[test]
fn the_traps_stay_out() {
    let root = fixture_root();
    let (got, _) = inferred(root.path());
    for trap in [
        "discusses oom-guide -> pytorch/cuda-fork-reinit",
        "dead_end oom-guide/snippet-1 -> pytorch/cuda-fork-reinit#dead-end-1",
        "discusses device-mismatch -> pytorch/device-mismatch-index-select",
        "discusses embedding-index-device -> pytorch/device-mismatch",
        "discusses illegal-memory-access -> pytorch/illegal-instruction",
        "discusses cuda-setup -> pytorch/cuda-fork-reinit",
        "discusses spawn-basics -> pytorch/cuda-fork-reinit",
        "related pytorch/cuda-oom <-> pytorch/dataloader-killed",
    ] {
        assert!(!got.contains(trap), "inferred a false link: {trap}");
    }
    assert!(
        !got.iter()
            .any(|k| k.starts_with("applies fork-cuda-dataloader/snippet-2 ")),
        "the failing setup (Example 1) was linked as applying a workaround: {got:#?}"
    );
}

#[test]
fn authors_reject_and_confirm_in_front_matter() {
    let root = fixture_root();
    let art = root.path().join("content/articles/oom-guide.md");
    crate::common::replace_in(
        &art,
        "id: \"oom-guide\"\n",
        "id: \"oom-guide\"\nlinks:\n  reject: [\"snippet-2 -> pytorch/cuda-oom#workaround-2\"]\n  confirm: [pytorch/cuda-fork-reinit]\n",
    );
    let (got, json) = inferred(root.path());
    assert!(!got.contains("applies oom-guide/snippet-2 -> pytorch/cuda-oom#workaround-2"));
    assert!(got.contains("applies oom-guide/snippet-1 -> pytorch/cuda-oom#workaround-1"));
    let confirmed: Vec<String> = json["links"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["origin"] == "confirmed")
        .map(key)
        .collect();
    assert_eq!(
        confirmed,
        vec!["discusses oom-guide -> pytorch/cuda-fork-reinit".to_string()]
    );

    // check --links shows the rejected candidate and the evidence of the kept ones.
    let o = crate::common::errbook()
        .arg("--root")
        .arg(root.path())
        .args(["check", "--links", "content/articles/oom-guide.md"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("snippet-2 (line 19, \u{201c}Example 2: Checkpoint the blocks\u{201d}) applies pytorch/cuda-oom#workaround-2")
            && out.contains("rejected by the author"),
        "{out}"
    );
    assert!(
        out.contains("setting `batch_size=16`")
            && out.contains("line 14: loader = DataLoader(dataset, batch_size=16, num_workers=0)"),
        "{out}"
    );
    assert!(
        out.contains("message headline in prose, mentioned in passing"),
        "{out}"
    );
}
