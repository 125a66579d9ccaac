//! Gather: a lean build's search terms, taken from each entry as it is parsed, so that the
//! texts they come from need not stay in memory until the index is made (at 1,000,000 entries
//! the root causes alone were most of a gigabyte). Each distinct term is numbered once in a
//! `Vocab` shared by the parsing threads; an entry keeps its fields' lengths and its (term,
//! field, count) triples as varints (`Entry::search_terms`), a few hundred bytes. The index made
//! from them (`index`) is `format::build_borrowed`'s, to the bit: the same counts, the same
//! arithmetic in the same order, and its posting lists are kept by term number rather than in a
//! map of the terms' strings.

use super::format::{self, Doc, DocRef, Index, FIELDS};
use errbook_core::model::{Catalog, Entry};
use errbook_link::Graph;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Mutex;

/// Fields in all: the entry's own first, then the two article fields.
const NF: usize = FIELDS.len();
/// The entry's own fields (`format::fields`).
const OWN: usize = NF - 2;
/// The vocabulary's locks: the threads that parse rarely wait on one another.
const SHARDS: usize = 16;

/// Each distinct term's number. A term's number is `slot * SHARDS + shard`, its shard chosen by
/// its hash; numbers say nothing of the terms' order (the index sorts the terms by name).
pub struct Vocab {
    hasher: foldhash::fast::FixedState,
    shards: Vec<Mutex<HashMap<Box<str>, u32, foldhash::fast::FixedState>>>,
}

impl Default for Vocab {
    fn default() -> Vocab {
        Vocab {
            hasher: foldhash::fast::FixedState::default(),
            shards: (0..SHARDS)
                .map(|_| Mutex::new(HashMap::default()))
                .collect(),
        }
    }
}

impl Vocab {
    /// The number of `t`, given one if it has none yet.
    fn id(&self, t: &str) -> u32 {
        use std::hash::BuildHasher;
        let s = (self.hasher.hash_one(t) % SHARDS as u64) as usize;
        let mut map = self.shards[s].lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&id) = map.get(t) {
            return id;
        }
        let id = (map.len() * SHARDS + s) as u32;
        map.insert(t.into(), id);
        id
    }

    /// The terms by number (an empty name where no term has the number), the vocabulary gone.
    fn into_names(self) -> Vec<Box<str>> {
        let mut names: Vec<Box<str>> = Vec::new();
        for m in self.shards {
            let m = m.into_inner().unwrap_or_else(|e| e.into_inner());
            for (t, id) in m {
                let id = id as usize;
                if names.len() <= id {
                    names.resize_with(id + 1, Default::default);
                }
                names[id] = t;
            }
        }
        names
    }
}

/// `e`'s search terms (its own fields', as `format::fields` and `format::counts` find them),
/// numbered in `vocab`, encoded: the fields' lengths, then each (term, field, count) in term
/// then field order, the term as the difference from the one before.
pub fn terms(e: &Entry, vocab: &Vocab) -> Box<[u8]> {
    let mut lens = [0usize; OWN];
    let mut tf: Vec<(u32, u8, u32)> = Vec::new();
    for (f, text) in format::fields(e).iter().enumerate().take(OWN) {
        let (counts, len) = format::counts(text);
        lens[f] = len;
        tf.extend(counts.iter().map(|(t, &c)| (vocab.id(t), f as u8, c)));
    }
    tf.sort_unstable();
    let mut out = Vec::with_capacity(OWN + 4 * tf.len() + 4);
    for len in lens {
        put(&mut out, len as u64);
    }
    put(&mut out, tf.len() as u64);
    let mut last = 0u32;
    for (t, f, c) in tf {
        put(&mut out, u64::from(t - last));
        put(&mut out, (u64::from(c) << 4) | u64::from(f));
        last = t;
    }
    out.into_boxed_slice()
}

