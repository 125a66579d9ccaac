//! Lean: what a build keeps of a parsed entry between parse and render, for the stages that read
//! every entry (links, lists, the catalog's JSON). What only the entry's own page shows (its
//! version table, extra sections, dead ends' reasons, its code blocks and which part holds
//! which) is dropped, and so are the texts whose search terms were gathered (the root cause at
//! once, the workarounds and dead ends after the link stage, `linked`): the build reads the file again to render the page
//! (`site::reread`), so memory grows with what cross-links and the index need, not with the
//! pages.
//!
//! The code blocks stay, without their text, where a `links:` item may name one by its ID
//! (`snippet-2 -> pytorch/x#dead-end-1`); the link stage reads nothing else of an entry's blocks.

use errbook_core::model::Entry;

/// Drop what only `e`'s own page shows, and its root cause: the search index's terms were
/// gathered from it (`Entry::search_terms`), and no other stage reads it.
pub fn entry(e: &mut Entry) {
    e.root_cause = String::new();
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

/// Drop what only the link stage read of `e` (the link checks and inference are done): its
/// workarounds and dead ends (entry to entry inference compares their words; a part that is an
/// end of a link was made whole again, and so is its entry), its tags (their search terms were
/// gathered), its `related:` and `links:` lists and its body's links to content. What is left
/// is what the lists, the catalog's JSON and the search index's documents show.
pub fn linked(e: &mut Entry) {
    e.workarounds = Vec::new();
    e.dead_ends = Vec::new();
    e.tags = Vec::new();
    e.related = Vec::new();
    e.links = Default::default();
    e.content_links = Vec::new();
}
