//! Shards: the index as the site ships it, in small files that a query fetches only as it needs
//! them, so that a first query costs a few of them and not the whole index. search-rank.js
//! (`sharded`) reads them and ranks exactly as over the whole index (unless the site is built
//! with `search.exact = false`: below).
//!
//! Files under `search/` (`.json` hosted; offline each is a `.js` script that hands its JSON, in
//! a string, to `window.errbookShard(name, json)`, for pages opened from file:// cannot fetch):
//! - `m`: the manifest, `{"v":7,"n":docs,"weak":w,["exact":false,]"count":terms,"docs":D,
//!   "arts":A,"nArts":articles,"t":[[name, first term, number of its first term]...],
//!   "long":[[term, number, slot]...],"lens":[term lengths...]}`. `exact` is there only when
//!   `search.exact` is false: a page then ranks by each long term's first file of tiers
//!   (search-index.js's `settle`), not always as the whole index. `long`: every long term
//!   (below) with its number and its slot as its run has it: the commonest words, in nearly
//!   every paste, whose slots are a few dozen bytes, so a query finds their tiers without
//!   first fetching their runs (a few hundred terms on a large catalog);
//! - `t/NAME`: a run of consecutive terms (sorted) and their postings, `[[terms], [postings]]`
//!   as `Index::terms` and `Index::post`, but that a term in more than `Layout::long`
//!   documents has, in place of its postings, where its impact tiers are (`tiers`). Runs end
//!   where a term's hash says (once a run holds enough), so a term added or removed changes
//!   its own run and the manifest, not every run after it; a run is named by a hash of its
//!   first term;
//! - `p/NAME-F`: a long term's tiers of postings, its first three or more in file 0 (the
//!   slot's `f`), then one a file (`tiers`);
//! - `d/K`: documents `K*D ..` (`D` at a time), each `[id, message, [articles], [aliases],
//!   [df...]]`, the last being the document frequency of each distinct term of its message
//!   and then of each alias (the rerank's weights, which would otherwise need those terms'
//!   runs), but for the long terms, whose frequencies the manifest has (`long`), then, where
//!   the build gave one, what to do in the reader's words (its best verified workaround);
//! - `a/K`: articles `K*A ..`, `[title, site path]`;
//! - `l/LEN`: every term of that length, sorted: what a misspelt term is compared with.

use crate::expand::df;
use crate::format::{Doc, Index};
use crate::layout::{fnv, json, run_name, Layout};
use crate::tiers::{self, Slot};
use crate::{normalise, tokenise};
use errbook_core::config::SearchConfig;
use errbook_core::output::OutFile;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};

/// A run of terms ends at a term whose hash is 0 modulo this, once it holds `Layout::run_min`
/// bytes of postings, and always at `Layout::run_max`.
const RUN_CUT: u64 = 8;

/// About how many bytes of JSON a term's postings take.
pub(super) fn weight(post: &[u32]) -> usize {
    post.iter()
        .map(|&x| {
            if x < 10 {
                2
            } else if x < 100 {
                3
            } else {
                5
            }
        })
        .sum()
}

/// What a term weighs in its run: its postings' `weight`, or a long term's slot.
pub(super) fn slot_weight(df: usize, weight: usize, lay: &Layout) -> usize {
    if tiers::is_long(df, lay) {
        tiers::SLOT_WEIGHT
    } else {
        weight
    }
}

/// The runs of terms: (first term number, end), consecutive and covering all terms.
fn runs(idx: &Index, lay: &Layout) -> Vec<(usize, usize)> {
    cut_runs(
        idx.terms
            .iter()
            .zip(&idx.post)
            .map(|(t, p)| (t.as_str(), slot_weight(p.len() / 2, weight(p), lay))),
        lay,
    )
}

