//! The kept posting lists: for each term number, the documents that have it with their impacts,
//! changed in place as rows change; the terms the index has, in name order; and each list's
//! weight in the shards (what decides where runs of terms end). Every change notes which terms'
//! lists changed, and which of those changed length (their document frequency).

use super::terms::Terms;
use crate::search::shards;

#[derive(Default)]
pub(super) struct Postings {
    /// Per term number: (document, impact), documents increasing. Empty: not in the index.
    lists: Vec<Vec<(u32, u32)>>,
    /// Per term number: `shards::weight` of its encoded list.
    weight: Vec<usize>,
    /// The numbers of the terms in the index, in the order of their names.
    sorted: Vec<u32>,
}

/// What a change did to the posting lists.
#[derive(Default)]
pub(super) struct Touched {
    /// Per term number: its list changed.
    pub(super) list: Vec<bool>,
    /// Per term number: its document frequency changed.
    pub(super) df: Vec<bool>,
    /// Lengths of terms that came into the index or left it.
    pub(super) lens: std::collections::BTreeSet<usize>,
}

impl Postings {
    fn grow(&mut self, n: usize) {
        if self.lists.len() < n {
            self.lists.resize_with(n, Vec::new);
            self.weight.resize(n, 0);
        }
    }

    /// The list of `t`: [doc delta, impact, ...] as the index ships it.
    pub(super) fn encoded(&self, t: u32) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.lists[t as usize].len() * 2);
        let mut last = 0;
        for &(d, i) in &self.lists[t as usize] {
            out.push(d - last);
            out.push(i);
            last = d;
        }
        out
    }

    /// The list of `t`: (document, impact), documents increasing.
    pub(super) fn list(&self, t: u32) -> &[(u32, u32)] {
        self.lists.get(t as usize).map_or(&[], Vec::as_slice)
    }

    pub(super) fn df(&self, t: u32) -> usize {
        self.lists.get(t as usize).map_or(0, Vec::len)
    }

    pub(super) fn weight(&self, t: u32) -> usize {
        self.weight[t as usize]
    }

    /// The terms of the index in name order.
    pub(super) fn sorted(&self) -> &[u32] {
        &self.sorted
    }

    /// Apply changes `(term, document, new impact or gone)`, at most one per (term, document).
    pub(super) fn apply(
        &mut self,
        mut changes: Vec<(u32, u32, Option<u32>)>,
        terms: &Terms,
    ) -> Touched {
        self.grow(terms.len());
        changes.sort_unstable_by_key(|c| (c.0, c.1));
        let before: Vec<(u32, usize)> = dedup_terms(&changes).map(|t| (t, self.df(t))).collect();
        for (t, d, imp) in changes {
            let list = &mut self.lists[t as usize];
            match (list.binary_search_by_key(&d, |x| x.0), imp) {
                (Ok(k), Some(i)) => list[k].1 = i,
                (Ok(k), None) => {
                    list.remove(k);
                }
                (Err(k), Some(i)) => list.insert(k, (d, i)),
                (Err(_), None) => {}
            }
        }
        self.settle(before, terms)
    }

    /// Put every list together again from all rows (document `d` is `rows[d]`), for when
    /// documents came or went and numbers from `from` on moved; every term with a document
    /// numbered `from` or more, before or after, counts as changed, as does every term of
    /// `also` (changed rows before `from`).
    pub(super) fn rebuild<'a>(
        &mut self,
        rows: impl Iterator<Item = &'a [(u32, u32)]>,
        from: u32,
        also: impl Iterator<Item = u32>,
        terms: &Terms,
    ) -> Touched {
        self.grow(terms.len());
        let old: Vec<usize> = self.lists.iter().map(Vec::len).collect();
        let mut changed: Vec<bool> = self
            .lists
            .iter()
            .map(|l| l.last().is_some_and(|x| x.0 >= from))
            .collect();
        for l in &mut self.lists {
            l.clear();
        }
        for (d, row) in rows.enumerate() {
            for &(t, i) in row {
                self.lists[t as usize].push((d as u32, i));
            }
        }
        for (t, l) in self.lists.iter().enumerate() {
            if l.last().is_some_and(|x| x.0 >= from) {
                changed[t] = true;
            }
        }
        for t in also {
            changed[t as usize] = true;
        }
        let before: Vec<(u32, usize)> = (0..self.lists.len() as u32)
            .filter(|&t| changed[t as usize])
            .map(|t| (t, old[t as usize]))
            .collect();
        self.settle(before, terms)
    }

    /// After the lists of `before` (term, document frequency before) changed: their weights,
    /// the sorted terms, and what changed.
    fn settle(&mut self, before: Vec<(u32, usize)>, terms: &Terms) -> Touched {
        let n = self.lists.len();
        let mut out = Touched {
            list: vec![false; n],
            df: vec![false; n],
            lens: Default::default(),
        };
        for (t, old_df) in before {
            let new_df = self.df(t);
            self.weight[t as usize] = shards::weight(&self.encoded(t));
            out.list[t as usize] = true;
            if new_df == old_df {
                continue;
            }
            out.df[t as usize] = true;
            let name = terms.name(t);
            let at = self.sorted.partition_point(|&x| terms.name(x) < name);
            if old_df == 0 {
                self.sorted.insert(at, t);
                out.lens.insert(name.len());
            } else if new_df == 0 {
                if self.sorted.get(at) == Some(&t) {
                    self.sorted.remove(at);
                }
                out.lens.insert(name.len());
            }
        }
        out
    }
}

/// The distinct terms of changes sorted by term.
fn dedup_terms(changes: &[(u32, u32, Option<u32>)]) -> impl Iterator<Item = u32> + '_ {
    changes
        .iter()
        .enumerate()
        .filter(|(k, c)| *k == 0 || changes[k - 1].0 != c.0)
        .map(|(_, c)| c.0)
}
