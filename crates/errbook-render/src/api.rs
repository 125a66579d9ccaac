//! /api/: the typed model as JSON. catalog.json lists every entry and article (an entry's URLs
//! follow from its ID by the patterns at its top);
//! `entry` is one entry whole, with its verification state (written as
//! api/errors/<domain>/<slug>.json, or folded into its domain's file by `shards`); links.json
//! holds the link graph, every entry's links (not repeated in each entry's JSON).

use crate::view::evidence::Outcome;
use crate::view::EntryView;
use errbook_records::Status;
use serde::Serialize;
use serde_json::{json, Value};

#[derive(Serialize)]
struct CatalogEntry<'a> {
    id: &'a str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    exception: &'a Option<String>,
    domain: &'a str,
    category: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error_code: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix_rate: Option<u8>,
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

/// One entry as catalog.json's `entries` holds it (compact JSON): what `catalog_json` joins.
/// It depends on the entry only (its page's URL and its JSON's file are not in it: the patterns
/// at the top of catalog.json give them from its ID, 75 bytes an entry less), so `serve` keeps
/// it between updates. `_cfg`: what the callers pass, for when the configuration changes it.
pub fn catalog_entry(
    e: &errbook_core::model::Entry,
    _cfg: &errbook_core::config::Config,
) -> serde_json::Result<Vec<u8>> {
    serde_json::to_vec(&CatalogEntry {
        id: &e.id,
        message: &e.message,
        exception: &e.exception,
        domain: &e.domain,
        category: &e.category,
        error_code: &e.error_code,
        fix_rate: e.fix_rate,
    })
}

/// /api/catalog.json (compact) into `out`: every entry and article with its URL (site paths,
/// relative to the root). `entries`: each entry's `catalog_entry`, in catalog order (a build
/// makes each as it goes, `serve` joins those it kept); `discussed[i]`: the IDs of the entries
/// article `i` discusses, best first. The bytes serde writes for the whole (site, entries,
/// articles) in one go, written as they are made.
pub fn catalog_json<B: AsRef<[u8]>>(
    mut out: impl std::io::Write,
    cat: &errbook_core::model::Catalog,
    entries: impl Iterator<Item = serde_json::Result<B>>,
    discussed: &[Vec<&str>],
    cfg: &errbook_core::config::Config,
) -> serde_json::Result<()> {
    let articles: Vec<CatalogArticle<'_>> = cat
        .articles
        .iter()
        .zip(discussed)
        .map(|(x, errors)| CatalogArticle {
            id: &x.id,
            title: &x.title,
            date: &x.date,
            tags: &x.tags,
            errors: errors.clone(),
            url: errbook_core::urls::article(&x.id),
        })
        .collect();
    let site = Site {
        title: &cfg.site.title,
        base_url: &cfg.site.base_url,
    };
    let io = serde_json::Error::io;
    out.write_all(b"{\"site\":").map_err(io)?;
    serde_json::to_writer(&mut out, &site)?;
    out.write_all(b",\"entry_url\":\"").map_err(io)?;
    out.write_all(ENTRY_URL.as_bytes()).map_err(io)?;
    out.write_all(b"\"").map_err(io)?;
    if let Some(json) = entry_json_pattern(cfg.build.entry_json) {
        out.write_all(b",\"entry_json\":\"").map_err(io)?;
        out.write_all(json.as_bytes()).map_err(io)?;
        out.write_all(b"\"").map_err(io)?;
    }
    out.write_all(b",\"entries\":[").map_err(io)?;
    for (i, e) in entries.enumerate() {
        if i > 0 {
            out.write_all(b",").map_err(io)?;
        }
        out.write_all(e?.as_ref()).map_err(io)?;
    }
    out.write_all(b"],\"articles\":").map_err(io)?;
    serde_json::to_writer(&mut out, &articles)?;
    out.write_all(b"}").map_err(io)
}

/// Where an entry's page is, as a pattern: `{id}` is the entry's ID.
const ENTRY_URL: &str = "errors/{id}/";