/// The runs of a sorted list of terms, each given with the weight of its postings (`weight`):
/// (first term number, end), consecutive and covering all terms.
pub(super) fn cut_runs<'a>(
    terms: impl ExactSizeIterator<Item = (&'a str, usize)>,
    lay: &Layout,
) -> Vec<(usize, usize)> {
    let n = terms.len();
    let mut out = Vec::new();
    let (mut start, mut acc) = (0usize, 0usize);
    for (i, (t, w)) in terms.enumerate() {
        acc += t.len() + 3 + w;
        let last = i + 1 == n;
        if last || acc >= lay.run_max || (acc >= lay.run_min && fnv(t).is_multiple_of(RUN_CUT)) {
            out.push((start, i + 1));
            start = i + 1;
            acc = 0;
        }
    }
    out
}

/// The document frequency of each distinct term of a document's message, then of each alias,
/// in the order search-rank.js's `prepare` meets them, but for the long terms (`shipped_df`).
fn dfs(idx: &Index, message: &str, aliases: &[String], lay: &Layout) -> Vec<usize> {
    shipped_dfs(
        rerank_terms(message, aliases).iter().map(|t| df(idx, t)),
        lay,
    )
}

/// Whether a document's shard ships the frequency of its term in `df` documents: not a long
/// term's, which the manifest has.
pub(super) fn shipped_df(df: usize, lay: &Layout) -> bool {
    !tiers::is_long(df, lay)
}

/// A document's row's frequencies: those of its rerank terms (in order) that it ships.
pub(super) fn shipped_dfs(dfs: impl Iterator<Item = usize>, lay: &Layout) -> Vec<usize> {
    dfs.filter(|&n| shipped_df(n, lay)).collect()
}

/// The distinct terms of a document's message, then of each alias (distinct within each), in
/// the order search-rank.js's `prepare` meets them: whose document frequencies `d/K` ships.
pub(super) fn rerank_terms(message: &str, aliases: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for s in std::iter::once(message).chain(aliases.iter().map(String::as_str)) {
        let mut seen = HashSet::new();
        for t in tokenise::tokens(&normalise::normalise(s).template) {
            if seen.insert(t.clone()) {
                out.push(t);
            }
        }
    }
    out
}

/// A document of a `d/K` shard: without or with its hint (the array one longer).
#[derive(Serialize)]
#[serde(untagged)]
enum Row<P, H> {
    Plain(P),
    Hinted(H),
}

/// The shard files, each as (name under `search/` without extension, JSON).
pub fn shards(idx: &Index, search: SearchConfig, lay: &Layout) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let all: Result<(), std::convert::Infallible> =
        each(idx, &idx.docs, &[], search, lay, &mut |name, body| {
            files.push((name, body));
            Ok(())
        });
    match all {
        Ok(()) => files,
        Err(never) => match never {},
    }
}

