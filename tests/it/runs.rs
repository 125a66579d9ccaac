//! Helpers of the `verify` scenarios (verify, sandbox, ssh, slurm): a fixture catalog copied
//! into a temporary folder, the records a session wrote, whether a process is alive, and the
//! gates of the tests that need bubblewrap, sshd or Slurm.

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Records by snippet id: the file and its JSON.
pub(crate) type Records = BTreeMap<String, (PathBuf, Value)>;

pub(crate) fn fixture(name: &str) -> tempfile::TempDir {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/verify")
        .join(name);
    let t = tempfile::tempdir().unwrap();
    crate::common::copy_tree(&from, t.path());
    t
}

pub(crate) fn errbook(root: &Path) -> Command {
    let mut c = Command::cargo_bin("errbook").unwrap();
    c.arg("--root").arg(root);
    c
}

/// Records by snippet id.
pub(crate) fn records(root: &Path) -> Records {
    let mut out = BTreeMap::new();
    for e in walkdir::WalkDir::new(root.join("verify"))
        .into_iter()
        .filter_map(Result::ok)
    {
        if e.path().extension().is_some_and(|x| x == "json") {
            let v: Value =
                serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap();
            let id = v["snippet"].as_str().unwrap().to_string();
            assert!(
                out.insert(id.clone(), (e.path().to_path_buf(), v))
                    .is_none(),
                "two records for {id}"
            );
        }
    }
    out
}

pub(crate) fn alive(pid: u32) -> bool {
    let dir = PathBuf::from(format!("/proc/{pid}"));
    dir.exists() && !zombie(&dir)
}

/// A zombie (reparented, not yet reaped) counts as gone: it runs nothing.
pub(crate) fn zombie(proc_dir: &Path) -> bool {
    std::fs::read_to_string(proc_dir.join("stat")).is_ok_and(|s| {
        s.rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

pub(crate) use crate::common::{gate, on_path};

/// `errbook verify` of the catalog at `root` on `runner`, CPU only, sandboxed as `sandbox()`
/// says, contradictions allowed; it must succeed. Its stderr.
pub(crate) fn verify_on(root: &Path, runner: &str) -> String {
    let out = errbook(root)
        .args(["verify", "--gpus", "none", "--allow-contradictions"])
        .args(["--sandbox", sandbox(), "--runner", runner])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{runner}: {err}");
    err
}

/// Runs are sandboxed where bubblewrap is installed, else not: what a test comparing runners
/// passes to every runner alike.
pub(crate) fn sandbox() -> &'static str {
    if on_path("bwrap") {
        "bwrap"
    } else {
        "none"
    }
}

/// A record without what differs from run to run: when, how long, where, the log (which holds
/// paths and process ids) and the tracebacks' paths. Child processes that crash together do so
/// in any order, their outputs interleaved: their errors and their names are compared as two
/// sorted lists, and the finding that names the first is left out.
pub(crate) fn comparable(v: &Value) -> Value {
    let mut v = v.clone();
    let o = v.as_object_mut().unwrap();
    for k in ["date", "duration_s", "runner", "log", "output_bytes"] {
        o.remove(k);
    }
    for k in ["wrapped", "children"] {
        for e in o[k].as_array_mut().unwrap() {
            e.as_object_mut().unwrap().remove("traceback");
        }
    }
    let children = o["children"].as_array().unwrap().clone();
    let mut names: Vec<Value> = children.iter().map(|c| c["origin"].clone()).collect();
    let mut errors: Vec<Value> = children
        .iter()
        .map(|c| serde_json::json!([c["exception"], c["message"]]))
        .collect();
    names.sort_by_key(|n| n.to_string());
    errors.sort_by_key(|e| e.to_string());
    o.insert(
        "children".into(),
        serde_json::json!({"names": names, "errors": errors}),
    );
    if children.len() > 1 {
        o.remove("finding");
    }
    v
}

pub(crate) fn same_records(a: &Records, b: &Records) {
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (id, (_, ra)) in a {
        assert_eq!(comparable(ra), comparable(&b[id].1), "record of {id}");
    }
}
