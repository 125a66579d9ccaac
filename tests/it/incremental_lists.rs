//! Incremental rebuilds of what lists every entry: the list of all errors (kept between updates
//! as a skeleton with the titles put back), catalog.json (its entries' lines kept) and the
//! sitemap, through message edits, entries that come, go or change ID, each step byte for byte
//! what a full build writes.

use super::incremental::{assert_same_as_full_build, site};
use errbook::site::{BuildOptions, Live};
use std::path::{Path, PathBuf};

/// An entry of `domain` with ID `id` and message `message`.
fn entry(id: &str, domain: &str, message: &str) -> String {
    format!(
        "# {message}\n\n\
         - **ID:** `{id}`\n- **Domain:** {domain}\n- **Category:** shape_error\n\
         - **Verification:** human_verified\n- **Fix Rate:** 90%\n\n\
         ## Root Cause\n\nA cause.\n\n\
         ## Workarounds\n\n1. **Do the other thing.** (90% success)\n"
    )
}

/// Write entry `id` (`domain/slug`) with `message` under `root`; its file.
fn write_entry(root: &Path, id: &str, message: &str) -> PathBuf {
    let (domain, slug) = id.split_once('/').unwrap();
    let dir = root.join("content/errors").join(domain);
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(format!("{slug}.md"));
    std::fs::write(&f, entry(id, domain, message)).unwrap();
    f
}

/// `serve`'s state after a full build of `root` into `root/book`, and that folder.
fn start(root: &Path) -> (Live, PathBuf) {
    let out = root.join("book");
    let opts = BuildOptions {
        dest: out.clone(),
        ..Default::default()
    };
    (Live::start(root, &opts).unwrap().0, out)
}

fn errors_list(out: &Path) -> String {
    std::fs::read_to_string(out.join("errors/index.html")).unwrap()
}

#[test]
fn message_edits_keep_the_lists_exact() {
    let site = site();
    let root = site.path();
    let first = write_entry(
        root,
        "numpy/broadcast-shapes",
        "ValueError: operands could not be broadcast together with shapes",
    );
    let (mut live, out) = start(root);

    // Message edits: the first draws the list of all errors whole (and keeps its skeleton), the
    // next ones put the titles back into it; text that HTML escapes goes through as it should.
    for (i, msg) in [
        "ValueError: operands could not be broadcast together with shapes (3,) (4,)",
        "ValueError: operands <could> not be broadcast & together",
        "ValueError: operands could not be broadcast together, again",
    ]
    .iter()
    .enumerate()
    {
        std::fs::write(&first, entry("numpy/broadcast-shapes", "numpy", msg)).unwrap();
        let (up, _) = live.update(std::slice::from_ref(&first)).unwrap();
        assert!(!up.full);
        for f in ["errors/index.html", "api/catalog.json"] {
            assert!(
                up.written.contains(&f.to_string()),
                "edit {i}: {:?}",
                up.written
            );
        }
        // The sitemap lists the same pages: left alone.
        assert!(
            !up.written.contains(&"sitemap.xml".to_string()),
            "{:?}",
            up.written
        );
        assert_same_as_full_build(root, &out, &[]);
    }
    assert!(errors_list(&out).contains("operands could not be broadcast together, again"));
}

#[test]
fn entries_that_come_go_or_change_id_keep_the_lists_exact() {
    let site = site();
    let root = site.path();
    write_entry(
        root,
        "numpy/broadcast-shapes",
        "ValueError: operands could not be broadcast together, again",
    );
    let last = write_entry(
        root,
        "numpy/zero-size-reduction",
        "ValueError: zero-size array to reduction operation maximum which has no identity",
    );
    let (mut live, out) = start(root);

    // An entry comes, in a domain of its own that sorts between the others, then one in the
    // middle of numpy's lines: the skeleton is made again; then a message edit uses it.
    let jax = write_entry(
        root,
        "jax/tracer-bool",
        "jax.errors.TracerBoolConversionError: Attempted boolean conversion of traced array",
    );
    live.update(std::slice::from_ref(&jax)).unwrap();
    assert!(errors_list(&out).contains("Attempted boolean conversion"));
    assert_same_as_full_build(root, &out, &[]);
    let middle = write_entry(
        root,
        "numpy/singular-matrix",
        "numpy.linalg.LinAlgError: Singular matrix",
    );
    live.update(std::slice::from_ref(&middle)).unwrap();
    assert_same_as_full_build(root, &out, &[]);
    std::fs::write(
        &jax,
        entry(
            "jax/tracer-bool",
            "jax",
            "jax.errors.TracerBoolConversionError: boolean conversion of a traced array, edited",
        ),
    )
    .unwrap();
    live.update(std::slice::from_ref(&jax)).unwrap();
    assert!(errors_list(&out).contains("boolean conversion of a traced array, edited"));
    assert_same_as_full_build(root, &out, &[]);

    // An entry changes ID (and message) and moves from the end of its domain's lines to the
    // start.
    std::fs::write(
        &last,
        entry(
            "numpy/aaa-zero-size",
            "numpy",
            "ValueError: zero-size array, moved",
        ),
    )
    .unwrap();
    let moved = root.join("content/errors/numpy/aaa-zero-size.md");
    std::fs::rename(&last, &moved).unwrap();
    live.update(&[last.clone(), moved.clone()]).unwrap();
    let list = errors_list(&out);
    let (a, b) = (
        list.find("zero-size array, moved").unwrap(),
        list.find("again").unwrap(),
    );
    assert!(a < b, "the moved entry comes first in its domain");
    assert_same_as_full_build(root, &out, &[]);

    // Entries go: one, then the last of its domain.
    std::fs::remove_file(&middle).unwrap();
    live.update(std::slice::from_ref(&middle)).unwrap();
    assert!(!errors_list(&out).contains("Singular matrix"));
    assert_same_as_full_build(root, &out, &[]);
    std::fs::remove_file(&jax).unwrap();
    live.update(std::slice::from_ref(&jax)).unwrap();
    assert_same_as_full_build(root, &out, &[]);
    std::fs::write(
        &moved,
        entry(
            "numpy/aaa-zero-size",
            "numpy",
            "ValueError: zero-size array, edited once more",
        ),
    )
    .unwrap();
    live.update(std::slice::from_ref(&moved)).unwrap();
    assert_same_as_full_build(root, &out, &[]);
}
