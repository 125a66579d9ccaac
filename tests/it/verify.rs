//! `errbook verify` driven as users run it, on CPU-only fixture catalogs under
//! tests/fixtures/verify/: every verdict, a child that dies while the parent exits 0, a
//! continuation chain, a time-out that kills the whole process group, an output flood, packing
//! onto GPUs, and a changed snippet whose record goes stale. These run unsandboxed
//! (`--sandbox none`), so that they pass where bubblewrap is not installed; `sandbox.rs` runs
//! the same catalog in the sandbox.

use crate::runs::{alive, errbook, fixture, records, Records};
use serde_json::Value;
use std::path::PathBuf;

#[test]
fn every_verdict_from_cpu_snippets() {
    let t = fixture("cpu");
    let out = errbook(t.path())
        .args(["verify", "--sandbox", "none", "--gpus", "none"])
        .env("ERRBOOK_TEST_SECRET", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "contradictions exit 1\n{stdout}\n{stderr}"
    );
    assert!(stderr.contains("claim(s) contradicted"), "{stderr}");
    // The summary table names each snippet with its verdict.
    for (verdict, id) in [
        ("confirmed", "#clean"),
        ("contradicted", "#claims-failure"),
        ("different_error", "#other-error"),
        ("timed_out", "#sleeper"),
        ("skipped", "#needs-gpu"),
    ] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(verdict) && l.contains(id)),
            "{verdict} {id} in\n{stdout}"
        );
    }
    assert!(
        stdout.contains(
            "verify: 7 confirmed, 4 contradicted, 1 different error, 1 skipped, 1 timed out"
        ),
        "{stdout}"
    );

    // A host without GPUs runs none of the GPU code, writes nothing for it, and says why.
    assert!(
        stdout.contains("cpu-claims#needs-gpu: not run here: needs 1 GPU, host has 0"),
        "{stdout}"
    );
    assert!(
        stderr.contains("skip   article/cpu-claims#needs-gpu: needs 1 GPU, host has 0"),
        "{stderr}"
    );
    let r = records(t.path());
    assert!(
        !r.contains_key("needs-gpu"),
        "no record for what did not run"
    );
    check_claims(&r);
    check_children(&r);
    check_limits(&r);

    // Nothing runs again: every hash is recorded for this environment.
    let again = errbook(t.path())
        .args([
            "verify",
            "--sandbox",
            "none",
            "--gpus",
            "none",
            "--allow-contradictions",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&again.stderr);
    assert_eq!(again.status.code(), Some(0), "{err}");
    assert!(err.contains("0 to run, 13 up to date, 1 to skip"), "{err}");
    // And check says only that the GPU code was never run.
    let check = errbook(t.path()).arg("check").output().unwrap();
    let cerr = String::from_utf8_lossy(&check.stderr);
    let warnings: Vec<&str> = cerr.lines().filter(|l| l.contains("W-verify")).collect();
    assert_eq!(warnings.len(), 1, "{cerr}");
    assert!(
        cerr.contains("runnable code block `needs-gpu` has no verification record"),
        "{cerr}"
    );
}

/// Each claim's verdict, with the exception and exit status it rests on.
fn check_claims(r: &Records) {
    let verdict = |id: &str| r[id].1["verdict"].as_str().unwrap().to_string();
    assert_eq!(
        verdict("clean"),
        "confirmed",
        "declared variable set, errbook's own not passed: {}",
        r["clean"].1["log"]
    );
    assert_eq!(verdict("raises"), "confirmed");
    assert_eq!(r["raises"].1["exception"], "ValueError");
    assert_eq!(r["raises"].1["message"], "a bad value was given");
    assert_eq!(r["raises"].1["exit_status"], 1);
    assert_eq!(verdict("claims-failure"), "contradicted");
    assert_eq!(verdict("claims-clean"), "contradicted");
    assert_eq!(r["claims-clean"].1["exception"], "KeyError");
    assert_eq!(verdict("other-error"), "different_error");
    assert_eq!(r["other-error"].1["exception"], "TypeError");

    // The original error inside a wrapper confirms the claim.
    let w = &r["wrapped"].1;
    assert_eq!(w["verdict"], "confirmed");
    assert!(w["message"]
        .as_str()
        .unwrap()
        .starts_with("Caught RuntimeError in DataLoader worker process 0."));
    assert!(w["wrapped"][0]["message"]
        .as_str()
        .unwrap()
        .starts_with("Cannot re-initialize CUDA"));

    // The continuation chain ran as one program.
    assert_eq!(r["end"].1["verdict"], "confirmed");
    assert_eq!(
        r["end"].1["chain"],
        serde_json::json!(["base", "middle", "end"])
    );
    assert!(r["end"].1["log"].as_str().unwrap().contains("y is 42"));
}

