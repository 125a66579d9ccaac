//! `errbook-synth`: the generated catalog passes `errbook check`, and the generator is
//! deterministic (two runs with the same arguments write the same bytes, in all four sites).

use crate::common::{errbook, files, repo};
use std::path::Path;

fn synth(out: &Path, seed: &str) {
    let o = crate::common::synth()
        .current_dir(repo())
        .args([
            "--entries",
            "50",
            "--articles",
            "10",
            "--seed",
            seed,
            "--out",
        ])
        .arg(out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "synth failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn synthetic_catalog_passes_check() {
    let tmp = tempfile::tempdir().unwrap();
    synth(tmp.path(), "1");
    let root = tmp.path().join("errbook");
    let listed = files(&root.join("content"));
    let entries = listed.iter().filter(|f| f.starts_with("errors/")).count();
    let articles = listed.iter().filter(|f| f.starts_with("articles/")).count();
    assert_eq!((entries, articles), (50, 10), "{listed:?}");
    let o = errbook()
        .arg("--root")
        .arg(&root)
        .arg("check")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "check failed:\n{stderr}");
    assert!(
        stderr.contains("(50 entries and 10 articles parsed)"),
        "{stderr}"
    );
    // No error; the warnings are the runnable blocks read as working, not yet verified.
    assert!(!stderr.contains("error["), "{stderr}");
}

#[test]
fn entries_follow_the_layout_and_cross_reference() {
    let tmp = tempfile::tempdir().unwrap();
    synth(tmp.path(), "3");
    let root = tmp.path().join("errbook");
    let all = files(&root.join("content"));
    let mut related = 0;
    for f in all.iter().filter(|f| f.starts_with("errors/")) {
        let text = crate::common::read(&root.join("content"), f);
        let id = f.trim_start_matches("errors/").trim_end_matches(".md");
        for needle in [
            "\n# ",
            &format!("- **ID:** `{id}`"),
            "## Root Cause",
            "| Version | Status | Introduced | Deprecated |",
            "## Workarounds",
            "% success)",
            "```python",
            "## Dead Ends",
            "% fail)",
        ] {
            assert!(
                text.contains(needle) || text.starts_with(needle.trim_start()),
                "{f}: no {needle:?}"
            );
        }
        assert!(
            (1200..6000).contains(&text.len()),
            "{f}: {} bytes",
            text.len()
        );
        if text.contains("related:") {
            related += 1;
        }
    }
    assert!(related > 10, "only {related} entries name related ones");
    for f in all.iter().filter(|f| f.starts_with("articles/")) {
        let text = crate::common::read(&root.join("content"), f);
        assert_eq!(text.matches("```python").count(), 3, "{f}");
        assert!(text.contains("\nerrors:\n  - \""), "{f}");
        assert!(
            (4000..9000).contains(&text.len()),
            "{f}: {} bytes",
            text.len()
        );
    }
    // Hugo, Zola and mdBook get the same pages.
    let hugo = files(&tmp.path().join("hugo/content"));
    let zola = files(&tmp.path().join("zola/content"));
    let book = files(&tmp.path().join("mdbook/src"));
    for f in all.iter() {
        assert!(hugo.contains(f), "hugo lacks {f}");
        assert!(zola.contains(&zola_file(f)), "zola lacks {f}");
        assert!(book.contains(f), "mdbook lacks {f}");
        zola_page_matches_hugo(tmp.path(), f);
    }
    // SUMMARY.md: the introduction, one chapter per domain, then every page.
    let domains: std::collections::BTreeSet<&str> = all
        .iter()
        .filter_map(|f| f.strip_prefix("errors/"))
        .filter_map(|f| f.split('/').next())
        .collect();
    let summary = crate::common::read(&tmp.path().join("mdbook/src"), "SUMMARY.md");
    assert_eq!(
        summary.matches(".md)").count(),
        1 + domains.len() + all.len(),
        "{summary}"
    );
}

/// Zola's file of a page: entries lie flat in errors/ as DOMAIN--SLUG.md (their `path` keeps the
/// URL), articles as they are.
fn zola_file(f: &str) -> String {
    match f.strip_prefix("errors/") {
        Some(rest) => format!("errors/{}", rest.replacen('/', "--", 1)),
        None => f.to_string(),
    }
}

/// A Zola page: TOML front matter with Hugo's title, URL, taxonomies and cross-links, then
/// Hugo's body.
fn zola_page_matches_hugo(out: &Path, f: &str) {
    let zola = crate::common::read(&out.join("zola/content"), &zola_file(f));
    let hugo = crate::common::read(&out.join("hugo/content"), f);
    let rest = zola
        .strip_prefix("+++\n")
        .unwrap_or_else(|| panic!("{f}: no +++"));
    let (front, body) = rest
        .split_once("+++\n")
        .unwrap_or_else(|| panic!("{f}: no end"));
    let (_, hugo_body) = hugo[4..].split_once("---\n").unwrap();
    assert_eq!(body, hugo_body, "{f}: body differs from Hugo's");
    let fm: toml::Table = toml::from_str(front).unwrap_or_else(|e| panic!("{f}: {e}\n{front}"));
    let title = fm["title"].as_str().unwrap();
    assert!(
        hugo.contains(&format!("title: {title:?}")),
        "{f}: title {title:?}"
    );
    if f.starts_with("errors/") {
        let domain = &fm["taxonomies"]["domains"][0];
        assert_eq!(Some(f.split('/').nth(1).unwrap()), domain.as_str(), "{f}");
        let path = f.trim_end_matches(".md");
        assert_eq!(fm["path"].as_str(), Some(path), "{f}");
    } else {
        assert!(fm["date"].is_datetime(), "{f}: date {:?}", fm["date"]);
        assert!(!fm["extra"]["errors"].as_array().unwrap().is_empty(), "{f}");
    }
}

#[test]
fn same_arguments_same_bytes() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    synth(a.path(), "7");
    synth(b.path(), "7");
    let (fa, fb) = (files(a.path()), files(b.path()));
    assert_eq!(fa, fb);
    for f in &fa {
        let (x, y) = (
            std::fs::read(a.path().join(f)).unwrap(),
            std::fs::read(b.path().join(f)).unwrap(),
        );
        assert!(x == y, "{f} differs between two runs");
    }
    // A different seed gives a different catalog.
    let c = tempfile::tempdir().unwrap();
    synth(c.path(), "8");
    let differs = fa
        .iter()
        .any(|f| std::fs::read(a.path().join(f)).ok() != std::fs::read(c.path().join(f)).ok());
    assert!(differs, "seed 8 wrote the same catalog as seed 7");
}