/// The shard files one at a time, as `shards` lists them, each handed to `out` as soon as it
/// is made: a large index's files together are about half its size again, and a build writes
/// each at once rather than holding them all. Stops at `out`'s first error. `docs`: the
/// index's documents, its own or borrowed (`format::DocRef`). `hints`: what to do about each
/// document's error, in the reader's words (its best verified workaround), shipped as the
/// document's sixth field where not empty; the ranking never reads it.
pub(crate) fn each<E, S, L>(
    idx: &Index,
    docs: &[Doc<S, L>],
    hints: &[String],
    search: SearchConfig,
    lay: &Layout,
    out: &mut dyn FnMut(String, Vec<u8>) -> Result<(), E>,
) -> Result<(), E>
where
    S: AsRef<str> + Serialize,
    L: AsRef<[String]> + Serialize,
{
    let lay = Layout {
        docs: lay.docs.max(1),
        arts: lay.arts.max(1),
        ..lay.clone()
    };
    let mut manifest_runs = Vec::new();
    let mut names = HashSet::new();
    // The long terms' slots and tiers.
    let long: Vec<usize> = (0..idx.terms.len())
        .filter(|&i| tiers::is_long(idx.post[i].len() / 2, &lay))
        .collect();
    let tier_names = tiers::names(long.iter().map(|&i| idx.terms[i].as_str()));
    let mut slots: BTreeMap<usize, Slot> = BTreeMap::new();
    let mut long_slots = Vec::with_capacity(long.len());
    for (&i, name) in long.iter().zip(&tier_names) {
        let list = tiers::decode(&idx.post[i]);
        let (slot, tier_files) = tiers::ship(name, &list, &lay);
        long_slots.push((idx.terms[i].as_str(), i, slot.clone()));
        slots.insert(i, slot);
        for (name, body) in tier_files {
            out(name, body)?;
        }
    }
    for (start, end) in runs(idx, &lay) {
        let first = &idx.terms[start];
        let name = run_name(first, &mut names);
        let post: Vec<Slot> = (start..end)
            .map(|i| {
                slots
                    .remove(&i)
                    .unwrap_or_else(|| Slot::List(idx.post[i].clone()))
            })
            .collect();
        let body = (&idx.terms[start..end], post);
        out(format!("t/{name}"), json(&body))?;
        manifest_runs.push((name, first.clone(), start));
    }
    for (k, chunk) in docs.chunks(lay.docs).enumerate() {
        let docs: Vec<_> = chunk
            .iter()
            .enumerate()
            .map(|(j, d)| {
                let dfs = dfs(idx, d.1.as_ref(), d.3.as_ref(), &lay);
                match hints.get(k * lay.docs + j).filter(|h| !h.is_empty()) {
                    Some(h) => Row::Hinted((&d.0, &d.1, &d.2, &d.3, dfs, h)),
                    None => Row::Plain((&d.0, &d.1, &d.2, &d.3, dfs)),
                }
            })
            .collect();
        out(format!("d/{k}"), json(&docs))?;
    }
    for (k, chunk) in idx.arts.chunks(lay.arts).enumerate() {
        out(format!("a/{k}"), json(&chunk))?;
    }
    let mut by_len: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for t in &idx.terms {
        by_len.entry(t.len()).or_default().push(t);
    }
    for (len, terms) in &by_len {
        out(format!("l/{len}"), json(terms))?;
    }
    let head = Manifest {
        docs: docs.len(),
        search,
        terms: idx.terms.len(),
        arts: idx.arts.len(),
    };
    let lens: Vec<usize> = by_len.keys().copied().collect();
    out(
        "m".to_string(),
        head.json(&lay, &manifest_runs, &long_slots, &lens),
    )
}

/// What the manifest says of the index besides its runs and term lengths.
pub(super) struct Manifest {
    pub(super) docs: usize,
    pub(super) search: SearchConfig,
    pub(super) terms: usize,
    pub(super) arts: usize,
}

impl Manifest {
    /// The manifest's JSON: `runs` as (name, first term, number of the first term), `long` the
    /// long terms as (term, number, slot) in term order, `lens` the term lengths there are, in
    /// order.
    pub(super) fn json(
        &self,
        lay: &Layout,
        runs: &[(String, String, usize)],
        long: &[(&str, usize, Slot)],
        lens: &[usize],
    ) -> Vec<u8> {
        /// The manifest as it is written (a struct, not `json!`: the slots keep their runs'
        /// field order).
        #[derive(Serialize)]
        struct Body<'a> {
            v: u32,
            n: usize,
            weak: f64,
            /// Written only when false: a page then reads a long term's first file of tiers
            /// only (`search.exact`).
            #[serde(skip_serializing_if = "is_true")]
            exact: bool,
            count: usize,
            docs: usize,
            arts: usize,
            #[serde(rename = "nArts")]
            n_arts: usize,
            t: &'a [(String, String, usize)],
            long: &'a [(&'a str, usize, Slot)],
            lens: &'a [usize],
        }
        json(&Body {
            v: 7,
            n: self.docs,
            weak: self.search.weak_score,
            exact: self.search.exact,
            count: self.terms,
            docs: lay.docs,
            arts: lay.arts,
            n_arts: self.arts,
            t: runs,
            long,
            lens,
        })
    }
}

/// For serde's `skip_serializing_if`: a flag the manifest writes only when it is false.
fn is_true(b: &bool) -> bool {
    *b
}

/// The global that offline shards call with their data.
pub(crate) const OFFLINE_CALL: &str = "errbookShard";

