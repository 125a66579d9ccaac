//! Rerank: the best candidates of the first pass, scored by how well the paste's error and the
//! entry's message (or one of its aliases) match each other. Terms weigh their inverse
//! document frequency, so shared words ("cuda", "error") count little and distinctive ones
//! much. Two coverages: how much of the entry's message the paste holds (enough of it, for
//! long messages: a few rare words make a match), and how much of the paste the message
//! explains (an unexplained rare word, such as "segmentation fault" where the entry says
//! "Killed", pulls it down); the match is their product. It is lowered further when each side
//! has a word the other lacks (a substitution: "list index out of range" is not "index out of
//! range in self") and when the paste names another status code than the entry's. Look-alike
//! entries (one message mostly contained in another) are then told apart by what only one of
//! them says: its distinctive words and word pairs must be in the paste for it to be a
//! confident answer. Words of error messages in general ("cannot", "file", "found") weigh a
//! quarter of their idf, so that a small catalog, whose statistics cannot show it, does not
//! take "cannot open shared object file" for what an entry is about.
//!
//! search-rank.js does the same (`rerank`); tests/it/search_parity.rs compares the two.

use crate::expand::{df, idf};
use crate::format::Index;
use crate::normalise;
use crate::tokenise;
use std::collections::{HashMap, HashSet};

/// Candidates of the first pass that are reranked.
pub(crate) const RERANK: usize = 24;
/// An entry's message counts as covered once the paste holds this much of its weight, in
/// units of the weight of the rarest possible term.
pub(crate) const COVER_CAP: f64 = 4.0;
/// ... but never less than this share of it.
pub(crate) const ENOUGH: f64 = 0.5;
/// The same for an entry's distinctive words among its look-alikes.
pub(crate) const DISTINCT_CAP: f64 = 1.0;
/// Two entries are look-alikes when their messages' weighted overlap reaches this.
pub(crate) const LOOKALIKE: f64 = 0.6;
/// What a look-alike keeps of its match when none of its distinctive words is in the paste.
pub(crate) const SHARED_ONLY: f64 = 0.35;
/// Look-alikes are looked for among this many of the best candidates.
pub(crate) const LOOKALIKE_TOP: usize = 6;
/// Share of the first pass's score in the final one.
pub(crate) const FIRST_PASS: f64 = 0.02;
/// What a word of error messages in general weighs, relative to its idf.
pub(crate) const GENERIC_WEIGHT: f64 = 0.25;
/// How much a substituted word (`substituted`) weighs against what the match holds.
pub(crate) const SUBSTITUTION: f64 = 1.0;
/// What a match keeps when the paste names another status or error code (`codes`).
pub(crate) const CODE_MISMATCH: f64 = 0.2;

/// The query side: its terms with their weights, the index terms each reaches (with the
/// expansion's factor), and its adjacent word pairs.
pub(crate) struct Query {
    pub weights: Vec<f64>,
    /// Per query term: (index term, factor).
    pub reach: Vec<Vec<(String, f64)>>,
    /// Index term -> the best factor any query term reaches it with.
    pub hits: HashMap<String, f64>,
    pub pairs: HashSet<(String, String)>,
    /// Per query term: whether it is a status or error code (`code`).
    pub codes: Vec<bool>,
}

/// One text of an entry (its message or an alias): its terms in order, and each distinct term
/// with its weight.
pub(crate) struct Text {
    seq: Vec<String>,
    terms: Vec<(String, f64)>,
}

/// The texts of the entries met so far in one search, by document.
pub(crate) type Texts = HashMap<usize, Vec<Text>>;

/// How a candidate's best text matches the query.
#[derive(Clone)]
pub(crate) struct Match {
    pub doc: usize,
    pub score: f64,
    best: usize,
}

/// The weight of a term of the index.
fn weight(idx: &Index, t: &str) -> f64 {
    generic_weight(t, idf(idx.docs.len(), df(idx, t)))
}

/// `idf` for a term, less for a word of error messages in general.
pub(crate) fn generic_weight(t: &str, idf: f64) -> f64 {
    if tokenise::generic(t) {
        idf * GENERIC_WEIGHT
    } else {
        idf
    }
}

