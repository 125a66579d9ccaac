//! Article -> entry by what the article is about, where it never quotes the entry's message:
//! the words and names that set an entry apart from the catalog's others (its message, root
//! cause, workarounds and dead ends: `spawn`, `set_start_method`, `worker_init_fn`, "forked"),
//! found in the article's title, prose and code.
//!
//! Each entry keeps its `KEEP` most distinctive terms, weighted by how rare they are among the
//! entries (inverse document frequency), names in code style (`num_workers`) twice; words every
//! GPU article uses (`cuda`, `tensor`, `memory`) are no terms. An article's score for an entry
//! is the share of that weight it covers, the title counting again, scaled down when the
//! article speaks of another library than the entry's domain. The best entry is the article's
//! topic when it covers enough and stands clear of the second best; one entry at most, since
//! an article about two errors names their messages, which `articles` finds.

use crate::text::{self, Tok};
use errbook_core::model::{Catalog, Entry};
use std::collections::{HashMap, HashSet};

/// Maps keyed by words and numbers, hashed fast (every token of every article is looked up).
type Fast<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
use std::sync::OnceLock;

/// Terms an entry keeps.
const KEEP: usize = 24;
/// Least share of an entry's weight an article must cover to be about it.
pub(super) const LEAST: f64 = 0.25;
/// How far the best entry must stand above the second best, on the terms of each that the
/// other lacks.
const CLEAR: f64 = 1.25;
/// Least score of the best entry on the terms the second best lacks.
const APART: f64 = 0.1;
/// Least number of an entry's terms an article must use: a short note that shares a word or
/// two of a message is no article about the error.
const MIN_SHARED: usize = 4;
/// Entries looked at fully per article (the best by their rarer shared terms).
const LOOK_AT: usize = 64;
/// A term kept by more entries than this finds no candidates (it still counts in a score).
const MAX_POSTINGS: usize = 256;

/// Words that say nothing about which error an article is about: English ones, and those that
/// every article on GPU errors uses.
const COMMON: &str = "\
the and for with you must use not this that but was are were from can cannot error errors \
its their there these those then than which what when where while who why how into onto over \
under after before about above below between through during each every any all some more \
most other such only own same too very just also even both either neither nor has have had \
having does did doing done will would should could may might shall one two three first \
second new old else elif try except finally return def class import none true false self \
print set get make makes made using used uses via per out off again further once here cuda \
gpu gpus device devices data tensor tensors model models training train trained memory \
process processes python torch pytorch code example examples loading load loaded run running \
runs call calls called function functions value values number size time step steps loop \
batch batches issue issues problem problems approach solution result results file files \
system version versions library libraries program script scripts line lines operation \
operations work works working ensure ensures need needs needed cause causes caused causing \
case cases because instead within without however therefore explicit explicitly simple \
simply common commonly often typically usually potential potentially specific specifically \
proper properly correct correctly incorrect different multiple single main create creates \
created creating check checking avoid avoids prevent prevents help helps fix fixes fixed \
handle handles handling support supports supported available possible following based level \
large small high low initialization initialize initialized";

/// `COMMON` as a set, made once.
fn common() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| COMMON.split_whitespace().collect())
}

/// Whether `w` (a word of `text::tokens`) can be a term.
fn is_term(w: &str) -> bool {
    w.len() > 2
        && w != text::NUM
        && w != text::PATH
        && w.chars().any(|c| c.is_alphabetic())
        && !common().contains(w)
}

/// The terms of `s`.
fn terms(s: &str) -> Vec<String> {
    (text::tokens(s).into_iter())
        .map(|t| t.word)
        .filter(|w| is_term(w))
        .collect()
}

/// A name in code style: worth more than a word.
fn is_name(w: &str) -> bool {
    w.trim_matches('_').contains('_')
}

/// An entry's raw term counts: its message's terms twice, those of its root cause,
/// workarounds and dead ends once, each counted once per place.
fn entry_counts(e: &Entry) -> HashMap<String, f64> {
    let mut counts: HashMap<String, f64> = HashMap::new();
    let message = text::after_exception(&e.message, e.exception.as_deref());
    let mut add = |s: &str, w: f64| {
        let mut seen: Vec<String> = terms(s);
        seen.sort();
        seen.dedup();
        for t in seen {
            *counts.entry(t).or_default() += w;
        }
    };
    add(message, 2.0);
    let mut rest = e.root_cause.clone();
    for w in &e.workarounds {
        rest.push('\n');
        rest.push_str(&w.summary);
        rest.push('\n');
        rest.push_str(&w.detail);
    }
    for d in &e.dead_ends {
        rest.push('\n');
        rest.push_str(&d.summary);
        rest.push('\n');
        rest.push_str(&d.reason);
    }
    add(&rest, 1.0);
    for (t, c) in counts.iter_mut() {
        if is_name(t) {
            *c *= 2.0;
        }
    }
    counts
}

