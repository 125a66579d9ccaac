//! Tiers: a term in many documents ships its postings cut by impact, highest first, so that a
//! query fetches the top of a common word's list and not all of it (search-index.js's
//! `tieredTop` stops once no document it has not met can reach its best two dozen, and every
//! one that can has no term in doubt).
//!
//! A long term's slot in its run of terms is `{"p": NAME, "df": documents, "max": [the highest
//! impact of each tier...]}` in place of its postings. Tier `k` holds `Layout::tier << k`
//! postings (at most `Layout::tier << TIER_DOUBLINGS`), taken in order of impact (highest
//! first; between equal impacts, lower document numbers first), so a document missing from
//! tiers `0..k` has at most tier `k`'s highest impact for that term; each tier's postings are
//! in document order as a run has them (`[doc delta, impact, ...]`). The files `p/NAME-F` each
//! hold a list of tiers: file 0 the first `f` of them (the slot's `"f"`: a first query reads
//! them together, one request, not three), file `F` after it tier `f - 1 + F` (search-index.js's
//! `sharded` finds a tier's file the same way). `f` is `FIRST_FILE`, or more for a term in
//! many documents (`first_file`).

use crate::layout::{json, run_name, Layout};
use serde::Serialize;
use std::collections::HashSet;

/// Tiers double in size this many times, then keep that size.
const TIER_DOUBLINGS: u32 = 6;

/// How many tiers the first file of a long term holds, at least: what a first query that reads
/// a common term reads of it (search-index.js fetches at least three tiers at once).
pub(crate) const FIRST_FILE: usize = 3;

/// ... and at most: 256 to 8,192 postings, 16,128 in all with the default layout.
const FIRST_FILE_MAX: usize = 6;

/// A term's first file takes further tiers while they hold less than its postings over this.
/// A paste reads its common terms deep, often whole: a first file that holds more of the
/// postings spares it files and rounds of fetches for the same answers (the figures are in
/// bench/).
const FIRST_SHARE: usize = 4;

/// What a long term's slot weighs when runs of terms are cut (`shards::cut_runs`): about its
/// JSON, whatever the length of its postings.
pub(crate) const SLOT_WEIGHT: usize = 64;

/// Whether a term in `df` documents ships in tiers.
pub(crate) fn is_long(df: usize, lay: &Layout) -> bool {
    df > lay.long
}

/// A term's place in a run: its postings, or where its tiers are.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub(crate) enum Slot {
    List(Vec<u32>),
    Tiers {
        p: String,
        df: usize,
        max: Vec<u32>,
        f: usize,
    },
}

/// A list of `(document, impact)` in document order, cut into tiers: (highest impact, the
/// tier's postings encoded in document order).
pub(crate) fn tiers(list: &[(u32, u32)], lay: &Layout) -> Vec<(u32, Vec<u32>)> {
    let mut by_impact: Vec<(u32, u32)> = list.to_vec();
    by_impact.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let first = lay.tier.max(1);
    let mut out = Vec::new();
    let mut at = 0;
    let mut k = 0u32;
    while at < by_impact.len() {
        let size = first << k.min(TIER_DOUBLINGS);
        let end = (at + size).min(by_impact.len());
        let mut tier = by_impact[at..end].to_vec();
        let max = tier[0].1;
        tier.sort_unstable();
        out.push((max, encode(&tier)));
        at = end;
        k += 1;
    }
    out
}

/// `(document, impact)` in document order as a run ships them: `[doc delta, impact, ...]`.
pub(crate) fn encode(list: &[(u32, u32)]) -> Vec<u32> {
    let mut out = Vec::with_capacity(list.len() * 2);
    let mut last = 0;
    for &(d, i) in list {
        out.push(d - last);
        out.push(i);
        last = d;
    }
    out
}

/// `[doc delta, impact, ...]` back to `(document, impact)`.
pub(crate) fn decode(post: &[u32]) -> Vec<(u32, u32)> {
    let mut d = 0u32;
    post.chunks(2)
        .filter(|p| p.len() == 2)
        .map(|p| {
            d += p[0];
            (d, p[1])
        })
        .collect()
}

/// A long term's `f`-th file of tiers, under `search/`.
pub(crate) fn file(name: &str, f: usize) -> String {
    format!("p/{name}-{f}")
}

/// How many tiers (of these sizes, in postings) a term in `df` documents ships in its first
/// file: `FIRST_FILE`, then more while they hold less than `df / FIRST_SHARE` postings, up to
/// `FIRST_FILE_MAX`.
pub(crate) fn first_file(sizes: &[usize], df: usize) -> usize {
    let mut k = FIRST_FILE.min(sizes.len());
    let mut held: usize = sizes[..k].iter().sum();
    while k < sizes.len() && k < FIRST_FILE_MAX && held < df / FIRST_SHARE {
        held += sizes[k];
        k += 1;
    }
    k
}

