//! Compact: a parsed page's strings and lists cut to their length. The parser builds them by
//! pushing line after line, so each holds up to twice what it needs, and the catalog lives for
//! the whole build: on a large catalog the slack was a fifth of the model's memory.

use errbook_core::model::{Article, Entry, LinkOverrides, Snippet};

/// Give back what `e`'s strings and lists hold beyond their contents.
pub fn entry(e: &mut Entry) {
    for s in [
        &mut e.id,
        &mut e.domain,
        &mut e.slug,
        &mut e.message,
        &mut e.category,
        &mut e.verification,
        &mut e.root_cause,
    ] {
        s.shrink_to_fit();
    }
    e.source.shrink_to_fit();
    for s in [&mut e.exception, &mut e.error_code].into_iter().flatten() {
        s.shrink_to_fit();
    }
    for v in &mut e.versions {
        v.version.shrink_to_fit();
        v.status.shrink_to_fit();
        v.introduced.iter_mut().for_each(String::shrink_to_fit);
        v.deprecated.iter_mut().for_each(String::shrink_to_fit);
    }
    e.versions.shrink_to_fit();
    for w in &mut e.workarounds {
        w.summary.shrink_to_fit();
        w.detail.shrink_to_fit();
        w.snippets.shrink_to_fit();
    }
    e.workarounds.shrink_to_fit();
    for d in &mut e.dead_ends {
        d.summary.shrink_to_fit();
        d.reason.shrink_to_fit();
        d.snippets.shrink_to_fit();
    }
    e.dead_ends.shrink_to_fit();
    for s in &mut e.extra_sections {
        s.title.shrink_to_fit();
        s.body.shrink_to_fit();
        s.snippets.shrink_to_fit();
    }
    e.extra_sections.shrink_to_fit();
    strings(&mut e.aliases);
    strings(&mut e.tags);
    strings(&mut e.related);
    links(&mut e.links);
    snippets(&mut e.snippets);
}

/// `entry`, for an article.
pub(crate) fn article(a: &mut Article) {
    for s in [&mut a.id, &mut a.title, &mut a.date, &mut a.body] {
        s.shrink_to_fit();
    }
    a.source.shrink_to_fit();
    strings(&mut a.errors);
    strings(&mut a.tags);
    links(&mut a.links);
    snippets(&mut a.snippets);
}

fn strings(v: &mut Vec<String>) {
    v.iter_mut().for_each(String::shrink_to_fit);
    v.shrink_to_fit();
}

fn links(l: &mut LinkOverrides) {
    strings(&mut l.confirm);
    strings(&mut l.reject);
}

fn snippets(v: &mut Vec<Snippet>) {
    for s in v.iter_mut() {
        for t in [&mut s.id, &mut s.lang, &mut s.info, &mut s.code] {
            t.shrink_to_fit();
        }
        s.display.iter_mut().for_each(String::shrink_to_fit);
        s.label.iter_mut().for_each(String::shrink_to_fit);
    }
    v.shrink_to_fit();
}
