//! What an edit affects: the pages at either end of every link touching the edited pages (in
//! the old graph and the new) and of every link that appeared or went away, and the articles
//! that list those entries' related entries; whether what list pages show changed; the facet
//! pages of the edited entries.

use crate::core::model::{Article, Entry, PageKind, PageRef};
use crate::link::{Graph, Link, LinkKind, Node, Patch};
use std::collections::{BTreeSet, HashSet};
use std::hash::{Hash, Hasher};

/// Site paths of the index pages that list an entry.
pub(super) fn entry_facets(e: &Entry) -> Vec<String> {
    let mut v = vec![crate::core::urls::domain(&e.domain)];
    if !e.category.is_empty() {
        v.push(crate::core::urls::category(&e.category));
    }
    if let Some(c) = &e.error_code {
        v.push(crate::core::urls::code(c));
    }
    v
}

/// The page a graph node is shown on, by kind and ID.
fn key_of(n: &Node) -> (PageKind, &str) {
    match n {
        Node::Entry { id } => (PageKind::Entry, id),
        Node::Workaround { entry, .. } | Node::DeadEnd { entry, .. } => (PageKind::Entry, entry),
        Node::Article { id } => (PageKind::Article, id),
        Node::Snippet { page, .. } => (page.kind, &page.id),
    }
}

/// The page a graph node is shown on.
fn page_of(n: &Node) -> PageRef {
    let (kind, id) = key_of(n);
    PageRef {
        kind,
        id: id.to_string(),
    }
}

/// A hash of everything a page can show of link `l` (`state`: one for all the links compared).
fn link_hash(state: &foldhash::fast::RandomState, l: &Link) -> u64 {
    use std::hash::BuildHasher;
    let mut h = state.build_hasher();
    l.from.hash(&mut h);
    l.to.hash(&mut h);
    l.kind.hash(&mut h);
    (l.origin as u8).hash(&mut h);
    l.score.to_bits().hash(&mut h);
    for e in &l.evidence {
        e.signal.hash(&mut h);
        e.excerpt.hash(&mut h);
        e.line.hash(&mut h);
        e.weight.to_bits().hash(&mut h);
    }
    h.finish()
}

/// What an update changed, for deciding what to render again.
pub(super) struct Changes {
    /// Entry and article pages to render.
    pub(super) pages: HashSet<PageRef>,
    /// The changed files' pages (old and new IDs).
    pub(super) touched: BTreeSet<PageRef>,
    /// Facet pages (domain, category, code) of the touched entries, old and new.
    pub(super) facets: BTreeSet<String>,
    /// Something list pages show changed (a title, message, code, rate; a page came or went).
    pub(super) listed: bool,
    /// What of it: the entries' lines, the articles' lines, the numbers of entries of a
    /// domain, category or code (the facets' index pages).
    pub(super) listed_entries: bool,
    pub(super) listed_articles: bool,
    pub(super) facet_counts: bool,
    /// A page came or went (an entry, an article, a facet's page): the sitemap changed.
    pub(super) paths: bool,
    /// The link graph changed.
    pub(super) graph: bool,
}

/// What list pages, catalog.json and the sitemap show of a page: when it changes (or a page
/// comes or goes), the lists are drawn again.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Listed {
    Entry {
        id: String,
        message: String,
        error_code: Option<String>,
        fix_rate: Option<u8>,
        domain: String,
        category: String,
    },
    Article {
        id: String,
        title: String,
        date: String,
        tags: Vec<String>,
    },
}

/// The entries of `listed` (their lines in lists), and the facets they count under, sorted.
pub(super) fn listed_entries(listed: &[Listed]) -> (Vec<&Listed>, Vec<[Option<&str>; 3]>) {
    let mut lines = Vec::new();
    let mut keys = Vec::new();
    for l in listed {
        if let Listed::Entry {
            domain,
            category,
            error_code,
            ..
        } = l
        {
            lines.push(l);
            keys.push([
                Some(domain.as_str()),
                Some(category.as_str()),
                error_code.as_deref(),
            ]);
        }
    }
    keys.sort();
    (lines, keys)
}

impl Listed {
    /// The page it is.
    pub(super) fn page(&self) -> (PageKind, &str) {
        match self {
            Listed::Entry { id, .. } => (PageKind::Entry, id),
            Listed::Article { id, .. } => (PageKind::Article, id),
        }
    }

