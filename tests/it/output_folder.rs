//! The output folder a build may replace: never the sources, the theme, the records, the
//! repository or the site's root (a build replaces its output whole, and `output_dir =
//! "content"` used to delete the sources), and never a folder of someone else's files.

use crate::common::{errbook, files};
use std::path::Path;

/// The search fixture with the theme, in `dir/site`.
fn site(dir: &Path) -> std::path::PathBuf {
    crate::search_cli::site_copy(dir)
}

fn build(root: &Path, args: &[&str]) -> (bool, String) {
    let o = errbook()
        .arg("--root")
        .arg(root)
        .arg("build")
        .args(args)
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn an_output_folder_over_what_a_build_reads_is_refused_and_nothing_is_touched() {
    let tmp = tempfile::tempdir().unwrap();
    let root = site(tmp.path());
    let before = files(&root);
    for dest in [
        "content",
        "content/errors",
        "themes/default",
        ".",
        "..",
        "./content/../themes",
    ] {
        let (ok, err) = build(&root, &["-d", &root.join(dest).to_string_lossy()]);
        assert!(!ok, "-d {dest} was accepted");
        assert!(
            err.contains("cannot build into this folder"),
            "-d {dest}: {err}"
        );
    }
    // The same from book.toml.
    let toml = root.join("book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        format!("{text}\n[build]\noutput_dir = \"content\"\n"),
    )
    .unwrap();
    let (ok, err) = build(&root, &[]);
    assert!(!ok && err.contains("lies inside the content"), "{err}");
    std::fs::write(&toml, text).unwrap();
    assert_eq!(files(&root), before, "a refused build changed the sources");
    assert!(!root.join(".content.prev").exists() && !root.join(".content.lock").exists());
}

#[test]
fn a_folder_of_other_files_is_not_replaced_but_an_older_errbook_output_is() {
    let tmp = tempfile::tempdir().unwrap();
    let root = site(tmp.path());
    let docs = tmp.path().join("Documents");
    std::fs::create_dir_all(&docs).unwrap();
    std::fs::write(docs.join("thesis.tex"), "years of work").unwrap();
    let (ok, err) = build(&root, &["-d", &docs.to_string_lossy()]);
    assert!(!ok && err.contains("did not write"), "{err}");
    assert_eq!(
        std::fs::read_to_string(docs.join("thesis.tex")).unwrap(),
        "years of work"
    );

    // An output an older errbook wrote (no marker) is recognised by its shape and replaced.
    let old = tmp.path().join("book");
    let (ok, err) = build(&root, &["-d", &old.to_string_lossy()]);
    assert!(ok, "{err}");
    std::fs::remove_file(old.join(".errbook")).unwrap();
    let (ok, err) = build(&root, &["-d", &old.to_string_lossy()]);
    assert!(ok, "{err}");
    assert!(old.join(".errbook").is_file());
}
