//! `errbook serve` for real: it serves the site on 127.0.0.1 with the bytes a build writes,
//! answers folders with their index and unknown paths with 404.html, injects live reload, and
//! analyses the catalog again when a file changes (keeping the old site, and reporting the
//! errors, when the change breaks the build).

use crate::common::*;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

pub(crate) struct Server(pub(crate) Child);
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub(crate) fn get(url: &str) -> (u16, String) {
    let (status, body) = get_bytes(url);
    (status, String::from_utf8(body).unwrap_or_default())
}

fn copy_site() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    for dir in ["content", "themes"] {
        for e in walkdir::WalkDir::new(repo().join(dir))
            .into_iter()
            .filter_map(Result::ok)
        {
            let rel = e.path().strip_prefix(repo()).unwrap();
            let to = t.path().join(rel);
            if e.file_type().is_dir() {
                std::fs::create_dir_all(&to).unwrap();
            } else {
                std::fs::copy(e.path(), &to).unwrap();
            }
        }
    }
    std::fs::copy(repo().join("book.toml"), t.path().join("book.toml")).unwrap();
    t
}

/// The seed's entry in a copy of the site, and its text.
fn seed_entry(site: &Path) -> (PathBuf, String) {
    let entry = site.join("content/errors/pytorch/dataset-worker-fork-cuda.md");
    let src = std::fs::read_to_string(&entry).unwrap();
    (entry, src)
}

#[test]
fn serves_pages_and_rebuilds_on_change() {
    let site = copy_site();
    let (_server, base) = start(site.path());
    serves_pages(&base);
    let (entry, src) = seed_entry(site.path());
    let generation = good_edit_is_served(&base, &entry, &src);
    bad_edit_keeps_the_old_site(&base, &entry, &src, generation);
}

/// Start `errbook serve` on `site` and wait until it serves; returns the server (stopped when
/// dropped) and its base URL.
pub(crate) fn start(site: &Path) -> (Server, String) {
    let port = free_port();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_errbook"));
    cmd.arg("--root")
        .arg(site)
        .args(["serve", "-p", &port.to_string()]);
    let (server, _, _) = spawn(&mut cmd);
    (server, format!("http://127.0.0.1:{port}"))
}

/// Spawn `cmd` (an `errbook serve`) and wait until it says it serves; returns the server, the
/// rest of its stderr line by line, and the lines until then.
fn spawn(cmd: &mut Command) -> (Server, Receiver<String>, Vec<String>) {
    let mut child = cmd
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let server = Server(child);
    let (tx, rx) = std::sync::mpsc::channel();
    // Reads stderr to its end, so the server never blocks on a full pipe.
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let seen = read_until(&rx, |l| l.starts_with("serving "));
    (server, rx, seen)
}

/// Lines of `rx` up to and including the first for which `done` holds (at most 60 s).
fn read_until(rx: &Receiver<String>, done: impl Fn(&str) -> bool) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !seen.last().is_some_and(|l| done(l)) {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => seen.push(line),
            Err(e) => panic!("{e} waiting on serve's output: {seen:?}"),
        }
    }
    seen
}

/// Pages with live reload injected, 404.html for unknown paths, nothing outside the site.
fn serves_pages(base: &str) {
    let (s, home) = get(&format!("{base}/"));
    assert_eq!(s, 200);
    assert!(
        home.contains("/__errbook/livereload.js"),
        "live reload injected"
    );
    let (s, page) = get(&format!("{base}/errors/pytorch/dataset-worker-fork-cuda/"));
    assert_eq!(s, 200);
    assert!(page.contains("Cannot re-initialize CUDA in forked subprocess"));
    let (s, nf) = get(&format!("{base}/no/such/page/"));
    assert_eq!(s, 404);
    assert!(nf.contains("Page not found"));
    let (s, _) = get(&format!("{base}/../../etc/passwd"));
    assert_eq!(s, 404);
}

