//! /api/: the typed model as JSON. catalog.json lists every entry and article with its URL;
//! `entry` is one entry whole, with its links and verification state (written as
//! api/errors/<domain>/<slug>.json, or folded into its domain's file by `shards`); links.json
//! holds the link graph.

use crate::records::Status;
use crate::view::evidence::Outcome;
use crate::view::EntryView;
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
    /// Where the entry's JSON is (`build.entry_json`); absent when nowhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    json: Option<String>,
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
pub(crate) struct Catalog<'a> {
    site: Site<'a>,
    entries: Vec<CatalogEntry<'a>>,
    articles: Vec<CatalogArticle<'a>>,
}

/// /api/catalog.json: every entry and article with its URL (site paths, relative to the root);
/// `discussed[i]`: the IDs of the entries article `i` discusses, best first.
pub(crate) fn catalog<'a>(
    cat: &'a crate::core::model::Catalog,
    discussed: &'a [Vec<&'a str>],
    cfg: &'a crate::core::config::Config,
) -> Catalog<'a> {
    let entries = cat
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
            json: crate::core::urls::entry_json_in(&e.id, cfg.build.entry_json),
        })
        .collect();
    let articles = cat
        .articles
        .iter()
        .zip(discussed)
        .map(|(x, errors)| CatalogArticle {
            id: &x.id,
            title: &x.title,
            date: &x.date,
            tags: &x.tags,
            errors: errors.clone(),
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

/// A block's `display` (the code as readers see it) is written only where it differs from its
/// `code` (hidden setup lines): elsewhere it would repeat every block's code.
fn drop_unchanged_display(entry: &mut Value) {
    let Some(snippets) = entry.get_mut("snippets").and_then(Value::as_array_mut) else {
        return;
    };
    for s in snippets.iter_mut().filter_map(Value::as_object_mut) {
        if s.get("display") == s.get("code") {
            s.remove("display");
        }
    }
}

/// /api/errors/<domain>/<slug>.json: the entry whole, its links, and each runnable block's
/// verification state with its record.
pub(crate) fn entry(v: &EntryView<'_>) -> Value {
    let e = v.entry;
    let verification: Vec<Value> = v
        .snippets
        .iter()
        .filter(|s| s.snippet.run.is_some())
        .map(|s| {
            let (state, runs) = match &s.status {
                Status::Fresh(runs) => ("fresh", runs.clone()),
                Status::Stale(r) => ("stale", vec![*r]),
                Status::Missing => ("missing", Vec::new()),
            };
            let outcome = match s.evidence.outcome {
                Outcome::Unverified => "unverified",
                Outcome::Agree(v) => v.as_str(),
                Outcome::Disagree => "disagree",
            };
            // `record`: the first run, as before runs were kept per environment.
            json!({ "snippet": s.snippet.id, "state": state, "outcome": outcome,
                    "records": runs, "record": runs.first() })
        })
        .collect();
    let mut entry = json!(e);
    drop_unchanged_display(&mut entry);
    json!({
        "entry": entry,
        "url": crate::core::urls::entry(&e.id),
        "links": v.links,
        "verification": verification,
    })
}
