//! What the verify scenarios share: a fixture catalog copied with the repository's theme, fake
//! GPU machines (tests/fixtures/verify/bin/nvidia-smi with a gpus.json of their own, first on
//! PATH), `errbook verify` run on one of them, and the records and files it leaves.

use crate::common::copy_tree;
use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// tests/fixtures/verify/<name> with the repository's theme, in a temporary folder.
pub(crate) fn catalog(name: &str) -> tempfile::TempDir {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let t = tempfile::tempdir().unwrap();
    copy_tree(&repo.join("tests/fixtures/verify").join(name), t.path());
    copy_tree(&repo.join("themes"), &t.path().join("themes"));
    t
}

/// A fake machine: a folder holding the fake `nvidia-smi` and its gpus.json.
pub(crate) struct Machine {
    dir: tempfile::TempDir,
}

impl Machine {
    /// `count` GPUs named `model` with `memory_mib` each, and this driver and CUDA version.
    pub(crate) fn new(model: &str, count: usize, memory_mib: u64, driver: &str) -> Machine {
        let dir = tempfile::tempdir().unwrap();
        let fake =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/verify/bin/nvidia-smi");
        std::fs::copy(&fake, dir.path().join("nvidia-smi")).unwrap();
        let gpus: Vec<Value> = (0..count)
            .map(|_| serde_json::json!({"name": model, "memory_mib": memory_mib}))
            .collect();
        let cuda = if driver.starts_with("580") {
            "13.0"
        } else {
            "12.4"
        };
        let spec = serde_json::json!({"driver": driver, "cuda": cuda, "gpus": gpus});
        std::fs::write(dir.path().join("gpus.json"), spec.to_string()).unwrap();
        Machine { dir }
    }

    pub(crate) fn h100() -> Machine {
        Machine::new("NVIDIA H100 80GB HBM3", 1, 81_559, "550.54.15")
    }

    pub(crate) fn h200() -> Machine {
        Machine::new("NVIDIA H200", 1, 143_771, "580.159.04")
    }

    /// PATH with this machine's `nvidia-smi` first.
    pub(crate) fn path(&self) -> String {
        format!(
            "{}:{}",
            self.dir.path().display(),
            std::env::var("PATH").unwrap_or_default()
        )
    }
}

/// `errbook --root <root> verify <args>` on `machine` (None: this host, with no `nvidia-smi`
/// of the tests on PATH); stdout, stderr and the exit code.
pub(crate) fn verify(root: &Path, machine: Option<&Machine>, args: &[&str]) -> Ran {
    let mut c = Command::cargo_bin("errbook").unwrap();
    // Unsandboxed, so that these pass where bubblewrap is not installed (sandbox.rs tests it).
    c.arg("--root")
        .arg(root)
        .args(["verify", "--sandbox", "none"])
        .args(args);
    if let Some(m) = machine {
        c.env("PATH", m.path());
    }
    let o = c.output().unwrap();
    Ran {
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        code: o.status.code(),
    }
}

/// What a command printed and how it exited.
pub(crate) struct Ran {
    pub stdout: String,
    pub stderr: String,
    pub code: Option<i32>,
}

impl std::fmt::Display for Ran {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// Every file under `root/verify`, by path relative to `root`, with its bytes.
pub(crate) fn files(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(root.join("verify"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(root).unwrap().to_path_buf();
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

/// The records of snippet `id` (any page), each with its path relative to `root`.
pub(crate) fn runs_of(root: &Path, id: &str) -> Vec<(PathBuf, Value)> {
    files(root)
        .into_iter()
        .filter_map(|(p, bytes)| {
            let v: Value = serde_json::from_slice(&bytes).ok()?;
            (v["snippet"] == id).then_some((p, v))
        })
        .collect()
}

/// Build the site of `root` into `root/site`; returns that folder.
pub(crate) fn build(root: &Path) -> PathBuf {
    let out = root.join("site");
    let o = Command::cargo_bin("errbook")
        .unwrap()
        .arg("--root")
        .arg(root)
        .args(["build", "-d"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

/// Page text with tags dropped and whitespace squashed (what a reader reads).
pub(crate) fn text_of(html: &str) -> String {
    let tags = regex::Regex::new(r"<[^>]+>").unwrap();
    let t = tags.replace_all(html, " ");
    let numeric = regex::Regex::new(r"&#(\d+);").unwrap();
    let t = numeric.replace_all(&t, |c: &regex::Captures| {
        let n: u32 = c[1].parse().unwrap_or(0xfffd);
        char::from_u32(n).unwrap_or('\u{fffd}').to_string()
    });
    let t = t
        .replace("&amp;", "&")
        .replace("&#39;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">");
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The part of `html` from the element with `id` to the next one of `next_ids` (or the end).
pub(crate) fn section<'a>(html: &'a str, id: &str, next_ids: &[&str]) -> &'a str {
    let start = html
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}"));
    let after = start + 1;
    let end = next_ids
        .iter()
        .filter_map(|n| html[after..].find(&format!("id=\"{n}\"")))
        .min()
        .map_or(html.len(), |e| after + e);
    &html[start..end]
}
