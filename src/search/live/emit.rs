//! What the site's search files hold now, and which of them an update changes: a run of terms
//! when one of its terms' lists changed or its bounds moved, a long term's tiers when its list
//! changed, a documents' shard when one of its documents changed (or moved, or a document
//! frequency it ships changed), an articles' shard
//! when its articles did, a terms-by-length file when a term of that length came or went, and
//! always the manifest. Each is serialised by `shards`' own functions, so the bytes are what a
//! full build writes.

use super::doc::Kept;
use super::post::{Postings, Touched};
use super::terms::Terms;
use crate::core::config::SearchConfig;
use crate::core::output::OutFile;
use crate::search::format::Art;
use crate::search::layout::{self, Layout};
use crate::search::shards::{self, Manifest};
use crate::search::tiers::{self, Slot};
use std::collections::{BTreeSet, HashMap, HashSet};

/// The search files an update writes and the ones it removes (site paths).
#[derive(Debug, Default)]
pub(crate) struct Shards {
    pub(crate) write: Vec<OutFile>,
    pub(crate) remove: Vec<String>,
}

/// What the site's search files hold, as far as deciding what changed needs.
#[derive(Default)]
pub(super) struct Shipped {
    /// Runs of terms by name: (first term, last term, how many terms).
    runs: HashMap<String, (u32, u32, usize)>,
    docs: usize,
    arts: Vec<Art>,
    /// Lengths of the terms, each with its file.
    lens: BTreeSet<usize>,
    /// The long terms: their tiers' name, how many tier files there are, and their slot.
    tiers: HashMap<u32, (String, usize, Slot)>,
}

/// The index after an update, and what the update changed.
pub(super) struct Now<'a> {
    pub(super) terms: &'a Terms,
    pub(super) post: &'a Postings,
    pub(super) docs: &'a [Kept],
    pub(super) arts: Vec<Art>,
    pub(super) touched: &'a Touched,
    /// Per document: its own line of its shard may have changed.
    pub(super) doc_changed: &'a [bool],
    pub(super) lay: &'a Layout,
    /// The first document whose number now belongs to another (or to none).
    pub(super) moved_from: usize,
    pub(super) search: SearchConfig,
    pub(super) offline: bool,
}

fn flag(v: &[bool], t: u32) -> bool {
    v.get(t as usize).copied().unwrap_or(false)
}

/// The files an update writes and removes, as they are found.
struct Out {
    shards: Shards,
    offline: bool,
    /// Serialise what changed (else only note what the shards hold).
    emit: bool,
}

impl Out {
    fn write(&mut self, name: &str, body: impl FnOnce() -> Vec<u8>) {
        if self.emit {
            let f = shards::out_file(name, body(), self.offline);
            self.shards.write.push(f);
        }
    }

    fn remove(&mut self, name: &str) {
        let path = shards::site_path(name, self.offline);
        self.shards.remove.push(path);
    }
}

impl Shipped {
    /// Note what the shards of `now` hold; with `emit`, the files that changed.
    pub(super) fn ship(&mut self, now: Now<'_>, emit: bool) -> Shards {
        let lay = now.lay.clone();
        let mut out = Out {
            shards: Shards::default(),
            offline: now.offline,
            emit,
        };
        let was_long: HashSet<u32> = self.tiers.keys().copied().collect();
        let (renamed, long) = self.ship_tiers(&now, &lay, &mut out);
        let manifest_runs = self.ship_runs(&now, &lay, &renamed, &mut out);
        self.ship_docs(&now, &lay, &was_long, &mut out);
        self.ship_arts(&now.arts, &lay, &mut out);
        let lens = self.ship_lens(&now, &mut out);
        let head = Manifest {
            docs: now.docs.len(),
            search: now.search,
            terms: now.post.sorted().len(),
            arts: now.arts.len(),
        };
        out.write("m", || head.json(&lay, &manifest_runs, &long, &lens));
        self.arts = now.arts;
        out.shards
    }

