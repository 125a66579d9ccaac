//! Tests of the kept link state: after every update `serve` makes, the link graph and the link
//! diagnostics it kept (`link::LinkState`, brought up to date from the edit) are what a full
//! link pass of the same content gives. Random edits of the link fixture catalog: entry text,
//! messages, workarounds, articles that quote an entry's message or stop quoting it, entries
//! deleted, renamed and added, `errors:`, `related:` and the authors' confirm and reject, one
//! file or a few at a time; edits that do not build are undone, as an author would.

use super::Live;
use crate::core::diag::Diagnostics;
use crate::link::{Graph, Link};
use crate::site::BuildOptions;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A small deterministic generator (xorshift), so a failure names its seed and step.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &p);
        } else {
            std::fs::copy(e.path(), &p).unwrap();
        }
    }
}

/// The catalog's content files (relative to `root`) and their text.
fn content(root: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![root.join("content")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                let rel = p.strip_prefix(root).unwrap().to_path_buf();
                out.insert(rel, std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    out
}

fn entries(files: &BTreeMap<PathBuf, String>) -> Vec<PathBuf> {
    (files.keys())
        .filter(|p| p.starts_with("content/errors"))
        .cloned()
        .collect()
}

fn articles(files: &BTreeMap<PathBuf, String>) -> Vec<PathBuf> {
    (files.keys())
        .filter(|p| p.starts_with("content/articles"))
        .cloned()
        .collect()
}

/// An entry's ID, from its path.
fn entry_id(p: &Path) -> String {
    let p = p.strip_prefix("content/errors").unwrap().with_extension("");
    p.to_string_lossy().replace('\\', "/")
}

fn article_id(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

/// The message (first line) of an entry's text, without `# `.
fn message(text: &str) -> &str {
    text.lines().next().unwrap_or("").trim_start_matches("# ")
}

/// An entry's text with front matter `key: value` added (after any it has).
fn with_entry_front(text: &str, line: &str) -> String {
    match text.strip_prefix("---\n") {
        Some(rest) => format!("---\n{line}\n{rest}"),
        None => format!("---\n{line}\n---\n{text}"),
    }
}

/// An article's text with a front matter line added.
fn with_article_front(text: &str, line: &str) -> String {
    match text.strip_prefix("---\n") {
        Some(rest) if !rest.starts_with(line.split(':').next().unwrap_or("")) => {
            format!("---\n{line}\n{rest}")
        }
        _ => text.to_string(),
    }
}

/// What one random edit picks from: two entries and an article as they are now.
struct Pick<'a> {
    root: &'a Path,
    step: usize,
    original: &'a BTreeMap<PathBuf, String>,
    now: BTreeMap<PathBuf, String>,
    e: PathBuf,
    other: PathBuf,
    a: PathBuf,
}

impl Pick<'_> {
    fn write(&self, p: &Path, text: &str) {
        std::fs::write(self.root.join(p), text).unwrap();
    }
    fn text(&self, p: &Path) -> &str {
        &self.now[p]
    }
}

/// One random edit of the files under `root`; the paths it changed.
fn edit(
    root: &Path,
    rng: &mut Rng,
    step: usize,
    original: &BTreeMap<PathBuf, String>,
) -> Vec<PathBuf> {
    let now = content(root);
    let es = entries(&now);
    let arts = articles(&now);
    let pick = Pick {
        root,
        step,
        original,
        e: es[rng.below(es.len())].clone(),
        other: es[rng.below(es.len())].clone(),
        a: arts[rng.below(arts.len())].clone(),
        now,
    };
    match rng.below(13) {
        k @ 0..=6 => edit_entry(&pick, rng, k),
        k @ 7..=11 => edit_links(&pick, rng, k),
        _ => {
            // A few files at once.
            let mut v = edit(root, rng, step * 100 + 1, original);
            v.extend(edit(root, rng, step * 100 + 2, original));
            v
        }
    }
}

/// Edits of entries: text, message, deleted, renamed, back.
fn edit_entry(x: &Pick<'_>, rng: &mut Rng, kind: usize) -> Vec<PathBuf> {
    let (e, step) = (x.e.clone(), x.step);
    let (et, ot) = (x.text(&x.e), x.text(&x.other));
    match kind {
        0 => {
            let mark = format!("## Root Cause\n\nEdited {step}. ");
            x.write(&e, &et.replacen("## Root Cause\n\n", &mark, 1));
            vec![e]
        }
        1 => {
            // The message: another entry's, changed a little, or this one with a detail.
            let m = if rng.below(2) == 0 {
                format!("{} (seen at step {step})", message(ot))
            } else {
                format!("{} while loading batch {step}", message(et))
            };
            let first = et.lines().next().unwrap_or("");
            x.write(&e, &et.replacen(first, &format!("# {m}"), 1));
            vec![e]
        }
        2 => {
            std::fs::remove_file(x.root.join(&e)).unwrap();
            vec![e]
        }
        3 => {
            // Renamed: a new file and ID, the old file gone.
            let id = entry_id(&e);
            let new_id = format!("{id}-r{step}");
            let to = PathBuf::from(format!("content/errors/{new_id}.md"));
            x.write(&to, &et.replace(&format!("`{id}`"), &format!("`{new_id}`")));
            std::fs::remove_file(x.root.join(&e)).unwrap();
            vec![e, to]
        }
        4 => {
            // Deleted entries come back.
            let gone: Vec<&PathBuf> = (x.original.keys())
                .filter(|p| !x.now.contains_key(*p))
                .collect();
            let Some(p) = gone.get(rng.below(gone.len())).copied() else {
                return Vec::new();
            };
            x.write(p, &x.original[p]);
            vec![p.clone()]
        }
        5 => {
            // A workaround that names an API (code examples, related entries).
            let text = et.replacen(
                "1. **",
                "1. **Call torch.multiprocessing.set_start_method('spawn') first, then ",
                1,
            );
            x.write(&e, &text);
            vec![e]
        }
        _ => {
            // A new entry, close to another.
            let oid = entry_id(&x.other);
            let id = format!("{oid}-copy{step}");
            let p = PathBuf::from(format!("content/errors/{id}.md"));
            let text = ot.replace(&format!("`{oid}`"), &format!("`{id}`"));
            let first = text.lines().next().unwrap_or("").to_string();
            x.write(&p, &text.replacen(&first, &format!("{first} (copy)"), 1));
            vec![p]
        }
    }
}

/// Edits of articles and of what pages say about links: quotes of messages added and gone,
/// `errors:`, `related:`, confirm and reject, a new article.
fn edit_links(x: &Pick<'_>, rng: &mut Rng, kind: usize) -> Vec<PathBuf> {
    let (e, a, step) = (x.e.clone(), x.a.clone(), x.step);
    let (et, ot, at) = (x.text(&x.e), x.text(&x.other), x.text(&x.a));
    match kind {
        7 => {
            let text = format!("{at}\nWe hit `{}` again (note {step}).\n", message(et));
            x.write(&a, &text);
            vec![a]
        }
        8 => {
            // An article back to what it was (a quote gone).
            match x.original.get(&a) {
                Some(t) => x.write(&a, t),
                None => std::fs::remove_file(x.root.join(&a)).unwrap(),
            }
            vec![a]
        }
        9 => {
            let (id, aid) = (entry_id(&x.other), article_id(&a));
            let line = match rng.below(4) {
                0 => format!("links: {{confirm: [\"{aid}\"]}}"),
                1 => format!("links: {{reject: [\"{aid}\"]}}"),
                2 => format!("links: {{confirm: [\"{id}\"]}}"),
                _ => format!("related: [\"{id}\"]"),
            };
            x.write(&e, &with_entry_front(et, &line));
            vec![e]
        }
        10 => {
            let id = entry_id(&e);
            let line = match rng.below(3) {
                0 => format!("links: {{confirm: [\"{id}\"]}}"),
                1 => format!("links: {{reject: [\"{id}\"]}}"),
                _ => format!("errors: [\"{id}\"]"),
            };
            x.write(&a, &with_article_front(at, &line));
            vec![a]
        }
        _ => {
            // A new article quoting two entries.
            let p = PathBuf::from(format!("content/articles/new-{step}.md"));
            let text = format!(
                "---\ntitle: \"Note {step}\"\ndate: \"2025-03-01\"\n---\nFirst `{}`, then `{}`.\n",
                message(et),
                message(ot)
            );
            x.write(&p, &text);
            vec![p]
        }
    }
}

/// A graph's links in order, and its left-out candidates as a sorted list (their order among
/// equal scores follows a hash map's, in a full pass too).
fn shown(g: &Graph) -> (Vec<Link>, Vec<String>, f64) {
    let mut review: Vec<String> = g.review.iter().map(|r| format!("{r:?}")).collect();
    review.sort();
    (g.links.clone(), review, g.threshold)
}

fn sorted(d: &Diagnostics) -> Vec<String> {
    let mut v: Vec<String> = d.items.iter().map(|d| format!("{d:?}")).collect();
    v.sort();
    v
}

/// The kept graph and diagnostics against a full link pass of the kept content.
fn assert_as_full_pass(live: &Live, what: &str) {
    let a = &live.analysis;
    let mut diags = Diagnostics::default();
    for d in live.file_diags.values() {
        diags.extend(d.iter().cloned());
    }
    let full = crate::link::link_with(
        &a.catalog,
        &a.files,
        &live.cfg,
        !live.opts.no_infer,
        Some(&live.records),
        // `serve` keeps no candidates left out (the graph is patched without them).
        false,
        &mut diags,
    );
    let (got, want) = (shown(&a.graph), shown(&full));
    if got.0 != want.0 {
        let n = got
            .0
            .iter()
            .zip(&want.0)
            .take_while(|(x, y)| x == y)
            .count();
        panic!(
            "{what}: links differ from a full pass at {n} ({} vs {}):\nkept: {:#?}\nfull: {:#?}",
            got.0.len(),
            want.0.len(),
            got.0.get(n),
            want.0.get(n)
        );
    }
    assert_eq!(got.1, want.1, "{what}: candidates left out differ");
    assert_eq!(got.2, want.2, "{what}: threshold");
    assert_eq!(
        sorted(&a.diags),
        sorted(&diags),
        "{what}: diagnostics differ"
    );
}

fn fixture() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy_tree(&repo.join("tests/fixtures/links"), t.path());
    t
}

