//! A code block that a `links:` item ties to another entry's workaround is shown on that entry's
//! page with its label, and the block's own entry still shows it in its section.

use crate::common::{build, copy_tree, read, repo};
use std::path::Path;

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

#[test]
fn another_entrys_code_block_is_shown_with_its_label() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("catalog");
    catalog(&root);
    let (_out, site) = build(&root, &[]);
    let oom = read(&site, "errors/pytorch/cuda-oom/index.html");
    assert!(oom.contains("A writer whose reader quit early"), "{oom}");
    assert!(oom.contains("code-snippet-1"), "{oom}");
    let pipe = read(&site, "errors/python/broken-pipe/index.html");
    assert!(pipe.contains("65536"), "{pipe}");
    assert!(pipe.contains("Reproduction"), "{pipe}");
}
