//! The sandbox, attacked: snippets that connect to a local listener, write outside their work
//! folder, leave a double-forked `setsid` daemon, fork-bomb, allocate 10 GB, read variables that
//! look allowed, and print escape sequences (tests/fixtures/verify/escape). Each is contained
//! and gets a clear verdict, a test each (`escape_*`) over one session of the whole catalog.
//! Then the CPU catalog gives the same verdicts sandboxed as not, and the ways a sandbox is
//! refused or turned off are told to the maintainer.
//!
//! The attacks need bubblewrap: they run where `bwrap` is on PATH and are skipped, saying so,
//! where it is not; CI installs it and sets ERRBOOK_TEST_SANDBOX=1, which makes it required.

use crate::runs::{errbook, fixture, gate, on_path, records, Records};
use std::io::Read;
use std::net::TcpListener;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

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

/// What one sandboxed session of the escape catalog left behind, gathered once for the tests
/// of each attempt below (the session runs once, whichever test asks first).
struct Escapes {
    /// The records by snippet id (their files are gone with the catalog).
    r: Records,
    stdout: String,
    stderr: String,
    /// What the listener heard, one string per connection.
    heard: Vec<String>,
    /// Files the run wrote on the host outside its work folder.
    escaped_files: Vec<String>,
    /// The daemon's processes still alive after the session.
    daemons: Vec<String>,
    /// Secret values found in a record file (`value in path`).
    leaks: Vec<String>,
    secret: String,
    nonce: String,
}

static ESCAPES: OnceLock<Escapes> = OnceLock::new();

/// The escape catalog verified once, sandboxed, with small limits (64 tasks, 512 MiB), a named
/// secret (`--keep-env HF_TOKEN`) and three unnamed ones that look allowed.
fn escapes() -> &'static Escapes {
    ESCAPES.get_or_init(|| {
        let (port, got) = listener();
        let outside = tempfile::tempdir().unwrap();
        let nonce = format!("{:08x}", fastrand::u32(..));
        let t = escape_catalog(port, outside.path(), &nonce);
        let secret = format!("hf_{nonce}_do_not_leak");
        let out = errbook(t.path())
            .args(["verify", "--gpus", "none", "--allow-contradictions"])
            .args(["--tasks-limit", "64", "--memory-limit", "512M"])
            .args(["--keep-env", "HF_TOKEN"])
            .env("HF_TOKEN", &secret)
            .env("NCCL_SECRET_TOKEN", "nccl-secret-value")
            .env("TORCH_API_KEY", "torch-secret-value")
            .env("NVIDIA_TOKEN", "nvidia-secret-value")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
        let home = std::env::var("HOME").unwrap_or_default();
        let escaped_files = [
            outside.path().join("escaped"),
            format!("/var/tmp/escaped-{nonce}").into(),
            format!("/etc/escaped-{nonce}").into(),
            format!("/usr/escaped-{nonce}").into(),
            Path::new(&home).join(format!("escaped-{nonce}")),
        ]
        .iter()
        .filter(|p| p.exists())
        .map(|p| p.display().to_string())
        .collect();
        let heard = got.lock().unwrap().clone();
        Escapes {
            r: records(t.path()),
            leaks: leaks(t.path(), &secret),
            daemons: processes_with(&format!("errbook-daemon-{nonce}")),
            stdout,
            stderr,
            heard,
            escaped_files,
            secret,
            nonce,
        }
    })
}

impl Escapes {
    fn verdict(&self, id: &str) -> &str {
        self.r[id].1["verdict"].as_str().unwrap()
    }

    fn log(&self, id: &str) -> &str {
        self.r[id].1["log"].as_str().unwrap()
    }

    fn sandbox(&self, id: &str) -> &str {
        self.r[id].1["sandbox"].as_str().unwrap()
    }
}

/// Secret values in any file under the catalog's records.
fn leaks(root: &Path, secret: &str) -> Vec<String> {
    let values = [
        secret,
        "nccl-secret-value",
        "torch-secret-value",
        "nvidia-secret-value",
    ];
    let mut found = Vec::new();
    for e in walkdir::WalkDir::new(root.join("verify"))
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
    {
        let text = std::fs::read_to_string(e.path()).unwrap();
        for v in values.iter().filter(|v| text.contains(**v)) {
            found.push(format!("{v} in {}", e.path().display()));
        }
    }
    found
}

