//! The index pages: home, all errors, all articles, one page per domain, category and error
//! code (and the lists of those), the search page and 404.html.
//!
//! `Lists::new` groups the catalog once (cheap); each page's context is built only when that
//! page is rendered, so an incremental rebuild pays only for the lists it redraws.

use super::{Page, Renderer};
use crate::core::model::{Article, Catalog, Entry};
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

/// A way of grouping entries, with its index page.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Facet {
    Domain,
    Category,
    Code,
}

impl Facet {
    const ALL: [Facet; 3] = [Facet::Domain, Facet::Category, Facet::Code];

    fn key(self, e: &Entry) -> Option<&str> {
        match self {
            Facet::Domain => Some(e.domain.as_str()),
            Facet::Category => (!e.category.is_empty()).then_some(e.category.as_str()),
            Facet::Code => e.error_code.as_deref(),
        }
    }
    fn url(self, k: &str) -> String {
        match self {
            Facet::Domain => crate::core::urls::domain(k),
            Facet::Category => crate::core::urls::category(k),
            Facet::Code => crate::core::urls::code(k),
        }
    }
    fn index(self) -> &'static str {
        match self {
            Facet::Domain => "domains/",
            Facet::Category => "categories/",
            Facet::Code => "codes/",
        }
    }
    fn names(self) -> (&'static str, &'static str) {
        match self {
            Facet::Domain => ("Domain", "Domains"),
            Facet::Category => ("Category", "Categories"),
            Facet::Code => ("Error code", "Error codes"),
        }
    }
}

/// What one list page shows.
#[derive(Debug, Clone)]
pub enum ListKind {
    /// The entries of one domain, category or code (the key).
    Facet(Facet, String),
    FacetIndex(Facet),
    Errors,
    Articles,
    Home,
    Search,
    NotFound,
}

#[derive(Debug, Clone)]
pub struct ListPage {
    pub path: String,
    pub kind: ListKind,
}

/// The catalog grouped for list pages, and the list of those pages.
pub struct Lists<'c> {
    groups: [BTreeMap<&'c str, Vec<&'c Entry>>; 3],
    /// Articles, newest first.
    articles: Vec<&'c Article>,
    pub pages: Vec<ListPage>,
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

