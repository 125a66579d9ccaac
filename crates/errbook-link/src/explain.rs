//! `errbook check --links FILE`: the links of one file with their evidence, and the candidates
//! left out (below the threshold, or rejected), so an author can review them and write
//! `links: {confirm: [...], reject: [...]}`.

use super::{Graph, Left, Link, LinkKind, Node, Origin};
use errbook_core::model::{Catalog, PageKind, PageRef};
use errbook_core::urls;
use std::fmt::Write;
use std::path::Path;

/// The review listing for `file` (a path relative to the site root, or ending in one), from the
/// catalog and the graph built from it.
pub fn explain(catalog: &Catalog, graph: &Graph, file: &Path) -> String {
    let want = file.to_string_lossy().replace('\\', "/");
    let page = catalog
        .pages()
        .find(|p| want.ends_with(&*p.source().to_string_lossy()));
    let Some(page) = page.map(|p| p.reference()) else {
        return format!("{want}: not a content file of this catalog (content/errors/**.md or content/articles/*.md)\n");
    };
    let mine = |l: &Link| touches(l, &page);
    let links: Vec<&Link> = graph.links.iter().filter(|l| mine(l)).collect();
    let left: Vec<_> = graph.review.iter().filter(|r| mine(&r.link)).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{want}: {} link(s), {} candidate(s) left out (threshold {:.2})",
        links.len(),
        left.len(),
        graph.threshold
    );
    for l in &links {
        line(&mut out, catalog, &page, l, None);
    }
    for r in &left {
        line(&mut out, catalog, &page, &r.link, Some(r.why));
    }
    out
}

/// Is either end of `l` shown on `page`?
fn touches(l: &Link, page: &PageRef) -> bool {
    l.from.page() == *page || l.to.page() == *page
}

fn name(cat: &Catalog, n: &Node) -> String {
    match n {
        Node::Entry { id } => id.clone(),
        Node::Article { id } => format!("article {id}"),
        Node::Workaround { entry, number } => {
            format!("{entry}#{}", urls::workaround_anchor(*number))
        }
        Node::DeadEnd { entry, number } => format!("{entry}#{}", urls::dead_end_anchor(*number)),
        Node::Snippet { page, index } => match cat.snippets_of(page).get(*index) {
            Some(s) => format!(
                "{} (line {}{})",
                s.id,
                s.line,
                s.label
                    .as_ref()
                    .map(|l| format!(", \u{201c}{l}\u{201d}"))
                    .unwrap_or_default()
            ),
            None => format!("block {index}"),
        },
    }
}

/// The `links:` item an author writes on this page to confirm or reject `l`.
fn key(cat: &Catalog, page: &PageRef, l: &Link) -> String {
    match (&l.from, &l.to) {
        (Node::Snippet { page: p, index }, to) => {
            let sid = cat.snippets_of(p).get(*index).map(|s| s.id.as_str());
            let sid = sid.unwrap_or_default();
            format!("{sid} -> {}", name(cat, to))
        }
        (Node::Article { id: a }, Node::Entry { id: e }) => {
            if page.kind == PageKind::Article {
                e.clone()
            } else {
                a.clone()
            }
        }
        (Node::Entry { id: a }, Node::Entry { id: b }) => {
            if &page.id == a {
                b.clone()
            } else {
                a.clone()
            }
        }
        _ => name(cat, &l.to),
    }
}

/// One link (or candidate left out, and why) with its evidence, and the `links:` item that
/// confirms or rejects it.
fn line(out: &mut String, cat: &Catalog, page: &PageRef, l: &Link, left: Option<Left>) {
    let verb = match l.kind {
        LinkKind::Discusses => "discusses",
        LinkKind::Applies => "applies",
        LinkKind::DeadEnd => "falls into dead end",
        LinkKind::Related => "related to",
    };
    let origin = match (left, l.origin) {
        (Some(Left::BelowThreshold), _) => "below threshold",
        (Some(Left::Rejected), _) => "rejected by the author",
        (None, Origin::Explicit) => "explicit",
        (None, Origin::Confirmed) => "confirmed",
        (None, Origin::Inferred) => "inferred",
    };
    let _ = writeln!(
        out,
        "\n  {} {verb} {}\n    score {:.2}, {origin}",
        name(cat, &l.from),
        name(cat, &l.to),
        l.score
    );
    for e in &l.evidence {
        let at = e.line.map(|n| format!("line {n}: ")).unwrap_or_default();
        let _ = writeln!(
            out,
            "    + {:.2} {}\n        {at}{}",
            e.weight, e.signal, e.excerpt
        );
    }
    let k = key(cat, page, l);
    match (left, l.origin) {
        (Some(Left::BelowThreshold), _) => {
            let _ = writeln!(out, "    to confirm: links: {{confirm: [\"{k}\"]}}");
        }
        (Some(Left::Rejected), _) => {}
        (None, Origin::Inferred) => {
            let _ = writeln!(out, "    to reject:  links: {{reject: [\"{k}\"]}}");
        }
        _ => {}
    }
}
