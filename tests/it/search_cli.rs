//! `errbook search` as users run it: a pasted traceback on stdin, typed keywords, a query that
//! matches nothing well (exit 1), JSON output; and the index files a build writes.

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::{Path, PathBuf};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/search")
}

fn errbook() -> Command {
    Command::cargo_bin("errbook").unwrap()
}

const TRACEBACK: &str = r#"Traceback (most recent call last):
  File "/home/me/proj/train.py", line 71, in <module>
    for i, (x, y) in enumerate(loader):
  File "/opt/conda/lib/python3.10/site-packages/torch/_utils.py", line 694, in reraise
    raise exception
RuntimeError: Caught RuntimeError in DataLoader worker process 3.
Original Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/_utils/worker.py", line 308, in _worker_loop
    data = fetcher.fetch(index)
  File "/home/me/proj/data.py", line 22, in __getitem__
    return torch.randn(3, device="cuda")
RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method
"#;

#[test]
fn pasted_traceback_on_stdin_finds_the_entry() {
    errbook()
        .args(["search", "-", "--root"])
        .arg(fixture())
        .write_stdin(TRACEBACK)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Detected: RuntimeError: Cannot re-initialize CUDA in forked subprocess.",
        ))
        .stdout(
            predicate::str::is_match(
                r"(?m)^ 1\. pytorch/dataset-worker-fork-cuda  score [01]\.\d\d$",
            )
            .unwrap(),
        )
        .stdout(predicate::str::contains(
            "https://errbook.example.org/errors/pytorch/dataset-worker-fork-cuda/",
        ));
}

#[test]
fn typed_keywords_with_a_typo() {
    errbook()
        .args(["search", "mat1 mat2 shapes multipled", "-n", "2", "--root"])
        .arg(fixture())
        .assert()
        .success()
        .stdout(predicate::str::is_match(r"(?m)^ 1\. pytorch/shape-mismatch ").unwrap())
        .stdout(predicate::str::contains(" 3. ").not());
}

#[test]
fn nothing_good_exits_1_and_says_weak() {
    errbook()
        .args([
            "search",
            "ImportError: libGL.so.1: cannot open shared object file",
            "--root",
        ])
        .arg(fixture())
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("Only weak matches")
                .or(predicate::str::contains("No entry matches")),
        );
    errbook()
        .args(["search", "zzzz qqqq", "--root"])
        .arg(fixture())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("No entry matches."));
}

#[test]
fn json_output() {
    let out = errbook()
        .args([
            "search",
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB",
            "--json",
            "--root",
        ])
        .arg(fixture())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["results"][0]["id"], "pytorch/cuda-oom");
    assert_eq!(v["detected"]["exception"], "OutOfMemoryError");
    assert_eq!(v["weak"], false);
    assert!(v["results"][0]["url"]
        .as_str()
        .unwrap()
        .ends_with("/errors/pytorch/cuda-oom/"));
}

/// The fixture catalog with the repository's theme, in a temporary folder (builds need a theme).
pub(crate) fn site_copy(dir: &Path) -> PathBuf {
    let site = dir.join("site");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (from, to) in [
        (fixture(), site.clone()),
        (repo.join("themes"), site.join("themes")),
    ] {
        crate::common::copy_tree(&from, &to);
    }
    site
}

#[test]
fn build_writes_the_index_hosted_and_offline() {
    let dir = tempfile::tempdir().unwrap();
    let site = site_copy(dir.path());
    let hosted = dir.path().join("hosted");
    let offline = dir.path().join("offline");
    errbook()
        .args(["build", "-d"])
        .arg(&hosted)
        .arg("--root")
        .arg(&site)
        .assert()
        .success();
    errbook()
        .args(["build", "--offline", "-d"])
        .arg(&offline)
        .arg("--root")
        .arg(&site)
        .assert()
        .success();
    // Hosted: JSON shards under search/, the manifest naming the catalog's 18 entries.
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(hosted.join("search/m.json")).unwrap())
            .unwrap();
    assert_eq!(m["n"], 18);
    assert_eq!(m["v"], 7);
    let runs = m["t"].as_array().unwrap();
    assert!(!runs.is_empty());
    for r in runs {
        let name = r[0].as_str().unwrap();
        assert!(
            hosted.join(format!("search/t/{name}.json")).is_file(),
            "{name}"
        );
    }
    let docs: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(hosted.join("search/d/0.json")).unwrap())
            .unwrap();
    let per = m["docs"].as_u64().unwrap() as usize;
    assert_eq!(docs.len(), per.min(18));
    let all: Vec<serde_json::Value> = (0..18usize.div_ceil(per))
        .flat_map(|k| {
            let p = hosted.join(format!("search/d/{k}.json"));
            serde_json::from_str::<Vec<serde_json::Value>>(&std::fs::read_to_string(p).unwrap())
                .unwrap()
        })
        .collect();
    assert_eq!(all.len(), 18);
    assert!(
        all.iter()
            .any(|d| d[0] == "pytorch/dataset-worker-fork-cuda"
                && !d[2].as_array().unwrap().is_empty()),
        "the seed entry links to the articles that discuss it"
    );
    let hosted_files = crate::common::files(&hosted.join("search"));
    assert!(
        hosted_files
            .iter()
            .all(|f| f == "index.html" || f.ends_with(".json")),
        "{hosted_files:?}"
    );
    offline_shards_hold_the_hosted_json(&hosted, &offline, hosted_files.len());
    let page = std::fs::read_to_string(offline.join("search/index.html")).unwrap();
    assert!(page.contains("data-offline=\"true\""));
}

/// Offline: the same shards as the hosted build's, as scripts that hand their JSON, in a
/// string, to errbookShard.
fn offline_shards_hold_the_hosted_json(
    hosted: &std::path::Path,
    offline: &std::path::Path,
    hosted_count: usize,
) {
    let offline_files = crate::common::files(&offline.join("search"));
    assert_eq!(offline_files.len(), hosted_count);
    for f in &offline_files {
        if f == "index.html" {
            continue;
        }
        let name = f
            .strip_suffix(".js")
            .unwrap_or_else(|| panic!("{f} is not a script"));
        let js = std::fs::read_to_string(offline.join("search").join(f)).unwrap();
        assert!(
            js.starts_with(&format!("errbookShard(\"{name}\",")),
            "{f}: {js:.60}"
        );
        let json = std::fs::read_to_string(hosted.join(format!("search/{name}.json"))).unwrap();
        let inside = js
            .strip_prefix(&format!("errbookShard(\"{name}\",'"))
            .and_then(|r| r.strip_suffix("');\n"))
            .unwrap_or_else(|| panic!("{f}: {js:.60}"));
        assert_eq!(unquote(inside), json, "{f}");
    }
}

/// The inside of a single-quoted JavaScript string literal as the engine reads it (the escapes
/// shards.rs writes: a backslash, a quote, a line break, \uXXXX); a quote left bare fails.
fn unquote(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        assert_ne!(c, '\'', "a bare quote ends the string early: {s:.80}");
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                let code = u32::from_str_radix(&hex, 16).expect("\\u and four hex digits");
                out.push(char::from_u32(code).expect("a character"));
            }
            Some(x) => out.push(x),
            None => panic!("a backslash ends the string: {s:.80}"),
        }
    }
    out
}
