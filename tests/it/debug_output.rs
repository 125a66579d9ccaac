//! `--debug` and `RUST_LOG`, as a person debugging errbook sees them on stderr: each stage of a
//! build with its time as it closes (tracing's span-close lines), the filter choosing which, each
//! sandboxed run's command line and end under `verify`, and nothing of it without either.

use crate::common::errbook;
use std::path::Path;

/// `errbook [flags] build` of the catalog at `root` with RUST_LOG set to `log` (or unset); stderr.
fn build(root: &Path, flags: &[&str], log: Option<&str>) -> String {
    let out = tempfile::tempdir().unwrap();
    let mut cmd = errbook();
    cmd.args(flags)
        .arg("--root")
        .arg(root)
        .args(["build", "-d"])
        .arg(out.path().join("site"));
    match log {
        Some(l) => cmd.env("RUST_LOG", l),
        None => cmd.env_remove("RUST_LOG"),
    };
    let o = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{stderr}");
    stderr
}

/// The stages closed, in order, as `spans: target` (`link:link.articles: errbook_link`), each
/// line checked to give its time.
fn closed(stderr: &str) -> Vec<String> {
    let lines = stderr.lines().filter(|l| l.contains(": close time.busy="));
    lines
        .map(|l| {
            let (head, time) = l.split_once(": close ").unwrap();
            assert!(
                time.starts_with("time.busy=") && time.contains(" time.idle="),
                "{l}"
            );
            let level = head.find(" INFO ").unwrap_or_else(|| panic!("{l}"));
            head[level + " INFO ".len()..].trim().to_string()
        })
        .collect()
}

fn position(stages: &[String], want: &str) -> usize {
    (stages.iter().position(|s| s == want)).unwrap_or_else(|| panic!("{want} in {stages:#?}"))
}

#[test]
fn debug_shows_each_stage_of_a_build_and_a_plain_build_none() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("cat");
    crate::common::init(&root);

    let stderr = build(&root, &["--debug"], None);
    let stages = closed(&stderr);
    let order = [
        "link:link.explicit: errbook_link",
        "link:link.articles: errbook_link",
        "link: errbook_site::analysis",
        "render:search: errbook_site::build",
        "render: errbook_site::build",
        "index:catalog.json: errbook_site::build",
        "index: errbook_site::build",
        "write: errbook_site::build",
    ];
    let at: Vec<usize> = order.iter().map(|s| position(&stages, s)).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{stages:#?}");
    // Reading and parsing come first, under whichever names the build gives them.
    let read = stages.iter().position(|s| s.starts_with("load")).unwrap();
    assert!(read < at[0], "{stages:#?}");
    // The binary's own lines are as they were: the last one says what was built.
    let last = stderr.lines().last().unwrap();
    assert!(
        last.starts_with("built ") && last.contains(" pages"),
        "{stderr}"
    );

    // Without --debug and RUST_LOG: what errbook always printed, and none of it.
    let plain = build(&root, &[], None);
    assert!(closed(&plain).is_empty(), "{plain}");
    assert!(
        !plain.contains("INFO") && !plain.contains("time.busy"),
        "{plain}"
    );
    assert_eq!(plain.lines().count(), 1, "{plain}");
    assert!(plain.starts_with("built "), "{plain}");

    // RUST_LOG picks the crates: the site's stages, not the link graph's own.
    let site = closed(&build(&root, &[], Some("errbook_site=info")));
    position(&site, "link: errbook_site::analysis");
    position(&site, "write: errbook_site::build");
    assert!(
        !site.iter().any(|s| s.contains("errbook_link")),
        "{site:#?}"
    );
}

#[test]
fn debug_shows_each_runs_command_line_and_end() {
    let t = crate::runs::fixture("cpu");
    let o = crate::runs::errbook(t.path())
        .args(["--debug", "verify", "--sandbox", "none", "--gpus", "none"])
        .args(["--only", "cpu-claims#clean"])
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let run = "DEBUG run{job=article/cpu-claims#clean attempt=";
    let said = |what: &str| stderr.lines().any(|l| l.contains(run) && l.contains(what));
    assert!(
        said("errbook_verify::runner::local: running python"),
        "{stderr}"
    );
    assert!(
        said("errbook_verify::execute: the run ended: exit 0 after"),
        "{stderr}"
    );
    assert!(
        said("errbook_verify::execute: close time.busy="),
        "{stderr}"
    );
    // The command line, never the environment the run gets.
    assert!(!stderr.contains("GREETING=hello"), "{stderr}");
}