/// `v` as a LEB128 varint.
fn put(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The varint at `*at` in `b`, `*at` moved past it (0 past the end: `terms` wrote `b`).
fn get(b: &[u8], at: &mut usize) -> u64 {
    let mut v = 0u64;
    let mut shift = 0;
    while let Some(&x) = b.get(*at) {
        *at += 1;
        v |= u64::from(x & 0x7f) << shift;
        shift += 7;
        if x < 0x80 || shift > 63 {
            break;
        }
    }
    v
}

/// An entry's terms decoded: its own fields' lengths and its (term, field, count) triples.
struct Row {
    lens: [usize; OWN],
    tf: Vec<(u32, u8, u32)>,
}

impl Row {
    fn decode(b: &[u8]) -> Row {
        let mut at = 0;
        let mut lens = [0usize; OWN];
        for l in &mut lens {
            *l = get(b, &mut at) as usize;
        }
        let n = get(b, &mut at) as usize;
        let mut tf = Vec::with_capacity(n.min(b.len()));
        let mut t = 0u32;
        for _ in 0..n {
            if at >= b.len() {
                break;
            }
            t = t.wrapping_add(get(b, &mut at) as u32);
            let fc = get(b, &mut at);
            tf.push((t, (fc & 0xf) as u8, (fc >> 4) as u32));
        }
        Row { lens, tf }
    }

    /// The fields' lengths alone.
    fn lens(b: &[u8]) -> [usize; OWN] {
        let mut at = 0;
        let mut lens = [0usize; OWN];
        for l in &mut lens {
            *l = get(b, &mut at) as usize;
        }
        lens
    }
}

/// An article's title and text, counted and numbered: (term, count) pairs and the length.
type ArtCounts = [(Vec<(u32, u32)>, usize); 2];

/// What each document's row is made of: its gathered terms and the articles that discuss it.
struct Parts<'c> {
    cat: &'c Catalog,
    /// Catalog positions of the articles that discuss each entry, by entry ID.
    by_entry: HashMap<&'c str, Vec<usize>>,
    /// The counts of each numbered article, by catalog position.
    arts: HashMap<usize, ArtCounts>,
    /// The terms of the entries that had none gathered, by catalog position.
    late: HashMap<usize, Box<[u8]>>,
}

impl Parts<'_> {
    /// Entry `i`'s gathered terms.
    fn row(&self, i: usize) -> &[u8] {
        match &self.cat.entries[i].search_terms {
            Some(b) => b,
            None => self.late.get(&i).map_or(&[], |b| b),
        }
    }

    /// Catalog positions of the articles that discuss entry `i`.
    fn disc(&self, i: usize) -> &[usize] {
        let id = self.cat.entries[i].id.as_str();
        self.by_entry.get(id).map_or(&[], Vec::as_slice)
    }

    /// The counts of the articles that discuss entry `i`.
    fn arts(&self, i: usize) -> impl Iterator<Item = &ArtCounts> {
        self.disc(i).iter().filter_map(|a| self.arts.get(a))
    }
}

/// The index of `cat` from its entries' gathered terms (an entry without them, one made whole
/// again after parse, is gathered here), with the documents borrowed from `cat`: what
/// `format::build_borrowed` makes from the texts.
pub(crate) fn index<'a>(cat: &'a Catalog, graph: &Graph, vocab: Vocab) -> (Index, Vec<DocRef<'a>>) {
    let by_entry = format::articles_by_entry(cat, graph);
    let (art_no, arts) = format::number_articles(cat, &by_entry);
    let art_counts: HashMap<usize, ArtCounts> = (art_no.keys().copied().collect::<Vec<_>>())
        .par_iter()
        .map(|&a| {
            let art = &cat.articles[a];
            let number = |text: &str| {
                let (tf, len) = format::counts(text);
                let tf = tf.iter().map(|(t, &c)| (vocab.id(t), c)).collect();
                (tf, len)
            };
            (a, [number(&art.title), number(&art.body)])
        })
        .collect();
    let late: HashMap<usize, Box<[u8]>> = (cat.entries.par_iter().enumerate())
        .filter(|(_, e)| e.search_terms.is_none())
        .map(|(i, e)| (i, terms(e, &vocab)))
        .collect();
    let parts = Parts {
        cat,
        by_entry,
        arts: art_counts,
        late,
    };
    let avg = average_lengths(&parts);
    let docs: Vec<DocRef<'a>> = (cat.entries.iter().enumerate())
        .map(|(i, e)| {
            let nums = parts.disc(i).iter().map(|a| art_no[a]).collect();
            Doc(
                e.id.as_str(),
                e.message.as_str(),
                nums,
                e.aliases.as_slice(),
            )
        })
        .collect();
    let names = vocab.into_names();
    let mut post: Vec<Vec<u32>> = vec![Vec::new(); names.len()];
    let mut last: Vec<u32> = vec![0; names.len()];
    const CHUNK: usize = 1024;
    let n = cat.entries.len();
    for start in (0..n).step_by(CHUNK) {
        let rows: Vec<Vec<(u32, u32)>> = (start..(start + CHUNK).min(n))
            .into_par_iter()
            .map(|i| impacts(Row::decode(parts.row(i)), parts.arts(i), &avg))
            .collect();
        for (k, row) in rows.into_iter().enumerate() {
            let d = (start + k) as u32;
            for (t, impact) in row {
                let (list, l) = (&mut post[t as usize], &mut last[t as usize]);
                grow(list);
                list.push(d - *l);
                list.push(impact);
                *l = d;
            }
        }
    }
    drop((last, parts));
    let (terms, post) = sorted(names, post);
    let idx = Index::without_docs(arts, terms, post);
    (idx, docs)
}

