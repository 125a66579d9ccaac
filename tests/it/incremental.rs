//! Incremental rebuilds (what `serve` does after a save): only pages that depend on the changed
//! file are rewritten, and the result is byte for byte what a full build writes.

use crate::common::*;
use errbook::site::BuildOptions;
use errbook::site::Live;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::SystemTime;

/// The seed catalog plus an unrelated entry in another domain.
pub(crate) fn site() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("content"), &t.path().join("content"));
    copy_tree(&repo().join("themes"), &t.path().join("themes"));
    std::fs::copy(repo().join("book.toml"), t.path().join("book.toml")).unwrap();
    std::fs::create_dir_all(t.path().join("content/errors/numpy")).unwrap();
    std::fs::write(
        t.path().join("content/errors/numpy/axis-out-of-bounds.md"),
        "# numpy.exceptions.AxisError: axis 2 is out of bounds for array of dimension 2\n\n\
         - **ID:** `numpy/axis-out-of-bounds`\n- **Domain:** numpy\n- **Category:** shape_error\n\
         - **Error Code:** `AXIS_OUT_OF_BOUNDS`\n- **Verification:** human_verified\n- **Fix Rate:** 99%\n\n\
         ## Root Cause\n\nThe axis argument names a dimension the array does not have.\n\n\
         ## Version Compatibility\n\n| Version | Status | Introduced | Deprecated |\n|---|---|---|---|\n| NumPy 1.26 | active | — | — |\n\n\
         ## Workarounds\n\n1. **Check `arr.ndim` before reducing.** (99% success)\n\n\
         ## Dead Ends\n\n- **Transposing the array** — the number of dimensions stays the same. (100% fail)\n",
    )
    .unwrap();
    t
}

fn snapshot(dir: &Path) -> BTreeMap<String, (Vec<u8>, SystemTime)> {
    files(dir)
        .into_iter()
        .map(|f| {
            let p = dir.join(&f);
            let m = std::fs::metadata(&p).unwrap().modified().unwrap();
            (f, (std::fs::read(&p).unwrap(), m))
        })
        .collect()
}

/// The site at `out` is what a full build of `root` (with build arguments `extra`) writes:
/// the same files, byte for byte.
pub(crate) fn assert_same_as_full_build(root: &Path, out: &Path, extra: &[&str]) {
    let (_t, fresh) = build(root, extra);
    let a = snapshot(out);
    let b = snapshot(&fresh);
    let names_a: Vec<&String> = a.keys().collect();
    let names_b: Vec<&String> = b.keys().collect();
    assert_eq!(names_a, names_b, "same files");
    for (k, (bytes, _)) in &a {
        assert!(bytes == &b[k].0, "{k} differs from a full build");
    }
}

