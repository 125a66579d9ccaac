//! The index pages: home, all errors, all articles, one page per domain, category and error
//! code (and the lists of those), the search page and 404.html.
//!
//! `Lists::new` groups the catalog once (cheap); each page's context is built only when that
//! page is rendered.

use super::{Page, Renderer};
use errbook_core::error::Result;
use errbook_core::model::{Article, Catalog, Entry};
use serde::Serialize;
use std::collections::BTreeMap;

/// Up to this many entries, `errors/` lists them all (grouped by domain); above, it lists the
/// domains, whose pages list their entries: a list of every entry of a large catalog is tens of
/// megabytes of HTML that no browser shows usefully, and the same lines again as the domains'
/// pages.
pub(crate) const LIST_ALL_ERRORS: usize = 1000;

#[derive(Serialize, Clone)]
struct Item {
    href: String,
    /// HTML: escaped text, backtick spans as code.
    title: String,
    meta: String,
}

#[derive(Serialize)]
struct Group {
    title: String,
    id: String,
    /// Its items' titles are code (messages, error codes): set in the code font by the list's
    /// class, not by a `<code>` around each.
    code: bool,
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
            Facet::Domain => errbook_core::urls::domain(k),
            Facet::Category => errbook_core::urls::category(k),
            Facet::Code => errbook_core::urls::code(k),
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
        let mut articles: Vec<&Article> = cat.articles.iter().map(|a| &**a).collect();
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
    pub(crate) fn page(&self, r: &Renderer<'_>, lp: &ListPage) -> Result<Page> {
        let b = ListBuilder { lists: self, r, lp };
        Ok(match &lp.kind {
            ListKind::Facet(f, k) => b.facet(*f, k),
            ListKind::FacetIndex(f) => b.facet_index(*f),
            ListKind::Errors => b.errors(),
            ListKind::Articles => b.articles(),
            ListKind::Home => b.home(),
            ListKind::Search => b.simple("search.html", "Search"),
            ListKind::NotFound => b.simple("404.html", "Page not found"),
        })
    }
}

/// One list page being built: its items link relative to where it is.
struct ListBuilder<'p, 'c> {
    lists: &'p Lists<'c>,
    r: &'p Renderer<'p>,
    lp: &'p ListPage,
}

impl ListBuilder<'_, '_> {
    /// A relative link from this page to a site path.
    fn href(&self, to: &str) -> String {
        super::href::href(&self.lp.path, to, self.r.offline)
    }

    fn entry_item(&self, e: &Entry) -> Item {
        Item {
            href: self.href(&errbook_core::urls::entry(&e.id)),
            title: entry_title(e),
            meta: entry_meta(e),
        }
    }

    fn entry_items(&self, es: &[&Entry]) -> Vec<Item> {
        es.iter().map(|e| self.entry_item(e)).collect()
    }

    fn article_item(&self, a: &Article) -> Item {
        Item {
            href: self.href(&errbook_core::urls::article(&a.id)),
            title: super::markdown::plain(&a.title),
            meta: a.date.clone(),
        }
    }

    /// One item per key of the facet, with its number of entries.
    fn facet_items(&self, f: Facet) -> Vec<Item> {
        self.lists
            .group(f)
            .iter()
            .map(|(k, es)| Item {
                href: self.href(&f.url(k)),
                title: super::escape(k),
                meta: es.len().to_string(),
            })
            .collect()
    }

    /// A `list.html` page: a title, an intro (also the description) and groups of items.
    fn list(&self, title: String, intro: String, groups: Vec<Group>) -> Page {
        let mut c = tera::Context::new();
        c.insert("title", &title);
        c.insert("intro", &intro);
        c.insert("groups", &groups);
        Page {
            path: self.lp.path.clone(),
            template: "list.html",
            description: intro,
            title,
            source: None,
            ctx: c,
        }
    }

    /// A page whose template needs nothing but the base context (search, 404).
    fn simple(&self, template: &'static str, title: &str) -> Page {
        Page {
            path: self.lp.path.clone(),
            template,
            title: title.to_string(),
            description: String::new(),
            source: None,
            ctx: tera::Context::new(),
        }
    }

