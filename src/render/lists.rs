//! The index pages: home, all errors, all articles, one page per domain, category and error
//! code (and the lists of those), the search page and 404.html. Their contexts are small, so
//! they are built up front and rendered with the other pages.

use super::{Page, Renderer};
use crate::model::{Catalog, Entry};
use crate::Result;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize, Clone)]
struct Item {
    href: String,
    /// HTML: escaped text, backtick spans as code.
    title: String,
    meta: String,
    code: bool,
}

#[derive(Serialize)]
struct Group {
    title: String,
    id: String,
    items: Vec<Item>,
}

type KeyFn = for<'e> fn(&'e Entry) -> Option<&'e str>;

/// Entries grouped by a key (domain, category, code), keys sorted.
fn group_by<'c>(cat: &'c Catalog, key: KeyFn) -> BTreeMap<&'c str, Vec<&'c Entry>> {
    let mut m: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    for e in &cat.entries {
        if let Some(k) = key(e) {
            m.entry(k).or_default().push(e);
        }
    }
    m
}

pub fn pages(r: &Renderer<'_>) -> Result<Vec<Page>> {
    let cat = &r.analysis.catalog;
    let mut out = Vec::new();
    let entry_item = |from: &str, e: &Entry| Item {
        href: crate::urls::href(from, &crate::urls::entry(&e.id), r.offline),
        title: super::escape(&e.message),
        meta: match (&e.error_code, e.fix_rate) {
            (Some(c), Some(f)) => format!("{} · {c} · fix rate {f}%", e.id),
            (Some(c), None) => format!("{} · {c}", e.id),
            (None, Some(f)) => format!("{} · fix rate {f}%", e.id),
            (None, None) => e.id.clone(),
        },
        code: true,
    };
    let article_item = |from: &str, a: &crate::model::Article| Item {
        href: crate::urls::href(from, &crate::urls::article(&a.id), r.offline),
        title: super::markdown::plain(&a.title),
        meta: a.date.clone(),
        code: false,
    };
    let list = |path: String, title: String, intro: String, groups: Vec<Group>| {
        let mut c = tera::Context::new();
        c.insert("title", &title);
        c.insert("intro", &intro);
        c.insert("groups", &groups);
        Page {
            path,
            template: "list.html",
            description: intro,
            title,
            source: None,
            ctx: c,
        }
    };

    // Domains, categories, codes: one page each, and a page listing them.
    let facets: [(&str, &str, &str, KeyFn, fn(&str) -> String); 3] = [
        (
            "domains/",
            "Domains",
            "Domain",
            |e| Some(e.domain.as_str()),
            crate::urls::domain,
        ),
        (
            "categories/",
            "Categories",
            "Category",
            |e| (!e.category.is_empty()).then_some(e.category.as_str()),
            crate::urls::category,
        ),
        (
            "codes/",
            "Error codes",
            "Error code",
            |e| e.error_code.as_deref(),
            crate::urls::code,
        ),
    ];
    for (base, plural, singular, key, url) in facets {
        let groups = group_by(cat, key);
        let mut index_items = Vec::new();
        for (k, entries) in &groups {
            let path = url(k);
            index_items.push(Item {
                href: crate::urls::href(base, &path, r.offline),
                title: super::escape(k),
                meta: format!(
                    "{} error{}",
                    entries.len(),
                    if entries.len() == 1 { "" } else { "s" }
                ),
                code: singular == "Error code",
            });
            let items = entries.iter().map(|e| entry_item(&path, e)).collect();
            out.push(list(
                path,
                format!("{singular}: {k}"),
                format!(
                    "{} error{} in {singular} {k}.",
                    entries.len(),
                    if entries.len() == 1 { "" } else { "s" }
                ),
                vec![Group {
                    title: String::new(),
                    id: String::new(),
                    items,
                }],
            ));
        }
        out.push(list(
            base.to_string(),
            plural.to_string(),
            format!("{} {}.", groups.len(), plural.to_lowercase()),
            vec![Group {
                title: String::new(),
                id: String::new(),
                items: index_items,
            }],
        ));
    }

    // All errors, grouped by domain.
    let by_domain = group_by(cat, |e| Some(e.domain.as_str()));
    let groups = by_domain
        .iter()
        .map(|(d, es)| Group {
            title: d.to_string(),
            id: crate::urls::slug(d),
            items: es.iter().map(|e| entry_item("errors/", e)).collect(),
        })
        .collect();
    out.push(list(
        "errors/".into(),
        "All errors".into(),
        format!(
            "{} errors in {} domains.",
            cat.entries.len(),
            by_domain.len()
        ),
        groups,
    ));

    // Articles, newest first.
    let mut arts: Vec<&crate::model::Article> = cat.articles.iter().collect();
    arts.sort_by(|a, b| b.date.cmp(&a.date).then(a.id.cmp(&b.id)));
    out.push(list(
        "articles/".into(),
        "Articles".into(),
        format!("{} questions and answers.", arts.len()),
        vec![Group {
            title: String::new(),
            id: String::new(),
            items: arts.iter().map(|a| article_item("articles/", a)).collect(),
        }],
    ));

    // Home.
    let mut c = tera::Context::new();
    let domains: Vec<Item> = by_domain
        .iter()
        .map(|(d, es)| Item {
            href: crate::urls::href("", &crate::urls::domain(d), r.offline),
            title: super::escape(d),
            meta: format!("{}", es.len()),
            code: false,
        })
        .collect();
    let categories: Vec<Item> = group_by(cat, |e| {
        (!e.category.is_empty()).then_some(e.category.as_str())
    })
    .iter()
    .map(|(k, es)| Item {
        href: crate::urls::href("", &crate::urls::category(k), r.offline),
        title: super::escape(k),
        meta: format!("{}", es.len()),
        code: false,
    })
    .collect();
    let recent: Vec<Item> = arts.iter().take(10).map(|a| article_item("", a)).collect();
    let mut top: Vec<&Entry> = cat.entries.iter().collect();
    top.sort_by(|a, b| b.fix_rate.cmp(&a.fix_rate).then(a.id.cmp(&b.id)));
    let top: Vec<Item> = top.iter().take(20).map(|e| entry_item("", e)).collect();
    c.insert("entries_count", &cat.entries.len());
    c.insert("articles_count", &cat.articles.len());
    c.insert("domains", &domains);
    c.insert("categories", &categories);
    c.insert("recent", &recent);
    c.insert("entries", &top);
    out.push(Page {
        path: String::new(),
        template: "home.html",
        title: r.cfg.site.title.clone(),
        description: r.cfg.site.description.clone(),
        source: None,
        ctx: c,
    });

    for (path, template, title) in [
        ("search/", "search.html", "Search"),
        ("404.html", "404.html", "Page not found"),
    ] {
        out.push(Page {
            path: path.into(),
            template,
            title: title.into(),
            description: String::new(),
            source: None,
            ctx: tera::Context::new(),
        });
    }
    Ok(out)
}