/// Crashed child processes make a run that exits 0 contradict "runs cleanly".
fn check_children(r: &Records) {
    // The parent exits 0, its child's traceback makes the claim "runs cleanly" false.
    let child = &r["dying-child"].1;
    assert_eq!(child["verdict"], "contradicted");
    assert_eq!(child["exit_status"], 0);
    assert_eq!(child["children"][0]["exception"], "ZeroDivisionError");
    assert_eq!(child["children"][0]["message"], "worker gave up");
    assert_eq!(child["children"][0]["origin"], "Process-1");

    // Workers dying at once: every one is found, however their outputs interleave.
    let many = &r["dying-children"].1;
    assert_eq!(many["verdict"], "contradicted");
    assert_eq!(many["exit_status"], 0);
    let kids = many["children"].as_array().unwrap();
    assert_eq!(kids.len(), 4, "{}", many["log"]);
    assert!(
        kids.iter().all(|k| k["exception"] == "ZeroDivisionError"),
        "{}",
        many["log"]
    );
    assert_eq!(
        many["exception"],
        serde_json::Value::Null,
        "{}",
        many["log"]
    );
}

/// Limits: a time-out kills the whole group, a flood of output is counted and capped.
fn check_limits(r: &Records) {
    // Time-out: the whole group is killed, the sleeping grandchild too.
    let s = &r["sleeper"].1;
    assert_eq!(s["verdict"], "timed_out");
    assert_eq!(s["timed_out"], true);
    // 5 s of time-out: a loaded machine can take 2 s to start Python and print the pid.
    assert!(s["duration_s"].as_f64().unwrap() < 15.0);
    let log = s["log"].as_str().unwrap();
    let pid: u32 = log
        .lines()
        .find_map(|l| l.strip_prefix("grandchild "))
        .unwrap_or_else(|| panic!("no pid in {log:?}"))
        .trim()
        .parse()
        .unwrap();
    assert!(!alive(pid), "grandchild {pid} survived the time-out");

    // 20 MB of output: counted, the log keeps head and tail only.
    let f = &r["flood"].1;
    assert_eq!(f["verdict"], "confirmed");
    assert_eq!(f["output_bytes"], 200_000 * 100 + 8);
    let log = f["log"].as_str().unwrap();
    assert!(log.len() < 40_000, "log is capped: {}", log.len());
    assert!(log.contains("bytes of output left out"));
    assert!(log.trim_end().ends_with("the end"));
}

#[test]
fn a_changed_snippet_makes_its_record_stale() {
    let t = fixture("cpu");
    let check = errbook(t.path()).arg("check").output().unwrap();
    let cerr = String::from_utf8_lossy(&check.stderr);
    assert!(
        cerr.contains("runnable code block `base` has no verification record"),
        "{cerr}"
    );

    errbook(t.path())
        .args(["verify", "--sandbox", "none", "--only", "#base"])
        .assert()
        .success();
    let first = records(t.path());
    assert_eq!(first.len(), 1);
    let check = errbook(t.path()).arg("check").output().unwrap();
    let cerr = String::from_utf8_lossy(&check.stderr);
    assert!(
        !cerr.contains("`base` has no verification record"),
        "{cerr}"
    );
    assert!(!cerr.contains("W-verify-stale"), "{cerr}");

    // Edit the snippet: its hash changes, the record is stale, and check says where.
    let md = t.path().join("content/articles/cpu-claims.md");
    let text = std::fs::read_to_string(&md).unwrap();
    std::fs::write(&md, text.replace("x = 41\n", "x = 40\n")).unwrap();
    let check = errbook(t.path()).arg("check").output().unwrap();
    let cerr = String::from_utf8_lossy(&check.stderr);
    assert!(cerr.contains("W-verify-stale"), "{cerr}");
    assert!(
        cerr.contains("code block `base` changed since it was verified (confirmed on"),
        "{cerr}"
    );
    assert!(
        cerr.contains("cpu-claims.md:86"),
        "located at the fence: {cerr}"
    );

    // Verifying again replaces the stale record (one file per snippet position remains).
    errbook(t.path())
        .args(["verify", "--sandbox", "none", "--only", "#base"])
        .assert()
        .success();
    let second = records(t.path());
    assert_eq!(second.len(), 1);
    assert_ne!(first["base"].1["hash"], second["base"].1["hash"]);
    assert_ne!(first["base"].0, second["base"].0);
}

