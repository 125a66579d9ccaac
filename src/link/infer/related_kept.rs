//! Related entries kept between edits (`serve`): the features and their index, and every pair
//! of entries that is a candidate, with its score and evidence. After one entry changed in
//! place (no entry came or went, so positions hold), only the pairs whose existence or score
//! can have changed are scored again: the entry's own; those of every entry in an index list
//! that the entry joined or left when the list crossed the size pairs are drawn from; those of
//! entries sharing an old or new error code (its weight is by how many share it); those of
//! entries whose message has a word the edit added or removed (its rarity changed). The ranking
//! (`related::top`) is then taken again over all candidates, as `related::infer` takes it.

use super::features::RARE;
use super::features::{keys, Features, Key};
use super::related::top;
use crate::core::model::{Catalog, Entry};
use crate::link::{Evidence, Link};
use std::collections::{BTreeSet, HashMap};

pub(crate) struct Kept {
    f: Features,
    /// Candidates by pair (smaller position first).
    cands: HashMap<(usize, usize), (f64, Vec<Evidence>)>,
    /// Each entry's partners in `cands`.
    by: Vec<BTreeSet<usize>>,
}

/// Whether an index list of `len` entries draws pairs.
fn draws(len: usize) -> bool {
    (2..=RARE).contains(&len)
}

impl Kept {
    pub(crate) fn new(catalog: &Catalog) -> Kept {
        let f = Features::new(catalog);
        let mut k = Kept {
            by: vec![BTreeSet::new(); catalog.entries.len()],
            cands: HashMap::new(),
            f,
        };
        for a in 0..catalog.entries.len() {
            for b in k.f.partners(catalog, a) {
                k.score(catalog, a, b);
            }
        }
        k
    }

    /// The related candidates, as `related::infer` gives them.
    pub(crate) fn links(&self, catalog: &Catalog) -> Vec<Link> {
        let cands = (self.cands.iter())
            .map(|(&(a, b), (s, ev))| (a, b, *s, ev))
            .collect();
        top(catalog, cands, |_, _, ev| ev.clone())
    }

    /// Whether `pairs` draws (`a`, `b`) now: they share a key whose list draws pairs.
    fn drawn(&self, catalog: &Catalog, a: usize, b: usize) -> bool {
        let e = &catalog.entries[a];
        keys(e, &self.f.msg[a], &self.f.api[a]).iter().any(|k| {
            (self.f.list(k)).is_some_and(|l| draws(l.len()) && l.binary_search(&(b as u32)).is_ok())
        })
    }

    /// Score the pair (`a` < `b`) again, as it is now.
    fn score(&mut self, catalog: &Catalog, a: usize, b: usize) {
        let now = if self.drawn(catalog, a, b) {
            self.f.scored(catalog, a, b)
        } else {
            None
        };
        match now {
            Some(x) => {
                self.cands.insert((a, b), x);
                self.by[a].insert(b);
                self.by[b].insert(a);
            }
            None => {
                self.cands.remove(&(a, b));
                self.by[a].remove(&b);
                self.by[b].remove(&a);
            }
        }
    }

