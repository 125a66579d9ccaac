//! Lean: what a build keeps of a parsed entry between parse and render, for the stages that read
//! every entry (links, lists, the search index, the catalog's JSON). What only the entry's own
//! page shows (its version table, extra sections, dead ends' reasons, its code blocks and which
//! part holds which) is dropped: the build reads the file again to render the page
//! (`site::reread`), so memory grows with what cross-links and the index need, not with the
//! pages.
//!
//! The code blocks stay, without their text, where a `links:` item may name one by its ID
//! (`snippet-2 -> pytorch/x#dead-end-1`); the link stage reads nothing else of an entry's blocks.

use crate::core::model::Entry;

/// Drop what only `e`'s own page shows.
pub(crate) fn entry(e: &mut Entry) {
    e.versions = Vec::new();
    e.extra_sections = Vec::new();
    for w in &mut e.workarounds {
        w.snippets = Vec::new();
    }
    for d in &mut e.dead_ends {
        d.reason = String::new();
        d.snippets = Vec::new();
    }
    let names_blocks = (e.links.confirm.iter())
        .chain(&e.links.reject)
        .any(|item| item.contains("->"));
    if !names_blocks {
        e.snippets = Vec::new();
        return;
    }
    for s in &mut e.snippets {
        s.info = String::new();
        s.code = String::new();
        s.display = None;
        s.label = None;
        s.run = None;
    }
}