/// The texts of an entry: its message, then its aliases.
fn prepare(idx: &Index, doc: usize) -> Vec<Text> {
    let d = &idx.docs[doc];
    std::iter::once(&d.1)
        .chain(d.3.iter())
        .map(|s| {
            let seq = tokenise::tokens(&normalise::normalise(s).template);
            let mut seen = HashSet::new();
            let terms = seq
                .iter()
                .filter(|t| seen.insert(t.as_str()))
                .map(|t| (t.clone(), weight(idx, t)))
                .collect();
            Text { seq, terms }
        })
        .collect()
}

/// A share of `total` held, complete at `cap` (or at half of `total`, if more).
fn share(held: f64, total: f64, cap: f64) -> f64 {
    if total > 0.0 {
        (held / total.min(cap.max(ENOUGH * total))).min(1.0)
    } else {
        0.0
    }
}

/// Coverage of `text` by the query, and of the query by `text`; both must be high. Each is
/// complete once it holds `cap` of weight: a few rare words of a long message make a match, and
/// a few rare words explained make a paste's other words commentary. Lowered when each side has
/// a word the other lacks (`substituted`) or names another code (`codes`).
fn coverage(q: &Query, text: &Text, cap: f64) -> f64 {
    let (mut total, mut held, mut missing) = (0.0, 0.0, 0.0f64);
    for (t, w) in &text.terms {
        total += w;
        let f = q.hits.get(t.as_str()).copied().unwrap_or(0.0);
        held += w * f;
        if f == 0.0 {
            missing = missing.max(*w);
        }
    }
    let set: HashSet<&str> = text.terms.iter().map(|(t, _)| t.as_str()).collect();
    let (mut asked, mut explained, mut extra) = (0.0, 0.0, 0.0f64);
    let mut other_code = false;
    for (k, w) in q.weights.iter().enumerate() {
        asked += w;
        let f = q.reach[k]
            .iter()
            .filter(|(t, _)| set.contains(t.as_str()))
            .map(|&(_, f)| f)
            .fold(0.0, f64::max);
        explained += w * f;
        if f == 0.0 {
            extra = extra.max(*w);
            other_code |= q.codes[k];
        }
    }
    share(held, total, cap)
        * share(explained, asked, cap)
        * substituted(held, missing.min(extra))
        * codes(q, text, other_code)
}

/// What a match keeps when a word of the message is missing from the paste and a word of the
/// paste is missing from the message (`subst`: the lighter of the heaviest of each): the same
/// template with a different subject ("list index out of range", "index out of range in self")
/// is another error. A long match shrugs off one such word; a short one does not.
fn substituted(held: f64, subst: f64) -> f64 {
    if held > 0.0 {
        held / (held + SUBSTITUTION * subst)
    } else {
        0.0
    }
}

/// `CODE_MISMATCH` when the message names a status or error code that the paste does not and
/// the paste names another (`CUBLAS_STATUS_ALLOC_FAILED` where the entry says
/// `CUBLAS_STATUS_NOT_INITIALIZED`), whatever else they share; 1 otherwise.
fn codes(q: &Query, text: &Text, other_code: bool) -> f64 {
    let mut own = text.terms.iter().filter(|(t, _)| code(t)).peekable();
    if !other_code || own.peek().is_none() {
        return 1.0;
    }
    if own.any(|(t, _)| q.hits.contains_key(t.as_str())) {
        1.0
    } else {
        CODE_MISMATCH
    }
}

/// A status or error code (`CUBLAS_STATUS_EXECUTION_FAILED`, `CUDA_ERROR_NOT_INITIALIZED`):
/// a compound term of three parts or more, one of which says status or error.
pub(crate) fn code(t: &str) -> bool {
    let parts: Vec<&str> = t.split('_').collect();
    parts.len() >= 3
        && parts
            .iter()
            .any(|p| matches!(*p, "status" | "error" | "err" | "fail" | "failur"))
}