#[test]
fn one_changed_entry_rewrites_only_what_depends_on_it() {
    let site = site();
    let out = site.path().join("book");
    let opts = BuildOptions {
        dest: out.clone(),
        ..Default::default()
    };
    let (mut live, _, _) = Live::start(site.path(), &opts).unwrap();
    let before = snapshot(&out);
    std::thread::sleep(std::time::Duration::from_millis(30));

    let entry = site
        .path()
        .join("content/errors/pytorch/dataset-worker-fork-cuda.md");
    let src = std::fs::read_to_string(&entry).unwrap();
    std::fs::write(
        &entry,
        src.replace(
            "## Root Cause\n\n",
            "## Root Cause\n\nIncrementally edited. ",
        ),
    )
    .unwrap();
    // The edited page is written first, before the graph and the rest.
    let mut early = Vec::new();
    let (up, _) = live
        .update_then(std::slice::from_ref(&entry), &mut |page, _| {
            early.push(page.to_string())
        })
        .unwrap();
    assert_eq!(early, ["errors/pytorch/dataset-worker-fork-cuda/"]);
    assert!(!up.full);
    let after = snapshot(&out);

    let page = "errors/pytorch/dataset-worker-fork-cuda/index.html";
    assert!(String::from_utf8_lossy(&after[page].0).contains("Incrementally edited."));
    assert!(up.written.contains(&page.to_string()), "{:?}", up.written);
    // The unrelated entry, its domain page and its JSON were not touched.
    for f in [
        "errors/numpy/axis-out-of-bounds/index.html",
        "domains/numpy/index.html",
        "categories/shape_error/index.html",
        "api/errors/numpy/axis-out-of-bounds.json",
        "theme/style.css",
    ] {
        assert_eq!(before[f].1, after[f].1, "{f} was rewritten");
    }
    assert!(up.written.len() < before.len() / 2, "{:?}", up.written);
    assert_same_as_full_build(site.path(), &out, &[]);

    // A new message and code: the lists, facet pages and catalog.json follow.
    let other = site
        .path()
        .join("content/errors/numpy/axis-out-of-bounds.md");
    let src = std::fs::read_to_string(&other).unwrap();
    std::fs::write(
        &other,
        src.replace("axis 2 is out of bounds", "axis 3 is out of bounds")
            .replace("AXIS_OUT_OF_BOUNDS", "AXIS_ERROR"),
    )
    .unwrap();
    let (up, _) = live.update(&[other]).unwrap();
    assert!(
        up.written
            .contains(&"codes/axis_error/index.html".to_string()),
        "{:?}",
        up.written
    );
    assert!(!out.join("codes/axis_out_of_bounds/index.html").exists());
    assert_same_as_full_build(site.path(), &out, &[]);
}

#[test]
fn added_removed_and_broken_files() {
    let site = site();
    let out = site.path().join("book");
    let opts = BuildOptions {
        dest: out.clone(),
        ..Default::default()
    };
    let (mut live, _, _) = Live::start(site.path(), &opts).unwrap();

    // A new article appears.
    let art = site.path().join("content/articles/new-one.md");
    std::fs::write(
        &art,
        "---\ntitle: \"A new one\"\ndate: \"2026-01-02\"\nid: \"new-one\"\n---\nText about numpy axes.\n",
    )
    .unwrap();
    live.update(std::slice::from_ref(&art)).unwrap();
    assert!(out.join("articles/new-one/index.html").is_file());
    assert_same_as_full_build(site.path(), &out, &[]);

    // A broken edit fails and leaves the output as it was.
    let before = snapshot(&out);
    std::fs::write(&art, "---\ntitle: \"A new one\"\n").unwrap();
    assert!(live.update(std::slice::from_ref(&art)).is_err());
    let after = snapshot(&out);
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>()
    );

    // Removing the entry file removes its page and JSON (the failed file is retried too).
    std::fs::remove_file(&art).unwrap();
    let gone = site
        .path()
        .join("content/errors/numpy/axis-out-of-bounds.md");
    std::fs::remove_file(&gone).unwrap();
    live.update(&[gone]).unwrap();
    assert!(!out
        .join("errors/numpy/axis-out-of-bounds/index.html")
        .exists());
    assert!(!out.join("articles/new-one/index.html").exists());
    assert_same_as_full_build(site.path(), &out, &[]);
}