#[test]
fn escape_a_connection_to_a_local_listener_is_refused() {
    if !sandbox_available() {
        return;
    }
    let e = escapes();
    // No network: refused, and the listener heard only the snippet that declared it.
    assert_eq!(e.verdict("connect"), "confirmed", "{}", e.log("connect"));
    let declared = "connect-declared";
    assert_eq!(e.verdict(declared), "confirmed", "{}", e.log(declared));
    assert_eq!(e.heard, vec!["declared".to_string()]);
    assert!(e.sandbox("connect").contains(": no network"));
    assert!(e.sandbox(declared).contains(": network"));
}

#[test]
fn escape_writes_outside_the_work_folder_reach_nothing() {
    if !sandbox_available() {
        return;
    }
    let e = escapes();
    let log = e.log("write-outside");
    assert_eq!(e.verdict("write-outside"), "confirmed", "{log}");
    assert!(
        log.contains("wrote escaped-here"),
        "the work folder is writable: {log}"
    );
    for dir in ["/etc", "/usr"] {
        let refused = format!("refused {dir}/escaped-{} Read-only file system", e.nonce);
        assert!(log.contains(&refused), "{log}");
    }
    assert_eq!(e.escaped_files, Vec::<String>::new(), "written on the host");
}

#[test]
fn escape_a_double_forked_setsid_daemon_goes_with_its_run() {
    if !sandbox_available() {
        return;
    }
    let e = escapes();
    assert_eq!(e.verdict("daemon"), "confirmed", "{}", e.log("daemon"));
    assert_eq!(e.daemons, Vec::<String>::new());
}

/// A fork bomb and 10 GB: stopped by their limits, and the verdict says so, never
/// "contradicted".
#[test]
fn escape_a_fork_bomb_is_stopped_by_the_task_limit() {
    if !sandbox_available() {
        return;
    }
    let bomb = &escapes().r["fork-bomb"].1;
    assert_eq!(bomb["verdict"], "stopped_by_limit", "{bomb}");
    assert!(bomb["finding"].as_str().unwrap().contains("tasks (64)"));
}

#[test]
fn escape_ten_gigabytes_are_stopped_by_the_memory_limit() {
    if !sandbox_available() {
        return;
    }
    let big = &escapes().r["allocate"].1;
    assert_eq!(big["verdict"], "stopped_by_limit", "{big}");
    let finding = big["finding"].as_str().unwrap();
    assert!(finding.contains("memory (512 MiB)"), "{finding}");
}

/// Only the named variable reached the run, and its value no record and no line printed.
#[test]
fn escape_secrets_in_allowed_looking_variables_stay_out() {
    if !sandbox_available() {
        return;
    }
    let e = escapes();
    assert_eq!(e.verdict("secrets"), "confirmed", "{}", e.log("secrets"));
    assert!(e.log("secrets").contains("token is [redacted $HF_TOKEN]"));
    assert_eq!(e.leaks, Vec::<String>::new());
    assert!(!e.stdout.contains(&e.secret) && !e.stderr.contains(&e.secret));
}

/// Escape sequences: recorded as the run printed them, never printed to the terminal.
#[test]
fn escape_sequences_in_output_never_reach_the_terminal() {
    if !sandbox_available() {
        return;
    }
    let e = escapes();
    assert_eq!(e.verdict("escapes"), "confirmed", "{}", e.log("escapes"));
    assert!(e.log("escapes").contains("\u{1b}[31mred text"));
    for text in [&e.stdout, &e.stderr] {
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}'),
            "{text:?}"
        );
    }
    assert!(e.stdout.contains("coloured bold") || e.stderr.contains("coloured bold"));
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
    // Exit 3: errbook could not do its work here (not a usage error, not the content's fault).
    assert_eq!(missing.status.code(), Some(3), "{err}");
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
