//! The sandbox, attacked: snippets that connect to a local listener, write outside their work
//! folder, leave a double-forked `setsid` daemon, fork-bomb, allocate 10 GB, read variables that
//! look allowed, and print escape sequences (tests/fixtures/verify/escape). Each is contained
//! and gets a clear verdict. Then the CPU catalog gives the same verdicts sandboxed as not, and
//! the ways a sandbox is refused or turned off are told to the maintainer.
//!
//! The attacks need bubblewrap: they run where `bwrap` is on PATH and are skipped, saying so,
//! where it is not; CI installs it and sets ERRBOOK_TEST_SANDBOX=1, which makes it required.

use crate::runs::{errbook, fixture, gate, on_path, records, Records};
use std::io::Read;
use std::net::TcpListener;
use std::path::Path;
use std::sync::{Arc, Mutex};

fn sandbox_available() -> bool {
    gate(
        "ERRBOOK_TEST_SANDBOX",
        "bubblewrap (bwrap)",
        on_path("bwrap"),
    )
}

/// A listener on 127.0.0.1 that keeps what each connection sent.
fn listener() -> (u16, Arc<Mutex<Vec<String>>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let got = Arc::new(Mutex::new(Vec::new()));
    let keep = got.clone();
    std::thread::spawn(move || {
        for mut s in l.incoming().flatten() {
            let mut text = String::new();
            let _ = s.read_to_string(&mut text);
            keep.lock().unwrap().push(text);
        }
    });
    (port, got)
}

/// Processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if text.contains(marker) && !crate::runs::zombie(&e.path()) {
            found.push(format!("{}: {text}", e.file_name().to_string_lossy()));
        }
    }
    found
}

/// The escape catalog with this test's listener port, outside folder and nonce filled in.
fn escape_catalog(port: u16, outside: &Path, nonce: &str) -> tempfile::TempDir {
    let t = fixture("escape");
    let md = t.path().join("content/articles/escapes.md");
    let text = std::fs::read_to_string(&md).unwrap();
    let text = text
        .replace("@PORT@", &port.to_string())
        .replace("@OUTSIDE@", &outside.display().to_string())
        .replace("@NONCE@", nonce);
    std::fs::write(&md, text).unwrap();
    t
}

#[test]
fn every_escape_attempt_is_contained_with_a_clear_verdict() {
    if !sandbox_available() {
        return;
    }
    let (port, got) = listener();
    let outside = tempfile::tempdir().unwrap();
    let nonce = format!("{:08x}", fastrand::u32(..));
    let t = escape_catalog(port, outside.path(), &nonce);
    let secret = format!("hf_{nonce}_do_not_leak");
    let out = errbook(t.path())
        .args(["verify", "--gpus", "none", "--allow-contradictions"])
        .args([
            "--tasks-limit",
            "64",
            "--memory-limit",
            "512M",
            "--keep-env",
            "HF_TOKEN",
        ])
        .env("HF_TOKEN", &secret)
        .env("NCCL_SECRET_TOKEN", "nccl-secret-value")
        .env("TORCH_API_KEY", "torch-secret-value")
        .env("NVIDIA_TOKEN", "nvidia-secret-value")
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let r = records(t.path());
    let verdict = |id: &str| r[id].1["verdict"].as_str().unwrap().to_string();
    let log = |id: &str| r[id].1["log"].as_str().unwrap().to_string();

    // No network: refused, and the listener heard only the snippet that declared it.
    assert_eq!(verdict("connect"), "confirmed", "{}", log("connect"));
    assert_eq!(
        verdict("connect-declared"),
        "confirmed",
        "{}",
        log("connect-declared")
    );
    assert_eq!(*got.lock().unwrap(), vec!["declared".to_string()]);
    assert!(r["connect"].1["sandbox"]
        .as_str()
        .unwrap()
        .contains(": no network"));
    assert!(r["connect-declared"].1["sandbox"]
        .as_str()
        .unwrap()
        .contains(": network"));

    check_writes(&r, outside.path(), &nonce);

    // The daemon went with its run.
    assert_eq!(verdict("daemon"), "confirmed", "{}", log("daemon"));
    assert_eq!(
        processes_with(&format!("errbook-daemon-{nonce}")),
        Vec::<String>::new()
    );

    check_limits(&r);
    check_secrets(t.path(), &r, &secret, &stdout, &stderr);

    // Escape sequences: recorded as the run printed them, never printed to the terminal.
    assert_eq!(verdict("escapes"), "confirmed", "{}", log("escapes"));
    assert!(log("escapes").contains("\u{1b}[31mred text"));
    for text in [&stdout, &stderr] {
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}'),
            "{text:?}"
        );
    }
    assert!(stdout.contains("coloured bold") || stderr.contains("coloured bold"));
}

/// A fork bomb and 10 GB: stopped by their limits, and the verdict says so, never
/// "contradicted".
fn check_limits(r: &Records) {
    let bomb = &r["fork-bomb"].1;
    assert_eq!(bomb["verdict"], "stopped_by_limit", "{bomb}");
    assert!(bomb["finding"].as_str().unwrap().contains("tasks (64)"));
    let big = &r["allocate"].1;
    assert_eq!(big["verdict"], "stopped_by_limit", "{big}");
    assert!(big["finding"]
        .as_str()
        .unwrap()
        .contains("memory (512 MiB)"));
}

