//! Expand: a query term to the index terms it stands for, with a factor: itself (1.0), the
//! terms it is a prefix of (the last term, or one with no exact match: 0.8), and failing both,
//! the terms one or two typos away (0.7, 0.5). And the inverse document frequency every score
//! uses. search-rank.js does the same (`expand`, `osa`, `idf`).

use crate::format::Index;

pub(crate) const PREFIX_FACTOR: f64 = 0.8;
pub(crate) const MAX_PREFIX: usize = 30;
pub(crate) const TYPO1_FACTOR: f64 = 0.7;
pub(crate) const TYPO2_FACTOR: f64 = 0.5;

pub(crate) fn idf(n: usize, df: usize) -> f64 {
    let n = n as f64;
    let df = df.max(1) as f64;
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// The number of documents holding the term `t` (0 if the index has no such term).
pub(crate) fn df(idx: &Index, t: &str) -> usize {
    let i = idx.terms.partition_point(|x| x.as_str() < t);
    if i < idx.terms.len() && idx.terms[i] == t {
        idx.post[i].len() / 2
    } else {
        0
    }
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

/// The terms a query term stands for: (term number, factor). `typed`: the query is short
/// enough to be typed, so its last term may be unfinished and any term misspelt; a pasted
/// one's words are whole and spelt as the program printed them.
pub(crate) fn expand(idx: &Index, q: &str, last: bool, typed: bool) -> Vec<(usize, f64)> {
    let terms = &idx.terms;
    let mut out = Vec::new();
    let start = terms.partition_point(|t| t.as_str() < q);
    let exact = start < terms.len() && terms[start] == q;
    if exact {
        out.push((start, 1.0));
    }
    if !exact || last && typed {
        let mut j = start + usize::from(exact);
        while j < terms.len() && terms[j].starts_with(q) && out.len() < MAX_PREFIX {
            out.push((j, PREFIX_FACTOR));
            j += 1;
        }
    }
    if out.is_empty() && typed && q.len() >= 4 {
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