    pub(super) fn entry(e: &Entry) -> Listed {
        Listed::Entry {
            id: e.id.clone(),
            message: e.message.clone(),
            error_code: e.error_code.clone(),
            fix_rate: e.fix_rate,
            domain: e.domain.clone(),
            category: e.category.clone(),
        }
    }

    pub(super) fn article(a: &Article) -> Listed {
        Listed::Article {
            id: a.id.clone(),
            title: a.title.clone(),
            date: a.date.clone(),
            tags: a.tags.clone(),
        }
    }
}

/// Pages that can show something of the touched pages: themselves, both ends of every link
/// touching them (old and new graph), both ends of every link that appeared or went away, and
/// the articles that discuss an entry at either end of such a link between related entries (an
/// article page lists the entries related to those it discusses, with their messages).
pub(super) fn pages(
    old: &Graph,
    new: &Graph,
    touched: &BTreeSet<PageRef>,
) -> (HashSet<PageRef>, bool) {
    use rayon::prelude::*;
    let mut pages: HashSet<PageRef> = touched.iter().cloned().collect();
    // Each link hashed once (its evidence's excerpts make this the costly part).
    let state = foldhash::fast::RandomState::default();
    let old_hashes: Vec<u64> = old.links.par_iter().map(|l| link_hash(&state, l)).collect();
    let new_hashes: Vec<u64> = new.links.par_iter().map(|l| link_hash(&state, l)).collect();
    type Set = HashSet<u64, foldhash::fast::RandomState>;
    let old_set: Set = old_hashes.iter().copied().collect();
    let new_set: Set = new_hashes.iter().copied().collect();
    let changed = old_set != new_set;
    // Entries whose related entries, or what the page shows of them, changed.
    let mut related: HashSet<&str> = HashSet::new();
    let sides = [
        (&old.links, &old_hashes, &new_set),
        (&new.links, &new_hashes, &old_set),
    ];
    let touched_keys: HashSet<(PageKind, &str)> =
        touched.iter().map(|p| (p.kind, p.id.as_str())).collect();
    for (links, hashes, other) in sides {
        for (l, h) in links.iter().zip(hashes) {
            let (a, b) = (key_of(&l.from), key_of(&l.to));
            if touched_keys.contains(&a) || touched_keys.contains(&b) || !other.contains(h) {
                if l.kind == LinkKind::Related {
                    related.extend([&l.from, &l.to].into_iter().filter_map(entry_id));
                }
                pages.insert(page_of(&l.from));
                pages.insert(page_of(&l.to));
            }
        }
    }
    if !related.is_empty() {
        for l in old.links.iter().chain(new.links.iter()) {
            if l.kind == LinkKind::Discusses && entry_id(&l.to).is_some_and(|e| related.contains(e))
            {
                pages.insert(page_of(&l.from));
            }
        }
    }
    (pages, changed)
}

/// `pages`, with the graph before the edit as the patch that made `new` from it: the links that
/// went are the patch's, the links that came are the patch's, every other link is in both graphs
/// (so scanning `new` and the links that went covers both).
pub(super) fn pages_patched(
    new: &Graph,
    patch: &Patch,
    touched: &BTreeSet<PageRef>,
) -> (HashSet<PageRef>, bool) {
    let mut pages: HashSet<PageRef> = touched.iter().cloned().collect();
    let touches = |l: &Link| {
        let (a, b) = (key_of(&l.from), key_of(&l.to));
        touched
            .iter()
            .any(|p| (p.kind, p.id.as_str()) == a || (p.kind, p.id.as_str()) == b)
    };
    let mut related: HashSet<&str> = HashSet::new();
    let changed = (new.links.iter().filter(|l| touches(l)))
        .chain(patch.added(new))
        .chain(patch.removed());
    for l in changed {
        if l.kind == LinkKind::Related {
            related.extend([&l.from, &l.to].into_iter().filter_map(entry_id));
        }
        pages.insert(page_of(&l.from));
        pages.insert(page_of(&l.to));
    }
    if !related.is_empty() {
        for l in new.links.iter().chain(patch.removed()) {
            if l.kind == LinkKind::Discusses && entry_id(&l.to).is_some_and(|e| related.contains(e))
            {
                pages.insert(page_of(&l.from));
            }
        }
    }
    (pages, !patch.is_empty())
}

/// The ID of an entry node.
fn entry_id(n: &Node) -> Option<&str> {
    match n {
        Node::Entry { id } => Some(id),
        _ => None,
    }
}
