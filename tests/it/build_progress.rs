//! The build's progress display: pages rendered of all, on a terminal only, after a second
//! (here at once: `ERRBOOK_PROGRESS_AFTER_MS=0`, so that a fast machine shows it too); a build
//! whose stderr is a pipe, or one in CI, prints nothing but its own lines.

use crate::common::{errbook, synth_catalog};
use std::path::Path;

/// A synthetic catalog of a few hundred pages.
fn catalog(out: &Path) -> std::path::PathBuf {
    synth_catalog(
        out,
        &["--entries", "200", "--articles", "10", "--sites", "errbook"],
    )
}

#[test]
fn a_build_into_a_pipe_prints_no_progress() {
    let tmp = tempfile::tempdir().unwrap();
    let root = catalog(tmp.path());
    let o = errbook()
        .arg("--root")
        .arg(&root)
        .args(["build", "-d"])
        .arg(tmp.path().join("out"))
        .env_remove("CI")
        .env("ERRBOOK_PROGRESS_AFTER_MS", "0")
        .output()
        .unwrap();
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].starts_with("built "), "{err}");
    assert!(!err.contains("rendering"), "{err}");
}

/// `script` runs the build on a pseudo-terminal; its transcript is what a user would see.
fn on_a_terminal(root: &Path, out: &Path, ci: bool) -> Option<String> {
    let here = std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_ok();
    if !crate::common::gate(
        "ERRBOOK_TEST_SCRIPT",
        "`script` (util-linux; Debian's bsdutils) to make a terminal",
        here,
    ) {
        return None;
    }
    let bin = assert_cmd::cargo::cargo_bin("errbook");
    let cmd = format!(
        "{} --root {} build -d {}",
        bin.display(),
        root.display(),
        out.display()
    );
    let mut c = std::process::Command::new("script");
    c.args(["-qec", &cmd, "/dev/null"]);
    c.env_remove("CI");
    c.env("ERRBOOK_PROGRESS_AFTER_MS", "0");
    if ci {
        c.env("CI", "true");
    }
    let o = c.output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    Some(String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn a_long_build_on_a_terminal_shows_pages_rendered_and_ci_does_not() {
    let tmp = tempfile::tempdir().unwrap();
    let root = catalog(tmp.path());
    let Some(shown) = on_a_terminal(&root, &tmp.path().join("a"), false) else {
        return;
    };
    // The bar counts toward every page of the site, then the build's own line follows.
    let built = shown.find("built ").expect("the build's line");
    let pages = shown[built..].split_whitespace().nth(1).unwrap_or("");
    assert!(pages.parse::<usize>().is_ok(), "{shown}");
    assert!(shown.contains("rendering"), "{shown}");
    assert!(shown.contains(&format!("/{pages} pages")), "{shown}");
    let ci = on_a_terminal(&root, &tmp.path().join("b"), true).unwrap_or_default();
    assert!(ci.contains("built "), "{ci}");
    assert!(!ci.contains("rendering"), "{ci}");
}
