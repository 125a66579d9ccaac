//! No speed trick may change the output: the synthetic catalog built with one thread and in
//! parallel, cold and into an existing output folder after an edit, gives the same bytes.

use crate::common::{errbook, files, synth_catalog};
use std::path::Path;

fn synth(out: &Path) {
    synth_catalog(
        out,
        &[
            "--entries",
            "300",
            "--articles",
            "30",
            "--seed",
            "5",
            "--sites",
            "errbook",
        ],
    );
}

fn build(root: &Path, dest: &Path, extra: &[&str]) {
    let o = errbook()
        .arg("--root")
        .arg(root)
        .arg("build")
        .arg("-d")
        .arg(dest)
        .args(extra)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Same file list, same bytes in every file; the message names the first difference.
fn assert_same(a: &Path, b: &Path) {
    let (fa, fb) = (files(a), files(b));
    assert!(
        fa == fb,
        "file lists differ: only in {}: {:?}; only in {}: {:?}",
        a.display(),
        fa.difference(&fb).take(5).collect::<Vec<_>>(),
        b.display(),
        fb.difference(&fa).take(5).collect::<Vec<_>>()
    );
    assert!(fa.len() > 250, "only {} files", fa.len());
    for f in &fa {
        let (x, y) = (
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
        );
        if x != y {
            let at = x
                .iter()
                .zip(&y)
                .position(|(p, q)| p != q)
                .unwrap_or(x.len().min(y.len()));
            let show = |v: &[u8]| {
                String::from_utf8_lossy(&v[at.saturating_sub(60)..(at + 60).min(v.len())])
                    .into_owned()
            };
            panic!("{f} differs at byte {at}:\n{}\n---\n{}", show(&x), show(&y));
        }
    }
}

#[test]
fn single_thread_and_parallel_builds_are_identical() {
    let tmp = tempfile::tempdir().unwrap();
    synth(tmp.path());
    let root = tmp.path().join("errbook");
    let (one, many) = (tmp.path().join("one"), tmp.path().join("many"));
    build(&root, &one, &["--single-thread"]);
    build(&root, &many, &[]);
    assert_same(&one, &many);
}

#[test]
fn rebuild_into_existing_output_after_an_edit_equals_a_cold_build() {
    let tmp = tempfile::tempdir().unwrap();
    synth(tmp.path());
    let root = tmp.path().join("errbook");
    let warm = tmp.path().join("warm");
    build(&root, &warm, &[]);

    // Edit one entry's root cause, delete another entry, and rebuild into the same folder.
    let content = root.join("content/errors");
    let mut entries: Vec<_> = walkdir::WalkDir::new(&content)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    let edited = entries.remove(0);
    crate::common::replace_in(
        &edited,
        "## Root Cause\n\n",
        "## Root Cause\n\nEdited for the test. ",
    );
    // Remove an entry nothing names (no `related:` or `errors:` points at it).
    let all_text: String = walkdir::WalkDir::new(root.join("content"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    let unnamed = entries
        .iter()
        .find(|p| {
            let id = p.strip_prefix(&content).unwrap().with_extension("");
            let id = id.to_string_lossy().replace('\\', "/");
            !all_text.contains(&format!("\"{id}\""))
        })
        .expect("some entry is not named by any other")
        .clone();
    std::fs::remove_file(&unnamed).unwrap();

    build(&root, &warm, &[]);
    let cold = tmp.path().join("cold");
    build(&root, &cold, &["--single-thread"]);
    assert_same(&warm, &cold);
    assert!(
        crate::common::read(&warm, &page_of(&content, &edited)).contains("Edited for the test.")
    );
    assert!(!warm.join(page_of(&content, &unnamed)).exists());
}

/// The output page of an entry file: errors/<domain>/<slug>/index.html.
fn page_of(content: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(content).unwrap().with_extension("");
    format!(
        "errors/{}/index.html",
        rel.to_string_lossy().replace('\\', "/")
    )
}
