//! The command line's conventions, as a newcomer meets them: every command run outside a
//! catalog says so and suggests `errbook init` (exit 2); the exit statuses `--help` documents
//! (2 for usage, 3 for a busy port); shell completions and the manual page; help text on every
//! argument; a fresh `errbook init` that checks clean under `--strict`; template text that never
//! builds; `build --offline` into a folder of its own; printing commands that end quietly when the
//! reader of their output goes away.

use crate::common::{errbook, files};
use std::path::Path;

/// `errbook ARGS` in `dir` with colour off: (status, stdout, stderr).
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let o = errbook()
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A new catalog made by `errbook init` under a temp dir: (tempdir, catalog root).
fn fresh() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let (code, _, err) = run_in(tmp.path(), &["init", "x"]);
    assert_eq!(code, 0, "{err}");
    let root = tmp.path().join("x");
    (tmp, root)
}

#[test]
fn every_command_outside_a_catalog_says_so_and_suggests_init() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = std::fs::canonicalize(tmp.path()).unwrap();
    let said = format!(
        "error: not an errbook catalog: no book.toml in {}\n  help: run `errbook init` to start a catalog here, or pass `--root DIR`\n",
        dir.display()
    );
    for args in [
        &["build"][..],
        &["build", "--offline"],
        &["serve", "-p", "0"],
        &["check"],
        &["verify", "--dry-run"],
        &["search", "CUDA error"],
        &["new", "error", "demo/x"],
    ] {
        let (code, out, err) = run_in(&dir, args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err, said, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    assert!(
        std::fs::read_dir(&dir).unwrap().next().is_none(),
        "nothing written"
    );
}

#[test]
fn help_documents_the_exit_statuses_and_usage_errors_exit_2() {
    let (code, out, _) = run_in(Path::new("."), &["--help"]);
    assert_eq!(code, 0);
    for line in [
        "Exit status:",
        "  0    done",
        "  1    the catalog says no: content errors",
        "  2    usage: an unknown command or option",
        "  3    errbook could not do its work: a file it could not read or write, a busy port",
        "  130  interrupted (Ctrl-C)",
    ] {
        assert!(out.contains(line), "{line:?} not in:\n{out}");
    }
    let (code, _, err) = run_in(Path::new("."), &["build", "--no-such-option"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run_in(
        Path::new("."),
        &["verify", "--runner", "ftp://x", "--dry-run"],
    );
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_busy_port_is_a_runtime_failure_not_a_usage_error() {
    let (_tmp, root) = fresh();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let (code, _, err) = run_in(&root, &["serve", "-p", &port]);
    assert_eq!(code, 3, "{err}");
    let said = format!("\nerror: cannot listen on 127.0.0.1:{port}: Address already in use");
    assert!(err.contains(&said), "{err}");
}

#[test]
fn every_argument_says_what_it_is_for() {
    for (args, says) in [
        (&["serve", "--help"][..], "The port to listen on"),
        (
            &["search", "--help"],
            "The message, traceback or log to look up; `-` reads it from stdin",
        ),
        (&["new", "--help"], "What to create: `error`"),
        (
            &["build", "--help"],
            "into book-offline/ unless -d says otherwise",
        ),
        (
            &["completions", "--help"],
            "The shell: bash, zsh, fish, elvish or powershell",
        ),
        (
            &["man", "--help"],
            "Write errbook.1, errbook-build.1, ... into DIR",
        ),
    ] {
        let (code, out, err) = run_in(Path::new("."), args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.contains(says), "{args:?}: {says:?} not in:\n{out}");
    }
}

#[test]
fn completions_and_the_manual_page_come_from_the_command_line() {
    let (code, bash, _) = run_in(Path::new("."), &["completions", "bash"]);
    assert_eq!(code, 0);
    assert!(bash.contains("_errbook()"), "{bash}");
    assert!(
        bash.contains("completions") && bash.contains("--offline"),
        "{bash}"
    );
    let (code, zsh, _) = run_in(Path::new("."), &["completions", "zsh"]);
    assert_eq!(code, 0);
    assert!(zsh.starts_with("#compdef errbook"), "{zsh}");
    let (code, _, err) = run_in(Path::new("."), &["completions", "tcsh"]);
    assert_eq!(code, 2, "{err}");

    let (code, page, _) = run_in(Path::new("."), &["man"]);
    assert_eq!(code, 0);
    assert!(page.contains(".TH errbook 1"), "{page}");
    assert!(page.contains("Exit status:"), "{page}");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("man1");
    let (code, out, err) = run_in(tmp.path(), &["man", "--dir", "man1"]);
    assert_eq!(code, 0, "{err}");
    let written = files(&dir);
    for page in [
        "errbook.1",
        "errbook-build.1",
        "errbook-serve.1",
        "errbook-check.1",
    ] {
        assert!(written.contains(page), "{page} not in {written:?}");
        assert!(out.contains(&format!("man1/{page}\n")), "{out}");
    }
    assert!(crate::common::read(&dir, "errbook-serve.1").contains("The port to listen on"));
}

#[test]
fn a_new_catalog_checks_clean_even_strictly() {
    let (_tmp, root) = fresh();
    let (code, _, err) = run_in(&root, &["check", "--strict"]);
    assert_eq!(code, 0, "{err}");
    // Its snippets come with the records of their runs: no warning to fix first.
    assert_eq!(
        err,
        "check: ok, 0 warnings in 2 files (1 entry and 1 article parsed)\n"
    );
    assert!(root
        .join("verify/entries/python/recursion-depth-exceeded")
        .is_dir());
}

#[test]
fn template_text_is_an_error_and_never_published() {
    let (_tmp, root) = fresh();
    let (code, _, err) = run_in(&root, &["new", "error", "cuda/out-of-memory"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run_in(&root, &["build"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("error[E-placeholder]: content/errors/cuda/out-of-memory.md:1:"),
        "{err}"
    );
    assert!(err.contains("build failed: "), "{err}");
    assert!(!root.join("book").exists(), "nothing may be published");
    let (code, _, err) = run_in(&root, &["check"]);
    assert_eq!(code, 1, "{err}");
}

#[test]
fn an_offline_bundle_has_a_folder_of_its_own() {
    let (_tmp, root) = fresh();
    let (code, _, err) = run_in(&root, &["build"]);
    assert_eq!(code, 0, "{err}");
    let hosted = files(&root.join("book"));
    let page = crate::common::read(&root.join("book"), "index.html");
    let (code, _, err) = run_in(&root, &["build", "--offline"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("into book-offline in "), "{err}");
    assert_eq!(files(&root.join("book")), hosted);
    assert_eq!(crate::common::read(&root.join("book"), "index.html"), page);
    let offline = crate::common::read(&root.join("book-offline"), "index.html");
    assert_ne!(offline, page, "the bundle links differently");
    let ignored = crate::common::read(&root, ".gitignore");
    assert!(ignored.contains("/book-offline/"), "{ignored}");
}

#[test]
fn a_missing_record_asks_for_a_gpu_host_only_for_gpu_blocks() {
    let (_tmp, root) = fresh();
    std::fs::remove_dir_all(root.join("verify")).unwrap();
    let entry = root.join("content/errors/python/recursion-depth-exceeded.md");
    let text = std::fs::read_to_string(&entry).unwrap();
    std::fs::write(
        &entry,
        text.replacen("```python run", "```python run gpus=1", 1),
    )
    .unwrap();
    let (code, _, err) = run_in(&root, &["check"]);
    assert_eq!(code, 0, "{err}");
    let gpu = "help: run `errbook verify` on a GPU host and commit verify/";
    let cpu = "help: run `errbook verify` (this block needs no GPU) and commit verify/";
    assert_eq!(err.matches(gpu).count(), 1, "the entry's GPU block: {err}");
    assert_eq!(
        err.matches(cpu).count(),
        2,
        "the article's CPU blocks: {err}"
    );
}

/// `errbook claims | head -c 1` ends quietly when the reader closes the pipe: no panic on
/// stderr, as `grep` or `ls` end. The catalog's listing is larger than a pipe's buffer, so
/// errbook is still writing when the reader goes.
#[test]
fn a_reader_that_goes_away_ends_the_printing_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let tmp = tempfile::tempdir().unwrap();
    let args = [
        "--entries",
        "20",
        "--articles",
        "100",
        "--seed",
        "1",
        "--as-written",
    ];
    let root = crate::common::synth_catalog(tmp.path(), &args);
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("errbook"))
        .arg("--root")
        .arg(&root)
        .arg("claims")
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    out.read_exact(&mut [0u8; 1]).unwrap();
    drop(out);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("Broken pipe"), "{err}");
    assert_ne!(status.code(), Some(101), "{err}");
}