/// An entry's `KEEP` most distinctive terms (`counts` weighted by their rarity among the `n`
/// entries, `df`; none of more than `most` entries), their weights summing to 1.
fn distinctive(
    counts: HashMap<String, f64>,
    df: &Fast<Box<str>, u32>,
    n: usize,
    most: usize,
) -> Vec<(String, f64)> {
    let mut w: Vec<(String, f64)> = (counts.into_iter())
        .filter_map(|(t, k)| {
            let d = df.get(t.as_str()).copied().unwrap_or(1) as usize;
            (d <= most).then(|| {
                let idf = ((n as f64 + 1.0) / (d as f64 + 0.5)).ln();
                (t, k * idf)
            })
        })
        .filter(|x| x.1 > 0.0)
        .collect();
    w.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    w.truncate(KEEP);
    let total: f64 = w.iter().map(|x| x.1).sum();
    for x in &mut w {
        x.1 /= total;
    }
    w
}

/// Every entry's distinctive terms, and which entries keep each term.
pub(crate) struct Topics {
    /// Term numbers, and each number's term.
    ids: Fast<Box<str>, u32>,
    names: Vec<Box<str>>,
    /// Each entry's kept terms and their weights, summing to 1.
    profiles: Vec<Box<[(u32, f32)]>>,
    /// The entries keeping each term, with its weight there (none kept for a term of more than
    /// `MAX_POSTINGS` entries).
    postings: Vec<Vec<(u32, f32)>>,
}

impl Topics {
    pub(crate) fn new(catalog: &Catalog) -> Topics {
        use rayon::prelude::*;
        // How many entries use each term: one entry's terms at a time (a large catalog's terms
        // of every entry at once would be gigabytes).
        let n = catalog.entries.len();
        let mut df: Fast<Box<str>, u32> = Fast::default();
        for e in &catalog.entries {
            for t in entry_counts(e).into_keys() {
                *df.entry(t.into_boxed_str()).or_default() += 1;
            }
        }
        // A term of more than a quarter of the entries (and of more than three) sets none apart.
        let most = (n / 4).max(3);
        let kept: Vec<Vec<(String, f64)>> = (catalog.entries.par_iter())
            .map(|e| distinctive(entry_counts(e), &df, n, most))
            .collect();
        drop(df);
        let mut ids: Fast<Box<str>, u32> = Fast::default();
        let mut names: Vec<Box<str>> = Vec::new();
        let mut postings: Vec<Vec<(u32, f32)>> = Vec::new();
        let mut profiles = Vec::with_capacity(n);
        for (e, w) in kept.into_iter().enumerate() {
            let mut profile = Vec::with_capacity(w.len());
            for (t, x) in w {
                let id = *ids.entry(t.as_str().into()).or_insert_with(|| {
                    postings.push(Vec::new());
                    names.push(t.into_boxed_str());
                    (postings.len() - 1) as u32
                });
                let x = x as f32;
                postings[id as usize].push((e as u32, x));
                profile.push((id, x));
            }
            profiles.push(profile.into_boxed_slice());
        }
        // A term of too many entries finds no candidates (`candidates`): no list kept for it.
        for p in &mut postings {
            if p.len() > MAX_POSTINGS {
                *p = Vec::new();
            }
            p.shrink_to_fit();
        }
        Topics {
            ids,
            names,
            profiles,
            postings,
        }
    }

    /// The entry an article is about, if one stands out, from its tokens (`toks`: the title's
    /// `n_title` first, a separator, then the body's).
    pub(super) fn about(&self, catalog: &Catalog, toks: &[Tok], n_title: usize) -> Option<Topic> {
        let r = Reading::new(self, catalog, toks, n_title);
        let mut scored: Vec<(f64, u32)> = (r.cands.iter()).map(|&e| (r.score(e, &[]), e)).collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let (best, e) = *scored.first()?;
        if best < LEAST {
            return None;
        }
        // Clear of the second best on the terms that tell the two apart (two entries of one
        // family share most of theirs).
        if let Some(&(_, f)) = scored.get(1) {
            let (pe, pf) = (&self.profiles[e as usize], &self.profiles[f as usize]);
            let (mine, theirs) = (r.score(e, pf), r.score(f, pe));
            tracing::debug!(
                "topic: {} {best:.2} ({mine:.2} apart), then {} ({theirs:.2} apart)",
                catalog.entries[e as usize].id,
                catalog.entries[f as usize].id,
            );
            if mine < APART || mine < CLEAR * theirs {
                return None;
            }
        }
        let mut shared: Vec<(String, usize, f32)> = self.profiles[e as usize]
            .iter()
            .filter_map(|&(id, w)| {
                let (_, at) = r.count.get(&id)?;
                Some((self.names[id as usize].to_string(), *at, w))
            })
            .collect();
        if shared.len() < MIN_SHARED {
            return None;
        }
        shared.sort_by(|a, b| b.2.total_cmp(&a.2));
        Some(Topic {
            entry: e as usize,
            score: best,
            shared: shared.into_iter().map(|(t, at, _)| (t, at)).collect(),
        })
    }
}