/// The shards as files of the site, each handed to `write` as soon as it is made; how many.
/// `docs` as `each`'s.
pub(crate) fn write_files<E, S, L>(
    idx: &Index,
    docs: &[Doc<S, L>],
    hints: &[String],
    search: SearchConfig,
    offline: bool,
    write: &mut dyn FnMut(&OutFile) -> Result<(), E>,
) -> Result<usize, E>
where
    S: AsRef<str> + Serialize,
    L: AsRef<[String]> + Serialize,
{
    let mut n = 0;
    each(
        idx,
        docs,
        hints,
        search,
        &Layout::default(),
        &mut |name, body| {
            n += 1;
            write(&out_file(&name, body, offline))
        },
    )?;
    Ok(n)
}

/// Where shard `name` lives in the site: `search/NAME.json`, or offline `search/NAME.js`.
pub(crate) fn site_path(name: &str, offline: bool) -> String {
    let ext = if offline { "js" } else { "json" };
    format!("search/{name}.{ext}")
}

/// One shard as a file of the site (offline, a script that hands its data on: its JSON in a
/// string, `errbookShard("NAME",'JSON');`, which the page reads with `JSON.parse`, faster than
/// the engine compiles the same data as a literal).
pub(super) fn out_file(name: &str, body: Vec<u8>, offline: bool) -> OutFile {
    if offline {
        let mut js = format!("{OFFLINE_CALL}(\"{name}\",'");
        js_string(&String::from_utf8_lossy(&body), &mut js);
        js.push_str("');\n");
        OutFile::new(site_path(name, true), js.into_bytes())
    } else {
        OutFile::new(site_path(name, false), body)
    }
}

/// `text` as the inside of a single-quoted JavaScript string literal.
pub(crate) fn js_string(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Doc;

    fn index(terms: &[&str]) -> Index {
        Index {
            v: Index::VERSION,
            docs: vec![Doc("a".into(), "x".into(), vec![], vec![])],
            arts: vec![],
            terms: terms.iter().map(|t| t.to_string()).collect(),
            post: terms.iter().map(|_| vec![0, 50]).collect(),
        }
    }

    #[test]
    fn runs_cover_every_term_once_in_order() {
        let terms: Vec<String> = (0..5000).map(|i| format!("term{i:05}")).collect();
        let refs: Vec<&str> = terms.iter().map(String::as_str).collect();
        let r = runs(&index(&refs), &Layout::default());
        assert!(r.len() > 1, "5000 terms make more than one run");
        assert_eq!(r[0].0, 0);
        assert_eq!(r.last().map(|x| x.1), Some(5000));
        assert!(r.windows(2).all(|w| w[0].1 == w[1].0 && w[0].0 < w[0].1));
    }

    #[test]
    fn a_term_added_changes_few_runs() {
        let terms: Vec<String> = (0..5000).map(|i| format!("term{i:05}")).collect();
        let mut more = terms.clone();
        more.insert(2500, "term02499b".to_string());
        let firsts = |ts: &[String]| -> HashSet<String> {
            let refs: Vec<&str> = ts.iter().map(String::as_str).collect();
            let idx = index(&refs);
            runs(&idx, &Layout::default())
                .iter()
                .map(|r| idx.terms[r.0].clone())
                .collect()
        };
        let (a, b) = (firsts(&terms), firsts(&more));
        assert!(a.symmetric_difference(&b).count() <= 4, "{a:?} vs {b:?}");
    }

    #[test]
    fn offline_shards_hold_their_json_in_a_string() {
        // JSON with a quote, a backslash and a line separator inside a string.
        let json = "[[\"a\",\"it's \\\\ \u{2028}\"]]";
        let f = out_file("d/0", json.as_bytes().to_vec(), true);
        assert_eq!(f.path, "search/d/0.js");
        let expected = "errbookShard(\"d/0\",'[[\"a\",\"it\\'s \\\\\\\\ \\u2028\"]]');\n";
        assert_eq!(String::from_utf8_lossy(&f.bytes), expected);
    }
}
