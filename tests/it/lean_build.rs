//! A build keeps of each entry only what every page needs and reads the file again to render
//! its page: what the entry's own page shows, and what other pages show of it (a code block
//! that a `links:` item ties to another entry's workaround), must come out as with the whole
//! model, and so must its diagnostics (see also `link_explicit`).

use crate::common::{build, copy_tree, read, repo};

/// The links fixture, with `python/broken-pipe`'s code block confirmed as an example of
/// `pytorch/cuda-oom`'s first workaround.
fn catalog(dir: &std::path::Path) {
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
    catalog(tmp.path());
    let (_out, site) = build(tmp.path(), &[]);
    let oom = read(&site, "errors/pytorch/cuda-oom/index.html");
    assert!(oom.contains("A writer whose reader quit early"), "{oom}");
    assert!(oom.contains("code-snippet-1"), "{oom}");
    // The entry's own page, rendered from its file read again, shows the block and its section.
    let pipe = read(&site, "errors/python/broken-pipe/index.html");
    assert!(pipe.contains("65536"), "{pipe}");
    assert!(pipe.contains("Reproduction"), "{pipe}");
}
