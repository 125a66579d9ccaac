//! A build of a large catalog keeps of each entry only what every page needs and reads the file
//! again to render its page: what the entry's own page shows, and what other pages show of it (a
//! code block that a `links:` item ties to another entry's workaround), must come out as with the
//! whole model, and so must its diagnostics (see also `link_explicit`). A small catalog keeps its
//! entries whole; `ERRBOOK_WHOLE_ENTRIES_MIB=0` makes any catalog's build lean, and both builds
//! must give the same bytes.

use crate::common::{copy_tree, errbook, files, read, repo};
use std::path::{Path, PathBuf};

/// The links fixture, with `python/broken-pipe`'s code block confirmed as an example of
/// `pytorch/cuda-oom`'s first workaround.
fn catalog(dir: &Path) {
    copy_tree(&repo().join("tests/fixtures/links"), dir);
    let path = dir.join("content/errors/python/broken-pipe.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let head = "---\nlinks:\n  confirm: [\"snippet-1 -> pytorch/cuda-oom#workaround-1\"]\n---\n";
    let tail = "\n## Reproduction\n\n**A writer whose reader quit early**\n\n\
                ```python\nimport sys\nsys.stdout.write(\"x\" * 65536)\n```\n";
    std::fs::write(&path, format!("{head}{text}{tail}")).unwrap();
}

/// Build `root` into `out` with the given budget for whole entries (None: the default).
fn build_with(root: &Path, out: &Path, mib: Option<&str>) {
    let mut cmd = errbook();
    cmd.arg("--root").arg(root).arg("build").arg("-d").arg(out);
    match mib {
        Some(m) => cmd.env("ERRBOOK_WHOLE_ENTRIES_MIB", m),
        None => cmd.env_remove("ERRBOOK_WHOLE_ENTRIES_MIB"),
    };
    let o = cmd.output().unwrap();
    assert!(
        o.status.success(),
        "build failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The lean build's output and the whole one's, of the same catalog.
fn both(root: &Path, tmp: &Path) -> (PathBuf, PathBuf) {
    let (lean, whole) = (tmp.join("lean"), tmp.join("whole"));
    build_with(root, &lean, Some("0"));
    build_with(root, &whole, None);
    (lean, whole)
}

#[test]
fn another_entrys_code_block_is_shown_with_its_label() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("catalog");
    catalog(&root);
    let (lean, whole) = both(&root, tmp.path());
    for site in [&lean, &whole] {
        let oom = read(site, "errors/pytorch/cuda-oom/index.html");
        assert!(oom.contains("A writer whose reader quit early"), "{oom}");
        assert!(oom.contains("code-snippet-1"), "{oom}");
        // The entry's own page, rendered from its file read again, shows the block and its section.
        let pipe = read(site, "errors/python/broken-pipe/index.html");
        assert!(pipe.contains("65536"), "{pipe}");
        assert!(pipe.contains("Reproduction"), "{pipe}");
    }
}

#[test]
fn a_lean_build_and_a_whole_one_write_the_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let links = tmp.path().join("links");
    catalog(&links);
    for root in [links, repo()] {
        let out = tempfile::tempdir().unwrap();
        let (lean, whole) = both(&root, out.path());
        let names = files(&lean);
        assert_eq!(names, files(&whole), "{}", root.display());
        assert!(names.len() > 10, "{names:?}");
        for rel in &names {
            let (a, b) = (
                std::fs::read(lean.join(rel)).unwrap(),
                std::fs::read(whole.join(rel)).unwrap(),
            );
            assert!(a == b, "{rel} differs in {}", root.display());
        }
    }
}
