//! The authors' word on inferred links: every `links: {confirm, reject}` item of the catalog,
//! parsed once, then applied to the candidates (kept, left for review, or rejected) and turned
//! into links where inference proposed none. Broken items are `explicit::check`'s to report.

use super::explicit::{self, Key, Target};
use super::graph::FastMap;
use super::{Left, Link, LinkKind, Node, Origin, Review};
use errbook_core::model::{Catalog, Page, PageKind, PageRef};
use std::collections::hash_map::Entry;
use std::hash::BuildHasher;

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
    pub(crate) fn on(&self, l: &Link) -> Option<bool> {
        let mut verdict = None;
        for item in self.items.iter().filter(|i| self.names(i, l)) {
            // A rejection wins over a confirmation.
            verdict = Some(verdict.unwrap_or(true) && item.confirm);
        }
        verdict
    }

    /// The (article, entry) IDs of every item on an article <-> entry pair: the candidates
    /// `on` has a word on among those article inference makes.
    pub(crate) fn discussed(&self) -> impl Iterator<Item = (&str, &str)> {
        self.items
            .iter()
            .filter_map(|Item { page, key, .. }| match (page.kind, &key.target) {
                (PageKind::Article, Target::Entry(e)) => Some((page.id.as_str(), e.as_str())),
                (PageKind::Entry, Target::Article(a)) => Some((a.as_str(), page.id.as_str())),
                _ => None,
            })
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
        for mut c in cands {
            if let Some(i) = drawn.find(links, &c) {
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
                    links.push(c);
                    drawn.note(links, links.len() - 1);
                    continue;
                }
                None if c.score >= threshold => {
                    links.push(c);
                    drawn.note(links, links.len() - 1);
                    continue;
                }
                None if c.score >= threshold / 3.0 => Left::BelowThreshold,
                None => continue,
            };
            review.push(Review { link: c, why });
        }
    }

    /// `confirm:` items naming an entry, article or related entry that inference did not
    /// propose: the author's word is enough.
    pub(crate) fn add_confirmed_without_candidate(&self, links: &mut Vec<Link>) {
        for l in self.confirmed_without_candidate() {
            push_new(links, l);
        }
    }

    /// The links of `add_confirmed_without_candidate`, in order, each to add unless its pair is
    /// drawn already.
    pub(crate) fn confirmed_without_candidate(&self) -> Vec<Link> {
        let mut out = Vec::new();
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
            out.push(Link::stated(from, to, kind, Origin::Confirmed));
        }
        out
    }

    /// `confirm: ["<snippet-id> -> entry#dead-end-N"]` with no candidate: link that block.
    pub(crate) fn add_confirmed_snippets(&self, links: &mut Vec<Link>) {
        for l in self.confirmed_snippets() {
            push_new(links, l);
        }
    }

    /// The links of `add_confirmed_snippets`, in order, each to add unless its pair is drawn
    /// already.
    pub(crate) fn confirmed_snippets(&self) -> Vec<Link> {
        let mut out = Vec::new();
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
            out.push(Link::stated(from, to, kind, Origin::Confirmed));
        }
        out
    }
}

/// Links already drawn, by their pair (a scan per candidate was quadratic): positions in the
/// links they were made from, by the hash of the pair, checked against the link itself on every
/// lookup (no node is cloned: `serve` makes this index again on every update).
pub(crate) struct Drawn {
    at: FastMap<u64, usize>,
    /// Links whose pair's hash a link of another pair holds in `at` (vanishingly rare), latest
    /// last.
    shared: Vec<(u64, usize)>,
    hasher: foldhash::fast::RandomState,
}

impl Drawn {
    pub(crate) fn of(links: &[Link]) -> Drawn {
        let mut d = Drawn {
            at: FastMap::with_capacity_and_hasher(links.len(), Default::default()),
            shared: Vec::new(),
            hasher: Default::default(),
        };
        d.note(links, 0);
        d
    }

    /// Index `links[from..]` too (links added since the index was made). A link of a pair
    /// already indexed takes its place, as a map by pair would.
    pub(crate) fn note(&mut self, links: &[Link], from: usize) {
        for (i, l) in links.iter().enumerate().skip(from) {
            let h = self.hash(l);
            match self.at.entry(h) {
                Entry::Vacant(v) => {
                    v.insert(i);
                }
                Entry::Occupied(mut o) => {
                    if same_pair(&links[*o.get()], l) {
                        o.insert(i);
                    } else {
                        self.shared.push((h, i));
                    }
                }
            }
        }
    }

    /// The position in `links` (those this index was made from) of the link of `c`'s pair.
    fn find(&self, links: &[Link], c: &Link) -> Option<usize> {
        let h = self.hash(c);
        let i = *self.at.get(&h)?;
        if links.get(i).is_some_and(|l| same_pair(l, c)) {
            return Some(i);
        }
        (self.shared.iter().rev())
            .find(|&&(x, j)| x == h && links.get(j).is_some_and(|l| same_pair(l, c)))
            .map(|&(_, j)| j)
    }

    fn hash(&self, l: &Link) -> u64 {
        pair_hash(&self.hasher, l)
    }
}

/// The hash of a link's pair (`same_pair` links hash alike).
pub(crate) fn pair_hash(state: &foldhash::fast::RandomState, l: &Link) -> u64 {
    let (a, b) = pair_ends(l);
    state.hash_one((l.kind, a, b))
}

/// A link's ends as its pair names them: related entries either way round are one pair.
fn pair_ends(l: &Link) -> (&Node, &Node) {
    match (&l.from, &l.to) {
        (Node::Entry { id: a }, Node::Entry { id: b }) if l.kind == LinkKind::Related && a > b => {
            (&l.to, &l.from)
        }
        _ => (&l.from, &l.to),
    }
}

/// What makes two links the same: kind and ends (either way round for related entries).
pub(crate) fn same_pair(x: &Link, y: &Link) -> bool {
    x.kind == y.kind && pair_ends(x) == pair_ends(y)
}

/// Add `l` unless `links` already joins the same two nodes with the same kind.
fn push_new(links: &mut Vec<Link>, l: Link) {
    if !links.iter().any(|x| same_pair(x, &l)) {
        links.push(l);
    }
}