    /// Entry `i` changed from `old` to `new` in place (`catalog` is the catalog now).
    pub(crate) fn replace_entry(&mut self, catalog: &Catalog, i: usize, old: &Entry, new: &Entry) {
        // Numbered first: a new name renumbers every entry's lists, the old ones of `i` too.
        let (mn, an) = self.f.number(new);
        let (mo, ao) = (
            std::mem::take(&mut self.f.msg[i]),
            std::mem::take(&mut self.f.api[i]),
        );
        let ko: BTreeSet<Key> = keys(old, &mo, &ao).into_iter().collect();
        let kn: BTreeSet<Key> = keys(new, &mn, &an).into_iter().collect();
        let mut affected: BTreeSet<usize> = BTreeSet::from([i]);
        let at = i as u32;
        for k in ko.difference(&kn) {
            if let Some(l) = self.f.list(k) {
                let before = draws(l.len());
                let l = self.f.list_or_new(k);
                l.retain(|&x| x != at);
                if before != draws(l.len()) {
                    affected.extend(l.iter().map(|&x| x as usize));
                }
                self.f.drop_if_empty(k);
            }
        }
        for k in kn.difference(&ko) {
            let l = self.f.list_or_new(k);
            let before = draws(l.len());
            let p = l.partition_point(|&x| x < at);
            l.insert(p, at);
            if before != draws(l.len()) {
                affected.extend(l.iter().map(|&x| x as usize));
            }
        }
        if old.error_code != new.error_code {
            for c in old.error_code.iter().chain(&new.error_code) {
                let l = self.f.list(&Key::code(c));
                affected.extend(l.into_iter().flatten().map(|&x| x as usize));
            }
        }
        let (so, sn): (BTreeSet<u32>, BTreeSet<u32>) =
            (mo.iter().copied().collect(), mn.iter().copied().collect());
        for &w in so.symmetric_difference(&sn) {
            let d = &mut self.f.df[w as usize];
            if sn.contains(&w) {
                *d += 1;
            } else {
                *d = d.saturating_sub(1);
            }
            let l = self.f.list(&Key::Word(w));
            affected.extend(l.into_iter().flatten().map(|&x| x as usize));
        }
        self.f.msg[i] = mn;
        self.f.api[i] = an;
        let mut pairs: BTreeSet<(usize, usize)> = BTreeSet::new();
        for &x in &affected {
            pairs.extend(self.by[x].iter().map(|&y| (x.min(y), x.max(y))));
            let e = &catalog.entries[x];
            for k in keys(e, &self.f.msg[x], &self.f.api[x]) {
                let Some(l) = self.f.list(&k).filter(|l| draws(l.len())) else {
                    continue;
                };
                let others = l.iter().map(|&y| y as usize).filter(|&y| y != x);
                pairs.extend(others.map(|y| (x.min(y), x.max(y))));
            }
        }
        for (a, b) in pairs {
            self.score(catalog, a, b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::diag::Diagnostics;
    use crate::core::model::PageKind;
    use crate::load::SourceFile;

    /// An entry whose message has `words`, in the catalog's layout.
    fn entry(i: usize, words: &str) -> SourceFile {
        let text = format!(
            "# ValueError: {words}\n\n- **ID:** `python/e{i:03}`\n\
             - **Domain:** python\n- **Category:** shape_error\n- **Verification:** ai_generated\n\
             - **Fix Rate:** 90%\n\n## Root Cause\n\nSomething.\n\n## Workarounds\n\n\
             1. **Call reshape_tensor_{i} first.** (90% success)\n"
        );
        SourceFile {
            kind: PageKind::Entry,
            path: format!("content/errors/python/e{i:03}.md").into(),
            text: text.into(),
            mtime: None,
        }
    }

    fn catalog(files: &[SourceFile]) -> Catalog {
        let mut d = Diagnostics::default();
        crate::parse::parse_all(files, 60, &mut d)
    }

    /// An index list crosses the size pairs are drawn from (50 entries share "zebrafish", then
    /// 51, then 50 again), and words come and go: the kept ranking is the full one each time.
    #[test]
    fn kept_ranking_is_the_full_one_as_lists_cross_their_size() {
        let mut files: Vec<SourceFile> = (0..60)
            .map(|i| match i {
                0..=49 => entry(i, "zebrafish"),
                _ => entry(i, "otter"),
            })
            .collect();
        let cat = catalog(&files);
        let mut kept = Kept::new(&cat);
        assert_eq!(kept.links(&cat), super::super::related::infer(&cat));
        let edits = [
            (55, "zebrafish"),
            (55, "otter"),
            (10, "otter walrus"),
            (56, "zebrafish walrus"),
            (10, "zebrafish"),
        ];
        for (i, words) in edits {
            let old = cat_entry(&files, i);
            files[i] = entry(i, words);
            let cat = catalog(&files);
            kept.replace_entry(&cat, i, &old, &cat.entries[i]);
            let want = super::super::related::infer(&cat);
            assert!(!want.is_empty());
            assert_eq!(kept.links(&cat), want, "after entry {i} became {words:?}");
        }
    }

    fn cat_entry(files: &[SourceFile], i: usize) -> Entry {
        catalog(files).entries[i].clone()
    }
}
