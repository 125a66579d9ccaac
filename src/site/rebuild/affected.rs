//! What an edit affects: the pages at either end of every link touching the edited pages (in
//! the old graph and the new) and of every link that appeared or went away; whether what list
//! pages show changed; the facet pages of the edited entries.

use crate::core::model::{Article, Entry, PageKind};
use crate::link::{Graph, Link, Node};
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

/// The page a graph node is shown on.
fn page_of(n: &Node) -> (PageKind, String) {
    match n {
        Node::Entry { id } => (PageKind::Entry, id.clone()),
        Node::Workaround { entry, .. } | Node::DeadEnd { entry, .. } => {
            (PageKind::Entry, entry.clone())
        }
        Node::Article { id } => (PageKind::Article, id.clone()),
        Node::Snippet { page, .. } => (page.kind, page.id.clone()),
    }
}

fn link_hash(l: &Link) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
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
    pub(super) pages: HashSet<(PageKind, String)>,
    /// The changed files' pages (old and new IDs).
    pub(super) touched: BTreeSet<(PageKind, String)>,
    /// Facet pages (domain, category, code) of the touched entries, old and new.
    pub(super) facets: BTreeSet<String>,
    /// Something list pages show changed (a title, message, code, rate; a page came or went).
    pub(super) listed: bool,
    /// The link graph changed.
    pub(super) graph: bool,
}

/// What list pages and catalog.json show of an entry.
pub(super) fn listed_entry(e: &Entry) -> String {
    format!(
        "E\u{1}{}\u{1}{}\u{1}{:?}\u{1}{:?}\u{1}{}\u{1}{}",
        e.id, e.message, e.error_code, e.fix_rate, e.domain, e.category
    )
}

/// What list pages, catalog.json and the sitemap show of an article.
pub(super) fn listed_article(a: &Article) -> String {
    format!(
        "A\u{1}{}\u{1}{}\u{1}{}\u{1}{:?}",
        a.id, a.title, a.date, a.tags
    )
}

/// Pages that can show something of the touched pages: themselves, both ends of every link
/// touching them (old and new graph), and both ends of every link that appeared or went away.
pub(super) fn pages(
    old: &Graph,
    new: &Graph,
    touched: &BTreeSet<(PageKind, String)>,
) -> (HashSet<(PageKind, String)>, bool) {
    let mut pages: HashSet<(PageKind, String)> = touched.iter().cloned().collect();
    let old_set: HashSet<u64> = old.links.iter().map(link_hash).collect();
    let new_set: HashSet<u64> = new.links.iter().map(link_hash).collect();
    let changed = old_set != new_set;
    for (links, other) in [(&old.links, &new_set), (&new.links, &old_set)] {
        for l in links.iter() {
            let (a, b) = (page_of(&l.from), page_of(&l.to));
            if touched.contains(&a) || touched.contains(&b) || !other.contains(&link_hash(l)) {
                pages.insert(a);
                pages.insert(b);
            }
        }
    }
    (pages, changed)
}