    /// The long terms' tiers: all of a term's files when its list changed, it became long or
    /// its tiers' name changed. Keeps each long term's tiers and slot (`tiers`, which the runs
    /// ship). Returns the long terms whose name is new (their runs must say so) and the
    /// manifest's long terms (term, number, slot).
    fn ship_tiers<'t>(
        &mut self,
        now: &Now<'t>,
        lay: &Layout,
        out: &mut Out,
    ) -> (HashSet<u32>, Vec<(&'t str, usize, Slot)>) {
        let (terms, post) = (now.terms, now.post);
        let long: Vec<(usize, u32)> = (post.sorted().iter().copied().enumerate())
            .filter(|&(_, t)| tiers::is_long(post.df(t), lay))
            .collect();
        let names = tiers::names(long.iter().map(|&(_, t)| terms.name(t)));
        let mut shipped = HashMap::new();
        let mut renamed = HashSet::new();
        let mut files: HashSet<String> = HashSet::new();
        let mut slots = Vec::with_capacity(long.len());
        for (&(i, t), name) in long.iter().zip(names) {
            let old = self.tiers.get(&t);
            let same = old.is_some_and(|o| o.0 == name);
            if !same {
                renamed.insert(t);
            }
            let (count, slot) = match old {
                Some((_, count, slot)) if same && !flag(&now.touched.list, t) => {
                    (*count, slot.clone())
                }
                _ => {
                    let (slot, tier_files) = tiers::ship(&name, post.list(t), lay);
                    let count = tier_files.len();
                    for (f, body) in tier_files {
                        out.write(&f, || body);
                    }
                    (count, slot)
                }
            };
            files.extend((0..count).map(|k| tiers::file(&name, k)));
            slots.push((terms.name(t), i, slot.clone()));
            shipped.insert(t, (name, count, slot));
        }
        for (name, count, _) in self.tiers.values() {
            for k in 0..*count {
                let f = tiers::file(name, k);
                if !files.contains(&f) {
                    out.remove(&f);
                }
            }
        }
        self.tiers = shipped;
        (renamed, slots)
    }

    /// The runs of terms: those whose bounds moved or whose terms' lists changed, or with a
    /// long term whose tiers were renamed. Returns the runs as the manifest lists them.
    fn ship_runs(
        &mut self,
        now: &Now<'_>,
        lay: &Layout,
        renamed: &HashSet<u32>,
        out: &mut Out,
    ) -> Vec<(String, String, usize)> {
        let (terms, post) = (now.terms, now.post);
        let sorted = post.sorted();
        let weight = |t: u32| shards::slot_weight(post.df(t), post.weight(t), lay);
        let cuts = shards::cut_runs(sorted.iter().map(|&t| (terms.name(t), weight(t))), lay);
        let mut names = HashSet::new();
        let mut runs = HashMap::new();
        let mut manifest_runs = Vec::new();
        for (start, end) in cuts {
            let run = &sorted[start..end];
            let (first, last) = (run[0], run[run.len() - 1]);
            let name = layout::run_name(terms.name(first), &mut names);
            let key = (first, last, run.len());
            if self.runs.get(&name) != Some(&key)
                || run
                    .iter()
                    .any(|&t| flag(&now.touched.list, t) || renamed.contains(&t))
            {
                out.write(&format!("t/{name}"), || {
                    let ts: Vec<&str> = run.iter().map(|&t| terms.name(t)).collect();
                    let ps: Vec<Slot> = run
                        .iter()
                        .map(|&t| match self.tiers.get(&t) {
                            Some((_, _, slot)) => slot.clone(),
                            None => Slot::List(post.encoded(t)),
                        })
                        .collect();
                    layout::json(&(ts, ps))
                });
            }
            manifest_runs.push((name.clone(), terms.name(first).to_string(), start));
            runs.insert(name, key);
        }
        for name in self.runs.keys().filter(|n| !runs.contains_key(*n)) {
            out.remove(&format!("t/{name}"));
        }
        self.runs = runs;
        manifest_runs
    }

    /// The documents' shards: those with a document that changed or moved, or that ship the
    /// document frequency of a term whose frequency changed (a long term's they do not ship,
    /// unless it was not long before: `was_long`, the long terms before the update).
    fn ship_docs(&mut self, now: &Now<'_>, lay: &Layout, was_long: &HashSet<u32>, out: &mut Out) {
        let post = now.post;
        let stale = |t: u32| {
            flag(&now.touched.df, t)
                && (shards::shipped_df(post.df(t), lay) || !was_long.contains(&t))
        };
        for (k, chunk) in now.docs.chunks(lay.docs).enumerate() {
            let at = k * lay.docs;
            let changed = at + lay.docs > now.moved_from
                || (at..at + chunk.len()).any(|i| now.doc_changed[i])
                || chunk.iter().any(|d| d.rerank.iter().any(|&t| stale(t)));
            if changed {
                out.write(&format!("d/{k}"), || {
                    let docs: Vec<_> = chunk
                        .iter()
                        .map(|d| {
                            let dfs =
                                shards::shipped_dfs(d.rerank.iter().map(|&t| post.df(t)), lay);
                            (&d.id, &d.message, &d.art_nums, &d.aliases, dfs)
                        })
                        .collect();
                    layout::json(&docs)
                });
            }
        }
        let chunks = now.docs.len().div_ceil(lay.docs);
        for k in chunks..self.docs.div_ceil(lay.docs) {
            out.remove(&format!("d/{k}"));
        }
        self.docs = now.docs.len();
    }

    /// The articles' shards that differ from what they hold.
    fn ship_arts(&self, arts: &[Art], lay: &Layout, out: &mut Out) {
        let old: Vec<&[Art]> = self.arts.chunks(lay.arts).collect();
        let mut count = 0;
        for (k, chunk) in arts.chunks(lay.arts).enumerate() {
            if old.get(k) != Some(&chunk) {
                out.write(&format!("a/{k}"), || layout::json(&chunk));
            }
            count += 1;
        }
        for k in count..old.len() {
            out.remove(&format!("a/{k}"));
        }
    }

    /// The terms-by-length files of lengths that gained or lost a term; the lengths there are.
    fn ship_lens(&mut self, now: &Now<'_>, out: &mut Out) -> Vec<usize> {
        let (terms, sorted) = (now.terms, now.post.sorted());
        let lens: BTreeSet<usize> = sorted.iter().map(|&t| terms.name(t).len()).collect();
        let mut redo: BTreeSet<usize> = now.touched.lens.clone();
        redo.extend(lens.symmetric_difference(&self.lens));
        for &len in &redo {
            if lens.contains(&len) {
                out.write(&format!("l/{len}"), || {
                    let of_len: Vec<&str> = sorted
                        .iter()
                        .map(|&t| terms.name(t))
                        .filter(|t| t.len() == len)
                        .collect();
                    layout::json(&of_len)
                });
            } else if self.lens.contains(&len) {
                out.remove(&format!("l/{len}"));
            }
        }
        let list = lens.iter().copied().collect();
        self.lens = lens;
        list
    }
}
