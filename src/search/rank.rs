//! Ranking: a query against the index. The query is normalised like the entries, each query
//! term is looked up exactly, by prefix (the last term, or a term with no exact match) and, failing
//! both, with one or two typos; a document's score is the sum over query terms of the best
//! `factor * idf * impact`, divided by the sum of the query terms' idf, so 1.0 would be every
//! query term matched in the strongest fields, and unknown words pull the score down.
//! search.js ranks the same way; tests/it/search_parity.rs compares the two.

use crate::search::format::Index;
use crate::search::normalise::{self, Detected};
use crate::search::tokenise;

pub(crate) const PREFIX_FACTOR: f64 = 0.8;
pub(crate) const MAX_PREFIX: usize = 30;
pub(crate) const TYPO1_FACTOR: f64 = 0.7;
pub(crate) const TYPO2_FACTOR: f64 = 0.5;
pub(crate) const MAX_QUERY_TERMS: usize = 48;

#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub doc: usize,
    pub score: f64,
}

#[derive(Debug, Clone)]
pub struct Answer {
    pub detected: Detected,
    /// The query terms after normalisation and tokenising.
    pub terms: Vec<String>,
    pub hits: Vec<Hit>,
}

pub(crate) fn idf(n: usize, df: usize) -> f64 {
    let n = n as f64;
    let df = df.max(1) as f64;
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// Optimal string alignment distance, giving up above `max`.
pub(crate) fn osa(a: &[u8], b: &[u8], max: usize) -> usize {
    let (n, m) = (a.len(), b.len());
    if n.abs_diff(m) > max {
        return max + 1;
    }
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        let mut row_min = usize::MAX;
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return max + 1;
        }
    }
    d[n][m]
}

/// The terms a query term stands for: (term number, factor).
pub(crate) fn expand(idx: &Index, q: &str, last: bool) -> Vec<(usize, f64)> {
    let terms = &idx.terms;
    let mut out = Vec::new();
    let start = terms.partition_point(|t| t.as_str() < q);
    let exact = start < terms.len() && terms[start] == q;
    if exact {
        out.push((start, 1.0));
    }
    if !exact || last {
        let mut j = start + usize::from(exact);
        while j < terms.len() && terms[j].starts_with(q) && out.len() < MAX_PREFIX {
            out.push((j, PREFIX_FACTOR));
            j += 1;
        }
    }
    if out.is_empty() && q.len() >= 4 {
        let max = if q.len() >= 8 { 2 } else { 1 };
        for (i, t) in terms.iter().enumerate() {
            if t.len().abs_diff(q.len()) > max {
                continue;
            }
            let d = osa(q.as_bytes(), t.as_bytes(), max);
            if d == 1 {
                out.push((i, TYPO1_FACTOR));
            } else if d == 2 && d <= max {
                out.push((i, TYPO2_FACTOR));
            }
        }
    }
    out
}

/// The query's terms: tokens of the normalised text, first occurrence of each.
pub(crate) fn query_terms(detected: &Detected) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    tokenise::tokens(&detected.template)
        .into_iter()
        .filter(|t| seen.insert(t.clone()))
        .take(MAX_QUERY_TERMS)
        .collect()
}

/// Rank the index's documents for pasted or typed text; best first, at most `limit`.
pub fn search(idx: &Index, text: &str, limit: usize) -> Answer {
    let detected = normalise::normalise(text);
    let terms = query_terms(&detected);
    let n = idx.docs.len();
    let mut score = vec![0.0f64; n];
    let mut best = vec![0.0f64; n];
    let mut touched: Vec<usize> = Vec::new();
    let mut any: Vec<usize> = Vec::new();
    let mut seen = vec![false; n];
    let mut denom = 0.0;
    for (k, q) in terms.iter().enumerate() {
        let ex = expand(idx, q, k + 1 == terms.len());
        let q_idf = match ex.first() {
            Some(&(i, 1.0)) => idf(n, idx.post[i].len() / 2),
            _ => idf(n, 1),
        };
        denom += q_idf;
        touched.clear();
        for (i, f) in ex {
            let list = &idx.post[i];
            let w = f * idf(n, list.len() / 2).min(q_idf);
            let mut d = 0usize;
            for pair in list.chunks(2) {
                d += pair[0] as usize;
                let c = w * pair[1] as f64 / 100.0;
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
    let mut hits: Vec<Hit> = any
        .into_iter()
        .map(|d| Hit {
            doc: d,
            score: if denom > 0.0 { score[d] / denom } else { 0.0 },
        })
        .collect();
    hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.doc.cmp(&b.doc)));
    hits.truncate(limit);
    Answer {
        detected,
        terms,
        hits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osa_counts_transpositions_as_one() {
        assert_eq!(osa(b"dataloader", b"dataloder", 2), 1);
        assert_eq!(osa(b"fork", b"frok", 1), 1);
        assert_eq!(osa(b"cuda", b"nccl", 1), 2);
    }
}