/// Weighted overlap of two texts' terms: what they share, over the lighter of the two (so
/// that a message contained in a longer one overlaps it fully).
fn overlap(a: &Text, b: &Text) -> f64 {
    let sb: HashSet<&str> = b.terms.iter().map(|(t, _)| t.as_str()).collect();
    let both: f64 = a
        .terms
        .iter()
        .filter(|(t, _)| sb.contains(t.as_str()))
        .map(|(_, w)| w)
        .sum();
    let weight = |t: &Text| t.terms.iter().map(|(_, w)| w).sum::<f64>();
    let least = weight(a).min(weight(b));
    if least > 0.0 {
        both / least
    } else {
        0.0
    }
}

/// Features of a text: its terms and its adjacent pairs (`a b`), each with a weight.
fn features(t: &Text) -> Vec<(String, f64)> {
    let w: HashMap<&str, f64> = t.terms.iter().map(|(x, w)| (x.as_str(), *w)).collect();
    let mut out = t.terms.clone();
    for p in t.seq.windows(2) {
        let pw = w[p[0].as_str()].min(w[p[1].as_str()]);
        out.push((format!("{} {}", p[0], p[1]), pw));
    }
    out
}

/// How much of what only `own` says (among its look-alikes' texts) the query holds, capped;
/// `None` when it says nothing of its own.
fn distinct(q: &Query, own: &Text, others: &[&Text], cap: f64) -> Option<f64> {
    let shared: HashSet<String> = others
        .iter()
        .flat_map(|t| features(t))
        .map(|(f, _)| f)
        .collect();
    let (mut total, mut held) = (0.0, 0.0);
    for (f, w) in features(own) {
        if shared.contains(&f) {
            continue;
        }
        total += w;
        let present = match f.split_once(' ') {
            Some((a, b)) => f64::from(u8::from(q.pairs.contains(&(a.to_string(), b.to_string())))),
            None => q.hits.get(f.as_str()).copied().unwrap_or(0.0),
        };
        held += w * present;
    }
    (total > 0.0).then(|| (held / total.min(cap)).min(1.0))
}

/// Rerank `cands` (documents with their first-pass scores), best first.
pub(crate) fn rerank(
    idx: &Index,
    q: &Query,
    cands: &[(usize, f64)],
    texts: &mut Texts,
) -> Vec<Match> {
    let rare = idf(idx.docs.len(), 1);
    let mut out: Vec<Match> = Vec::with_capacity(cands.len());
    for &(doc, first) in cands {
        let t = texts.entry(doc).or_insert_with(|| prepare(idx, doc));
        let (best, m) = t
            .iter()
            .map(|t| coverage(q, t, COVER_CAP * rare))
            .enumerate()
            .fold((0, 0.0), |acc, (i, s)| if s > acc.1 { (i, s) } else { acc });
        out.push(Match {
            doc,
            score: (1.0 - FIRST_PASS) * m + FIRST_PASS * first,
            best,
        });
    }
    let order = |out: &mut Vec<Match>| {
        out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.doc.cmp(&b.doc)));
    };
    order(&mut out);
    lookalikes(q, texts, &mut out, rare);
    order(&mut out);
    out
}

/// Lower each of the best candidates whose look-alikes (among the best) share most of its
/// message by how little of what it alone says the query holds.
fn lookalikes(q: &Query, texts: &Texts, out: &mut [Match], rare: f64) {
    let top = out.len().min(LOOKALIKE_TOP);
    let own = |m: &Match| &texts[&m.doc][m.best];
    let factors: Vec<f64> = (0..top)
        .map(|a| {
            let others: Vec<&Text> = (0..top)
                .filter(|&b| b != a && overlap(own(&out[a]), own(&out[b])) >= LOOKALIKE)
                .flat_map(|b| texts[&out[b].doc].iter())
                .collect();
            if others.is_empty() {
                return 1.0;
            }
            // Nothing of its own: coverage alone judges it.
            let d = distinct(q, own(&out[a]), &others, DISTINCT_CAP * rare).unwrap_or(1.0);
            SHARED_ONLY + (1.0 - SHARED_ONLY) * d
        })
        .collect();
    for (m, f) in out.iter_mut().zip(factors) {
        m.score *= f;
    }
}