/// Break a file, then put back the bytes the last good build read: the update says the site
/// is good again (serve clears its error overlay), and nothing is written. Then a rename: the
/// page moves.
#[test]
fn break_then_undo_recovers_and_a_rename_moves_the_page() {
    let site = site();
    let out = site.path().join("book");
    let opts = BuildOptions {
        dest: out.clone(),
        ..Default::default()
    };
    let (mut live, _, _) = Live::start(site.path(), &opts).unwrap();
    let f = site
        .path()
        .join("content/errors/numpy/axis-out-of-bounds.md");
    let good = std::fs::read(&f).unwrap();

    std::fs::write(&f, "not an entry\n").unwrap();
    assert!(live.update(std::slice::from_ref(&f)).is_err(), "broken");
    std::fs::write(&f, &good).unwrap();
    let (up, diags) = live.update(std::slice::from_ref(&f)).unwrap();
    assert!(up.recovered, "back to the good bytes: {up:?}");
    assert!(!diags.has_errors());
    // A save without a change after a good state is no news.
    let (up, _) = live.update(std::slice::from_ref(&f)).unwrap();
    assert!(!up.recovered && up.rendered == 0, "{up:?}");
    assert_same_as_full_build(site.path(), &out, &[]);

    // Rename: the old file goes, the new one comes (its ID follows the path).
    let moved = site
        .path()
        .join("content/errors/numpy/axis-out-of-range.md");
    let text = String::from_utf8(good).unwrap();
    std::fs::write(
        &moved,
        text.replace("numpy/axis-out-of-bounds", "numpy/axis-out-of-range"),
    )
    .unwrap();
    std::fs::remove_file(&f).unwrap();
    live.update(&[f.clone(), moved.clone()]).unwrap();
    assert!(out
        .join("errors/numpy/axis-out-of-range/index.html")
        .is_file());
    assert!(!out
        .join("errors/numpy/axis-out-of-bounds/index.html")
        .exists());
    assert_same_as_full_build(site.path(), &out, &[]);
}

/// `build.entry_json = "domains"`: the entries' JSON in one file per domain, which an edit, an
/// addition and a removal keep equal to what a full build writes.
#[test]
fn entry_json_by_domain_follows_every_edit() {
    let site = site();
    let toml = site.path().join("book.toml");
    let cfg = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        cfg.replace("[build]\n", "[build]\nentry_json = \"domains\"\n"),
    )
    .unwrap();
    let out = site.path().join("book");
    let opts = BuildOptions {
        dest: out.clone(),
        ..Default::default()
    };
    let (mut live, _, _) = Live::start(site.path(), &opts).unwrap();
    let shard = |d: &str| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(out.join(format!("api/errors/{d}.json"))).unwrap())
            .unwrap()
    };
    assert_eq!(
        shard("numpy")["entries"]["numpy/axis-out-of-bounds"]["entry"]["fix_rate"],
        99
    );
    assert!(!out.join("api/errors/numpy").exists(), "no file per entry");
    let catalog: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("api/catalog.json")).unwrap()).unwrap();
    assert!(catalog["entries"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["id"] == "numpy/axis-out-of-bounds"));
    assert_eq!(catalog["entry_json"], "api/errors/{domain}.json");

    // An edit rewrites the entry's line of its domain's file.
    let f = site
        .path()
        .join("content/errors/numpy/axis-out-of-bounds.md");
    let text = std::fs::read_to_string(&f).unwrap();
    std::fs::write(&f, text.replace("(99% success)", "(97% success)")).unwrap();
    live.update(std::slice::from_ref(&f)).unwrap();
    let entry = &shard("numpy")["entries"]["numpy/axis-out-of-bounds"]["entry"];
    assert_eq!(entry["workarounds"][0]["success_rate"], 97);
    assert_same_as_full_build(site.path(), &out, &[]);

    // A second entry joins the domain, then the first one goes: the file keeps the other.
    let second = site.path().join("content/errors/numpy/axis-too-large.md");
    std::fs::write(
        &second,
        text.replace("axis-out-of-bounds", "axis-too-large"),
    )
    .unwrap();
    live.update(std::slice::from_ref(&second)).unwrap();
    assert_same_as_full_build(site.path(), &out, &[]);
    std::fs::remove_file(&f).unwrap();
    live.update(std::slice::from_ref(&f)).unwrap();
    let entries = shard("numpy")["entries"].clone();
    let ids: Vec<&String> = entries.as_object().unwrap().keys().collect();
    assert_eq!(ids, ["numpy/axis-too-large"]);
    assert_same_as_full_build(site.path(), &out, &[]);

    // The domain's last entry goes: so does its file.
    std::fs::remove_file(&second).unwrap();
    live.update(std::slice::from_ref(&second)).unwrap();
    assert!(!out.join("api/errors/numpy.json").exists());
    assert_same_as_full_build(site.path(), &out, &[]);
}
