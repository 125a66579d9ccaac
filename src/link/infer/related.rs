//! Entry <-> entry: related errors, from a shared error code, message wording (rare words,
//! weighted by how rare), the APIs their workarounds and dead ends name, and the category.
//!
//! Candidates come from inverted indexes (code, rare message words, rare API names), so the
//! cost follows the number of entries that share something, not entries squared.

use super::round2;
use crate::core::model::{Catalog, Entry};
use crate::link::code::Kind;
use crate::link::text;
use crate::link::{Evidence, Link, LinkKind, Node, Origin, Signal};
use std::collections::{BTreeSet, HashMap};

/// A word or API name in more entries than this is too common to suggest a pair.
pub(super) const RARE: usize = 50;
/// At most this many related candidates per entry.
const PER_ENTRY: usize = 5;

const STOP: &[&str] = &[
    "the",
    "a",
    "an",
    "to",
    "of",
    "in",
    "on",
    "for",
    "is",
    "be",
    "and",
    "or",
    "with",
    "you",
    "must",
    "use",
    "not",
    "at",
    "by",
    "it",
    "this",
    "that",
    "as",
    "but",
    "was",
    "are",
    "were",
    "from",
    "can",
    "cannot",
    "no",
    "error",
    text::NUM,
    text::PATH,
];

pub(super) fn words(message: &str) -> BTreeSet<String> {
    text::words_of(message)
        .into_iter()
        .filter(|w| w.len() > 2 && !STOP.contains(&w.as_str()))
        .collect()
}

pub(super) fn apis(e: &Entry) -> BTreeSet<String> {
    super::snippets::named_of(e)
        .into_iter()
        .flat_map(|n| n.toks)
        .filter_map(|t| match t.kind {
            Kind::Call { name, .. } if name.contains('_') || name.len() > 6 => Some(name),
            Kind::Setting { key, .. } => Some(key),
            Kind::Ident { name } => Some(name),
            _ => None,
        })
        .collect()
}

/// Whether `a` and `b` (two versions of one entry) look the same to this inference: the same ID,
/// message words, API names, error code and category. When every changed entry does, and no
/// entry came or went, the candidates are what they were.
pub(crate) fn same_features(a: &Entry, b: &Entry) -> bool {
    a.id == b.id
        && a.error_code == b.error_code
        && a.category == b.category
        && words(&a.message) == words(&b.message)
        && apis(a) == apis(b)
}

/// Related-candidates between entries, at most `PER_ENTRY` per entry, best first.
pub(crate) fn infer(catalog: &Catalog) -> Vec<Link> {
    let f = Features::new(catalog);
    let mut cands = Vec::new();
    for a in 0..catalog.entries.len() {
        for b in f.partners(catalog, a) {
            if let Some((score, ev)) = f.scored(catalog, a, b) {
                cands.push((a, b, score, ev));
            }
        }
    }
    top(catalog, cands, |ev| ev)
}

/// Keep each entry's best few of `cands`, best first: a greedy pass over them all in order of
/// score (then position), so one pair's score can move pairs anywhere in the catalog. `ev`
/// gives a kept candidate's evidence.
pub(super) fn top<T>(
    catalog: &Catalog,
    mut cands: Vec<(usize, usize, f64, T)>,
    ev: impl Fn(T) -> Vec<Evidence>,
) -> Vec<Link> {
    cands.sort_by(|x, y| y.2.total_cmp(&x.2).then((x.0, x.1).cmp(&(y.0, y.1))));
    let mut count = vec![0usize; catalog.entries.len()];
    let mut out = Vec::new();
    for (a, b, score, e) in cands {
        if count[a] >= PER_ENTRY || count[b] >= PER_ENTRY {
            continue;
        }
        count[a] += 1;
        count[b] += 1;
        out.push(Link {
            from: Node::Entry {
                id: catalog.entries[a].id.clone(),
            },
            to: Node::Entry {
                id: catalog.entries[b].id.clone(),
            },
            kind: LinkKind::Related,
            origin: Origin::Inferred,
            score,
            evidence: ev(e),
        });
    }
    out
}

/// What entries are compared on (message words, API names, error code), with an inverted
/// index of it.
pub(super) struct Features {
    pub(super) msg: Vec<BTreeSet<String>>,
    pub(super) api: Vec<BTreeSet<String>>,
    /// How many entries' messages have each word, and its inverse document frequency.
    pub(super) df: HashMap<String, usize>,
    pub(super) idf: HashMap<String, f64>,
    /// Entries by `code:<code>`, `w:<word>`, `api:<name>`.
    pub(super) post: HashMap<String, Vec<usize>>,
}

