//! The index format: a prebuilt inverted index with BM25F impacts computed at build time, so the
//! browser only looks terms up and adds. Cut into files by `shards` (the site's), whole for
//! `errbook search`.
//!
//! JSON layout (arrays, not objects, to stay small):
//! `{"v":2,"docs":[[id, message, [article...], [alias...]]...], "arts":[[title, site path]...],
//!   "terms":[sorted terms...], "post":[[doc delta, impact, doc delta, impact...]...]}`.
//! `impact` is `round(100 * tfw / (tfw + K1))` with `tfw` the field-weighted, length-normalised
//! term frequency (BM25F); the query side multiplies by the term's idf, computed from the
//! posting list's length.

use crate::{normalise, tokenise};
use errbook_core::model::{Catalog, Entry};
use errbook_link::Graph;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// BM25 saturation.
pub(crate) const K1: f64 = 1.2;

/// Field weights: what a match in each field is worth.
pub(crate) const FIELDS: &[(&str, f64, f64)] = &[
    // (name, weight, length normalisation b)
    ("message", 4.0, 0.5),
    ("aliases", 3.0, 0.5),
    ("exception", 1.5, 0.0),
    ("code", 2.5, 0.0),
    ("id", 1.5, 0.0),
    ("domain", 0.8, 0.0),
    ("category", 0.8, 0.0),
    ("tags", 1.0, 0.0),
    ("root_cause", 1.0, 0.75),
    ("workarounds", 0.6, 0.75),
    ("article_titles", 1.0, 0.5),
    ("article_text", 0.15, 0.75),
];

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Index {
    pub v: u32,
    /// One per entry, in catalog order.
    pub docs: Vec<Doc>,
    /// The articles results link to.
    pub arts: Vec<Art>,
    pub terms: Vec<String>,
    /// Per term: `[doc delta, impact, ...]` with doc numbers increasing.
    pub post: Vec<Vec<u32>>,
}

impl Index {
    /// The format's version.
    pub(crate) const VERSION: u32 = 2;

    /// An index whose documents are held elsewhere (`DocRef`s beside it).
    pub(crate) fn without_docs(arts: Vec<Art>, terms: Vec<String>, post: Vec<Vec<u32>>) -> Index {
        Index {
            v: Index::VERSION,
            docs: Vec::new(),
            arts,
            terms,
            post,
        }
    }
}

/// An entry as the index ships it: `[id, message, [article numbers], [aliases]]` (a JSON
/// array, the compact form the browser reads). The message and aliases are what the ranking's
/// second pass matches a paste against. Owned in an `Index`; a build writes the files from
/// `DocRef`s, the same JSON borrowed from the catalog (owned copies would hold every message
/// twice).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Doc<S = String, L = Vec<String>>(
    /// The entry ID.
    pub S,
    /// Its message.
    pub S,
    /// Positions in `Index::arts` of the articles that discuss it.
    pub Vec<u32>,
    /// Other wordings of its message.
    pub L,
);

/// A `Doc` borrowed from the catalog.
pub(crate) type DocRef<'a> = Doc<&'a str, &'a [String]>;

/// An article results link to: `[title, site path]`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Art(pub String, pub String);

/// The text of each field of one entry, but the two article fields (counted once per article).
pub(super) fn fields(e: &Entry) -> Vec<String> {
    let msg = normalise::normalise(&e.message).template;
    let aliases: Vec<String> = e
        .aliases
        .iter()
        .map(|a| normalise::normalise(a).template)
        .collect();
    let mut work = String::new();
    for w in &e.workarounds {
        work.push_str(&w.summary);
        work.push(' ');
        work.push_str(&w.detail);
        work.push(' ');
    }
    for d in &e.dead_ends {
        work.push_str(&d.summary);
        work.push(' ');
    }
    vec![
        msg,
        aliases.join(" "),
        e.exception.clone().unwrap_or_default(),
        e.error_code.clone().unwrap_or_default(),
        e.id.clone(),
        e.domain.clone(),
        e.category.clone(),
        e.tags.join(" "),
        e.root_cause.clone(),
        work,
    ]
}

/// Term counts and length of one text.
pub(super) type Counts = (HashMap<String, u32>, usize);

pub(super) fn counts(text: &str) -> Counts {
    let mut len = 0;
    let mut tf: HashMap<String, u32> = HashMap::new();
    tokenise::each(text, |t| {
        len += 1;
        match tf.get_mut(t) {
            Some(c) => *c += 1,
            None => {
                tf.insert(t.to_string(), 1);
            }
        }
    });
    (tf, len)
}