/// Each field's average length over all documents (at least 1), as `format` works it out.
fn average_lengths(parts: &Parts<'_>) -> Vec<f64> {
    let n = parts.cat.entries.len();
    let total = (0..n)
        .into_par_iter()
        .map(|i| {
            let mut row = [0usize; NF];
            row[..OWN].copy_from_slice(&Row::lens(parts.row(i)));
            for c in parts.arts(i) {
                row[OWN] += c[0].1;
                row[OWN + 1] += c[1].1;
            }
            row
        })
        .reduce(
            || [0usize; NF],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        );
    let n = n.max(1) as f64;
    total.iter().map(|&t| (t as f64 / n).max(1.0)).collect()
}

/// One document's terms with their impacts (`format`'s BM25F: each term's contributions added
/// field by field in field order), from its own row and the counts of the articles that
/// discuss it.
fn impacts<'c>(
    mut row: Row,
    arts: impl Iterator<Item = &'c ArtCounts>,
    avg: &[f64],
) -> Vec<(u32, u32)> {
    let mut lens = [0usize; NF];
    lens[..OWN].copy_from_slice(&row.lens);
    let mut sums: [HashMap<u32, u32>; 2] = Default::default();
    for c in arts {
        for (f, (tf, len)) in c.iter().enumerate() {
            lens[OWN + f] += len;
            for &(t, n) in tf {
                *sums[f].entry(t).or_default() += n;
            }
        }
    }
    for (f, sum) in sums.into_iter().enumerate() {
        let field = (OWN + f) as u8;
        row.tf.extend(sum.into_iter().map(|(t, c)| (t, field, c)));
    }
    row.tf.sort_unstable();
    let mut norm = [1.0f64; NF];
    for (f, n) in norm.iter_mut().enumerate() {
        let (_, _, b) = FIELDS[f];
        *n = 1.0 - b + b * (lens[f] as f64) / avg[f];
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < row.tf.len() {
        let term = row.tf[i].0;
        let mut x = 0.0f64;
        while i < row.tf.len() && row.tf[i].0 == term {
            let (_, f, c) = row.tf[i];
            let (_, w, _) = FIELDS[usize::from(f)];
            x += w * c as f64 / norm[usize::from(f)];
            i += 1;
        }
        out.push((term, format::impact(x)));
    }
    out
}

/// Room for one more posting in `list`, made a quarter at a time (`format`'s reason: the
/// postings are the index's bulk, held until its files are written).
fn grow(list: &mut Vec<u32>) {
    if list.capacity() - list.len() < 2 {
        list.reserve_exact(list.len() / 4 + 2);
    }
}

/// The terms that have postings, sorted, each with its list cut to its length.
fn sorted(names: Vec<Box<str>>, post: Vec<Vec<u32>>) -> (Vec<String>, Vec<Vec<u32>>) {
    let mut order: Vec<u32> = (0..post.len() as u32)
        .filter(|&t| !post[t as usize].is_empty())
        .collect();
    order.sort_unstable_by(|&a, &b| names[a as usize].cmp(&names[b as usize]));
    let (mut names, mut post) = (names, post);
    let mut terms = Vec::with_capacity(order.len());
    let mut lists = Vec::with_capacity(order.len());
    for t in order {
        let t = t as usize;
        terms.push(String::from(std::mem::take(&mut names[t])));
        let mut p = std::mem::take(&mut post[t]);
        p.shrink_to_fit();
        lists.push(p);
    }
    (terms, lists)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_read_back_what_was_written() {
        let mut b = Vec::new();
        let vals = [0u64, 1, 127, 128, 300, u64::from(u32::MAX), 1 << 40];
        for v in vals {
            put(&mut b, v);
        }
        let mut at = 0;
        let back: Vec<u64> = vals.iter().map(|_| get(&b, &mut at)).collect();
        assert_eq!(back, vals);
        assert_eq!(at, b.len());
    }

    #[test]
    fn a_truncated_row_reads_as_zeros_without_panicking() {
        let r = Row::decode(&[0xff]);
        assert!(r.tf.is_empty());
        assert_eq!(Row::lens(&[]), [0; OWN]);
    }
}