#[test]
fn kept_links_are_a_full_pass_over_random_edits() {
    for seed in [0x9e37_79b9_7f4a_7c15_u64, 0x2545_f491_4f6c_dd1d] {
        let site = fixture();
        let root = site.path();
        let original = content(root);
        let opts = BuildOptions {
            dest: root.join("book"),
            ..Default::default()
        };
        let (mut live, _, _) = Live::start(root, &opts).unwrap();
        let mut rng = Rng(seed);
        let (mut ok, mut failed) = (0, 0);
        for step in 0..60 {
            let before = content(root);
            let changed = edit(root, &mut rng, step, &original);
            let what = format!("seed {seed:x} step {step} ({changed:?})");
            match live.update(&changed) {
                Ok(_) => ok += 1,
                Err(_) => {
                    // Undone as an author would; the update after it is a good one.
                    failed += 1;
                    let now = content(root);
                    for p in now.keys().filter(|p| !before.contains_key(*p)) {
                        std::fs::remove_file(root.join(p)).unwrap();
                    }
                    for (p, t) in &before {
                        std::fs::write(root.join(p), t).unwrap();
                    }
                    live.update(&changed).unwrap();
                }
            }
            assert_as_full_pass(&live, &what);
        }
        // Both kinds of update happened: the edits are not all trivially good or all broken.
        assert!(ok > 20 && failed > 0, "{ok} good updates, {failed} failed");
    }
}