/// Where an entry's JSON is under `mode`, as a pattern: `{id}` is the entry's ID, `{domain}` its
/// domain (the part of the ID before `/`); none with `"none"`.
fn entry_json_pattern(mode: errbook_core::config::EntryJson) -> Option<&'static str> {
    use errbook_core::config::EntryJson;
    match mode {
        EntryJson::Files => Some("api/errors/{id}.json"),
        EntryJson::Domains => Some("api/errors/{domain}.json"),
        EntryJson::None => None,
    }
}

/// What an API user gets again elsewhere, taken out of an entry's JSON: its ID and the two
/// halves of it (the file's path or the key of the domain's file gives it), where its Markdown
/// is (`source`, each part's `line`), a workaround's or dead end's `number` where it is its
/// place in the list (from 1), a block's `index` and `id` where they follow from its
/// place in `snippets` (`snippet-<index+1>`), its `label` where it is only the heading of the
/// section whose part names it, its `info` where it is only the language, and its `display` where it is its `code` (no hidden setup
/// lines). Then `prune` drops what is empty.
fn drop_repeated(entry: &mut Value) {
    let Some(e) = entry.as_object_mut() else {
        return;
    };
    for key in ["id", "domain", "slug", "source"] {
        e.remove(key);
    }
    for part in ["workarounds", "dead_ends", "extra_sections"] {
        for (i, p) in objects(e.get_mut(part)).enumerate() {
            p.remove("line");
            if p.get("number").and_then(Value::as_u64) == Some(i as u64 + 1) {
                p.remove("number");
            }
        }
    }
    let headed = headings(e);
    for (i, s) in objects(e.get_mut("snippets")).enumerate() {
        s.remove("line");
        let label = s
            .get("label")
            .and_then(Value::as_str)
            .map(str::to_lowercase);
        if label.is_some() && headed.get(&i) == label.as_ref() {
            s.remove("label");
        }
        if s.get("index").and_then(Value::as_u64) == Some(i as u64) {
            s.remove("index");
        }
        if s.get("id").and_then(Value::as_str) == Some(&format!("snippet-{}", i + 1)) {
            s.remove("id");
        }
        if s.get("info") == s.get("lang") {
            s.remove("info");
        }
        if s.get("display") == s.get("code") {
            s.remove("display");
        }
    }
}

/// The heading of the section each block is in, as the entry's parts say (`workarounds[].snippets`
/// under "Workarounds"...), lowercased: a block's `label` that is only that heading says
/// nothing the part does not.
fn headings(e: &serde_json::Map<String, Value>) -> std::collections::HashMap<usize, String> {
    let mut out = std::collections::HashMap::new();
    let parts = [("workarounds", "workarounds"), ("dead_ends", "dead ends")];
    for (part, heading) in parts {
        for p in e.get(part).and_then(Value::as_array).into_iter().flatten() {
            for i in indices(p) {
                out.insert(i, heading.to_string());
            }
        }
    }
    for s in e
        .get("extra_sections")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let title = s.get("title").and_then(Value::as_str).unwrap_or_default();
        for i in indices(s) {
            out.insert(i, title.to_lowercase());
        }
    }
    out
}

/// The block indices a part's `snippets` names.
fn indices(part: &Value) -> impl Iterator<Item = usize> + '_ {
    let all = part.get("snippets").and_then(Value::as_array);
    all.into_iter()
        .flatten()
        .filter_map(|i| usize::try_from(i.as_u64()?).ok())
}

