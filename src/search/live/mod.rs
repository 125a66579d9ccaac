//! The search index kept between updates, for `serve`: what the index is made of (each entry's
//! terms by field, each discussing article's counts, the posting lists) stays in memory, so an
//! update tokenises only the entries and articles whose files changed, works the impacts out
//! again from counts (all of them only when an average field length moved), changes the posting
//! lists in place, and serialises only the shards whose content can have changed (`emit`).
//! The files are byte for byte what `format::build` and `shards` write from the whole catalog
//! (tests/it/incremental.rs checks it after every kind of edit).

mod doc;
mod emit;
mod post;
mod terms;
#[cfg(test)]
mod tests;

use crate::core::config::SearchConfig;
use crate::core::model::Catalog;
use crate::link::Graph;
use crate::search::format::{self, FIELDS};
use crate::search::layout::Layout;
use doc::{ArtCounts, Kept, NF};
pub(crate) use emit::Shards;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};

/// The pages whose files changed, by ID (old and new IDs alike).
#[derive(Debug, Default)]
pub(crate) struct Changed {
    pub(crate) entries: HashSet<String>,
    pub(crate) articles: HashSet<String>,
}

/// The kept index (see the module's comment).
#[derive(Default)]
pub(crate) struct LiveIndex {
    terms: terms::Terms,
    /// One per entry, in catalog order (the index's document numbers).
    docs: Vec<Kept>,
    /// Counts of the articles that discuss an entry, by article ID.
    arts: HashMap<String, ArtCounts>,
    avg: Vec<f64>,
    post: post::Postings,
    shipped: emit::Shipped,
    /// How the shards are cut (the site's: `Layout::default`).
    lay: Layout,
}

impl LiveIndex {
    /// The same, the shards cut as `lay` says (the tests' small ones).
    #[cfg(test)]
    pub(crate) fn all_files_cut(
        cat: &Catalog,
        graph: &Graph,
        search: SearchConfig,
        offline: bool,
        lay: Layout,
    ) -> (LiveIndex, Shards) {
        let mut live = LiveIndex {
            lay,
            ..LiveIndex::default()
        };
        let files = live.update(cat, graph, &Changed::default(), search, offline, true);
        (live, files)
    }

    /// The index of the whole catalog, as a full build has just written it.
    pub(crate) fn new(
        cat: &Catalog,
        graph: &Graph,
        search: SearchConfig,
        offline: bool,
    ) -> LiveIndex {
        let mut live = LiveIndex::default();
        live.update(cat, graph, &Changed::default(), search, offline, false);
        live
    }

    /// The index of the whole catalog with all its files, to write over whatever is there.
    pub(crate) fn all_files(
        cat: &Catalog,
        graph: &Graph,
        search: SearchConfig,
        offline: bool,
    ) -> (LiveIndex, Shards) {
        let mut live = LiveIndex::default();
        let files = live.update(cat, graph, &Changed::default(), search, offline, true);
        (live, files)
    }

    /// Bring the index up to `cat` and `graph`, where only the pages of `changed` changed
    /// since the last update; the search files that changed (with `emit`) and those to remove.
    pub(crate) fn update(
        &mut self,
        cat: &Catalog,
        graph: &Graph,
        changed: &Changed,
        search: SearchConfig,
        offline: bool,
        emit: bool,
    ) -> Shards {
        let by_entry = format::articles_by_entry(cat, graph);
        let (art_no, arts) = format::number_articles(cat, &by_entry);
        self.count_articles(cat, &art_no, changed);
        // The first document whose number now belongs to another entry (or to none).
        let moved_from = self
            .docs
            .iter()
            .zip(&cat.entries)
            .position(|(d, e)| d.id != e.id)
            .unwrap_or(self.docs.len().min(cat.entries.len()));
        let moved = moved_from < self.docs.len().max(cat.entries.len());
        let mut counts_changed = self.take_docs(cat, changed);
        let mut doc_changed = counts_changed.clone();
        // The article fields, where the articles or their text changed; the articles' numbers.
        for (i, d) in self.docs.iter_mut().enumerate() {
            let pos = by_entry.get(d.id.as_str()).map_or(&[][..], Vec::as_slice);
            // Compared as they are, made only when they changed: this runs for every entry.
            let ids = || pos.iter().map(|&a| cat.articles[a].id.as_str());
            if counts_changed[i]
                || !d.art_ids.iter().map(String::as_str).eq(ids())
                || ids().any(|a| changed.articles.contains(a))
            {
                d.set_articles(ids().map(str::to_string).collect(), &self.arts);
                counts_changed[i] = true;
            }
            let nums = || pos.iter().filter_map(|a| art_no.get(a).copied());
            if !d.art_nums.iter().copied().eq(nums()) {
                d.art_nums = nums().collect();
                doc_changed[i] = true;
            }
        }
        let touched = self.reweigh(&counts_changed, moved.then_some(moved_from));
        let now = emit::Now {
            terms: &self.terms,
            post: &self.post,
            docs: &self.docs,
            arts,
            touched: &touched,
            doc_changed: &doc_changed,
            lay: &self.lay,
            moved_from: if moved { moved_from } else { usize::MAX },
            search,
            offline,
        };
        self.shipped.ship(now, emit)
    }

