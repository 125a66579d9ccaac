//! Evidence readers can trust, driven as users run `errbook verify` on the fixture catalog
//! tests/fixtures/verify/evidence, on fake GPU machines (a stand-in `nvidia-smi`) and on this
//! host without GPUs: two machines' records side by side and on the pages, a CPU-only `--force`
//! that leaves the GPU records byte for byte, the machine's failures kept apart from findings,
//! and a spawned child's error as the root cause.

use crate::verify_support::{build, catalog, files, runs_of, section, text_of, verify, Machine};
use std::path::Path;

const ENTRY: &str = "errors/demo/gpu-hiccup/index.html";
const GPU_SNIPPETS: [&str; 6] = [
    "repro",
    "workaround-1",
    "workaround-2",
    "workaround-3",
    "dead-end-1",
    "dead-end-2",
];

/// What `errbook check` says about the catalog at `root` (stderr).
fn check(root: &Path) -> String {
    let o = assert_cmd::Command::cargo_bin("errbook")
        .unwrap()
        .arg("--root")
        .arg(root)
        .arg("check")
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn page(out: &Path, rel: &str) -> String {
    std::fs::read_to_string(out.join(rel)).unwrap()
}

#[test]
fn two_machines_records_stand_side_by_side_and_the_pages_show_both() {
    let t = catalog("evidence");
    let args = ["--allow-contradictions", "--only", "gpu-hiccup"];
    for m in [Machine::h100(), Machine::h200()] {
        let r = verify(t.path(), Some(&m), &args);
        assert_eq!(r.code, Some(0), "{r}");
    }
    for id in GPU_SNIPPETS {
        let runs = runs_of(t.path(), id);
        assert_eq!(runs.len(), 2, "{id}: {runs:?}");
        let (a, b) = (&runs[0].0, &runs[1].0);
        assert_eq!(a.parent(), b.parent(), "one folder per snippet and hash");
        let name = |p: &Path| p.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name(a).starts_with("1xH100-80GB-HBM3_driver550.54.15_cuda12.4_py"),
            "{a:?}"
        );
        assert!(
            name(b).starts_with("1xH200_driver580.159.04_cuda13.0_py"),
            "{b:?}"
        );
    }
    let w2 = runs_of(t.path(), "workaround-2");
    assert_eq!(w2[0].1["verdict"], "contradicted", "fails on the H100");
    assert_eq!(w2[1].1["verdict"], "confirmed", "works on the H200");

    // Each machine's run of the same code is up to date on that machine.
    let again = verify(t.path(), Some(&Machine::h100()), &args);
    assert!(again.stderr.contains("0 to run, 6 up to date"), "{again}");

    let out = build(t.path());
    let html = page(&out, ENTRY);
    let all = text_of(&html);
    for said in [
        "Verified on H100 and H200",
        "1 of 3 workarounds works, 1 failed",
        "dead ends: 1 actually works, 1 fails as described",
        "environments disagree on workaround 2",
    ] {
        assert!(
            all.contains(said),
            "Verification line lacks {said:?}: {all}"
        );
    }
    let next = ["workaround-1", "workaround-2", "workaround-3", "dead-ends"];
    let w2 = text_of(section(&html, "workaround-2", &next));
    assert!(
        w2.contains("environments disagree failed on H100; works on H200"),
        "{w2}"
    );
    assert!(
        w2.contains("Verified on Environment Verdict Date Duration"),
        "{w2}"
    );
    assert!(w2.contains("1× H100, driver 550.54.15, CUDA 12.4"), "{w2}");
    assert!(w2.contains("1× H200, driver 580.159.04, CUDA 13.0"), "{w2}");
    assert!(html.contains("<li class=\"fix-bad\" id=\"dead-end-2\">"));
    let d2 = section(&html, "dead-end-2", &["discussed-in", "related"]);
    assert!(text_of(d2).contains("actually works on H100 and H200"));
    // What works first, what failed last, whatever the reported rates say.
    let pos = |id: &str| html.find(&format!("id=\"{id}\"")).unwrap();
    assert!(pos("workaround-1") < pos("workaround-2"));
    assert!(pos("workaround-2") < pos("workaround-3"));

    // The article that applies workaround 3 says it failed when run, and the dead end it
    // falls into actually works.
    let art = page(&out, "articles/fixing-the-hiccup/index.html");
    let flags: Vec<String> = regex::Regex::new(r#"(?s)<p class="flag [^"]*".*?</p>"#)
        .unwrap()
        .find_iter(&art)
        .map(|m| m.as_str().to_string())
        .collect();
    assert_eq!(flags.len(), 2, "{art}");
    assert!(flags[0].starts_with("<p class=\"flag flag-applies flag-bad\""));
    assert!(
        text_of(&flags[0]).contains("✗ Applies workaround 3"),
        "{}",
        flags[0]
    );
    assert!(text_of(&flags[0]).contains("failed on H100 and H200"));
    assert!(text_of(&flags[1]).contains("actually works on H100 and H200"));
}

#[test]
fn a_cpu_only_forced_run_leaves_the_gpu_records_byte_for_byte() {
    let t = catalog("evidence");
    let r = verify(
        t.path(),
        Some(&Machine::h100()),
        &["--allow-contradictions"],
    );
    assert_eq!(r.code, Some(0), "{r}");
    let before = files(t.path());
    assert!(before.len() >= 10, "{before:?}");

    let r = verify(t.path(), None, &["--force", "--allow-contradictions"]);
    assert_eq!(r.code, Some(0), "{r}");
    for id in GPU_SNIPPETS {
        let line = format!("skip   entry/demo/gpu-hiccup#{id}: needs 1 GPU, host has 0");
        assert!(r.stderr.contains(&line), "{line}\n{r}");
        assert!(
            r.stdout
                .contains(&format!("gpu-hiccup#{id}: not run here: needs 1 GPU")),
            "{r}"
        );
    }
    let after = files(t.path());
    for (path, bytes) in &before {
        assert_eq!(after.get(path), Some(bytes), "{} changed", path.display());
    }
    // What this host could run stands beside the GPU machine's runs, in its own files.
    let new: Vec<String> = after
        .keys()
        .filter(|p| !before.contains_key(*p))
        .map(|p| p.display().to_string())
        .collect();
    assert!(!new.is_empty());
    for p in &new {
        assert!(p.contains("/articles/"), "only CPU code ran: {p}");
        assert!(p.contains("/cpu_py"), "{p}");
    }
}

#[test]
fn the_machines_failures_are_no_findings_and_never_replace_evidence() {
    let t = catalog("evidence");
    let r = verify(t.path(), None, &["--only", "machine-trouble"]);
    assert_eq!(r.code, Some(0), "no finding against the text: {r}");
    assert!(
        r.stderr.contains(
            "skip   article/machine-trouble#declared: needs errbook_surely_not_a_module, which python3 cannot import"
        ),
        "{r}"
    );
    assert!(runs_of(t.path(), "declared").is_empty());
    let undeclared = &runs_of(t.path(), "undeclared")[0].1;
    assert_eq!(undeclared["verdict"], "environment_error");
    let finding = undeclared["finding"].as_str().unwrap();
    assert!(
        finding.contains("No module named 'errbook_surely_not_a_module_either'"),
        "{finding}"
    );
    assert_eq!(
        runs_of(t.path(), "no-gpu")[0].1["verdict"],
        "environment_error"
    );
    let said = check(t.path());
    assert!(
        said.contains("code block `undeclared` has no run that counts: environment error on CPU"),
        "{said}"
    );

    // A module a variable of the host provides: the run is evidence.
    let mods = t.path().join("mods");
    std::fs::create_dir_all(&mods).unwrap();
    std::fs::write(mods.join("errbook_fixture_module.py"), "WORD = 'here'\n").unwrap();
    let only = ["--only", "#provided", "--keep-env", "PYTHONPATH"];
    let mut c = assert_cmd::Command::cargo_bin("errbook").unwrap();
    c.arg("--root")
        .arg(t.path())
        .args(["verify", "--sandbox", "none"])
        .args(only);
    let o = c.env("PYTHONPATH", &mods).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for id in ["provided", "provided-quietly"] {
        assert_eq!(runs_of(t.path(), id)[0].1["verdict"], "confirmed", "{id}");
    }
    let before = files(t.path());

    // The module gone: the declared need skips the run, the undeclared one fails to import;
    // neither writes over the run that was evidence.
    let r = verify(t.path(), None, &["--force", "--only", "#provided"]);
    assert_eq!(r.code, Some(0), "{r}");
    assert!(
        r.stderr
            .contains("skip   article/machine-trouble#provided: needs errbook_fixture_module"),
        "{r}"
    );
    assert!(
        r.stderr
            .contains("kept   article/machine-trouble#provided-quietly: the recorded run stands"),
        "{r}"
    );
    assert_eq!(files(t.path()), before, "byte for byte");

    let out = build(t.path());
    let html = page(&out, "articles/machine-trouble/index.html");
    let undeclared = text_of(section(&html, "code-undeclared", &["code-no-gpu"]));
    assert!(
        undeclared.contains("not verified: environment error"),
        "{undeclared}"
    );
    assert!(undeclared.contains("environment error"), "{undeclared}");
    let provided = text_of(section(&html, "code-provided-quietly", &["footer"]));
    assert!(provided.contains("runs as described"), "{provided}");
}

#[test]
fn a_spawned_childs_error_is_the_root_cause_and_leads_the_finding() {
    let t = catalog("evidence");
    let r = verify(
        t.path(),
        None,
        &["--only", "spawned-child", "--allow-contradictions"],
    );
    assert_eq!(r.code, Some(0), "{r}");
    let rec = &runs_of(t.path(), "no-guard")[0].1;
    assert_eq!(rec["verdict"], "contradicted");
    assert_eq!(rec["children"][0]["origin"], "spawned", "{}", rec["log"]);
    let cause = rec["root_cause"]["message"].as_str().unwrap();
    assert!(
        cause.starts_with("An attempt has been made to start a new process before the"),
        "{cause}"
    );
    let msg = rec["message"].as_str().unwrap();
    assert!(
        msg.contains("exited unexpectedly with exit code 1"),
        "{msg}"
    );
    let finding = rec["finding"].as_str().unwrap();
    assert!(
        finding.starts_with(
            "Claimed to run cleanly, but a child process it spawned failed with RuntimeError: An attempt has been made"
        ),
        "{finding}"
    );
    assert!(finding.contains("; then the main process exited 1 with RuntimeError: worker"));

    let out = build(t.path());
    let html = text_of(&page(&out, "articles/spawned-child/index.html"));
    let cause = html
        .find("Root cause RuntimeError: An attempt has been made")
        .unwrap();
    let then = html.find("Reported as RuntimeError: worker (pid").unwrap();
    assert!(cause < then, "the root cause first: {html}");
}