/// One article as `Topics::about` reads it.
struct Reading<'t> {
    topics: &'t Topics,
    catalog: &'t Catalog,
    /// Each of the entries' terms the article uses: how often (the title twice), where first.
    count: Fast<u32, (f64, usize)>,
    in_title: HashSet<u32>,
    /// The entries worth scoring (`candidates`).
    cands: Vec<u32>,
    /// How often the article names each candidate's domain (`torch` for pytorch), and the most.
    by_domain: HashMap<&'t str, usize>,
    most_named: usize,
}

impl<'t> Reading<'t> {
    fn new(topics: &'t Topics, catalog: &'t Catalog, toks: &[Tok], n_title: usize) -> Self {
        let mut count: Fast<u32, (f64, usize)> = Fast::default();
        let mut in_title = HashSet::new();
        let mut mentions: Fast<&str, usize> = Fast::default();
        for (i, t) in toks.iter().enumerate() {
            let title = i < n_title;
            *mentions.entry(t.word.as_str()).or_default() += 1;
            let Some(&id) = topics.ids.get(t.word.as_str()) else {
                continue;
            };
            count.entry(id).or_insert((0.0, t.at)).0 += if title { 2.0 } else { 1.0 };
            if title {
                in_title.insert(id);
            }
        }
        let mut r = Reading {
            topics,
            catalog,
            count,
            in_title,
            cands: Vec::new(),
            by_domain: HashMap::new(),
            most_named: 0,
        };
        let named = |domain: &str| -> usize {
            (mentions.iter())
                .filter(|(w, _)| **w == domain || (w.len() >= 4 && domain.ends_with(**w)))
                .map(|(_, n)| n)
                .sum()
        };
        r.cands = r.candidates();
        for &e in &r.cands {
            let d = catalog.entries[e as usize].domain.as_str();
            if !r.by_domain.contains_key(d) {
                r.by_domain.insert(d, named(d));
            }
        }
        r.most_named = r.by_domain.values().copied().max().unwrap_or(0);
        r
    }

    /// The entries worth scoring: those keeping the article's rarer terms, best first.
    fn candidates(&self) -> Vec<u32> {
        let mut partial: Fast<u32, f32> = Fast::default();
        for &id in self.count.keys() {
            for &(e, w) in &self.topics.postings[id as usize] {
                *partial.entry(e).or_default() += w;
            }
        }
        let mut cands: Vec<(u32, f32)> = partial.into_iter().collect();
        cands.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        cands.into_iter().take(LOOK_AT).map(|c| c.0).collect()
    }

    /// Entry `e`'s score: the share of its weight the article covers (more for terms used
    /// often, again for the title's), leaving out the terms of `but` (another entry's
    /// profile), scaled down when the article names another domain more.
    fn score(&self, e: u32, but: &[(u32, f32)]) -> f64 {
        let mut s = 0.0;
        for &(id, w) in &self.topics.profiles[e as usize] {
            if but.iter().any(|b| b.0 == id) {
                continue;
            }
            if let Some(&(k, _)) = self.count.get(&id) {
                s += f64::from(w) * (0.5 + 0.25 * k).min(1.0);
                if self.in_title.contains(&id) {
                    s += f64::from(w);
                }
            }
        }
        if self.most_named > 0 {
            let d = self.catalog.entries[e as usize].domain.as_str();
            let m = self.by_domain.get(d).copied().unwrap_or(0);
            s *= 0.6 + 0.4 * m as f64 / self.most_named as f64;
        }
        s
    }
}

/// What an article is about, by `Topics::about`.
pub(super) struct Topic {
    pub(super) entry: usize,
    /// Share of the entry's weight covered (title counting again, domain scaled).
    pub(super) score: f64,
    /// The entry's terms the article uses, most distinctive first, with where the article
    /// first uses each (a byte offset into the article's source).
    pub(super) shared: Vec<(String, usize)>,
}