    /// The documents of `cat` in order: the kept ones as they are, the changed and new ones
    /// tokenised (keeping their old rows, to compare). Per document: whether it was tokenised.
    fn take_docs(&mut self, cat: &Catalog, changed: &Changed) -> Vec<bool> {
        let same_entries = self.docs.len() == cat.entries.len()
            && (self.docs.iter().zip(&cat.entries)).all(|(d, e)| d.id == e.id);
        if same_entries {
            return self.retake_docs(cat, changed);
        }
        let mut old: HashMap<String, Kept> =
            self.docs.drain(..).map(|d| (d.id.clone(), d)).collect();
        let fresh: Vec<usize> = (0..cat.entries.len())
            .filter(|&i| {
                let id = &cat.entries[i].id;
                changed.entries.contains(id) || !old.contains_key(id)
            })
            .collect();
        let raw: Vec<_> = fresh
            .par_iter()
            .map(|&i| doc::tokenise_entry(&cat.entries[i]))
            .collect();
        let mut raw = fresh.iter().zip(raw).peekable();
        let mut tokenised = vec![false; cat.entries.len()];
        for (i, e) in cat.entries.iter().enumerate() {
            let kept = old.remove(&e.id);
            let d = match raw.next_if(|(&k, _)| k == i) {
                Some((_, r)) => {
                    tokenised[i] = true;
                    let mut d = Kept::new(e, r, &mut self.terms);
                    d.row = kept.map(|k| k.row).unwrap_or_default();
                    d
                }
                // Not in `fresh`, so kept.
                None => match kept {
                    Some(k) => k,
                    None => continue,
                },
            };
            self.docs.push(d);
        }
        tokenised
    }

    /// `take_docs` where the entries are the ones kept, in the same order: the changed ones
    /// tokenised in place (the rest are neither moved nor looked up).
    fn retake_docs(&mut self, cat: &Catalog, changed: &Changed) -> Vec<bool> {
        let fresh: Vec<usize> = (0..cat.entries.len())
            .filter(|&i| changed.entries.contains(&cat.entries[i].id))
            .collect();
        let raw: Vec<_> = fresh
            .par_iter()
            .map(|&i| doc::tokenise_entry(&cat.entries[i]))
            .collect();
        let mut tokenised = vec![false; cat.entries.len()];
        for (i, r) in fresh.into_iter().zip(raw) {
            let mut d = Kept::new(&cat.entries[i], r, &mut self.terms);
            d.row = std::mem::take(&mut self.docs[i].row);
            self.docs[i] = d;
            tokenised[i] = true;
        }
        tokenised
    }

    /// The rows again, all of them when an average field length moved, else those whose counts
    /// changed; the posting lists after them, changed in place or, when documents moved (from
    /// `moved`), put together again.
    fn reweigh(&mut self, counts_changed: &[bool], moved: Option<usize>) -> post::Touched {
        let avg = self.averages();
        let all = avg != self.avg;
        self.avg = avg;
        let avg = &self.avg;
        let rows: Vec<Option<Vec<(u32, u32)>>> = self
            .docs
            .par_iter()
            .enumerate()
            .map(|(i, d)| (all || counts_changed[i]).then(|| d.impacts(avg)))
            .collect();
        let mut changes = Vec::new();
        let mut also = Vec::new();
        for (i, (d, row)) in self.docs.iter_mut().zip(rows).enumerate() {
            let Some(row) = row.filter(|r| *r != d.row) else {
                continue;
            };
            let old = std::mem::replace(&mut d.row, row);
            match moved {
                Some(from) if i < from => also.extend(diff(&old, &d.row).map(|(t, _)| t)),
                Some(_) => {}
                None => changes.extend(diff(&old, &d.row).map(|(t, imp)| (t, i as u32, imp))),
            }
        }
        match moved {
            Some(from) => {
                let rows = self.docs.iter().map(|d| d.row.as_slice());
                self.post
                    .rebuild(rows, from as u32, also.into_iter(), &self.terms)
            }
            None => self.post.apply(changes, &self.terms),
        }
    }

    /// Count the numbered articles not counted yet (and again those that changed); forget the
    /// rest.
    fn count_articles(
        &mut self,
        cat: &Catalog,
        art_no: &std::collections::BTreeMap<usize, u32>,
        changed: &Changed,
    ) {
        let numbered: HashSet<&str> = art_no
            .keys()
            .map(|&a| cat.articles[a].id.as_str())
            .collect();
        self.arts
            .retain(|id, _| numbered.contains(id.as_str()) && !changed.articles.contains(id));
        let todo: Vec<usize> = art_no
            .keys()
            .copied()
            .filter(|&a| !self.arts.contains_key(&cat.articles[a].id))
            .collect();
        let raw: Vec<_> = todo
            .par_iter()
            .map(|&a| doc::tokenise_article(&cat.articles[a]))
            .collect();
        for (a, r) in todo.into_iter().zip(raw) {
            let counts = ArtCounts::of(r, &mut self.terms);
            self.arts.insert(cat.articles[a].id.clone(), counts);
        }
    }

    /// Each field's average length over all documents (at least 1), as `format` has it.
    fn averages(&self) -> Vec<f64> {
        let mut total = [0usize; NF];
        for d in &self.docs {
            for (t, l) in total.iter_mut().zip(d.lens()) {
                *t += l;
            }
        }
        let n = self.docs.len().max(1) as f64;
        debug_assert_eq!(NF, FIELDS.len());
        total.iter().map(|&t| (t as f64 / n).max(1.0)).collect()
    }
}

/// How row `new` differs from `old` (both in term order): (term, its new impact or gone).
fn diff<'a>(
    old: &'a [(u32, u32)],
    new: &'a [(u32, u32)],
) -> impl Iterator<Item = (u32, Option<u32>)> + 'a {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) if a.0 == b.0 => {
                if a.1 != b.1 {
                    out.push((b.0, Some(b.1)));
                }
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a.0 < b.0 => {
                out.push((a.0, None));
                i += 1;
            }
            (Some(a), None) => {
                out.push((a.0, None));
                i += 1;
            }
            (_, Some(b)) => {
                out.push((b.0, Some(b.1)));
                j += 1;
            }
            (None, None) => break,
        }
    }
    out.into_iter()
}
