//! What an edit changed, as the kept link state (`live`) reads it: the edited pages before and
//! after, the entries whose features moved, the articles their decisions name, and the shape of
//! the catalog that explicit references are checked against.

use super::explicit;
use crate::core::model::{Catalog, Entry, PageKind, PageRef};
use std::collections::{BTreeSet, HashSet};
use std::hash::{Hash, Hasher};

/// What an edit changed, as the link state needs it.
pub(crate) struct Changed<'a> {
    /// The edited entries as they were (taken out of the catalog; an edited article is
    /// inferred again whatever it was).
    pub old_entries: &'a [Entry],
    /// The pages whose files changed, under their old and new IDs.
    pub touched: &'a BTreeSet<PageRef>,
    /// The graph before the edit (the new one is patched into it).
    pub graph: super::Graph,
}

/// The edited entries that `same` tells apart from what they were, as (old, new); an entry
/// that came or went has no old or no new version.
pub(super) fn moved_entries<'a>(
    catalog: &'a Catalog,
    changed: &Changed<'a>,
    same: impl Fn(&Entry, &Entry) -> bool,
) -> Vec<(Option<&'a Entry>, Option<&'a Entry>)> {
    let mut moved = Vec::new();
    for p in changed.touched.iter().filter(|p| p.kind == PageKind::Entry) {
        let old = changed.old_entries.iter().find(|e| e.id == p.id);
        let new = catalog.entry(&p.id);
        match (old, new) {
            (Some(o), Some(n)) if same(o, n) => {}
            (None, None) => {}
            (o, n) => moved.push((o, n)),
        }
    }
    moved
}

/// Articles the edited entries' `links:` items name, before and after the edit: a candidate
/// between one of them and the entry may have been kept (or left out) for that decision alone.
pub(super) fn articles_named<'a>(catalog: &'a Catalog, changed: &Changed<'_>) -> HashSet<&'a str> {
    let now = (changed.touched.iter())
        .filter(|p| p.kind == PageKind::Entry)
        .filter_map(|p| catalog.entry(&p.id));
    let mut out = HashSet::new();
    for e in now.chain(changed.old_entries.iter()) {
        for raw in e.links.confirm.iter().chain(&e.links.reject) {
            let target = raw.split_once("->").map_or(raw.as_str(), |(_, t)| t).trim();
            let path = target.split('#').next().unwrap_or(target);
            if let Some(a) = catalog.article(&explicit::content_id(path)) {
                out.insert(a.id.as_str());
            }
        }
    }
    out
}

/// What explicit references are checked against beyond their own page, as one hash: the pages
/// there are (ID and file), those that did not parse, and each entry's workaround and dead-end
/// numbers.
pub(super) fn shape(catalog: &Catalog) -> u64 {
    use std::hash::BuildHasher;
    // One hash of the whole catalog on every update: foldhash's, several times SipHash's speed;
    // a path as its bytes (a `Path` hashes component by component).
    let mut h = foldhash::fast::FixedState::with_seed(0x5eed).build_hasher();
    for e in &catalog.entries {
        e.id.hash(&mut h);
        e.source.as_os_str().as_encoded_bytes().hash(&mut h);
        for w in &e.workarounds {
            w.number.hash(&mut h);
        }
        0xffusize.hash(&mut h);
        for d in &e.dead_ends {
            d.number.hash(&mut h);
        }
        0xfeusize.hash(&mut h);
    }
    for a in &catalog.articles {
        a.id.hash(&mut h);
        a.source.as_os_str().as_encoded_bytes().hash(&mut h);
    }
    catalog.unparsed.hash(&mut h);
    h.finish()
}