    /// The entries of one domain, category or code.
    fn facet(&self, f: Facet, k: &str) -> Page {
        let es = self.lists.group(f).get(k).map(Vec::as_slice).unwrap_or(&[]);
        let (one_name, _) = f.names();
        self.list(
            format!("{one_name}: {k}"),
            format!(
                "{} in {} {k}.",
                plural(es.len(), "error"),
                one_name.to_lowercase()
            ),
            one(self.entry_items(es), true),
        )
    }

    /// All domains, categories or codes.
    fn facet_index(&self, f: Facet) -> Page {
        let (_, many) = f.names();
        let items = self.facet_items(f);
        self.list(
            many.to_string(),
            format!("{} {}.", items.len(), many.to_lowercase()),
            one(items, f == Facet::Code),
        )
    }

    /// All errors, grouped by domain; above `LIST_ALL_ERRORS`, the domains with their number
    /// of errors, each linking to its page.
    fn errors(&self) -> Page {
        let by_domain = self.lists.group(Facet::Domain);
        let count = format!(
            "{} in {}",
            plural(self.r.catalog.entries.len(), "error"),
            plural(by_domain.len(), "domain")
        );
        if self.r.catalog.entries.len() > LIST_ALL_ERRORS {
            return self.list(
                "All errors".into(),
                format!("{count}: each domain's page lists its errors."),
                one(self.facet_items(Facet::Domain), false),
            );
        }
        let groups = by_domain
            .iter()
            .map(|(d, es)| Group {
                code: true,
                title: d.to_string(),
                id: errbook_core::urls::slug(d),
                items: self.entry_items(es),
            })
            .collect();
        self.list("All errors".into(), format!("{count}."), groups)
    }

    /// All articles, newest first.
    fn articles(&self) -> Page {
        let articles = &self.lists.articles;
        self.list(
            "Articles".into(),
            format!("{} and answers.", plural(articles.len(), "question")),
            one(
                articles.iter().map(|a| self.article_item(a)).collect(),
                false,
            ),
        )
    }

    /// The home page: counts, domains and categories, the best-fixed entries, recent articles.
    fn home(&self) -> Page {
        let cat = self.r.catalog;
        let mut top: Vec<&Entry> = cat.entries.iter().map(|e| &**e).collect();
        top.sort_by(|a, b| b.fix_rate.cmp(&a.fix_rate).then(a.id.cmp(&b.id)));
        top.truncate(20);
        let recent: Vec<Item> = self
            .lists
            .articles
            .iter()
            .take(10)
            .map(|a| self.article_item(a))
            .collect();
        let mut c = tera::Context::new();
        c.insert("entries_count", &cat.entries.len());
        c.insert("articles_count", &cat.articles.len());
        c.insert("domains", &self.facet_items(Facet::Domain));
        c.insert("categories", &self.facet_items(Facet::Category));
        c.insert("recent", &recent);
        c.insert("entries", &self.entry_items(&top));
        Page {
            path: self.lp.path.clone(),
            template: "home.html",
            title: self.r.cfg.site.title.clone(),
            description: self.r.cfg.site.description.clone(),
            source: None,
            ctx: c,
        }
    }
}

/// An entry's title in lists (HTML).
fn entry_title(e: &Entry) -> String {
    super::escape(&e.message)
}

/// An entry's line after its message: error code and fix rate, those it has (its ID is its
/// link's, and was a tenth of a list's bytes when shown too).
fn entry_meta(e: &Entry) -> String {
    match (&e.error_code, e.fix_rate) {
        (Some(c), Some(f)) => format!("{c} · fix rate {f}%"),
        (Some(c), None) => c.clone(),
        (None, Some(f)) => format!("fix rate {f}%"),
        (None, None) => String::new(),
    }
}

/// A list of one untitled group.
fn one(items: Vec<Item>, code: bool) -> Vec<Group> {
    vec![Group {
        code,
        title: String::new(),
        id: String::new(),
        items,
    }]
}
