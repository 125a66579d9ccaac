//! The whole catalog: every fixture has a test, good catalogs check clean, no input makes errbook
//! panic, a failed build leaves the previous output whole, a bad book.toml is located.

use super::*;
use assert_cmd::Command;
use std::path::{Path, PathBuf};

#[test]
fn every_fixture_has_a_test() {
    // A fixture folder nobody asserts on is a case nobody checks.
    let src = [
        include_str!("articles.rs"),
        include_str!("entries.rs"),
        include_str!("files.rs"),
        include_str!("front_matter.rs"),
    ]
    .concat();
    for d in std::fs::read_dir(fixture("")).unwrap() {
        let name = d.unwrap().file_name().into_string().unwrap();
        assert!(
            src.contains(&format!("\"{name}\"")),
            "tests/fixtures/bad/{name} has no test in tests/it/diagnostics/"
        );
    }
}

#[test]
fn seed_catalog_checks_clean() {
    let (status, err) = check(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert_eq!(status, 0, "{err}");
    assert!(!err.contains("error["), "{err}");
    assert!(err.contains("check: ok, "), "{err}");
}

#[test]
fn good_fixture_base_checks_clean() {
    // The good files every bad fixture carries are themselves clean: each case fails for its
    // own file only. Take one fixture and drop its bad file.
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&fixture("percent-fix-rate"), tmp.path());
    std::fs::remove_file(tmp.path().join("content/errors/demo/bad.md")).unwrap();
    let (status, err) = check(tmp.path());
    assert_eq!(status, 0, "{err}");
    assert!(
        err.contains("check: ok, 0 warnings in 2 files (1 entry and 1 article parsed)"),
        "{err}"
    );
}

#[test]
fn no_fixture_makes_errbook_panic_and_build_writes_nothing() {
    for d in std::fs::read_dir(fixture("")).unwrap() {
        let dir = d.unwrap().path();
        let (status, err) = check(&dir);
        assert_ne!(status, 101, "{}: check panicked\n{err}", dir.display());
        assert!(!err.contains("panicked"), "{}: {err}", dir.display());
        assert_eq!(
            status,
            1,
            "{}: bad input must fail check\n{err}",
            dir.display()
        );
        // build stops before writing anything: no output, no staging folder beside it.
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        let (status, err) = build(&dir, &out);
        assert_ne!(status, 101, "{}: build panicked\n{err}", dir.display());
        assert_eq!(status, 1, "{}: build on bad input\n{err}", dir.display());
        assert!(err.contains("nothing was written"), "{err}");
        assert_eq!(
            std::fs::read_dir(tmp.path()).unwrap().count(),
            0,
            "{}: build left files behind",
            dir.display()
        );
    }
}

/// `errbook --root ROOT build -d OUT`: (exit code, stderr).
fn build(root: &Path, out: &Path) -> (i32, String) {
    let o = Command::cargo_bin("errbook")
        .unwrap()
        .arg("--root")
        .arg(root)
        .args(["build", "-d"])
        .arg(out)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path().strip_prefix(dir).unwrap().to_path_buf(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn failed_build_leaves_the_previous_output_whole() {
    // A good site (a fixture without its bad file, plus the repo's theme) builds; then a broken
    // file is added and the build into the same folder fails, leaving every byte as it was.
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("src");
    copy_dir(&fixture("section-unknown"), &site);
    let bad = std::fs::read(site.join("content/errors/demo/bad.md")).unwrap();
    std::fs::remove_file(site.join("content/errors/demo/bad.md")).unwrap();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("themes"),
        &site.join("themes"),
    );
    let out = tmp.path().join("site");
    let (status, err) = build(&site, &out);
    assert_eq!(status, 0, "the good site must build\n{err}");
    let before = snapshot(&out);
    assert!(
        before.contains_key(Path::new("errors/demo/good-entry/index.html")),
        "{:?}",
        before.keys().collect::<Vec<_>>()
    );
    let beside_before = std::fs::read_dir(tmp.path()).unwrap().count();

    std::fs::write(site.join("content/errors/demo/bad.md"), bad).unwrap();
    let (status, err) = build(&site, &out);
    assert_eq!(status, 1, "{err}");
    assert!(
        err.contains(
            "error[E-section]: content/errors/demo/bad.md:21:1: unknown section `Workaroundz`"
        ),
        "{err}"
    );
    assert!(err.contains("nothing was written"), "{err}");
    let after = snapshot(&out);
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>(),
        "the set of output files changed"
    );
    for (path, bytes) in &before {
        assert!(after[path] == *bytes, "{} changed", path.display());
    }
    assert_eq!(
        std::fs::read_dir(tmp.path()).unwrap().count(),
        beside_before,
        "the failed build left a folder beside the output"
    );
}