#[test]
fn independent_runs_are_packed_onto_all_gpus() {
    let t = fixture("packing");
    let report = t.path().join("report.json");
    let out = errbook(t.path())
        .args(["verify", "--sandbox", "none", "--gpus", "0,1", "--report"])
        .arg(&report)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let r = records(t.path());
    let used = |id: &str| r[id].1["gpus_used"].clone();
    assert_eq!(used("both"), serde_json::json!([0, 1]));
    assert!(r["both"].1["log"].as_str().unwrap().contains("visible 0,1"));
    let (a, b) = (used("a"), used("b"));
    assert_ne!(a, b, "the two one-GPU runs got different GPUs");
    for id in ["a", "b"] {
        let g = r[id].1["gpus_used"][0].as_u64().unwrap();
        assert!(r[id].1["log"]
            .as_str()
            .unwrap()
            .contains(&format!("visible {g}")));
    }
    assert!(
        !r.contains_key("too-many"),
        "nothing written for what did not run"
    );
    assert!(
        err.contains("skip   article/two-gpus#too-many: needs 3 GPUs, host has 2"),
        "{err}"
    );
    // a and b ran at the same time.
    let rep: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let slot = |id: &str| {
        rep["timeline"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["snippet"].as_str().unwrap().ends_with(&format!("#{id}")))
            .cloned()
            .unwrap()
    };
    let (sa, sb) = (slot("a"), slot("b"));
    let f = |v: &Value, k: &str| v[k].as_f64().unwrap();
    assert!(
        f(&sa, "start_s") < f(&sb, "end_s") && f(&sb, "start_s") < f(&sa, "end_s"),
        "one-GPU runs overlap: {sa} {sb}"
    );
}

#[test]
fn stray_json_files_beside_the_records_are_left_alone() {
    // Files in a snippet's records folder whose names are not `<snippet>.<hash>.json`: writing
    // the snippet's new record (which removes the older records of its position) neither panics
    // on them nor takes them for records of the snippet.
    let t = fixture("cpu");
    let dir = t.path().join("verify/articles/cpu-claims");
    std::fs::create_dir_all(&dir).unwrap();
    let odd_folder = dir.join("clean.notahash");
    std::fs::create_dir_all(&odd_folder).unwrap();
    let stray = [
        (
            dir.join("clean.json"),
            "{\"note\": \"not a record of clean\"}\n",
        ),
        (dir.join(".json"), "not even JSON\n"),
        (odd_folder.join("x.json"), "{}\n"),
    ];
    for (path, text) in &stray {
        std::fs::write(path, text).unwrap();
    }
    let out = errbook(t.path())
        .args([
            "verify",
            "--sandbox",
            "none",
            "--gpus",
            "none",
            "--only",
            "#clean",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("1 to run"), "{err}");
    for (path, text) in &stray {
        assert_eq!(
            std::fs::read_to_string(path).unwrap(),
            *text,
            "{} left as it was",
            path.display()
        );
    }
    // The run's own record was written beside them, in a folder of its snippet and hash.
    let written: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("clean.") && n != "clean.json" && n != "clean.notahash")
        .collect();
    assert_eq!(written.len(), 1, "{written:?}");
    let runs: Vec<PathBuf> = std::fs::read_dir(dir.join(&written[0]))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(runs.len(), 1, "one environment: {runs:?}");
    let rec: Value = serde_json::from_str(&std::fs::read_to_string(&runs[0]).unwrap()).unwrap();
    assert_eq!(rec["snippet"], "clean");
    assert_eq!(rec["verdict"], "confirmed");
}

#[test]
fn a_forced_run_on_a_host_without_the_gpus_keeps_the_real_records() {
    // DESIGN: a host that cannot run a snippet writes no record over a real one.
    let t = fixture("packing");
    errbook(t.path())
        .args([
            "verify",
            "--sandbox",
            "none",
            "--gpus",
            "0,1",
            "--only",
            "#both",
        ])
        .assert()
        .success();
    let before = records(t.path());
    assert_eq!(before["both"].1["verdict"], "confirmed");
    let out = errbook(t.path())
        .args([
            "verify",
            "--sandbox",
            "none",
            "--gpus",
            "none",
            "--force",
            "--only",
            "#both",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("0 to run, 0 up to date, 1 to skip"), "{err}");
    assert!(err.contains("needs 2 GPUs, host has 0"), "{err}");
    assert_eq!(records(t.path()), before, "the real record stays as it was");
}

#[test]
fn ctrl_c_stops_the_runs_in_flight_and_writes_no_record_for_them() {
    let t = fixture("queue");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("errbook"))
        .arg("--root")
        .arg(t.path())
        .args(["verify", "--sandbox", "none", "--gpus", "0"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = String::new();
    let mut buf = [0u8; 1024];
    while !err.contains("start  article/queue#waits") {
        let n = std::io::Read::read(child.stderr.as_mut().unwrap(), &mut buf).unwrap();
        assert!(n > 0, "{err}");
        err.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    // SAFETY: SIGINT to the errbook this test started, as Ctrl-C sends.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let err = format!("{err}{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("verify: cancelled"), "{err}");
    assert!(records(t.path()).is_empty(), "{err}");
}
