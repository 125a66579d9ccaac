//! The entries' message index that article inference looks passages up in: each entry's
//! message and aliases as templates (words after the exception type), the templates' trigrams,
//! the entries by error code, and the entries' distinctive terms (`topic`).

use crate::text::{self, gram_hash};
use errbook_core::model::{Catalog, Entry};
use std::collections::{BTreeMap, HashMap};

/// A trigram shared by more templates than this says nothing about which one is meant.
pub(super) const MAX_POSTINGS: usize = 64;

/// One message of an entry as matching sees it, its words as strings (`templates_of`).
pub(super) struct Template<W = String> {
    pub(super) entry: usize,
    /// Which of the entry's messages (0: the message, then the aliases): with `entry`, the order
    /// in which equally good passages are given to templates.
    pub(super) nth: usize,
    pub(super) words: Vec<W>,
    /// Words of the first sentence (the headline people quote).
    pub(super) headline: usize,
    pub(super) alias: bool,
}

/// A template as the index keeps it: its words by number (`Words`). A catalog's messages use
/// few distinct words, and a string per word of every message was most of the index's memory.
pub(super) type NumberedTemplate = Template<u32>;

/// Each distinct word of the templates, numbered.
#[derive(Default)]
pub(super) struct Words {
    ids: HashMap<Box<str>, u32>,
    names: Vec<Box<str>>,
}

impl Words {
    /// The number of `w`, if a template has it.
    pub(super) fn id(&self, w: &str) -> Option<u32> {
        self.ids.get(w).copied()
    }

    /// The number of `w`, given one if it has none yet.
    fn add(&mut self, w: String) -> u32 {
        if let Some(&id) = self.ids.get(w.as_str()) {
            return id;
        }
        let id = self.names.len() as u32;
        let w: Box<str> = w.into();
        self.names.push(w.clone());
        self.ids.insert(w, id);
        id
    }

    /// `t` with its words numbered.
    fn keep(&mut self, t: Template) -> NumberedTemplate {
        Template {
            entry: t.entry,
            nth: t.nth,
            words: t.words.into_iter().map(|w| self.add(w)).collect(),
            headline: t.headline,
            alias: t.alias,
        }
    }
}

/// The entries that have one error code, by exception type: entries an article names by
/// their code alone and that share an exception type get the same candidate but for the entry,
/// made once for them all (`infer::coded`).
#[derive(Default)]
pub(super) struct Coded {
    /// How many entries have the code.
    pub(super) n: usize,
    pub(super) by_exception: BTreeMap<Option<String>, Vec<usize>>,
}

impl Coded {
    fn add(&mut self, i: usize, e: &Entry) {
        self.n += 1;
        self.by_exception
            .entry(e.exception.clone())
            .or_default()
            .push(i);
    }
}

/// The catalog's message templates and codes, indexed once.
pub(crate) struct Index {
    pub(super) templates: Vec<NumberedTemplate>,
    pub(super) words: Words,
    pub(super) grams: HashMap<u64, Vec<(u32, u32)>>,
    pub(super) codes: HashMap<String, Coded>,
    /// Templates whose headline a title can name, by first word (`titled`).
    pub(super) heads: HashMap<u32, Vec<u32>>,
    /// What each entry is about, for articles that never quote its message.
    pub(super) topics: super::topic::Topics,
}

impl Index {
    pub(crate) fn new(catalog: &Catalog) -> Index {
        let mut words = Words::default();
        let mut templates: Vec<NumberedTemplate> = Vec::new();
        let mut grams: HashMap<u64, Vec<(u32, u32)>> = HashMap::new();
        for (i, e) in catalog.entries.iter().enumerate() {
            for tpl in templates_of(i, e) {
                let t = templates.len() as u32;
                for (p, g) in grams_of(&tpl.words).enumerate() {
                    grams.entry(g).or_default().push((t, p as u32));
                }
                templates.push(words.keep(tpl));
            }
        }
        // Most trigrams are of one template: a list grown for more held four times its postings.
        for post in grams.values_mut() {
            post.shrink_to_fit();
        }
        let mut codes: HashMap<String, Coded> = HashMap::new();
        for (i, e) in catalog.entries.iter().enumerate() {
            if let Some(c) = code_of(e) {
                codes.entry(c.to_string()).or_default().add(i, e);
            }
        }
        Index {
            heads: heads(&templates),
            templates,
            words,
            grams,
            codes,
            topics: super::topic::Topics::new(catalog),
        }
    }
}

impl Index {}

/// Where a template stands among equally good matches: by entry, then message before aliases
/// (the order `Index::new` makes them in).
pub(super) fn order(t: &NumberedTemplate) -> (usize, usize) {
    (t.entry, t.nth)
}

/// The templates of entry `e` (at `i` in the catalog): its message and aliases, after the
/// exception type, when they have at least three words.
pub(super) fn templates_of(i: usize, e: &Entry) -> Vec<Template> {
    let msgs = std::iter::once((&e.message, false)).chain(e.aliases.iter().map(|a| (a, true)));
    let mut out = Vec::new();
    for (nth, (m, alias)) in msgs.enumerate() {
        let body = text::after_exception(m, e.exception.as_deref());
        let words = text::words_of(body);
        if words.len() < 3 {
            continue;
        }
        let head_end = body
            .find(". ")
            .map(|k| text::words_of(&body[..k]).len())
            .unwrap_or(words.len())
            .max(1);
        out.push(Template {
            entry: i,
            nth,
            words,
            headline: head_end,
            alias,
        });
    }
    out
}

/// The trigram hashes of a template's words, by position.
pub(super) fn grams_of(words: &[String]) -> impl Iterator<Item = u64> + '_ {
    (0..words.len().saturating_sub(2)).map(move |p| gram_hash(&words[p..p + 3]))
}

/// An entry's error code as articles are searched for it (at least four characters).
pub(super) fn code_of(e: &Entry) -> Option<&str> {
    let c = e.error_code.as_deref()?.trim_matches('`').trim();
    (c.len() >= 4).then_some(c)
}

/// Headlines of this many words are looked for in titles.
const WORDS: std::ops::RangeInclusive<usize> = 3..=8;
/// The templates whose headline can be named in a title, by their first word: those of 3 to 8
/// words that no other entry's message starts with (a title naming a headline that several
/// entries share does not say which it is about).
fn heads(templates: &[NumberedTemplate]) -> HashMap<u32, Vec<u32>> {
    let mut owners: HashMap<&[u32], (usize, bool)> = HashMap::new();
    let heads = templates
        .iter()
        .enumerate()
        .filter(|(_, tpl)| WORDS.contains(&tpl.headline) && tpl.words.len() >= tpl.headline);
    for (_, tpl) in heads.clone() {
        let o = owners
            .entry(&tpl.words[..tpl.headline])
            .or_insert((tpl.entry, true));
        o.1 &= o.0 == tpl.entry;
    }
    let mut out: HashMap<u32, Vec<u32>> = HashMap::new();
    for (t, tpl) in heads {
        if owners.get(&tpl.words[..tpl.headline]).is_some_and(|o| o.1) {
            out.entry(tpl.words[0]).or_default().push(t as u32);
        }
    }
    out
}
