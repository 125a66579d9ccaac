//! /api/: the typed model as JSON. catalog.json lists every entry and article with its URL;
//! api/errors/<domain>/<slug>.json holds one entry whole, with its links and verification state;
//! links.json holds the link graph.

use crate::core::model::PageRef;
use crate::core::model::{Entry, PageKind};
use crate::link::Node;
use crate::records::{RecordSet, Status};
use crate::site::Analysis;
use serde::Serialize;
use serde_json::{json, Value};

#[derive(Serialize)]
struct CatalogEntry<'a> {
    id: &'a str,
    message: &'a str,
    exception: &'a Option<String>,
    domain: &'a str,
    category: &'a str,
    error_code: &'a Option<String>,
    fix_rate: Option<u8>,
    url: String,
    json: String,
}

#[derive(Serialize)]
struct CatalogArticle<'a> {
    id: &'a str,
    title: &'a str,
    date: &'a str,
    tags: &'a [String],
    errors: Vec<&'a str>,
    url: String,
}

#[derive(Serialize)]
struct Site<'a> {
    title: &'a str,
    base_url: &'a str,
}

#[derive(Serialize)]
pub struct Catalog<'a> {
    site: Site<'a>,
    entries: Vec<CatalogEntry<'a>>,
    articles: Vec<CatalogArticle<'a>>,
}

/// /api/catalog.json: every entry and article with its URL (site paths, relative to the root).
pub fn catalog<'a>(a: &'a Analysis, cfg: &'a crate::core::config::Config) -> Catalog<'a> {
    let entries = a
        .catalog
        .entries
        .iter()
        .map(|e| CatalogEntry {
            id: &e.id,
            message: &e.message,
            exception: &e.exception,
            domain: &e.domain,
            category: &e.category,
            error_code: &e.error_code,
            fix_rate: e.fix_rate,
            url: crate::core::urls::entry(&e.id),
            json: crate::core::urls::entry_json(&e.id),
        })
        .collect();
    let articles = a
        .catalog
        .articles
        .iter()
        .map(|x| CatalogArticle {
            id: &x.id,
            title: &x.title,
            date: &x.date,
            tags: &x.tags,
            errors: a
                .graph
                .entries_for_article(&x.id)
                .filter_map(|l| match &l.to {
                    Node::Entry { id } => Some(id.as_str()),
                    _ => None,
                })
                .collect(),
            url: crate::core::urls::article(&x.id),
        })
        .collect();
    Catalog {
        site: Site {
            title: &cfg.site.title,
            base_url: &cfg.site.base_url,
        },
        entries,
        articles,
    }
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
    let links: Vec<&crate::link::Link> = a.graph.touching_entry(&e.id).collect();
    json!({
        "entry": e,
        "url": crate::core::urls::entry(&e.id),
        "links": links,
        "verification": verification,
    })
}