/// A trigram in more than `MAX_POSTINGS` (64) messages seeds no passage: an edit that takes a
/// shared phrase's trigrams to 65 messages (or back to 64) changes what articles quoting
/// *other* entries find. The articles holding those trigrams are inferred again for it.
#[test]
fn a_phrase_crossing_the_postings_limit_relinks_the_articles_quoting_others() {
    let site = fixture();
    let root = site.path();
    let shared = "while the tensor was being moved";
    let entry = |i: usize, phrase: &str| {
        format!(
            "# RuntimeError: step{i}x failed {phrase}\n\n- **ID:** `crowd/e{i}`\n\
             - **Domain:** crowd\n- **Category:** runtime_error\n\
             - **Verification:** ai_generated\n- **Fix Rate:** 50%\n\n\
             ## Root Cause\n\nA cause.\n\n## Workarounds\n\n1. **Wait.** (50% success)\n"
        )
    };
    let dir = root.join("content/errors/crowd");
    std::fs::create_dir_all(&dir).unwrap();
    // 64 messages hold the phrase: its trigrams still seed.
    for i in 0..65 {
        let phrase = if i < 64 { shared } else { "on another device" };
        std::fs::write(dir.join(format!("e{i}.md")), entry(i, phrase)).unwrap();
    }
    std::fs::write(
        root.join("content/articles/crowd-quote.md"),
        format!(
            "---\ntitle: \"A step that failed\"\ndate: \"2026-01-05\"\nid: \"crowd-quote\"\n---\n\
             We saw `RuntimeError: step0x failed {shared}` on every run.\n"
        ),
    )
    .unwrap();
    let opts = BuildOptions {
        dest: root.join("book"),
        ..Default::default()
    };
    let (mut live, _, _) = Live::start(root, &opts).unwrap();
    let quoted = |live: &Live| {
        (live.analysis.graph.links.iter()).any(|l| {
            l.from
                == crate::link::Node::Article {
                    id: "crowd-quote".into(),
                }
                && l.to
                    == crate::link::Node::Entry {
                        id: "crowd/e0".into(),
                    }
        })
    };
    assert!(quoted(&live), "the article quotes entry 0");
    // The 65th message takes the phrase: the article no longer finds entry 0 (too few of its
    // words seeded), though entry 0 did not change.
    let last = dir.join("e64.md");
    std::fs::write(&last, entry(64, shared)).unwrap();
    live.update(std::slice::from_ref(&last)).unwrap();
    assert_as_full_pass(&live, "65 messages hold the phrase");
    assert!(!quoted(&live), "the phrase no longer seeds");
    // And back.
    std::fs::write(&last, entry(64, "on another device")).unwrap();
    live.update(std::slice::from_ref(&last)).unwrap();
    assert_as_full_pass(&live, "64 messages hold the phrase again");
    assert!(quoted(&live));
}
