//! Helpers shared by the integration tests: run the binary, build a site into a temp dir, walk
//! an output folder and check its links.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Whether a test that needs a tool runs. With `var` set (`.ci/run` sets every one after
/// installing what the tests need), the tool is required: a missing one fails the test. Unset,
/// the test runs where `available` holds, and where it does not it is skipped, saying why on
/// the terminal itself (not into the test's captured output, which a passing test never shows),
/// so that a plain `cargo test` never passes a test silently without running it.
pub(crate) fn gate(var: &str, what: &str, available: bool) -> bool {
    use std::io::Write;
    match std::env::var_os(var) {
        Some(_) => {
            assert!(available, "{var} is set but {what} is not available here");
            true
        }
        None if available => true,
        None => {
            let _ = writeln!(
                std::io::stderr(),
                "skipped: {what} is not available (CI installs it and sets {var}, which makes it required)"
            );
            false
        }
    }
}

/// An executable on PATH.
pub(crate) fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(name).is_file()))
}

pub(crate) fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn errbook() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("errbook").expect("binary built")
}

/// The benchmark's catalog generator (tools/synth).
pub(crate) fn synth() -> assert_cmd::Command {
    tool("errbook-synth")
}

/// A tool of this repository (tools/: `errbook-synth`, `errbook-search-eval`,
/// `errbook-claims-eval`). `cargo test`
/// builds the binary under test, not the tools' binaries, so the first test to ask for one
/// builds them, with the profile of the tests.
pub(crate) fn tool(name: &str) -> assert_cmd::Command {
    static BUILT: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| {
        let exe = std::env::current_exe().unwrap_or_default();
        let release = exe.components().any(|c| c.as_os_str() == "release");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut cmd = std::process::Command::new(cargo);
        cmd.current_dir(repo()).args([
            "build",
            "--quiet",
            "-p",
            "errbook-synth",
            "-p",
            "errbook-search-eval",
            "-p",
            "errbook-claims-eval",
        ]);
        if release {
            cmd.arg("--release");
        }
        let status = cmd.status().expect("cargo runs");
        assert!(status.success(), "building the tools failed");
    });
    assert_cmd::Command::cargo_bin(name).expect("the tool was built")
}

/// A synthetic catalog made by `synth` under `out` with `args` (entries, articles, seed...);
/// its root, `out/errbook`.
pub(crate) fn synth_catalog(out: &Path, args: &[&str]) -> PathBuf {
    let o = synth()
        .current_dir(repo())
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out.join("errbook")
}

/// Build the site at `root` into a fresh temp dir; returns (tempdir, output path).
pub(crate) fn build(root: &Path, extra: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let mut cmd = errbook();
    cmd.arg("--root")
        .arg(root)
        .arg("build")
        .arg("-d")
        .arg(&out)
        .args(extra);
    let o = cmd.output().unwrap();
    assert!(
        o.status.success(),
        "build failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    (tmp, out)
}

/// Every file under `dir`, as paths relative to it with `/`.
pub(crate) fn files(dir: &Path) -> BTreeSet<String> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            e.path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect()
}

pub(crate) fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn unescape(s: &str) -> String {
    s.replace("&amp;", "&")
        .replace("&#39;", "'")
        .replace("&quot;", "\"")
        .replace("&#x2F;", "/")
}