/// A good edit of `entry` (source `src`): the page changes. Returns the generation after it.
fn good_edit_is_served(base: &str, entry: &Path, src: &str) -> u64 {
    let (_, state) = get(&format!("{base}/__errbook/reload"));
    let gen0: serde_json::Value = serde_json::from_str(&state).unwrap();
    let gen0 = gen0["generation"].as_u64().unwrap();

    std::fs::write(
        entry,
        src.replace("## Root Cause\n\n", "## Root Cause\n\nEDITED-MARKER "),
    )
    .unwrap();
    let (_, state) = get(&format!("{base}/__errbook/reload?since={gen0}"));
    let st: serde_json::Value = serde_json::from_str(&state).unwrap();
    assert!(st["generation"].as_u64().unwrap() > gen0, "{state}");
    let (_, page) = get(&format!("{base}/errors/pytorch/dataset-worker-fork-cuda/"));
    assert!(page.contains("EDITED-MARKER"), "rebuilt page served");
    st["generation"].as_u64().unwrap()
}

/// A bad edit: the old page stays, the errors are reported to the browser.
fn bad_edit_keeps_the_old_site(base: &str, entry: &Path, src: &str, gen1: u64) {
    std::fs::write(
        entry,
        src.replace("**Fix Rate:** 90%", "**Fix Rate:** 190%"),
    )
    .unwrap();
    // The good edit publishes twice (its page first, then the rest), so follow the generations
    // until the failed build reports its errors instead of re-asking for the same one.
    let mut since = gen1;
    let mut st = serde_json::Value::Null;
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        let (_, state) = get(&format!("{base}/__errbook/reload?since={since}"));
        st = serde_json::from_str(&state).unwrap();
        if !st["errors"].as_str().unwrap_or("").is_empty() {
            break;
        }
        since = st["generation"].as_u64().unwrap_or(since);
    }
    let errors = st["errors"].as_str().unwrap();
    assert!(
        errors.contains("dataset-worker-fork-cuda.md:8:"),
        "{errors}"
    );
    let (_, page) = get(&format!("{base}/errors/pytorch/dataset-worker-fork-cuda/"));
    assert!(
        page.contains("EDITED-MARKER"),
        "previous build still served"
    );
}

/// Started on content that does not build (and no site built before), `serve` answers every page
/// with the diagnostics, not "not found", and serves the site once the file is fixed.
#[test]
fn a_broken_start_shows_the_errors_and_recovers() {
    let site = copy_site();
    let (entry, src) = seed_entry(site.path());
    std::fs::write(
        &entry,
        src.replace("**Fix Rate:** 90%", "**Fix Rate:** 190%"),
    )
    .unwrap();
    let (_server, base) = start(site.path());
    for path in ["/", "/errors/pytorch/dataset-worker-fork-cuda/"] {
        let (status, page) = get(&format!("{base}{path}"));
        assert_eq!(status, 500, "{path}: {page}");
        assert!(page.contains("The site does not build"), "{path}: {page}");
        assert!(
            page.contains("dataset-worker-fork-cuda.md:8:") && page.contains("190%"),
            "{path}: the diagnostic, located: {page}"
        );
        assert!(page.contains("/__errbook/livereload.js"), "{page}");
        assert!(!page.contains("<script>"), "no inline script: {page}");
    }
    let (_, state) = get(&format!("{base}/__errbook/reload"));
    let gen0 = serde_json::from_str::<serde_json::Value>(&state).unwrap()["generation"]
        .as_u64()
        .unwrap();

    std::fs::write(&entry, &src).unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut since = gen0;
    loop {
        let (_, state) = get(&format!("{base}/__errbook/reload?since={since}"));
        let st: serde_json::Value = serde_json::from_str(&state).unwrap();
        since = st["generation"].as_u64().unwrap();
        if since > gen0 && st["errors"].as_str() == Some("") {
            break;
        }
        assert!(Instant::now() < deadline, "no good rebuild: {state}");
    }
    let (status, page) = get(&format!("{base}/errors/pytorch/dataset-worker-fork-cuda/"));
    assert_eq!(status, 200);
    assert!(page.contains("Cannot re-initialize CUDA in forked subprocess"));
    let (status, nf) = get(&format!("{base}/no/such/page/"));
    assert_eq!(status, 404, "{nf}");
}