/// How many terms `text` has (its length for BM25).
fn length(text: &str) -> usize {
    let mut len = 0;
    tokenise::each(text, |_| len += 1);
    len
}

/// The sum of several texts' counts (as if they were joined by spaces).
fn sum<'a>(parts: impl Iterator<Item = &'a Counts>) -> Counts {
    let mut out: Counts = Default::default();
    for (tf, len) in parts {
        for (t, c) in tf {
            *out.0.entry(t.clone()).or_default() += c;
        }
        out.1 += len;
    }
    out
}

/// Articles that discuss each entry: the link graph's `discusses` links and `errors:` lists.
pub(super) fn articles_by_entry<'a>(
    cat: &'a Catalog,
    graph: &'a Graph,
) -> HashMap<&'a str, Vec<usize>> {
    use errbook_link::{LinkKind, Node};
    let mut pos: HashMap<&str, usize> = HashMap::new();
    for (i, a) in cat.articles.iter().enumerate() {
        pos.insert(a.id.as_str(), i);
    }
    let mut map: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, a) in cat.articles.iter().enumerate() {
        for e in &a.errors {
            map.entry(e.as_str()).or_default().push(i);
        }
    }
    for l in &graph.links {
        if l.kind != LinkKind::Discusses {
            continue;
        }
        if let (Node::Article { id: a }, Node::Entry { id: e }) = (&l.from, &l.to) {
            if let Some(&i) = pos.get(a.as_str()) {
                map.entry(e.as_str()).or_default().push(i);
            }
        }
    }
    for v in map.values_mut() {
        let mut seen = std::collections::HashSet::new();
        v.retain(|i| seen.insert(*i));
    }
    map
}

/// One document's terms, each with its impact: BM25F's field-weighted, length-normalised term
/// frequency, saturated and scaled to 1..=100.
fn impacts(row: &[Counts], avg: &[f64]) -> Vec<(String, u32)> {
    let mut tfw: HashMap<&str, f64> = HashMap::new();
    for (f, (tf, len)) in row.iter().enumerate() {
        let (_, w, b) = FIELDS[f];
        let norm = 1.0 - b + b * (*len as f64) / avg[f];
        for (t, &c) in tf {
            *tfw.entry(t.as_str()).or_default() += w * c as f64 / norm;
        }
    }
    let mut terms: Vec<(String, u32)> = tfw
        .into_iter()
        .map(|(t, x)| (t.to_string(), impact(x)))
        .collect();
    terms.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    terms
}

/// A term's impact from its field-weighted, length-normalised frequency `x`: saturated and
/// scaled to 1..=100.
pub(super) fn impact(x: f64) -> u32 {
    (100.0 * x / (x + K1)).round().clamp(1.0, 100.0) as u32
}

/// Build the index from the typed model.
pub fn build(cat: &Catalog, graph: &Graph) -> Index {
    let (mut idx, docs) = build_borrowed(cat, graph);
    idx.docs = (docs.into_iter())
        .map(|Doc(id, message, arts, aliases)| {
            Doc(id.into(), message.into(), arts, aliases.to_vec())
        })
        .collect();
    idx
}

/// `build`, with the documents borrowed from `cat` rather than in the index (its `docs` left
/// empty): what a build writes the files from.
pub(crate) fn build_borrowed<'a>(cat: &'a Catalog, graph: &Graph) -> (Index, Vec<DocRef<'a>>) {
    let by_entry = articles_by_entry(cat, graph);
    let (art_no, arts) = number_articles(cat, &by_entry);
    let disc = Discussions {
        counts: article_counts(cat, &art_no),
        by_entry,
    };
    let avg = average_lengths(cat, &disc);
    let docs: Vec<DocRef<'a>> = cat
        .entries
        .iter()
        .map(|e| {
            Doc(
                e.id.as_str(),
                e.message.as_str(),
                disc.of(e).iter().map(|i| art_no[i]).collect(),
                e.aliases.as_slice(),
            )
        })
        .collect();
    let (terms, post) = postings(cat, &disc, &avg);
    (Index::without_docs(arts, terms, post), docs)
}

/// The articles that any entry links to, numbered in catalog order: (catalog position ->
/// number, the articles as the index ships them).
pub(super) fn number_articles(
    cat: &Catalog,
    by_entry: &HashMap<&str, Vec<usize>>,
) -> (BTreeMap<usize, u32>, Vec<Art>) {
    let mut art_no: BTreeMap<usize, u32> = BTreeMap::new();
    for v in by_entry.values() {
        for &a in v {
            art_no.insert(a, 0);
        }
    }
    let mut arts = Vec::new();
    for (k, (a, n)) in art_no.iter_mut().enumerate() {
        *n = k as u32;
        let art = &cat.articles[*a];
        arts.push(Art(art.title.clone(), errbook_core::urls::article(&art.id)));
    }
    (art_no, arts)
}