impl<'c> Lists<'c> {
    pub fn new(cat: &'c Catalog) -> Lists<'c> {
        let groups = Facet::ALL.map(|f| {
            let mut m: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
            for e in &cat.entries {
                if let Some(k) = f.key(e) {
                    m.entry(k).or_default().push(e);
                }
            }
            m
        });
        let mut articles: Vec<&Article> = cat.articles.iter().collect();
        articles.sort_by(|a, b| b.date.cmp(&a.date).then(a.id.cmp(&b.id)));
        let mut pages = Vec::new();
        for (i, f) in Facet::ALL.into_iter().enumerate() {
            for k in groups[i].keys() {
                pages.push(ListPage {
                    path: f.url(k),
                    kind: ListKind::Facet(f, k.to_string()),
                });
            }
            pages.push(ListPage {
                path: f.index().to_string(),
                kind: ListKind::FacetIndex(f),
            });
        }
        for (path, kind) in [
            ("errors/", ListKind::Errors),
            ("articles/", ListKind::Articles),
            ("", ListKind::Home),
            ("search/", ListKind::Search),
            ("404.html", ListKind::NotFound),
        ] {
            pages.push(ListPage {
                path: path.to_string(),
                kind,
            });
        }
        Lists {
            groups,
            articles,
            pages,
        }
    }

    fn group(&self, f: Facet) -> &BTreeMap<&'c str, Vec<&'c Entry>> {
        &self.groups[Facet::ALL.iter().position(|x| *x == f).unwrap_or(0)]
    }

    /// The page for `lp`, its context built now.
    pub fn page(&self, r: &Renderer<'_>, lp: &ListPage) -> Result<Page> {
        let from = lp.path.as_str();
        let entry_item = |e: &Entry| Item {
            href: crate::core::urls::href(from, &crate::core::urls::entry(&e.id), r.offline),
            title: super::escape(&e.message),
            meta: match (&e.error_code, e.fix_rate) {
                (Some(c), Some(f)) => format!("{} · {c} · fix rate {f}%", e.id),
                (Some(c), None) => format!("{} · {c}", e.id),
                (None, Some(f)) => format!("{} · fix rate {f}%", e.id),
                (None, None) => e.id.clone(),
            },
            code: true,
        };
        let article_item = |a: &Article| Item {
            href: crate::core::urls::href(from, &crate::core::urls::article(&a.id), r.offline),
            title: super::markdown::plain(&a.title),
            meta: a.date.clone(),
            code: false,
        };
        let facet_items = |f: Facet| -> Vec<Item> {
            self.group(f)
                .iter()
                .map(|(k, es)| Item {
                    href: crate::core::urls::href(from, &f.url(k), r.offline),
                    title: super::escape(k),
                    meta: es.len().to_string(),
                    code: f == Facet::Code,
                })
                .collect()
        };
        let one = |items: Vec<Item>| {
            vec![Group {
                title: String::new(),
                id: String::new(),
                items,
            }]
        };
        let list = |title: String, intro: String, groups: Vec<Group>| {
            let mut c = tera::Context::new();
            c.insert("title", &title);
            c.insert("intro", &intro);
            c.insert("groups", &groups);
            Page {
                path: lp.path.clone(),
                template: "list.html",
                description: intro,
                title,
                source: None,
                ctx: c,
            }
        };
        let simple = |template: &'static str, title: &str| Page {
            path: lp.path.clone(),
            template,
            title: title.to_string(),
            description: String::new(),
            source: None,
            ctx: tera::Context::new(),
        };
        let cat = r.catalog;
        Ok(match &lp.kind {
            ListKind::Facet(f, k) => {
                let es = self
                    .group(*f)
                    .get(k.as_str())
                    .map(Vec::as_slice)
                    .unwrap_or(&[]);
                let (one_name, _) = f.names();
                list(
                    format!("{one_name}: {k}"),
                    format!(
                        "{} in {} {k}.",
                        plural(es.len(), "error"),
                        one_name.to_lowercase()
                    ),
                    one(es.iter().map(|e| entry_item(e)).collect()),
                )
            }
            ListKind::FacetIndex(f) => {
                let (_, many) = f.names();
                let items = facet_items(*f);
                list(
                    many.to_string(),
                    format!("{} {}.", items.len(), many.to_lowercase()),
                    one(items),
                )
            }
            ListKind::Errors => {
                let by_domain = self.group(Facet::Domain);
                let groups = by_domain
                    .iter()
                    .map(|(d, es)| Group {
                        title: d.to_string(),
                        id: crate::core::urls::slug(d),
                        items: es.iter().map(|e| entry_item(e)).collect(),
                    })
                    .collect();
                list(
                    "All errors".into(),
                    format!(
                        "{} in {}.",
                        plural(cat.entries.len(), "error"),
                        plural(by_domain.len(), "domain")
                    ),
                    groups,
                )
            }
            ListKind::Articles => list(
                "Articles".into(),
                format!("{} and answers.", plural(self.articles.len(), "question")),
                one(self.articles.iter().map(|a| article_item(a)).collect()),
            ),
            ListKind::Home => {
                let mut c = tera::Context::new();
                let mut top: Vec<&Entry> = cat.entries.iter().collect();
                top.sort_by(|a, b| b.fix_rate.cmp(&a.fix_rate).then(a.id.cmp(&b.id)));
                let top: Vec<Item> = top.iter().take(20).map(|e| entry_item(e)).collect();
                let recent: Vec<Item> = self
                    .articles
                    .iter()
                    .take(10)
                    .map(|a| article_item(a))
                    .collect();
                c.insert("entries_count", &cat.entries.len());
                c.insert("articles_count", &cat.articles.len());
                c.insert("domains", &facet_items(Facet::Domain));
                c.insert("categories", &facet_items(Facet::Category));
                c.insert("recent", &recent);
                c.insert("entries", &top);
                Page {
                    path: lp.path.clone(),
                    template: "home.html",
                    title: r.cfg.site.title.clone(),
                    description: r.cfg.site.description.clone(),
                    source: None,
                    ctx: c,
                }
            }
            ListKind::Search => simple("search.html", "Search"),
            ListKind::NotFound => simple("404.html", "Page not found"),
        })
    }
}