impl Features {
    pub(super) fn new(catalog: &Catalog) -> Features {
        let n = catalog.entries.len();
        let msg: Vec<BTreeSet<String>> =
            catalog.entries.iter().map(|e| words(&e.message)).collect();
        let api: Vec<BTreeSet<String>> = catalog.entries.iter().map(apis).collect();
        let mut df: HashMap<String, usize> = HashMap::new();
        for w in msg.iter().flatten() {
            *df.entry(w.clone()).or_default() += 1;
        }
        let idf = (df.iter())
            .map(|(w, &d)| (w.clone(), idf_of(n, d)))
            .collect();
        let mut post: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, e) in catalog.entries.iter().enumerate() {
            for k in keys(e, &msg[i], &api[i]) {
                post.entry(k).or_default().push(i);
            }
        }
        Features {
            msg,
            api,
            df,
            idf,
            post,
        }
    }

    /// The score and evidence of the pair (`a`, `b`) when it is a candidate (at least 0.3).
    pub(super) fn scored(
        &self,
        catalog: &Catalog,
        a: usize,
        b: usize,
    ) -> Option<(f64, Vec<Evidence>)> {
        let ev = self.evidence(catalog, a, b);
        if ev.is_empty() {
            return None;
        }
        let miss: f64 = ev.iter().map(|x| 1.0 - x.weight).product();
        let score = round2(1.0 - miss);
        (score >= 0.3).then_some((score, ev))
    }

    /// The weight of a message word (every word of `msg` has one).
    fn idf(&self, w: &str) -> f64 {
        self.idf.get(w).copied().unwrap_or(0.05)
    }

    /// The entries after entry `a` (sorted) that share a code, a rare message word or a rare
    /// API name with it: taken over every `a` in order, the pairs of entries that do, sorted.
    /// Made one entry at a time: the set of all pairs was the link stage's largest part of
    /// memory on a large catalog (tens of millions of pairs at 1,000,000 entries).
    pub(super) fn partners(&self, catalog: &Catalog, a: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for k in keys(&catalog.entries[a], &self.msg[a], &self.api[a]) {
            let Some(list) = self.post.get(&k) else {
                continue;
            };
            if list.len() < 2 || list.len() > RARE {
                continue;
            }
            out.extend(list.iter().copied().filter(|&b| b > a));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// What entries `a` and `b` share (empty when nothing but, at most, their category).
    fn evidence(&self, catalog: &Catalog, a: usize, b: usize) -> Vec<Evidence> {
        let (ea, eb) = (&catalog.entries[a], &catalog.entries[b]);
        let mut ev = Vec::new();
        if let (Some(ca), Some(cb)) = (&ea.error_code, &eb.error_code) {
            if ca == cb {
                let share = self.post.get(&code_key(ca)).map(|l| l.len()).unwrap_or(2);
                let code = ca.trim_matches('`').to_string();
                let weight = round2(0.6 * (3.0 / share as f64).min(1.0));
                ev.push(shared(
                    Signal::SameErrorCode { code: code.clone() },
                    code,
                    weight,
                ));
            }
        }
        ev.extend(self.wording(a, b));
        let apis: Vec<&str> = self.api[a]
            .intersection(&self.api[b])
            .map(String::as_str)
            .collect();
        if !apis.is_empty() {
            let j = apis.len() as f64 / self.api[a].union(&self.api[b]).count() as f64;
            ev.push(shared(Signal::SameApi, apis.join(", "), round2(0.4 * j)));
        }
        if !ev.is_empty() && ea.category == eb.category && !ea.category.is_empty() {
            let category = ea.category.clone();
            let signal = Signal::SameCategory {
                category: category.clone(),
            };
            ev.push(shared(signal, category, 0.1));
        }
        ev
    }

    /// Rare words both messages have, weighted by how rare, when they are enough to count.
    fn wording(&self, a: usize, b: usize) -> Option<Evidence> {
        let (ma, mb) = (&self.msg[a], &self.msg[b]);
        let inter: Vec<&str> = ma.intersection(mb).map(String::as_str).collect();
        if inter.is_empty() {
            return None;
        }
        let wi: f64 = inter.iter().map(|w| self.idf(w)).sum();
        let wu: f64 = ma.union(mb).map(|w| self.idf(w)).sum();
        let wa: f64 = ma.iter().map(|w| self.idf(w)).sum();
        let wb: f64 = mb.iter().map(|w| self.idf(w)).sum();
        // Jaccard and containment (one message is the other plus a detail), averaged.
        let j = (wi / wu.max(1e-9) + wi / wa.min(wb).max(1e-9)) / 2.0;
        (j > 0.1).then(|| shared(Signal::SimilarWording, inter.join(" "), round2(0.8 * j)))
    }
}

/// The inverse document frequency of a word `d` of `n` entries' messages have.
pub(super) fn idf_of(n: usize, d: usize) -> f64 {
    ((n as f64 + 1.0) / d as f64).ln().max(0.05)
}

/// The index keys of an entry: its code, message words and API names.
pub(super) fn keys(e: &Entry, msg: &BTreeSet<String>, api: &BTreeSet<String>) -> Vec<String> {
    let code = e.error_code.as_deref().map(code_key);
    (code.into_iter())
        .chain(msg.iter().map(|w| format!("w:{w}")))
        .chain(api.iter().map(|a| format!("api:{a}")))
        .collect()
}

/// The index key of an error code.
pub(super) fn code_key(code: &str) -> String {
    format!("code:{}", code.trim_matches('`'))
}

/// Evidence of something two entries share (no line: it is in both).
fn shared(signal: Signal, excerpt: String, weight: f64) -> Evidence {
    Evidence {
        signal,
        excerpt,
        line: None,
        weight,
    }
}
