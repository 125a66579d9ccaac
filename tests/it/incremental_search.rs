//! The search index under incremental rebuilds (what `serve` does after a save) on a synthetic
//! catalog large enough for many shards: after each kind of edit (new terms, the last use of a
//! term gone, an entry added and deleted, an article retitled), the search files are byte for
//! byte what a full build writes, and an edit of one entry rewrites a few shards, not all.

use crate::common::*;
use crate::incremental::assert_same_as_full_build;
use errbook::site::{BuildOptions, Live};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// A synthetic catalog of 150 entries and 12 articles; its root.
fn catalog() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = synth_catalog(
        t.path(),
        &["--entries", "150", "--articles", "12", "--seed", "7"],
    );
    (t, root)
}

/// The search files under `out`, with their modification times.
fn search_files(out: &Path) -> BTreeMap<String, SystemTime> {
    files(out)
        .into_iter()
        .filter(|f| f.starts_with("search/"))
        .map(|f| {
            let m = std::fs::metadata(out.join(&f)).unwrap().modified().unwrap();
            (f, m)
        })
        .collect()
}

/// The terms of the index's terms-by-length files.
fn indexed_terms(out: &Path, ext: &str) -> Vec<String> {
    let mut all = Vec::new();
    for f in files(out) {
        if f.starts_with("search/l/") && f.ends_with(ext) {
            let text = std::fs::read_to_string(out.join(&f)).unwrap();
            // Offline, `errbookShard("l/N",'[...]');` (terms hold no quote or backslash).
            let json = text
                .trim_start_matches(|c| c != '[')
                .trim_end_matches([')', ';', '\n', '\'']);
            let terms: Vec<String> = serde_json::from_str(json).unwrap();
            all.extend(terms);
        }
    }
    all
}

fn entries(root: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = files(&root.join("content/errors"))
        .into_iter()
        .map(|f| root.join("content/errors").join(f))
        .collect();
    v.sort();
    v
}

fn edit(path: &Path, f: impl Fn(&str) -> String) {
    let text = std::fs::read_to_string(path).unwrap();
    let new = f(&text);
    assert_ne!(text, new, "{} unchanged", path.display());
    std::fs::write(path, new).unwrap();
}

/// A synthetic catalog served live, hosted or offline.
struct Served {
    _t: tempfile::TempDir,
    root: PathBuf,
    out: PathBuf,
    offline: bool,
    live: Live,
}

impl Served {
    /// Served hosted or `offline`; with `domains`, the entries' JSON in one file per domain.
    fn start(offline: bool, domains: bool) -> Served {
        let (t, root) = catalog();
        if domains {
            let toml = root.join("book.toml");
            let cfg = std::fs::read_to_string(&toml).unwrap();
            let cfg = cfg.replace("[build]\n", "[build]\nentry_json = \"domains\"\n");
            assert!(cfg.contains("entry_json"), "{cfg}");
            std::fs::write(&toml, cfg).unwrap();
        }
        let out = root.join("book");
        let opts = BuildOptions {
            dest: out.clone(),
            offline,
            ..Default::default()
        };
        let (live, _, _) = Live::start(&root, &opts).unwrap();
        Served {
            _t: t,
            root,
            out,
            offline,
            live,
        }
    }

    fn update(&mut self, paths: &[PathBuf]) {
        self.live.update(paths).unwrap();
    }

    fn assert_same_as_full_build(&self) {
        let extra: &[&str] = if self.offline { &["--offline"] } else { &[] };
        assert_same_as_full_build(&self.root, &self.out, extra);
    }

    fn indexed(&self, term: &str) -> bool {
        let ext = if self.offline { ".js" } else { ".json" };
        indexed_terms(&self.out, ext).iter().any(|t| t == term)
    }

    /// The ID of the entry at `path`.
    fn id_of(&self, path: &Path) -> String {
        let rel = path.strip_prefix(self.root.join("content/errors")).unwrap();
        rel.with_extension("").to_string_lossy().replace('\\', "/")
    }
}

