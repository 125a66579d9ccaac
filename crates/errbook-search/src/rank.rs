//! Ranking: a paste against the index. Each reading of the paste (`normalise::readings`, best
//! first) is ranked in two passes: the first looks each query term up (exactly, by prefix, or
//! with typos: `expand`) and sums `factor * idf * impact` per document, divided by the sum of
//! the query terms' idf (BM25F with impacts computed at build time); the best of those are
//! reranked by how well their messages match the reading (`rerank`). The first reading whose
//! best entry is confident (at or above the weak score) is the answer; if none is, the one
//! with the best match is, shown as weak.
//!
//! search-rank.js ranks the same way; tests/it/search_parity.rs compares the two.

use crate::expand::{expand, idf};
use crate::format::Index;
use crate::normalise::{self, Detected};
use crate::rerank::{self, Query, RERANK};
use crate::tokenise;
use std::collections::{HashMap, HashSet};

pub(crate) const MAX_QUERY_TERMS: usize = 48;
/// A reading this short, with no exception name, was typed: its last term is completed by
/// prefix and misspelt terms are looked for (`expand`); anything else was pasted.
pub(crate) const TYPED_TERMS: usize = 4;

#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub doc: usize,
    pub score: f64,
}

#[derive(Debug, Clone, Default)]
pub struct Answer {
    /// The reading of the paste the hits answer.
    pub detected: Detected,
    /// Its query terms after normalisation and tokenising.
    pub terms: Vec<String>,
    pub hits: Vec<Hit>,
}

impl Answer {
    fn top(&self) -> f64 {
        self.hits.first().map_or(0.0, |h| h.score)
    }
}

/// The query's terms: tokens of the normalised text, first occurrence of each.
pub(crate) fn query_terms(detected: &Detected) -> Vec<String> {
    let mut seen = HashSet::new();
    tokenise::tokens(&detected.template)
        .into_iter()
        .filter(|t| seen.insert(t.clone()))
        .take(MAX_QUERY_TERMS)
        .collect()
}

/// Rank the index's documents for pasted or typed text; best first, at most `limit`. A best
/// hit under `weak` is a weak answer.
pub fn search(idx: &Index, text: &str, limit: usize, weak: f64) -> Answer {
    let mut best: Option<Answer> = None;
    let mut texts = rerank::Texts::new();
    for detected in normalise::readings(text) {
        let a = rank(idx, detected, limit, &mut texts);
        if a.top() >= weak {
            return a;
        }
        if best.as_ref().is_none_or(|b| a.top() > b.top()) {
            best = Some(a);
        }
    }
    best.unwrap_or_default()
}

/// Both passes for one reading.
fn rank(idx: &Index, detected: Detected, limit: usize, texts: &mut rerank::Texts) -> Answer {
    let terms = query_terms(&detected);
    let typed = terms.len() <= TYPED_TERMS && detected.exception.is_none();
    let n = idx.docs.len();
    let mut q = Query {
        weights: Vec::with_capacity(terms.len()),
        reach: Vec::with_capacity(terms.len()),
        hits: HashMap::new(),
        pairs: pairs(&detected),
        codes: terms.iter().map(|t| rerank::code(t)).collect(),
    };
    let mut score = vec![0.0f64; n];
    let mut best = vec![0.0f64; n];
    let mut touched: Vec<usize> = Vec::new();
    let mut any: Vec<usize> = Vec::new();
    let mut seen = vec![false; n];
    let mut denom = 0.0;
    for (k, t) in terms.iter().enumerate() {
        let ex = expand(idx, t, k + 1 == terms.len(), typed);
        let q_idf = match ex.first() {
            Some(&(i, 1.0)) => idf(n, idx.post[i].len() / 2),
            _ => idf(n, 1),
        };
        denom += q_idf;
        q.weights.push(rerank::generic_weight(t, q_idf));
        q.reach.push(reached(idx, &ex, &mut q.hits));
        touched.clear();
        for &(i, f) in &ex {
            let list = &idx.post[i];
            let w = f * idf(n, list.len() / 2).min(q_idf);
            let mut d = 0usize;
            for pair in list.chunks(2) {
                d += pair[0] as usize;
                let c = w * f64::from(pair[1]) / 100.0;
                if best[d] == 0.0 {
                    touched.push(d);
                }
                if c > best[d] {
                    best[d] = c;
                }
            }
        }
        touched.sort_unstable();
        for &d in &touched {
            score[d] += best[d];
            best[d] = 0.0;
            if !seen[d] {
                seen[d] = true;
                any.push(d);
            }
        }
    }
    let first = top(&any, &score, denom, limit.max(RERANK));
    let hits = rerank::rerank(idx, &q, &first, texts)
        .into_iter()
        .take(limit)
        .map(|m| Hit {
            doc: m.doc,
            score: m.score,
        })
        .collect();
    Answer {
        detected,
        terms,
        hits,
    }
}

/// The index terms one query term reaches, recorded in `hits` with the best factor.
fn reached(
    idx: &Index,
    ex: &[(usize, f64)],
    hits: &mut HashMap<String, f64>,
) -> Vec<(String, f64)> {
    ex.iter()
        .map(|&(i, f)| {
            let t = idx.terms[i].clone();
            let e = hits.entry(t.clone()).or_insert(0.0);
            if f > *e {
                *e = f;
            }
            (t, f)
        })
        .collect()
}

/// The adjacent word pairs of a reading.
fn pairs(d: &Detected) -> HashSet<(String, String)> {
    let toks = tokenise::tokens(&d.template);
    toks.windows(2)
        .map(|p| (p[0].clone(), p[1].clone()))
        .collect()
}

/// The `k` best documents of the first pass: (document, score), best first.
fn top(any: &[usize], score: &[f64], denom: f64, k: usize) -> Vec<(usize, f64)> {
    let mut hits: Vec<(usize, f64)> = any
        .iter()
        .map(|&d| (d, if denom > 0.0 { score[d] / denom } else { 0.0 }))
        .collect();
    hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    hits.truncate(k);
    hits
}
