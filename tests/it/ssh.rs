//! `--runner ssh://...` against a real sshd on 127.0.0.1 (scripts/services/sshd.sh, which
//! prints the ERRBOOK_TEST_SSH_CONFIG these tests need; skipped without it, required in CI):
//! the CPU catalog gives the records the local runner gives, and a host that drops mid-run keeps
//! its finished records while its unfinished run moves to the other host.

use crate::runs::{fixture, gate, records, same_records, sandbox, verify_on};
use std::path::Path;
use std::time::{Duration, Instant};

/// The ssh client configuration of the test sshd, when the tests run.
fn ssh_config() -> Option<String> {
    let config = std::env::var("ERRBOOK_TEST_SSH_CONFIG").ok();
    let up = config.as_ref().is_some_and(|c| Path::new(c).is_file());
    gate(
        "ERRBOOK_TEST_SSH_CONFIG",
        "the test sshd (scripts/services/sshd.sh)",
        up,
    )
    .then(|| config.unwrap_or_default())
}

/// Point the catalog at the test sshd, with errbook copied into `remote`.
fn configure(root: &Path, config: &str, remote: &Path) {
    let book = root.join("book.toml");
    let mut text = std::fs::read_to_string(&book).unwrap();
    text.push_str(&format!(
        "\n[verify.ssh]\ncommand = \"ssh -F {config}\"\nremote_dir = \"{}\"\n",
        remote.display()
    ));
    std::fs::write(book, text).unwrap();
}

#[test]
fn ssh_runs_give_the_records_of_local_runs() {
    let Some(config) = ssh_config() else { return };
    let remote = tempfile::tempdir().unwrap();
    let (local, over_ssh) = (fixture("cpu"), fixture("cpu"));
    configure(over_ssh.path(), &config, remote.path());
    verify_on(local.path(), "local");
    let err = verify_on(over_ssh.path(), "ssh://localhost");
    assert!(err.contains("on ssh://localhost (no GPU)"), "{err}");
    let start = "start  article/cpu-claims#clean at ssh://localhost";
    assert!(err.contains(start), "{err}");
    let (l, s) = (records(local.path()), records(over_ssh.path()));
    same_records(&l, &s);
    assert_eq!(s["clean"].1["runner"], "ssh://localhost");
    assert_eq!(l["clean"].1["runner"], "local");
    // errbook was copied once, under the folder the configuration names.
    let copies = walkdir::WalkDir::new(remote.path()).into_iter().flatten();
    let n = copies.filter(|e| e.file_name() == "errbook").count();
    assert_eq!(n, 1);
}

/// The ssh client processes of this test's workers on `host`.
fn ssh_clients_of(host: &str, remote: &Path) -> Vec<u32> {
    let mut pids = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        let mine = cmd.contains(&remote.display().to_string()) && cmd.contains("verify-worker");
        if cmd.starts_with("ssh ") && mine && cmd.contains(&format!(" -- {host} ")) {
            pids.push(pid);
        }
    }
    pids
}

#[test]
fn a_host_that_drops_keeps_its_finished_records_and_hands_on_the_rest() {
    let Some(config) = ssh_config() else { return };
    let remote = tempfile::tempdir().unwrap();
    let t = fixture("hosts");
    configure(t.path(), &config, remote.path());
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("errbook"))
        .arg("--root")
        .arg(t.path())
        .args([
            "verify",
            "--gpus",
            "none",
            "--jobs",
            "2",
            "--sandbox",
            sandbox(),
        ])
        .args(["--runner", "ssh://localhost", "--runner", "ssh://errbook-b"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The first host holds quick-1 and slow-2: once quick-1 is recorded, its connection drops.
    let start = Instant::now();
    while !records(t.path()).contains_key("quick-1") {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "quick-1 never recorded"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let clients = ssh_clients_of("localhost", remote.path());
    assert_eq!(clients.len(), 1, "one worker on the first host");
    // SAFETY: a signal to the ssh client this test's errbook started.
    unsafe { libc::kill(clients[0] as i32, libc::SIGKILL) };
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("ssh://localhost dropped") && err.contains("they move to ssh://errbook-b"),
        "{err}"
    );
    let r = records(t.path());
    let at = |id: &str| {
        (
            r[id].1["verdict"].as_str().unwrap().to_string(),
            r[id].1["runner"].as_str().unwrap().to_string(),
        )
    };
    assert_eq!(
        at("quick-1"),
        ("confirmed".into(), "ssh://localhost".into()),
        "kept"
    );
    assert_eq!(
        at("slow-2"),
        ("confirmed".into(), "ssh://errbook-b".into()),
        "moved"
    );
    assert_eq!(at("slow-1").0, "confirmed");
    assert_eq!(at("quick-2").0, "confirmed");
}