/// Nothing written outside the work folder reached the host.
fn check_writes(r: &Records, outside: &Path, nonce: &str) {
    let log = r["write-outside"].1["log"].as_str().unwrap();
    assert_eq!(r["write-outside"].1["verdict"], "confirmed", "{log}");
    assert!(
        log.contains("wrote escaped-here"),
        "the work folder is writable: {log}"
    );
    assert!(
        log.contains(&format!(
            "refused /etc/escaped-{nonce} Read-only file system"
        )),
        "{log}"
    );
    assert!(
        log.contains(&format!(
            "refused /usr/escaped-{nonce} Read-only file system"
        )),
        "{log}"
    );
    let home = std::env::var("HOME").unwrap_or_default();
    for p in [
        outside.join("escaped"),
        format!("/var/tmp/escaped-{nonce}").into(),
        format!("/etc/escaped-{nonce}").into(),
        format!("/usr/escaped-{nonce}").into(),
        Path::new(&home).join(format!("escaped-{nonce}")),
    ] {
        assert!(!p.exists(), "{} was written on the host", p.display());
    }
}

/// Only the named variable reached the run, and its value no record and no line printed.
fn check_secrets(root: &Path, r: &Records, secret: &str, stdout: &str, stderr: &str) {
    let rec = &r["secrets"].1;
    assert_eq!(rec["verdict"], "confirmed", "{}", rec["log"]);
    assert!(rec["log"]
        .as_str()
        .unwrap()
        .contains("token is [redacted $HF_TOKEN]"));
    for e in walkdir::WalkDir::new(root.join("verify"))
        .into_iter()
        .flatten()
    {
        if e.file_type().is_file() {
            let text = std::fs::read_to_string(e.path()).unwrap();
            for value in [
                secret,
                "nccl-secret-value",
                "torch-secret-value",
                "nvidia-secret-value",
            ] {
                assert!(!text.contains(value), "{value} in {}", e.path().display());
            }
        }
    }
    assert!(!stdout.contains(secret) && !stderr.contains(secret));
}

/// The verdict of every record, by snippet.
fn verdicts(r: &Records) -> Vec<(String, String)> {
    r.iter()
        .map(|(id, (_, v))| (id.clone(), v["verdict"].as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn the_cpu_catalog_gives_the_same_verdicts_sandboxed_as_not() {
    if !sandbox_available() {
        return;
    }
    let (boxed, open) = (fixture("cpu"), fixture("cpu"));
    for (t, sandbox) in [(&boxed, "bwrap"), (&open, "none")] {
        let out = errbook(t.path())
            .args([
                "verify",
                "--gpus",
                "none",
                "--allow-contradictions",
                "--sandbox",
                sandbox,
            ])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let (b, o) = (records(boxed.path()), records(open.path()));
    assert_eq!(verdicts(&b), verdicts(&o));
    assert_eq!(
        b.len(),
        13,
        "the GPU snippet is not run here, and nothing is written for it"
    );
    assert!(b["clean"].1["sandbox"]
        .as_str()
        .unwrap()
        .starts_with("bwrap "));
    assert_eq!(o["clean"].1["sandbox"], "none");
    assert_eq!(b["clean"].1["runner"], "local");
}

#[test]
fn no_sandbox_is_warned_about_and_a_missing_bubblewrap_is_a_clear_error() {
    let t = fixture("cpu");
    let empty = tempfile::tempdir().unwrap();
    let missing = errbook(t.path())
        .args(["verify", "--gpus", "none", "--only", "#clean"])
        .env("PATH", empty.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&missing.stderr);
    assert_eq!(missing.status.code(), Some(2), "{err}");
    assert!(
        err.contains("bubblewrap (`bwrap`) is not installed"),
        "{err}"
    );
    assert!(err.contains("apt-get install bubblewrap"), "{err}");
    assert!(
        records(t.path()).is_empty(),
        "nothing ran, nothing was written"
    );

    let named = errbook(t.path())
        .args(["verify", "--gpus", "none", "--bwrap", "/no/such/bwrap"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&named.stderr);
    assert!(
        err.contains("`/no/such/bwrap` is not an executable file"),
        "{err}"
    );

    let open = errbook(t.path())
        .args([
            "verify",
            "--gpus",
            "none",
            "--only",
            "#clean",
            "--sandbox",
            "none",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&open.stderr);
    assert_eq!(open.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: --sandbox none: snippets run unconfined"),
        "{err}"
    );
    assert_eq!(records(t.path())["clean"].1["sandbox"], "none");

    let pattern = errbook(t.path())
        .args(["verify", "--sandbox", "none", "--keep-env", "NCCL_*"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&pattern.stderr);
    assert!(err.contains("`NCCL_*` is not a variable name"), "{err}");
}

#[test]
fn a_sandbox_that_cannot_start_is_no_finding() {
    if !sandbox_available() {
        return;
    }
    let t = fixture("cpu");
    let md = t.path().join("content/articles/cpu-claims.md");
    let mut text = std::fs::read_to_string(&md).unwrap();
    text.push_str("\n```python run id=nowhere interpreter=/no/such/python\nprint(1)\n```\n");
    std::fs::write(&md, text).unwrap();
    let out = errbook(t.path())
        .args(["verify", "--gpus", "none", "--only", "#nowhere"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "not a contradiction: {err}");
    let r = records(t.path());
    let rec = &r["nowhere"].1;
    assert_eq!(rec["verdict"], "environment_error", "{rec}");
    let finding = rec["finding"].as_str().unwrap();
    assert!(
        finding.contains("bwrap: execvp /no/such/python"),
        "{finding}"
    );
}