/// A new term in place of a word (the field's length, so every average, stays): the runs of
/// the two terms, the entry's documents' shard and the manifest change, not every run. Then
/// words added (the averages move), then the last use of the new terms goes.
fn new_terms_then_gone(s: &mut Served) {
    let before = search_files(&s.out);
    let runs = before.keys().filter(|f| f.starts_with("search/t/")).count();
    assert!(runs > 3, "the catalog makes several runs of terms: {runs}");
    std::thread::sleep(std::time::Duration::from_millis(30));
    let all = entries(&s.root);
    let target = all[all.len() / 2].clone();
    let original = std::fs::read_to_string(&target).unwrap();
    let (head, rest) = original.split_once("## Root Cause\n\n").unwrap();
    let word = rest
        .split(' ')
        .find(|w| w.len() >= 6 && w.bytes().all(|b| b.is_ascii_lowercase()))
        .unwrap();
    let swapped = rest.replacen(&format!(" {word} "), " qqplorfish ", 1);
    std::fs::write(&target, format!("{head}## Root Cause\n\n{swapped}")).unwrap();
    s.update(std::slice::from_ref(&target));
    assert!(s.indexed("qqplorfish"), "new term indexed");
    let rewritten: Vec<String> = search_files(&s.out)
        .into_iter()
        .filter(|(f, m)| f.starts_with("search/t/") && before.get(f) != Some(m))
        .map(|(f, _)| f)
        .collect();
    assert!(
        !rewritten.is_empty() && rewritten.len() <= runs / 2,
        "{rewritten:?}"
    );
    s.assert_same_as_full_build();

    edit(&target, |t| {
        t.replacen(
            "## Root Cause\n\n",
            "## Root Cause\n\nZyxwvutsr sentinelword. ",
            1,
        )
    });
    s.update(std::slice::from_ref(&target));
    assert!(s.indexed("sentinelword"));
    s.assert_same_as_full_build();
    std::fs::write(&target, &original).unwrap();
    s.update(std::slice::from_ref(&target));
    assert!(!s.indexed("qqplorfish") && !s.indexed("sentinelword"));
    s.assert_same_as_full_build();
}

/// A new entry, first in the catalog (every document after it moves), then deleted; then the
/// last entry no other file names goes (the last documents' shard shrinks or goes).
fn entries_come_and_go(s: &mut Served) {
    let all = entries(&s.root);
    let text = std::fs::read_to_string(&all[0]).unwrap();
    let id = s.id_of(&all[0]);
    let (domain, slug) = id.split_once('/').unwrap();
    let added = s
        .root
        .join(format!("content/errors/{domain}/0-first-{slug}.md"));
    let new_text = text
        .replace(&format!("`{id}`"), &format!("`{domain}/0-first-{slug}`"))
        .replace("## Root Cause\n\n", "## Root Cause\n\nBrandnewterm here. ");
    std::fs::write(&added, new_text).unwrap();
    s.update(std::slice::from_ref(&added));
    assert!(s.indexed("brandnewterm"));
    s.assert_same_as_full_build();
    std::fs::remove_file(&added).unwrap();
    s.update(std::slice::from_ref(&added));
    assert!(!s.indexed("brandnewterm"));
    s.assert_same_as_full_build();

    let texts: Vec<String> = files(&s.root.join("content"))
        .iter()
        .map(|f| std::fs::read_to_string(s.root.join("content").join(f)).unwrap())
        .collect();
    let last = all
        .iter()
        .rev()
        .find(|p| {
            let id = s.id_of(p);
            texts.iter().filter(|t| t.contains(&id)).count() == 1
        })
        .unwrap()
        .clone();
    std::fs::remove_file(&last).unwrap();
    s.update(std::slice::from_ref(&last));
    s.assert_same_as_full_build();
}

/// Articles retitled and rewritten: the entries they discuss and their articles' shard.
fn articles_rewritten(s: &mut Served) {
    let arts: Vec<PathBuf> = files(&s.root.join("content/articles"))
        .into_iter()
        .take(3)
        .map(|f| s.root.join("content/articles").join(f))
        .collect();
    for a in &arts {
        edit(a, |t| {
            t.replacen("title: \"", "title: \"Retitled ", 1).replacen(
                "\n---\n",
                "\n---\nArticlenewword appears. ",
                1,
            )
        });
    }
    s.update(&arts);
    assert!(s.indexed("articlenewword"));
    s.assert_same_as_full_build();
}

#[test]
fn search_shards_follow_every_kind_of_edit() {
    let mut s = Served::start(false, false);
    new_terms_then_gone(&mut s);
    entries_come_and_go(&mut s);
    articles_rewritten(&mut s);
}

#[test]
fn offline_search_scripts_follow_every_kind_of_edit() {
    // With the entries' JSON by domain: an edit's linked entries in other domains.
    let mut s = Served::start(true, true);
    new_terms_then_gone(&mut s);
    entries_come_and_go(&mut s);
    articles_rewritten(&mut s);
}
