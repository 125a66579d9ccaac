//! `errbook check --links FILE`: the links of one file with their evidence, and the candidates
//! left out (below the threshold, or rejected), so an author can review them and write
//! `links: {confirm: [...], reject: [...]}`.

use super::{Graph, Left, Link, LinkKind, Node, PageRef};
use crate::core::model::{Catalog, PageKind};
use crate::site::Analysis;
use std::fmt::Write;
use std::path::Path;

/// The review listing for `file` (a path relative to the site root, or ending in one).
pub fn explain(analysis: &Analysis, file: &Path) -> String {
    let cat = &analysis.catalog;
    let want = file.to_string_lossy().replace('\\', "/");
    let page = cat
        .entries
        .iter()
        .find(|e| want.ends_with(&*e.source.to_string_lossy()))
        .map(|e| (PageKind::Entry, e.id.clone()))
        .or_else(|| {
            cat.articles
                .iter()
                .find(|a| want.ends_with(&*a.source.to_string_lossy()))
                .map(|a| (PageKind::Article, a.id.clone()))
        });
    let Some((kind, id)) = page else {
        return format!("{want}: not a content file of this catalog (content/errors/**.md or content/articles/*.md)\n");
    };
    let page = PageRef { kind, id };
    let g: &Graph = &analysis.graph;
    let mine = |l: &Link| touches(l, &page);
    let links: Vec<&Link> = g.links.iter().filter(|l| mine(l)).collect();
    let left: Vec<_> = g.review.iter().filter(|r| mine(&r.link)).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{want}: {} link(s), {} candidate(s) left out (threshold {:.2})",
        links.len(),
        left.len(),
        threshold(analysis)
    );
    for l in &links {
        line(&mut out, cat, &page, l, None);
    }
    for r in &left {
        let why = match r.why {
            Left::BelowThreshold => "below threshold",
            Left::Rejected => "rejected by the author",
        };
        line(&mut out, cat, &page, &r.link, Some(why));
    }
    out
}

fn threshold(a: &Analysis) -> f64 {
    a.graph.threshold
}

fn touches(l: &Link, page: &PageRef) -> bool {
    let on = |n: &Node| match n {
        Node::Entry { id } => page.kind == PageKind::Entry && &page.id == id,
        Node::Article { id } => page.kind == PageKind::Article && &page.id == id,
        Node::Snippet { page: p, .. } => p == page,
        Node::Workaround { entry, .. } | Node::DeadEnd { entry, .. } => {
            page.kind == PageKind::Entry && &page.id == entry
        }
    };
    on(&l.from) || on(&l.to)
}

fn name(cat: &Catalog, n: &Node) -> String {
    match n {
        Node::Entry { id } => id.clone(),
        Node::Article { id } => format!("article {id}"),
        Node::Workaround { entry, number } => format!("{entry}#workaround-{number}"),
        Node::DeadEnd { entry, number } => format!("{entry}#dead-end-{number}"),
        Node::Snippet { page, index } => {
            let s = match page.kind {
                PageKind::Article => cat.article(&page.id).and_then(|a| a.snippets.get(*index)),
                PageKind::Entry => cat.entry(&page.id).and_then(|e| e.snippets.get(*index)),
            };
            match s {
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
            }
        }
    }
}

/// The `links:` item an author writes on this page to confirm or reject `l`.
fn key(cat: &Catalog, page: &PageRef, l: &Link) -> String {
    match (&l.from, &l.to) {
        (Node::Snippet { page: p, index }, to) => {
            let sid = match p.kind {
                PageKind::Article => cat.article(&p.id).and_then(|a| a.snippets.get(*index)),
                PageKind::Entry => cat.entry(&p.id).and_then(|e| e.snippets.get(*index)),
            }
            .map(|s| s.id.clone())
            .unwrap_or_default();
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

fn line(out: &mut String, cat: &Catalog, page: &PageRef, l: &Link, left: Option<&str>) {
    let verb = match l.kind {
        LinkKind::Discusses => "discusses",
        LinkKind::Applies => "applies",
        LinkKind::DeadEnd => "falls into dead end",
        LinkKind::Related => "related to",
    };
    let origin = match (left, l.origin) {
        (Some(w), _) => w.to_string(),
        (None, super::Origin::Explicit) => "explicit".into(),
        (None, super::Origin::Confirmed) => "confirmed".into(),
        (None, super::Origin::Inferred) => "inferred".into(),
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
        (Some("below threshold"), _) => {
            let _ = writeln!(out, "    to confirm: links: {{confirm: [\"{k}\"]}}");
        }
        (Some(_), _) => {}
        (None, super::Origin::Inferred) => {
            let _ = writeln!(out, "    to reject:  links: {{reject: [\"{k}\"]}}");
        }
        _ => {}
    }
}
