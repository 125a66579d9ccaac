//! A build killed at any instant, run twice at once, or filling the disk leaves the previous
//! site whole: the output folder is at every moment exactly one complete build, byte for byte,
//! and the next build succeeds.
//!
//! Two versions of a synthetic catalog (A, and B with every entry edited) are built once each as
//! references; the scenarios then build them into one output folder and compare it with them.
//! The full-disk scenario mounts a tmpfs, so it needs root; it is skipped without, unless
//! `ERRBOOK_TEST_TMPFS` (as `.ci/run` sets as root), which makes a missing mount a failure.

use crate::common::{errbook, files};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Catalog A and catalog B (A with every entry's root cause edited) under `dir`.
fn catalogs(dir: &Path, entries: &str) -> (PathBuf, PathBuf) {
    let (a, b) = (dir.join("a"), dir.join("b"));
    for (out, seed) in [(&a, "7"), (&b, "7")] {
        crate::common::synth_catalog(
            out,
            &[
                "--entries",
                entries,
                "--articles",
                "20",
                "--seed",
                seed,
                "--sites",
                "errbook",
            ],
        );
    }
    let (a, b) = (a.join("errbook"), b.join("errbook"));
    for e in walkdir::WalkDir::new(b.join("content/errors")) {
        let e = e.unwrap();
        if e.file_type().is_file() {
            let text = std::fs::read_to_string(e.path()).unwrap();
            // Much longer, so that B needs more room than A (the full-disk scenario).
            let more = "Edited in B, at length. ".repeat(300);
            let edited = text.replacen("## Root Cause\n", &format!("## Root Cause\n{more}"), 1);
            std::fs::write(e.path(), edited).unwrap();
        }
    }
    (a, b)
}

fn build_cmd(root: &Path, dest: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_errbook"));
    c.arg("--root").arg(root).arg("build").arg("-d").arg(dest);
    c.stdout(Stdio::null()).stderr(Stdio::piped());
    c
}

fn build(root: &Path, dest: &Path) {
    let o = errbook()
        .arg("--root")
        .arg(root)
        .arg("build")
        .arg("-d")
        .arg(dest)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// A built output: every file and its bytes.
#[derive(PartialEq)]
struct Tree(Vec<(String, Vec<u8>)>);

impl Tree {
    fn of(dir: &Path) -> Tree {
        Tree(
            files(dir)
                .into_iter()
                .map(|f| {
                    let bytes = std::fs::read(dir.join(&f)).unwrap();
                    (f, bytes)
                })
                .collect(),
        )
    }
}

/// Which reference `dest` is exactly, if any.
fn which(dest: &Path, refs: &[(&str, &Tree)]) -> Option<String> {
    if !dest.is_dir() {
        return None;
    }
    let t = Tree::of(dest);
    refs.iter()
        .find(|(_, r)| **r == t)
        .map(|(n, _)| n.to_string())
}

/// Names beside the output folder (the output, its staging folder, its lock and nothing else).
fn beside(dest: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dest.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("out"))
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

struct Fixture {
    _tmp: tempfile::TempDir,
    a: PathBuf,
    b: PathBuf,
    ref_a: Tree,
    ref_b: Tree,
    /// Bytes A's output takes on disk.
    size_a: u64,
    dest: PathBuf,
    /// How long one build of B takes here.
    took: Duration,
}

fn fixture(entries: &str) -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = catalogs(tmp.path(), entries);
    let (ra, rb) = (tmp.path().join("ref-a"), tmp.path().join("ref-b"));
    build(&a, &ra);
    let started = Instant::now();
    build(&b, &rb);
    let took = started.elapsed();
    let (ref_a, ref_b) = (Tree::of(&ra), Tree::of(&rb));
    let size_a = size_of(&ra);
    assert!(ref_a != ref_b, "the two versions build the same site");
    let dest = tmp.path().join("site").join("out");
    std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
    Fixture {
        _tmp: tmp,
        a,
        b,
        ref_a,
        ref_b,
        size_a,
        dest,
        took,
    }
}

fn kill(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn a_build_killed_at_any_instant_leaves_a_whole_site() {
    let f = fixture("60");
    let refs = [("A", &f.ref_a), ("B", &f.ref_b)];
    build(&f.a, &f.dest);
    let seed = std::env::var("ERRBOOK_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| fastrand::u64(..));
    let mut rng = fastrand::Rng::with_seed(seed);
    let window = f.took.as_millis() as u64 * 13 / 10 + 1;
    let mut seen = BTreeSet::new();
    for i in 0..16 {
        let root = if i % 2 == 0 { &f.b } else { &f.a };
        let at = rng.u64(..window);
        let child = build_cmd(root, &f.dest).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(at));
        kill(child);
        let now = which(&f.dest, &refs);
        assert!(
            now.is_some(),
            "killed at {at} ms (of {window}), round {i}: the output is not a whole site \
             (ERRBOOK_KILL_SEED={seed} repeats it)"
        );
        seen.extend(now);
    }
    build(&f.b, &f.dest);
    assert_eq!(which(&f.dest, &refs).as_deref(), Some("B"));
    assert_eq!(beside(&f.dest), set(&[".out.lock", ".out.prev", "out"]));
    eprintln!("kill test: seed {seed}, outputs seen after kills: {seen:?}");
}

#[test]
fn builds_at_once_into_one_folder_take_turns_and_a_reader_always_sees_a_whole_site() {
    let f = fixture("60");
    let refs = [("A", &f.ref_a), ("B", &f.ref_b)];
    build(&f.a, &f.dest);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let (stop, dest) = (stop.clone(), f.dest.clone());
        std::thread::spawn(move || {
            let mut reads = 0;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                let page = std::fs::read_to_string(dest.join("index.html"))
                    .unwrap_or_else(|e| panic!("read {reads}: no index.html: {e}"));
                assert!(
                    page.trim_end().ends_with("</html>"),
                    "read {reads}: half a page"
                );
                reads += 1;
            }
            reads
        })
    };
    let children: Vec<Child> = (0..4)
        .map(|i| {
            let root = if i % 2 == 0 { &f.b } else { &f.a };
            build_cmd(root, &f.dest).spawn().unwrap()
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let reads = reader.join().expect("the reader saw a broken site");
    assert!(reads > 0);
    assert!(which(&f.dest, &refs).is_some(), "not a whole site");
    assert_eq!(beside(&f.dest), set(&[".out.lock", ".out.prev", "out"]));
}

/// A tmpfs mounted for one test, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(at: &Path, bytes: u64) -> Option<Tmpfs> {
        std::fs::create_dir_all(at).unwrap();
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        let ok = root
            && Command::new("mount")
                .args(["-t", "tmpfs", "-o", &format!("size={bytes}"), "tmpfs"])
                .arg(at)
                .status()
                .is_ok_and(|s| s.success());
        if !crate::common::gate("ERRBOOK_TEST_TMPFS", "a tmpfs mount (needs root)", ok) {
            return None;
        }
        Some(Tmpfs(at.to_path_buf()))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

fn size_of(dir: &Path) -> u64 {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len().div_ceil(4096) * 4096 + 4096)
        .sum()
}

#[test]
fn a_build_that_fills_the_disk_leaves_the_old_site_and_blocks_nothing() {
    let f = fixture("60");
    let refs = [("A", &f.ref_a), ("B", &f.ref_b)];
    let site = f.size_a;
    let mnt = f.dest.parent().unwrap().join("disk");
    // Room for the output and its staging folder, not for a third copy.
    let Some(_disk) = Tmpfs::mount(&mnt, site * 5 / 2) else {
        return;
    };
    let dest = mnt.join("out");
    build(&f.a, &dest);
    build(&f.a, &dest);
    // A filler leaves less room than B's staging folder needs.
    let free = nix_free(&mnt);
    std::fs::write(mnt.join("filler"), vec![0u8; (free - site / 20) as usize]).unwrap();
    let o = build_cmd(&f.b, &dest).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "B fit: {err}");
    assert!(err.contains("No space left"), "{err}");
    assert_eq!(
        which(&dest, &refs).as_deref(),
        Some("A"),
        "the old site is damaged"
    );
    assert!(
        !mnt.join(".out.prev").exists(),
        "the staging folder still takes space"
    );
    // Room again: the next builds go through.
    std::fs::remove_file(mnt.join("filler")).unwrap();
    build(&f.b, &dest);
    assert_eq!(which(&dest, &refs).as_deref(), Some("B"));
    build(&f.a, &dest);
    assert_eq!(which(&dest, &refs).as_deref(), Some("A"));
}

/// Free bytes of the filesystem at `p`.
fn nix_free(p: &Path) -> u64 {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(p.as_os_str().as_bytes()).unwrap();
    // SAFETY: `c` is a valid path; `st` is written by statvfs before it is read.
    unsafe {
        let mut st: libc::statvfs = std::mem::zeroed();
        assert_eq!(libc::statvfs(c.as_ptr(), &mut st), 0);
        st.f_bavail as u64 * st.f_frsize as u64
    }
}
