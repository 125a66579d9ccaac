//! One entry as the kept index holds it: its terms by field as numbers (tokenised once, when
//! its file changes), the articles that discuss it, and its row of the index (each term with
//! its impact), which is worked out again from the counts alone when the average field lengths
//! move. The arithmetic is `format`'s, step for step, so the impacts are the same to the bit.

use super::terms::Terms;
use crate::core::model::{Article, Entry};
use crate::search::format::{self, FIELDS};
use crate::search::shards;
use std::collections::HashMap;

/// Fields in all; the entry's own come first, the two article fields last.
pub(super) const NF: usize = FIELDS.len();
const OWN: usize = NF - 2;

/// A term's count in one field of a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Tf {
    term: u32,
    field: u8,
    count: u32,
}

/// A text's terms with their counts, and its length in terms.
#[derive(Debug, Default)]
pub(super) struct Counts {
    tf: Vec<(u32, u32)>,
    len: usize,
}

impl Counts {
    fn of(raw: format::Counts, terms: &mut Terms) -> Counts {
        let (tf, len) = raw;
        let mut tf: Vec<(u32, u32)> = tf.into_iter().map(|(t, c)| (terms.id(t), c)).collect();
        tf.sort_unstable();
        Counts { tf, len }
    }
}

/// An article's title and text, counted once however many entries it discusses.
#[derive(Debug, Default)]
pub(super) struct ArtCounts {
    title: Counts,
    body: Counts,
}

/// An article tokenised, its terms not yet numbered (this part runs in parallel).
pub(super) type RawArticle = (format::Counts, format::Counts);

pub(super) fn tokenise_article(a: &Article) -> RawArticle {
    (format::counts(&a.title), format::counts(&a.body))
}

impl ArtCounts {
    pub(super) fn of(raw: RawArticle, terms: &mut Terms) -> ArtCounts {
        ArtCounts {
            title: Counts::of(raw.0, terms),
            body: Counts::of(raw.1, terms),
        }
    }
}

/// An entry tokenised, its terms not yet numbered (this part runs in parallel).
pub(super) struct RawEntry {
    fields: Vec<format::Counts>,
    rerank: Vec<String>,
}

pub(super) fn tokenise_entry(e: &Entry) -> RawEntry {
    RawEntry {
        fields: format::fields(e)
            .iter()
            .map(|t| format::counts(t))
            .collect(),
        rerank: shards::rerank_terms(&e.message, &e.aliases),
    }
}

/// One entry of the kept index.
pub(super) struct Kept {
    pub(super) id: String,
    pub(super) message: String,
    pub(super) aliases: Vec<String>,
    /// The distinct terms of its message and of each alias (`shards::rerank_terms`).
    pub(super) rerank: Vec<u32>,
    /// The articles that discuss it (IDs, in the order the index lists them) and their numbers
    /// in the index, as the last update found them.
    pub(super) art_ids: Vec<String>,
    pub(super) art_nums: Vec<u32>,
    /// Every field's terms, the article fields included, in (term, field) order.
    tf: Vec<Tf>,
    lens: [usize; NF],
    /// Its terms with their impacts, in term number order.
    pub(super) row: Vec<(u32, u32)>,
}

impl Kept {
    /// A newly tokenised entry; its article fields are empty until `set_articles`.
    pub(super) fn new(e: &Entry, raw: RawEntry, terms: &mut Terms) -> Kept {
        let mut tf = Vec::new();
        let mut lens = [0usize; NF];
        for (f, (counts, len)) in raw.fields.into_iter().enumerate().take(OWN) {
            lens[f] = len;
            tf.extend(counts.into_iter().map(|(t, count)| Tf {
                term: terms.id(t),
                field: f as u8,
                count,
            }));
        }
        tf.sort_unstable();
        Kept {
            id: e.id.clone(),
            message: e.message.clone(),
            aliases: e.aliases.clone(),
            rerank: raw.rerank.into_iter().map(|t| terms.id(t)).collect(),
            art_ids: Vec::new(),
            art_nums: Vec::new(),
            tf,
            lens,
            row: Vec::new(),
        }
    }

    /// The lengths of its fields, in terms.
    pub(super) fn lens(&self) -> &[usize; NF] {
        &self.lens
    }

    /// Replace the article fields by the sums of the counts of `ids` (every one of them in
    /// `counts`: the caller counted each numbered article).
    pub(super) fn set_articles(&mut self, ids: Vec<String>, counts: &HashMap<String, ArtCounts>) {
        self.tf.retain(|x| usize::from(x.field) < OWN);
        let mut sums: [HashMap<u32, u32>; 2] = Default::default();
        let (mut title_len, mut body_len) = (0, 0);
        for c in ids.iter().filter_map(|id| counts.get(id)) {
            for (f, part) in [(0, &c.title), (1, &c.body)] {
                for &(t, n) in &part.tf {
                    *sums[f].entry(t).or_default() += n;
                }
            }
            title_len += c.title.len;
            body_len += c.body.len;
        }
        for (f, sum) in sums.into_iter().enumerate() {
            let field = (OWN + f) as u8;
            self.tf.extend(
                sum.into_iter()
                    .map(|(term, count)| Tf { term, field, count }),
            );
        }
        self.tf.sort_unstable();
        self.lens[OWN] = title_len;
        self.lens[OWN + 1] = body_len;
        self.art_ids = ids;
    }

    /// Its row of the index under the average field lengths `avg`: `format`'s BM25F, each
    /// term's contributions added in field order as there.
    pub(super) fn impacts(&self, avg: &[f64]) -> Vec<(u32, u32)> {
        let mut norm = [1.0f64; NF];
        for (f, n) in norm.iter_mut().enumerate() {
            let (_, _, b) = FIELDS[f];
            *n = 1.0 - b + b * (self.lens[f] as f64) / avg[f];
        }
        let mut out: Vec<(u32, u32)> = Vec::new();
        let mut i = 0;
        while i < self.tf.len() {
            let term = self.tf[i].term;
            let mut x = 0.0f64;
            while i < self.tf.len() && self.tf[i].term == term {
                let f = usize::from(self.tf[i].field);
                let (_, w, _) = FIELDS[f];
                x += w * self.tf[i].count as f64 / norm[f];
                i += 1;
            }
            out.push((term, format::impact(x)));
        }
        out
    }
}
