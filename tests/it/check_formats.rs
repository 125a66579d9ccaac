//! `check --format json|github` and `--strict`: what CI and pull-request bots read.

use crate::common::errbook;
use std::path::{Path, PathBuf};

fn bad() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bad/id-chars-entry")
}

#[test]
fn json_lists_every_diagnostic_with_its_location() {
    let o = errbook()
        .arg("--root")
        .arg(bad())
        .args(["check", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["errors"], 1);
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "E-id-chars");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["path"], "content/errors/demo/Bad_Name.md");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(3), Some(12))
    );
    assert!(d["hint"].as_str().unwrap().contains("demo/bad_name"));
}

#[test]
fn github_format_annotates_the_file_and_line() {
    let o = errbook()
        .arg("--root")
        .arg(bad())
        .args(["check", "--format", "github"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with("::error file=content/errors/demo/Bad_Name.md,line=3,col=12,title=E-id-chars::invalid error ID"),
        "{out}"
    );
    // One error; the good entry's workaround code, read as working, has no record yet.
    assert_eq!(
        out.lines().filter(|l| l.starts_with("::error")).count(),
        1,
        "{out}"
    );
}

#[test]
fn strict_fails_on_warnings() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cat");
    crate::common::init(&dir);
    // A new catalog comes with its runs' records; without them its runnable blocks are warnings.
    std::fs::remove_dir_all(dir.join("verify")).unwrap();
    let plain = errbook()
        .arg("--root")
        .arg(&dir)
        .arg("check")
        .output()
        .unwrap();
    assert_eq!(plain.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&plain.stderr).contains("W-verify-missing"));
    let strict = errbook()
        .arg("--root")
        .arg(&dir)
        .args(["check", "--strict", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&strict.stdout).unwrap();
    assert_eq!(
        (v["ok"].as_bool(), v["errors"].as_u64()),
        (Some(false), Some(0))
    );
}
