//! `errbook new`: the file it writes fails `check` only on its template text, it never overwrites, it rejects bad IDs with a
//! hint, it creates folders and prints the path it wrote.

use assert_cmd::Command;
use std::path::Path;

/// A fresh site: book.toml and nothing else.
fn site() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join("book.toml"), "[site]\ntitle = \"t\"\n").unwrap();
    t
}

fn errbook(root: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("errbook")
        .unwrap()
        .arg("--root")
        .arg(root)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn new_error_then_check_finds_only_its_template_text() {
    let t = site();
    let (code, out, err) = errbook(t.path(), &["new", "error", "cuda/out-of-memory"]);
    assert_eq!(code, 0, "{err}");
    let file = t.path().join("content/errors/cuda/out-of-memory.md");
    assert_eq!(out.trim(), file.display().to_string());
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("- **ID:** `cuda/out-of-memory`"), "{text}");
    assert!(text.contains("- **Domain:** cuda"), "{text}");
    assert!(err.contains("`errbook check` lists what is wrong"), "{err}");
    // Its only errors are the template's text, each at its line: it is never published as it is.
    let (code, _, err) = errbook(t.path(), &["check"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("check: 4 errors, 0 warnings in 1 file (1 entry and 0 articles parsed)"),
        "{err}"
    );
    assert_eq!(err.matches("error[").count(), 4, "{err}");
    assert_eq!(err.matches("error[E-placeholder]: ").count(), 4, "{err}");
    assert!(
        err.contains("error[E-placeholder]: content/errors/cuda/out-of-memory.md:1:17: this is still the template's text"),
        "{err}"
    );
}

#[test]
fn new_article_is_dated_today_and_only_its_template_text_fails_check() {
    let t = site();
    let before = chrono::Local::now().date_naive();
    let (code, out, err) = errbook(t.path(), &["new", "article", "why-is-cuda-slow"]);
    let after = chrono::Local::now().date_naive();
    assert_eq!(code, 0, "{err}");
    let file = t.path().join("content/articles/why-is-cuda-slow.md");
    assert_eq!(out.trim(), file.display().to_string());
    let text = std::fs::read_to_string(&file).unwrap();
    let dated = [before, after]
        .iter()
        .any(|d| text.contains(&format!("date: \"{}\"", d.format("%Y-%m-%d"))));
    assert!(dated, "not dated today ({before}):\n{text}");
    assert!(text.contains("id: \"why-is-cuda-slow\""), "{text}");
    assert!(text.contains("title: \"Why is cuda slow\""), "{text}");
    let (code, _, err) = errbook(t.path(), &["check"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("(0 entries and 1 article parsed)"), "{err}");
    assert_eq!(
        err.matches("error[").count(),
        err.matches("error[E-placeholder]: ").count(),
        "only the template's text: {err}"
    );
}

#[test]
fn new_files_next_to_the_seed_catalog_fail_only_on_their_template_text() {
    // In a copy of the seed catalog, both templates add a page whose only errors are their text.
    let t = tempfile::tempdir().unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(repo.join("book.toml"), t.path().join("book.toml")).unwrap();
    for e in walkdir::WalkDir::new(repo.join("content")) {
        let e = e.unwrap();
        let dst = t.path().join(e.path().strip_prefix(repo).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&dst).unwrap();
        } else {
            std::fs::copy(e.path(), &dst).unwrap();
        }
    }
    assert_eq!(errbook(t.path(), &["new", "error", "pytorch/new-one"]).0, 0);
    assert_eq!(errbook(t.path(), &["new", "article", "new-article"]).0, 0);
    let (code, _, err) = errbook(t.path(), &["check"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("(2 entries and 4 articles parsed)"), "{err}");
    assert_eq!(
        err.matches("error[").count(),
        err.matches("error[E-placeholder]: ").count(),
        "only the templates' text: {err}"
    );
}

#[test]
fn new_refuses_to_overwrite() {
    let t = site();
    assert_eq!(errbook(t.path(), &["new", "error", "demo/x"]).0, 0);
    let file = t.path().join("content/errors/demo/x.md");
    std::fs::write(&file, "my edits\n").unwrap();
    let (code, out, err) = errbook(t.path(), &["new", "error", "demo/x"]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains(&format!(
            "error: {} already exists; errbook new does not overwrite files",
            file.display()
        )),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "my edits\n");

    assert_eq!(errbook(t.path(), &["new", "article", "a"]).0, 0);
    let (code, _, err) = errbook(t.path(), &["new", "article", "a"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("already exists"), "{err}");
}

#[test]
fn new_rejects_invalid_ids_with_a_hint() {
    let t = site();
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["new", "error", "PyTorch/Out Of Memory"],
            "error: invalid error ID `PyTorch/Out Of Memory`",
            "help: use lowercase letters, digits, `-` and `_`: `pytorch/out-of-memory`",
        ),
        (
            &["new", "error", "oom"],
            "error: invalid error ID `oom`",
            "help: an error ID is `domain/slug`, e.g. `pytorch/oom`",
        ),
        (
            &["new", "error", "a/b/c"],
            "error: invalid error ID `a/b/c`",
            "help: an error ID has one `/`: `a/b-c`",
        ),
        (
            &["new", "article", "guides/why"],
            "error: invalid article ID `guides/why`",
            "help: an article ID has no `/` (articles live in content/articles/): `guides-why`",
        ),
        (
            &["new", "article", "why-oom.md"],
            "error: `why-oom.md` is a file name, not an ID",
            "help: give the ID without `.md`: `errbook new article why-oom`",
        ),
    ];
    for (args, msg, hint) in cases {
        let (code, out, err) = errbook(t.path(), args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(msg), "{args:?}: {err}");
        assert!(err.contains(hint), "{args:?}: {err}");
    }
    assert!(
        !t.path().join("content").exists(),
        "nothing may be written for an invalid ID"
    );
}

#[test]
fn new_needs_a_site_root() {
    let t = tempfile::tempdir().unwrap();
    let (code, _, err) = errbook(t.path(), &["new", "error", "demo/x"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no book.toml in"), "{err}");
    assert!(!t.path().join("content").exists());
}