/// The `href`/`src` values of an HTML page.
pub(crate) fn links_of(html: &str) -> Vec<String> {
    let re = regex::Regex::new(r#"(?:href|src|action)="([^"]*)""#).unwrap();
    re.captures_iter(html).map(|c| unescape(&c[1])).collect()
}

/// The `id`s of an HTML page.
pub(crate) fn ids_of(html: &str) -> BTreeSet<String> {
    let re = regex::Regex::new(r#"\sid="([^"]*)""#).unwrap();
    re.captures_iter(html).map(|c| unescape(&c[1])).collect()
}

/// Check every internal link of every HTML page under `out`: the file exists and the `#id`
/// exists in it. Returns the broken ones as "page -> link (why)". `offline`: links to folders
/// are broken (file:// shows no index), and any scheme but file:/data: is broken.
pub(crate) fn broken_links(out: &Path, offline: bool) -> Vec<String> {
    let all = files(out);
    let mut ids: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut broken = Vec::new();
    for page in all.iter().filter(|f| f.ends_with(".html")) {
        let html = read(out, page);
        let dir = Path::new(page)
            .parent()
            .unwrap_or(Path::new(""))
            .to_path_buf();
        for link in links_of(&html) {
            if link.is_empty() {
                continue;
            }
            if let Some((scheme, _)) = link.split_once(':') {
                if scheme.chars().all(|c| c.is_ascii_alphabetic()) {
                    if offline && scheme != "data" && scheme != "file" {
                        broken.push(format!("{page} -> {link} (scheme in offline bundle)"));
                    }
                    continue;
                }
            }
            let (path, frag) = match link.split_once('#') {
                Some((p, f)) => (p.to_string(), Some(f.to_string())),
                None => (link.clone(), None),
            };
            let path = path.split('?').next().unwrap_or("").to_string();
            let target = if path.is_empty() {
                page.clone()
            } else {
                let joined = if let Some(abs) = path.strip_prefix('/') {
                    PathBuf::from(abs)
                } else {
                    dir.join(&path)
                };
                let mut parts: Vec<String> = Vec::new();
                for c in joined.components() {
                    match c {
                        std::path::Component::ParentDir if parts.pop().is_none() => {
                            broken.push(format!("{page} -> {link} (leaves the site)"));
                        }
                        std::path::Component::Normal(s) => parts.push(s.to_string_lossy().into()),
                        _ => {}
                    }
                }
                let mut t = parts.join("/");
                if path.ends_with('/') || t.is_empty() {
                    if offline {
                        broken.push(format!("{page} -> {link} (folder link offline)"));
                    }
                    if !t.is_empty() {
                        t.push('/');
                    }
                    t.push_str("index.html");
                }
                t
            };
            if !all.contains(&target) {
                broken.push(format!("{page} -> {link} (no file {target})"));
                continue;
            }
            if let Some(f) = frag.filter(|f| !f.is_empty()) {
                if target.ends_with(".html") {
                    let set = ids
                        .entry(target.clone())
                        .or_insert_with(|| ids_of(&read(out, &target)));
                    if !set.contains(&f) {
                        broken.push(format!("{page} -> {link} (no id {f} in {target})"));
                    }
                }
            }
        }
    }
    broken
}

/// The article `errbook init` writes into a new catalog.
pub(crate) const INIT_ARTICLE: &str = "content/articles/why-does-my-recursive-function-fail.md";

/// A new catalog at `dir`, written by `errbook init`.
pub(crate) fn init(dir: &Path) {
    let o = errbook().arg("init").arg(dir).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Copy the folder `from` into `to` (folders and files).
pub(crate) fn copy_tree(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from)
        .into_iter()
        .filter_map(Result::ok)
    {
        let dest = to.join(e.path().strip_prefix(from).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

/// Replace the first `from` in the file at `path` with `to`; `from` must be there (an edit that
/// changed nothing would let a test pass on the fixture as it was).
pub(crate) fn replace_in(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{}: no {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// `gate` makes a missing tool a failure where its variable is set, and a skip, said, where not.
#[test]
fn a_gate_fails_where_its_variable_is_set_and_the_tool_is_missing() {
    const VAR: &str = "ERRBOOK_TEST_GATE_ITSELF";
    std::env::set_var(VAR, "1");
    assert!(gate(VAR, "a tool", true));
    let missing = std::panic::catch_unwind(|| gate(VAR, "a tool", false));
    std::env::remove_var(VAR);
    assert!(
        missing.is_err(),
        "a required tool that is missing must fail the test"
    );
    assert!(!gate(VAR, "a tool", false));
    assert!(gate(VAR, "a tool", true));
}

/// The repository's catalog copied, with `errors: ["pytorch/dataset-worker-fork-cuda"]` in the
/// three seed articles' front matter: what they are about, which the articles as written do not
/// declare (inferring it from their text is the link stage's job). For tests of what a declared
/// article-to-entry link brings (flags, evidence across pages).
pub(crate) fn seed_declaring_errors() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    for part in ["content", "verify"] {
        copy_tree(&repo().join(part), &t.path().join(part));
    }
    std::fs::copy(repo().join("book.toml"), t.path().join("book.toml")).unwrap();
    for id in [
        "why-does-torchutilsdatadataloader-with-cuda-and-numworkers-",
        "why-am-i-getting-a-cuda-initialization-error",
        "how-to-use-multiprocessing-with-shared-memory-and",
    ] {
        let path = t.path().join(format!("content/articles/{id}.md"));
        let line = format!("id: \"{id}\"\n");
        replace_in(
            &path,
            &line,
            &format!("{line}errors: [\"pytorch/dataset-worker-fork-cuda\"]\n"),
        );
    }
    t
}
