//! The authors' word on inferred links: every `links: {confirm, reject}` item of the catalog,
//! parsed once, then applied to the candidates (kept, left for review, or rejected) and turned
//! into links where inference proposed none. Broken items are `explicit::check`'s to report.

use super::explicit::{self, Key, Target};
use super::{Left, Link, LinkKind, Node, Origin, Review};
use crate::core::model::{Catalog, Page, PageKind, PageRef};
use std::collections::HashMap;

/// Every `links: {confirm, reject}` item of the catalog, parsed, by page.
pub(crate) struct Decisions<'a> {
    catalog: &'a Catalog,
    items: Vec<Item>,
}

/// One `links:` item of one page.
struct Item {
    page: PageRef,
    key: Key,
    /// `confirm` (true) or `reject` (false).
    confirm: bool,
}

impl<'a> Decisions<'a> {
    pub(crate) fn new(catalog: &'a Catalog) -> Decisions<'a> {
        let pages = (catalog.articles.iter())
            .map(|a| (Page::Article(a), &a.links))
            .chain(catalog.entries.iter().map(|e| (Page::Entry(e), &e.links)));
        let mut items = Vec::new();
        for (page, lo) in pages {
            for (raws, confirm) in [(&lo.confirm, true), (&lo.reject, false)] {
                for raw in raws {
                    // Broken items were reported by `explicit::check`.
                    if let Ok(key) = explicit::parse_key(catalog, raw) {
                        let page = page.reference();
                        items.push(Item { page, key, confirm });
                    }
                }
            }
        }
        Decisions { catalog, items }
    }

    /// The author's decision on a candidate: Some(true) confirmed, Some(false) rejected.
    fn on(&self, l: &Link) -> Option<bool> {
        let mut verdict = None;
        for item in self.items.iter().filter(|i| self.names(i, l)) {
            // A rejection wins over a confirmation.
            verdict = Some(verdict.unwrap_or(true) && item.confirm);
        }
        verdict
    }

    /// Does `item` name the candidate `l`?
    fn names(&self, item: &Item, l: &Link) -> bool {
        let Item { page, key, .. } = item;
        match (&l.kind, &l.from, &l.to, &key.target) {
            (LinkKind::Discusses, Node::Article { id: a }, Node::Entry { id: e }, t) => {
                (page.kind == PageKind::Article
                    && &page.id == a
                    && matches!(t, Target::Entry(x) if x == e))
                    || (page.kind == PageKind::Entry
                        && &page.id == e
                        && matches!(t, Target::Article(x) if x == a))
            }
            (LinkKind::Related, Node::Entry { id: a }, Node::Entry { id: b }, Target::Entry(x)) => {
                page.kind == PageKind::Entry
                    && ((&page.id == a && x == b) || (&page.id == b && x == a))
            }
            (
                LinkKind::Applies | LinkKind::DeadEnd,
                Node::Snippet { page: p, index },
                Node::Workaround { entry, number } | Node::DeadEnd { entry, number },
                t,
            ) => {
                let same_part = match t {
                    Target::Workaround(e, n) => {
                        l.kind == LinkKind::Applies && e == entry && n == number
                    }
                    Target::DeadEnd(e, n) => {
                        l.kind == LinkKind::DeadEnd && e == entry && n == number
                    }
                    _ => false,
                };
                let same_block = match &key.snippet {
                    None => true,
                    Some(sid) => {
                        self.catalog.snippets_of(p).get(*index).map(|s| &s.id) == Some(sid)
                    }
                };
                p == page && same_part && same_block
            }
            _ => false,
        }
    }

    /// Sort candidates into `links` (kept) and `review` (left out). A candidate for a pair that
    /// already has an explicit link adds its evidence to it.
    pub(crate) fn apply(
        &self,
        cands: Vec<Link>,
        links: &mut Vec<Link>,
        review: &mut Vec<Review>,
        threshold: f64,
    ) {
        let mut drawn = Drawn::of(links);
        self.apply_to(&mut drawn, cands, links, review, threshold);
    }

    /// `apply`, with `drawn` the index of `links` (kept up to date here): candidates given in
    /// batches one after the other give what one `apply` of them all gives.
    pub(crate) fn apply_to(
        &self,
        drawn: &mut Drawn,
        cands: Vec<Link>,
        links: &mut Vec<Link>,
        review: &mut Vec<Review>,
        threshold: f64,
    ) {
        let at = &mut drawn.0;
        for mut c in cands {
            if let Some(&i) = at.get(&pair_key(&c)) {
                let x = &mut links[i];
                if x.evidence.is_empty() {
                    x.evidence = std::mem::take(&mut c.evidence);
                }
                continue;
            }
            let why = match self.on(&c) {
                Some(false) => Left::Rejected,
                Some(true) => {
                    c.origin = Origin::Confirmed;
                    at.insert(pair_key(&c), links.len());
                    links.push(c);
                    continue;
                }
                None if c.score >= threshold => {
                    at.insert(pair_key(&c), links.len());
                    links.push(c);
                    continue;
                }
                None if c.score >= threshold / 3.0 => Left::BelowThreshold,
                None => continue,
            };
            review.push(Review { link: c, why });
        }
    }

    /// Whether `apply_to` can do anything with candidate `c`: it scores at least a third of the
    /// threshold, an author decided on it, or it would give its evidence to a link in `drawn`.
    /// A candidate that does not is dropped by `apply_to`, so a cache of candidates need not
    /// keep it (while the decisions and `drawn` stay as they are).
    pub(crate) fn matters(&self, drawn: &Drawn, c: &Link, threshold: f64) -> bool {
        c.score >= threshold / 3.0 || drawn.0.contains_key(&pair_key(c)) || self.on(c).is_some()
    }

    /// `confirm:` items naming an entry, article or related entry that inference did not
    /// propose: the author's word is enough.
    pub(crate) fn add_confirmed_without_candidate(&self, links: &mut Vec<Link>) {
        for Item { page, key, confirm } in &self.items {
            if !confirm || key.snippet.is_some() {
                continue;
            }
            let (from, to, kind) = match (page.kind, &key.target) {
                (PageKind::Article, Target::Entry(e)) => (
                    Node::for_page(page),
                    Node::Entry { id: e.clone() },
                    LinkKind::Discusses,
                ),
                (PageKind::Entry, Target::Article(a)) => (
                    Node::Article { id: a.clone() },
                    Node::for_page(page),
                    LinkKind::Discusses,
                ),
                (PageKind::Entry, Target::Entry(e)) if *e != page.id => (
                    Node::for_page(page),
                    Node::Entry { id: e.clone() },
                    LinkKind::Related,
                ),
                _ => continue,
            };
            push_new(links, Link::stated(from, to, kind, Origin::Confirmed));
        }
    }

    /// `confirm: ["<snippet-id> -> entry#dead-end-N"]` with no candidate: link that block.
    pub(crate) fn add_confirmed_snippets(&self, links: &mut Vec<Link>) {
        for Item { page, key, confirm } in &self.items {
            let Some(sid) = &key.snippet else { continue };
            if !confirm {
                continue;
            }
            let snippets = self.catalog.snippets_of(page);
            let Some(s) = snippets.iter().find(|s| &s.id == sid) else {
                continue;
            };
            let (to, kind) = match &key.target {
                Target::Workaround(e, n) => (
                    Node::Workaround {
                        entry: e.clone(),
                        number: *n,
                    },
                    LinkKind::Applies,
                ),
                Target::DeadEnd(e, n) => (
                    Node::DeadEnd {
                        entry: e.clone(),
                        number: *n,
                    },
                    LinkKind::DeadEnd,
                ),
                _ => continue,
            };
            let from = Node::Snippet {
                page: page.clone(),
                index: s.index,
            };
            push_new(links, Link::stated(from, to, kind, Origin::Confirmed));
        }
    }
}

/// Links already drawn, by their pair (a scan per candidate was quadratic).
pub(crate) struct Drawn(HashMap<(LinkKind, Node, Node), usize>);

impl Drawn {
    pub(crate) fn of(links: &[Link]) -> Drawn {
        Drawn(
            links
                .iter()
                .enumerate()
                .map(|(i, l)| (pair_key(l), i))
                .collect(),
        )
    }
}

impl Drawn {
    /// Index `links[from..]` too (links added since the index was made).
    pub(crate) fn note(&mut self, links: &[Link], from: usize) {
        for (i, l) in links.iter().enumerate().skip(from) {
            self.0.insert(pair_key(l), i);
        }
    }
}

/// What makes two links the same: kind and ends (either way round for related entries).
fn pair_key(l: &Link) -> (LinkKind, Node, Node) {
    match (&l.from, &l.to) {
        (Node::Entry { id: a }, Node::Entry { id: b }) if l.kind == LinkKind::Related && a > b => {
            (l.kind, l.to.clone(), l.from.clone())
        }
        _ => (l.kind, l.from.clone(), l.to.clone()),
    }
}

/// Add `l` unless `links` already joins the same two nodes with the same kind.
fn push_new(links: &mut Vec<Link>, l: Link) {
    let key = pair_key(&l);
    if !links.iter().any(|x| pair_key(x) == key) {
        links.push(l);
    }
}