/// The tiers (as `tiers` cuts them) in their files: the first `first` together, then one a
/// file. Each file's tiers are listed by index into `cut`.
fn grouped(count: usize, first: usize) -> Vec<std::ops::Range<usize>> {
    let first = first.min(count);
    std::iter::once(0..first)
        .chain((first..count).map(|k| k..k + 1))
        .filter(|r| !r.is_empty())
        .collect()
}

/// The names of the long terms' tiers, in the terms' order: a hash of the term, with a suffix
/// on the rare clash with an earlier one.
pub(crate) fn names<'a>(long_terms: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut seen = HashSet::new();
    long_terms.map(|t| run_name(t, &mut seen)).collect()
}

/// A long term's slot and its files of tiers (name under `search/`, JSON), in order: the
/// `f`-th is `file(name, f)`.
pub(crate) fn ship(
    name: &str,
    list: &[(u32, u32)],
    lay: &Layout,
) -> (Slot, Vec<(String, Vec<u8>)>) {
    let cut = tiers(list, lay);
    let max = cut.iter().map(|t| t.0).collect();
    let sizes: Vec<usize> = cut.iter().map(|t| t.1.len() / 2).collect();
    let f = first_file(&sizes, list.len());
    let files = grouped(cut.len(), f)
        .into_iter()
        .enumerate()
        .map(|(f, range)| {
            let tiers: Vec<&Vec<u32>> = cut[range].iter().map(|t| &t.1).collect();
            (file(name, f), json(&tiers))
        })
        .collect();
    let slot = Slot::Tiers {
        p: name.to_string(),
        df: list.len(),
        max,
        f,
    };
    (slot, files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_hold_every_posting_once_highest_first() {
        let list: Vec<(u32, u32)> = (0..100u32).map(|d| (d * 3, 1 + (d * 37) % 100)).collect();
        let lay = Layout {
            tier: 4,
            ..Layout::default()
        };
        let cut = tiers(&list, &lay);
        let sizes: Vec<usize> = cut.iter().map(|t| t.1.len() / 2).collect();
        assert_eq!(sizes, vec![4, 8, 16, 32, 40]);
        let mut all: Vec<(u32, u32)> = cut.iter().flat_map(|t| decode(&t.1)).collect();
        // Each tier's impacts are at most its maximum and at least the next tier's.
        for w in cut.windows(2) {
            let low = decode(&w[0].1).iter().map(|p| p.1).min();
            assert!(low >= Some(w[1].0), "{w:?}");
        }
        for (max, post) in &cut {
            assert_eq!(decode(post).iter().map(|p| p.1).max(), Some(*max));
        }
        all.sort_unstable();
        assert_eq!(all, list);
    }

    #[test]
    fn the_first_tiers_share_a_file_the_rest_have_one_each() {
        let list: Vec<(u32, u32)> = (0..100u32).map(|d| (d, 1 + d % 50)).collect();
        let lay = Layout {
            tier: 4,
            ..Layout::default()
        };
        let (_, files) = ship("x", &list, &lay);
        let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(names, vec!["p/x-0", "p/x-1", "p/x-2"]);
        let lens: Vec<Vec<usize>> = files
            .iter()
            .map(|f| {
                let tiers: Vec<Vec<u32>> = serde_json::from_slice(&f.1).unwrap_or_default();
                tiers.iter().map(|t| t.len() / 2).collect()
            })
            .collect();
        assert_eq!(lens, vec![vec![4, 8, 16], vec![32], vec![40]]);
        assert_eq!(grouped(2, 3), vec![0..2]);
        assert_eq!(grouped(0, 3), Vec::<std::ops::Range<usize>>::new());
        assert_eq!(grouped(5, 4), vec![0..4, 4..5]);
    }

    #[test]
    fn a_term_in_many_documents_ships_more_tiers_in_its_first_file() {
        // Three tiers hold 28 postings: enough for a term in fewer than 4 * 28 documents.
        let sizes = [4, 8, 16, 32, 64, 64, 64, 64];
        assert_eq!(first_file(&sizes, 100), 3);
        assert_eq!(first_file(&sizes, 112), 3);
        assert_eq!(first_file(&sizes, 116), 4);
        assert_eq!(first_file(&sizes, 300), 5);
        // Never more than FIRST_FILE_MAX, nor more than there are.
        assert_eq!(first_file(&sizes, 1_000_000), FIRST_FILE_MAX);
        assert_eq!(first_file(&sizes[..2], 1_000_000), 2);
        assert_eq!(first_file(&[], 10), 0);
        // And the slot says it, with the files cut to match.
        let list: Vec<(u32, u32)> = (0..300u32).map(|d| (d, 1 + d % 97)).collect();
        let lay = Layout {
            tier: 4,
            ..Layout::default()
        };
        let (slot, files) = ship("y", &list, &lay);
        assert!(matches!(slot, Slot::Tiers { f: 5, .. }));
        let first: Vec<Vec<u32>> = serde_json::from_slice(&files[0].1).unwrap_or_default();
        assert_eq!(
            first.iter().map(|t| t.len() / 2).collect::<Vec<_>>(),
            [4, 8, 16, 32, 64]
        );
    }
}