/// The parser on every prefix, every one-line deletion and every one-line duplication of the seed
/// files and the fixtures: diagnostics, never a panic.
#[test]
fn mangled_input_never_panics() {
    use errbook_core::PageKind;
    use errbook_parse::load::SourceFile;
    use std::sync::Arc;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut originals: Vec<(PageKind, PathBuf, String)> = Vec::new();
    for base in [root.to_path_buf(), fixture("percent-fix-rate")] {
        for (kind, rel) in errbook_parse::load::content_paths(&base).unwrap() {
            let text = std::fs::read_to_string(base.join(&rel)).unwrap();
            originals.push((kind, rel, text));
        }
    }
    let mut tried = 0;
    for (kind, rel, text) in &originals {
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let mut variants: Vec<String> = Vec::new();
        for i in 0..lines.len() {
            variants.push(lines[..i].concat());
            let mut del = lines.clone();
            del.remove(i);
            variants.push(del.concat());
            let mut dup = lines.clone();
            dup.insert(i, lines[i]);
            variants.push(dup.concat());
        }
        // Byte-level cuts inside lines too (at character boundaries).
        for (i, _) in text.char_indices().step_by(13) {
            variants.push(text[..i].to_string());
        }
        for v in variants {
            if v.trim().is_empty() {
                continue;
            }
            let f = SourceFile {
                kind: *kind,
                path: rel.clone(),
                text: Arc::from(v.as_str()),
            };
            let r = std::panic::catch_unwind(|| errbook_parse::parse_file(&f, 300));
            assert!(r.is_ok(), "{} panicked on this input:\n{v}", rel.display());
            tried += 1;
        }
    }
    assert!(tried > 500, "only {tried} variants tried");
}

fn copy_dir(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.unwrap();
        let rel = e.path().strip_prefix(from).unwrap();
        let dst = to.join(rel);
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&dst).unwrap();
        } else {
            std::fs::copy(e.path(), &dst).unwrap();
        }
    }
}

#[test]
fn bad_book_toml_fails_check_with_its_location() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("book.toml"), "[site]\ntitel = \"x\"\n").unwrap();
    let (status, err) = check(tmp.path());
    assert_eq!(status, 1, "{err}");
    let book = tmp.path().join("book.toml");
    let header = format!(
        "error[E-config]: {}:2:1: unknown key `titel` in [site]\n",
        book.display()
    );
    assert!(err.starts_with(&header), "{err}");
    // The message and the line once each, the line where it is, the key it was meant to be.
    assert_eq!(err.matches("unknown key").count(), 1, "{err}");
    assert_eq!(err.matches("titel = \"x\"").count(), 1, "{err}");
    assert!(err.contains(" 2 │ titel = \"x\"\n"), "{err}");
    assert!(
        squash(&err).contains("help: did you mean `title`? [site] takes `title`, `description`,"),
        "{err}"
    );
    assert!(
        err.contains("check: 1 error in book.toml; the content was not checked"),
        "{err}"
    );
}

#[test]
fn a_wrong_value_in_book_toml_names_its_key_and_the_accepted_ones() {
    let tmp = tempfile::tempdir().unwrap();
    for (toml, key, accepted) in [
        (
            "[verify]\nsandbox = \"docker\"\n",
            "sandbox",
            &["`bwrap`", "`none`"][..],
        ),
        (
            "[verify.slurm]\ngpu_flag = \"gpu\"\n",
            "gpu_flag",
            &["`gres`", "`gpus`"],
        ),
        (
            "[verify]\ngpu_mem_cap = \"150%\"\n",
            "gpu_mem_cap",
            &["`90%`", "`60GiB`"],
        ),
        (
            "[verify]\ngpu_mem_default = \"lots\"\n",
            "gpu_mem_default",
            &["`4GiB`"],
        ),
        (
            "[verify]\nmemory_limit = \"16 parsecs\"\n",
            "memory_limit",
            &["`16G`"],
        ),
    ] {
        std::fs::write(tmp.path().join("book.toml"), toml).unwrap();
        let (status, err) = check(tmp.path());
        assert_eq!(status, 1, "{key}: {err}");
        let at = format!(
            "error[E-config]: {}:2:",
            tmp.path().join("book.toml").display()
        );
        assert!(err.starts_with(&at), "{key}: {err}");
        assert!(err.contains(&format!(" 2 │ {key} = ")), "{key}: {err}");
        for a in accepted {
            assert!(err.contains(a), "{key}, {a}: {err}");
        }
        // `verify` refuses it as it reads book.toml, before anything runs.
        let out = Command::cargo_bin("errbook")
            .unwrap()
            .args(["verify", "--dry-run", "--root"])
            .arg(tmp.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{key}: {err}");
        assert!(err.starts_with(&at), "{key}: {err}");
        assert!(err.contains(accepted[0]), "{key}: {err}");
    }
}