/// The objects of the array `v` (none when it is not one).
fn objects(v: Option<&mut Value>) -> impl Iterator<Item = &mut serde_json::Map<String, Value>> {
    v.and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

/// Every member whose value is null, `""`, `[]` or `{}` (once its own members are pruned) taken
/// out, at every depth: an absent member means empty. Array items stay where they are (their
/// places count).
fn prune(v: &mut Value) {
    match v {
        Value::Object(o) => {
            o.values_mut().for_each(prune);
            o.retain(|_, x| !is_empty(x));
        }
        Value::Array(a) => a.iter_mut().for_each(prune),
        _ => {}
    }
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

/// A record as the API shows it: its verdict and finding those of the claim as it is now.
fn judged(r: &errbook_records::Judged<'_>) -> Value {
    let mut v = json!(r.record);
    if let Some(o) = v.as_object_mut() {
        o.insert("verdict".into(), json!(r.verdict));
        o.insert("finding".into(), json!(r.finding));
        o.insert("claim".into(), json!(r.claim));
    }
    v
}

/// /api/errors/<domain>/<slug>.json: the entry whole and each runnable block's verification
/// state with its record; what is empty or repeated left out (`drop_repeated`, `prune`). Its
/// links are in links.json only (they were a sixth of this JSON, repeated in each entry), and
/// its page's URL is `errors/<id>/`.
pub fn entry(v: &EntryView<'_>) -> Value {
    let e = v.entry;
    let verification: Vec<Value> = v
        .snippets
        .iter()
        .filter(|s| s.snippet.run.is_some())
        .map(|s| {
            let (state, runs) = match &s.status {
                Status::Fresh(runs) => ("fresh", runs.iter().map(judged).collect()),
                Status::Stale(r) => ("stale", vec![judged(r)]),
                Status::Missing => ("missing", Vec::new()),
            };
            let outcome = match s.evidence.outcome {
                Outcome::Unverified => "unverified",
                Outcome::Agree(v) => v.as_str(),
                Outcome::Disagree => "disagree",
            };
            json!({ "snippet": s.snippet.id, "state": state, "outcome": outcome,
                    "records": runs })
        })
        .collect();
    let mut entry = json!(e);
    drop_repeated(&mut entry);
    let mut out = json!({
        "entry": entry,
        "verification": verification,
    });
    prune(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_patterns_give_the_urls_of_each_entry() {
        use errbook_core::config::EntryJson;
        let fill = |p: &str| p.replace("{id}", "np/a").replace("{domain}", "np");
        assert_eq!(fill(ENTRY_URL), errbook_core::urls::entry("np/a"));
        for mode in [EntryJson::Files, EntryJson::Domains, EntryJson::None] {
            assert_eq!(
                entry_json_pattern(mode).map(fill),
                errbook_core::urls::entry_json_in("np/a", mode),
                "{mode:?}"
            );
        }
    }

    #[test]
    fn what_is_empty_or_repeated_is_left_out_and_the_rest_stays() {
        let mut e = json!({
            "id": "np/a", "domain": "np", "slug": "a", "source": "content/errors/np/a.md",
            "message": "m", "exception": null, "fix_rate": 0, "aliases": [], "detail": "",
            "links": {"confirm": [], "reject": []},
            "workarounds": [{"number": 2, "line": 9, "snippets": [1], "success_rate": 80}],
            "dead_ends": [{"number": 1, "fail_rate": 3}, {"number": 2, "fail_rate": 4}],
            "snippets": [
                {"index": 0, "id": "snippet-1", "label": "Other", "lang": "python",
                 "info": "python", "code": "x", "display": "x", "line": 3, "run": null},
                {"index": 5, "id": "snippet-2", "label": "Workarounds", "lang": "python",
                 "info": "python run", "code": "s\nx", "display": "x", "line": 7,
                 "run": {"gpus": 0, "env": [], "after": null}},
                {"index": 2, "id": "mine", "label": "Dead Ends", "lang": "", "info": "",
                 "code": "y", "display": "y"},
            ],
        });
        drop_repeated(&mut e);
        prune(&mut e);
        assert_eq!(
            e,
            json!({
                "message": "m", "fix_rate": 0,
                "workarounds": [{"number": 2, "snippets": [1], "success_rate": 80}],
                "dead_ends": [{"fail_rate": 3}, {"fail_rate": 4}],
                "snippets": [
                    {"label": "Other", "lang": "python", "code": "x"},
                    {"index": 5, "lang": "python", "info": "python run", "code": "s\nx",
                     "display": "x", "run": {"gpus": 0}},
                    {"id": "mine", "label": "Dead Ends", "code": "y"},
                ],
            })
        );
    }
}