#[test]
fn bind_serves_on_another_address_and_warns() {
    let site = copy_site();
    let port = free_port();
    let (_server, _, seen) = spawn(
        Command::new(env!("CARGO_BIN_EXE_errbook"))
            .arg("--root")
            .arg(site.path())
            .args(["serve", "--bind", "0.0.0.0", "-p", &port.to_string()]),
    );
    assert!(
        seen.iter()
            .any(|l| l.contains("warning: serving on 0.0.0.0")),
        "{seen:?}"
    );
    let (status, body) = get(&format!("http://127.0.0.1:{port}/"));
    assert_eq!(status, 200);
    assert!(body.contains("<html"), "{body}");
}

/// Served from the catalog's own folder (no `--root`, the way authors start it), an edit of an
/// entry is named by its path in the catalog (the watcher reports absolute paths, shown under
/// the root `.`), built again, and served.
#[test]
fn an_edit_served_from_the_catalogs_folder_is_built_and_served() {
    let site = copy_site();
    let port = free_port();
    let (_server, rx, _) = spawn(
        Command::new(env!("CARGO_BIN_EXE_errbook"))
            .current_dir(site.path())
            .args(["serve", "-p", &port.to_string()]),
    );
    let (entry, src) = seed_entry(site.path());
    std::fs::write(
        &entry,
        src.replace("## Root Cause\n\n", "## Root Cause\n\nEDITED-MARKER "),
    )
    .unwrap();
    let seen = read_until(&rx, |l| l.starts_with("built: "));
    assert!(
        seen.iter()
            .any(|l| l == "changed: content/errors/pytorch/dataset-worker-fork-cuda.md"),
        "{seen:?}"
    );
    let (_, page) = get(&format!(
        "http://127.0.0.1:{port}/errors/pytorch/dataset-worker-fork-cuda/"
    ));
    assert!(page.contains("EDITED-MARKER"), "the edit is served");
}

/// `GET url`: the status and the body's bytes.
fn get_bytes(url: &str) -> (u16, Vec<u8>) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(40)))
        .build()
        .into();
    let mut r = agent.get(url).call().expect("request");
    let status = r.status().as_u16();
    let body = r.body_mut().with_config().limit(64 << 20).read_to_vec();
    (status, body.unwrap_or_default())
}

/// What `serve` answers is what `build` writes: every file of the built site, byte for byte
/// (a page with the live-reload script taken out again), in each layout of the entries' JSON,
/// and after an edit, the edited site's.
#[test]
fn serves_the_bytes_a_build_writes() {
    const SCRIPT: &[u8] = b"<script src=\"/__errbook/livereload.js\" defer></script>";
    let site = copy_site();
    let book = site.path().join("book.toml");
    let cfg = std::fs::read_to_string(&book).unwrap();
    for layout in ["domains", "files", "none"] {
        let with = cfg.replace(
            "[build]\n",
            &format!("[build]\nentry_json = \"{layout}\"\n"),
        );
        std::fs::write(&book, with).unwrap();
        let (_server, base) = start(site.path());
        let (entry, src) = seed_entry(site.path());
        for edited in [false, true] {
            if edited {
                let marker = format!("EDITED-{layout}");
                let text = src.replace("## Root Cause\n\n", &format!("## Root Cause\n\n{marker} "));
                std::fs::write(&entry, text).unwrap();
                let page = format!("{base}/errors/pytorch/dataset-worker-fork-cuda/");
                let deadline = Instant::now() + Duration::from_secs(60);
                while !get(&page).1.contains(&marker) {
                    assert!(Instant::now() < deadline, "the edit never showed");
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
            let (_t, out) = build(site.path(), &[]);
            let built = files(&out);
            assert!(built.len() > 20, "{layout}: {built:?}");
            for rel in built.iter().filter(|f| !f.starts_with('.')) {
                let (status, mut served) = get_bytes(&format!("{base}/{rel}"));
                let want = std::fs::read(out.join(rel)).unwrap();
                assert_eq!(status, 200, "{layout}: {rel}");
                if rel.ends_with(".html") {
                    let at = served.windows(SCRIPT.len()).position(|w| w == SCRIPT);
                    let at = at.unwrap_or_else(|| panic!("{layout}: no live reload in {rel}"));
                    served.drain(at..at + SCRIPT.len());
                }
                assert!(
                    served == want,
                    "{layout}: {rel} is not what the build wrote"
                );
            }
        }
        std::fs::write(&entry, src).unwrap();
    }
}
