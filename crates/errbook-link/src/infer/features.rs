//! What related-entry inference compares entries on, kept small: each entry's message words and
//! API names by number, as a sorted list, and the inverted index of them and of error codes.
//!
//! Words and names are numbered in lexical order, so a sorted list of numbers is in the order a
//! set of the strings was: intersections, unions, sums over them and the excerpts made of them
//! come out as they did. A string per word of every entry, a set per entry and an index keyed
//! by strings were the link stage's largest part of memory on a large catalog.
//! How a pair is scored is `related`'s job.

use crate::code::Kind;
use crate::text;
use errbook_core::model::{Catalog, Entry};
use std::collections::{BTreeSet, HashMap};

/// A word or API name in more entries than this is too common to suggest a pair.
pub(super) const RARE: usize = 50;
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

/// The catalog's message words and API names, numbered in lexical order.
#[derive(Default)]
pub(super) struct Names(Vec<Box<str>>);

impl Names {
    /// The name numbered `id`.
    pub(super) fn name(&self, id: u32) -> &str {
        &self.0[id as usize]
    }

    fn len(&self) -> usize {
        self.0.len()
    }
}

/// A key of the inverted index: an error code (without backticks), a message word, an API name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Key {
    Code(String),
    Word(u32),
    Api(u32),
}

impl Key {
    /// The key of an error code.
    pub(super) fn code(code: &str) -> Key {
        Key::Code(code.trim_matches('`').to_string())
    }
}

/// What entries are compared on, with an inverted index of it.
pub(super) struct Features {
    pub(super) names: Names,
    /// Each entry's message words, sorted.
    pub(super) msg: Vec<Box<[u32]>>,
    /// Each entry's API names, sorted.
    pub(super) api: Vec<Box<[u32]>>,
    /// How many entries' messages have each word (by number; 0 for an API name only).
    pub(super) df: Vec<u32>,
    /// How many entries there are (what a word's rarity is of).
    n: usize,
    /// Entries (sorted) by error code, by message word, by API name.
    codes: HashMap<String, Vec<u32>>,
    by_word: Vec<Vec<u32>>,
    by_api: Vec<Vec<u32>>,
}

impl Features {
    pub(super) fn new(catalog: &Catalog) -> Features {
        // Numbered first as they come, then renumbered in lexical order.
        let mut first: HashMap<String, u32> = HashMap::new();
        let mut number = |set: BTreeSet<String>| -> Box<[u32]> {
            let ids = set.into_iter().map(|w| {
                let next = first.len() as u32;
                *first.entry(w).or_insert(next)
            });
            ids.collect()
        };
        let mut msg = Vec::with_capacity(catalog.entries.len());
        let mut api = Vec::with_capacity(catalog.entries.len());
        for e in &catalog.entries {
            msg.push(number(words(&e.message)));
            api.push(number(apis(e)));
        }
        let mut by_first: Vec<(String, u32)> = first.into_iter().collect();
        by_first.sort_unstable();
        let mut map = vec![0u32; by_first.len()];
        let mut names = Vec::with_capacity(by_first.len());
        for (lex, (name, at)) in by_first.into_iter().enumerate() {
            map[at as usize] = lex as u32;
            names.push(name.into_boxed_str());
        }
        for set in msg.iter_mut().chain(api.iter_mut()) {
            set.iter_mut().for_each(|w| *w = map[*w as usize]);
            set.sort_unstable();
        }
        let mut f = Features {
            names: Names(names),
            df: Vec::new(),
            n: catalog.entries.len(),
            codes: HashMap::new(),
            by_word: Vec::new(),
            by_api: Vec::new(),
            msg,
            api,
        };
        let v = f.names.len();
        f.df = vec![0; v];
        f.by_word = vec![Vec::new(); v];
        f.by_api = vec![Vec::new(); v];
        for (i, e) in catalog.entries.iter().enumerate() {
            for k in keys(e, &f.msg[i], &f.api[i]) {
                f.list_or_new(&k).push(i as u32);
            }
            for &w in &f.msg[i] {
                f.df[w as usize] += 1;
            }
        }
        for l in f.by_word.iter_mut().chain(f.by_api.iter_mut()) {
            l.shrink_to_fit();
        }
        f
    }

    /// How rare message word `w` is (its inverse document frequency).
    pub(super) fn idf(&self, w: u32) -> f64 {
        match self.df[w as usize] {
            0 => 0.05,
            d => idf_of(self.n, d as usize),
        }
    }

    /// The entries (sorted) with key `k`, if any.
    pub(super) fn list(&self, k: &Key) -> Option<&Vec<u32>> {
        match k {
            Key::Code(c) => self.codes.get(c),
            Key::Word(w) => self.by_word.get(*w as usize),
            Key::Api(a) => self.by_api.get(*a as usize),
        }
    }

    /// The entries with key `k`, to change.
    pub(super) fn list_or_new(&mut self, k: &Key) -> &mut Vec<u32> {
        match k {
            Key::Code(c) => self.codes.entry(c.clone()).or_default(),
            Key::Word(w) => &mut self.by_word[*w as usize],
            Key::Api(a) => &mut self.by_api[*a as usize],
        }
    }

    /// The entries after entry `a` (sorted) that share a code, a rare message word or a rare
    /// API name with it: taken over every `a` in order, the pairs of entries that do, sorted.
    /// Made one entry at a time: the set of all pairs was the link stage's largest part of
    /// memory on a large catalog.
    pub(super) fn partners(&self, catalog: &Catalog, a: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for k in keys(&catalog.entries[a], &self.msg[a], &self.api[a]) {
            let Some(list) = self.list(&k) else {
                continue;
            };
            if list.len() < 2 || list.len() > RARE {
                continue;
            }
            out.extend(list.iter().map(|&b| b as usize).filter(|&b| b > a));
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The inverse document frequency of a word `d` of `n` entries' messages have.
fn idf_of(n: usize, d: usize) -> f64 {
    ((n as f64 + 1.0) / d as f64).ln().max(0.05)
}

/// The index keys of an entry: its code, message words and API names.
pub(super) fn keys(e: &Entry, msg: &[u32], api: &[u32]) -> Vec<Key> {
    let code = e.error_code.as_deref().map(Key::code);
    (code.into_iter())
        .chain(msg.iter().map(|&w| Key::Word(w)))
        .chain(api.iter().map(|&a| Key::Api(a)))
        .collect()
}

/// The items both sorted lists have, in order.
pub(super) fn common(a: &[u32], b: &[u32]) -> Vec<u32> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out
}

/// The items either sorted list has, in order, each once.
pub(super) fn either(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = a.iter().chain(b).copied().collect();
    out.sort_unstable();
    out.dedup();
    out
}
