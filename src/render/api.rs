//! /api/: the typed model as JSON. catalog.json lists every entry and article with its URL;
//! api/errors/<domain>/<slug>.json holds one entry whole, with its links and verification state;
//! links.json holds the link graph.

use crate::link::{Node, PageRef};
use crate::model::{Entry, PageKind};
use crate::site::Analysis;
use crate::verify::records::{RecordSet, Status};
use serde_json::{json, Value};

pub fn catalog(a: &Analysis, cfg: &crate::config::Config) -> Value {
    let entries: Vec<Value> = a
        .catalog
        .entries
        .iter()
        .map(|e| {
            json!({
                "id": e.id, "message": e.message, "exception": e.exception,
                "domain": e.domain, "category": e.category, "error_code": e.error_code,
                "fix_rate": e.fix_rate, "url": crate::urls::entry(&e.id),
                "json": crate::urls::entry_json(&e.id),
            })
        })
        .collect();
    let articles: Vec<Value> = a
        .catalog
        .articles
        .iter()
        .map(|x| {
            json!({
                "id": x.id, "title": x.title, "date": x.date, "tags": x.tags,
                "errors": a.graph.entries_for_article(&x.id).filter_map(|l| match &l.to {
                    Node::Entry { id } => Some(id.clone()), _ => None }).collect::<Vec<_>>(),
                "url": crate::urls::article(&x.id),
            })
        })
        .collect();
    json!({
        "site": { "title": cfg.site.title, "base_url": cfg.site.base_url },
        "entries": entries,
        "articles": articles,
    })
}

pub fn entry(a: &Analysis, records: &RecordSet, e: &Entry) -> Value {
    let page = PageRef {
        kind: PageKind::Entry,
        id: e.id.clone(),
    };
    let verification: Vec<Value> = e
        .snippets
        .iter()
        .filter(|s| s.run.is_some())
        .map(|s| {
            let (state, rec) = match records.status(&page, &e.snippets, s) {
                Status::Fresh(r) => ("fresh", Some(r)),
                Status::Stale(r) => ("stale", Some(r)),
                Status::Missing => ("missing", None),
            };
            json!({ "snippet": s.id, "state": state, "record": rec })
        })
        .collect();
    let links: Vec<&crate::link::Link> = a
        .graph
        .links
        .iter()
        .filter(|l| touches(&l.from, &e.id) || touches(&l.to, &e.id))
        .collect();
    json!({
        "entry": e,
        "url": crate::urls::entry(&e.id),
        "links": links,
        "verification": verification,
    })
}

fn touches(n: &Node, id: &str) -> bool {
    match n {
        Node::Entry { id: x } => x == id,
        Node::Workaround { entry, .. } | Node::DeadEnd { entry, .. } => entry == id,
        Node::Snippet { page, .. } => page.kind == PageKind::Entry && page.id == id,
        Node::Article { .. } => false,
    }
}