/// The counts of each numbered article's title and text. Each article is tokenised once,
/// however many entries it discusses.
fn article_counts(
    cat: &Catalog,
    art_no: &BTreeMap<usize, u32>,
) -> HashMap<usize, (Counts, Counts)> {
    art_no
        .keys()
        .collect::<Vec<_>>()
        .par_iter()
        .map(|&&a| {
            let art = &cat.articles[a];
            (a, (counts(&art.title), counts(&art.body)))
        })
        .collect()
}

/// The articles that discuss each entry, and the counts of their titles and texts.
struct Discussions<'a> {
    by_entry: HashMap<&'a str, Vec<usize>>,
    /// Catalog position of an article -> counts of its title and of its text.
    counts: HashMap<usize, (Counts, Counts)>,
}

impl Discussions<'_> {
    /// Catalog positions of the articles that discuss `e`.
    fn of(&self, e: &Entry) -> &[usize] {
        self.by_entry.get(e.id.as_str()).map_or(&[], Vec::as_slice)
    }
}

/// Room for one more posting in `list`, made a quarter at a time: doubling left a third of the
/// postings' memory unused on average, held until the files are written (giving it back at
/// the end copies a list only when it would halve), and the postings are the index's bulk.
fn grow(list: &mut Vec<u32>) {
    if list.capacity() - list.len() < 2 {
        list.reserve_exact(list.len() / 4 + 2);
    }
}

/// Pass 1: each field's average length over all documents (at least 1), for BM25's length
/// normalisation. (Counts are not kept for all documents at once: they grow with the catalog
/// times its vocabulary.)
fn average_lengths(cat: &Catalog, disc: &Discussions<'_>) -> Vec<f64> {
    let lens: Vec<Vec<usize>> = cat
        .entries
        .par_iter()
        .map(|e| {
            let mut row: Vec<usize> = fields(e).iter().map(|t| length(t)).collect();
            let a = disc.of(e);
            row.push(a.iter().map(|i| disc.counts[i].0 .1).sum());
            row.push(a.iter().map(|i| disc.counts[i].1 .1).sum());
            row
        })
        .collect();
    let mut total_len = vec![0usize; FIELDS.len()];
    for row in &lens {
        for (f, len) in row.iter().enumerate() {
            total_len[f] += len;
        }
    }
    let n = cat.entries.len().max(1) as f64;
    total_len.iter().map(|&t| (t as f64 / n).max(1.0)).collect()
}

/// Pass 2, a chunk of documents at a time: each document's terms with their impacts, in
/// parallel; then into the postings in document order. Returns the sorted terms and, for each,
/// its postings.
fn postings(cat: &Catalog, disc: &Discussions<'_>, avg: &[f64]) -> (Vec<String>, Vec<Vec<u32>>) {
    // Each document's terms are held as owned strings until its chunk is in the postings:
    // 4,096 documents at a time were tens of megabytes of them.
    const CHUNK: usize = 1024;
    // term -> (postings, last doc); sorted by term once at the end.
    let mut inverted: HashMap<String, (Vec<u32>, u32)> = HashMap::new();
    for (c, chunk) in cat.entries.chunks(CHUNK).enumerate() {
        let rows: Vec<Vec<(String, u32)>> = chunk
            .par_iter()
            .map(|e| {
                let a = disc.of(e);
                let mut row: Vec<Counts> = fields(e).iter().map(|t| counts(t)).collect();
                row.push(sum(a.iter().map(|i| &disc.counts[i].0)));
                row.push(sum(a.iter().map(|i| &disc.counts[i].1)));
                impacts(&row, avg)
            })
            .collect();
        for (k, terms) in rows.into_iter().enumerate() {
            let d = (c * CHUNK + k) as u32;
            for (t, impact) in terms {
                let (list, last) = match inverted.get_mut(t.as_str()) {
                    Some(x) => x,
                    None => inverted.entry(t).or_default(),
                };
                grow(list);
                list.push(d - *last);
                list.push(impact);
                *last = d;
            }
        }
    }
    let mut inverted: Vec<(String, (Vec<u32>, u32))> = inverted.into_iter().collect();
    inverted.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    // Cut each list to its length: the index is held while its files are written, and the
    // lists' growth left a quarter of their memory unused.
    inverted
        .into_iter()
        .map(|(t, (mut p, _))| {
            p.shrink_to_fit();
            (t, p)
        })
        .unzip()
}
