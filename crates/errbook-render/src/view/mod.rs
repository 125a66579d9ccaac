//! View: each page's facts resolved once, before rendering. For an entry or an article this is
//! everything its page shows beyond its own text: each code block's record status, what its runs
//! say together (`evidence`) and the flags the link graph draws from it, each workaround's and
//! dead end's evidence and the code examples elsewhere that apply it, the articles and entries
//! linked to the page, the entry's verification summary. `render` turns a view into HTML and asks nothing back of the link graph
//! or the records; the JSON API is made from the same view.
//!
//! A view borrows from the catalog, the graph and the records; it is made in the worker that
//! renders its page, so memory holds one view per worker, not one per page.

pub mod article;
pub mod entry;
pub(crate) mod evidence;
pub mod expect;
mod hint;
pub(crate) mod snippet;

pub(crate) use article::ArticleView;
pub(crate) use entry::{EntryView, FixView, Verification};
pub(crate) use snippet::SnippetView;

use errbook_core::model::{Catalog, Entry, Snippet};
use errbook_link::{Graph, Link, Node};
use errbook_records::RecordSet;

/// What views are resolved from.
#[derive(Clone, Copy)]
pub struct Resolver<'a> {
    pub catalog: &'a Catalog,
    pub graph: &'a Graph,
    pub records: &'a RecordSet,
}

/// A code block on another page that a link ties to this one (it applies a workaround, or does
/// what a dead end says fails).
#[derive(Debug, Clone)]
pub struct Example<'a> {
    /// Site path of the page the block is on.
    pub page_path: String,
    /// The title of that page (an article's title, an entry's message).
    pub page_title: &'a str,
    pub snippet: &'a Snippet,
    pub link: &'a Link,
}

/// Another entry, and the link that relates it.
#[derive(Debug, Clone)]
pub struct Related<'a> {
    pub entry: &'a Entry,
    pub link: &'a Link,
}

impl<'a> Resolver<'a> {
    pub fn new(catalog: &'a Catalog, graph: &'a Graph, records: &'a RecordSet) -> Resolver<'a> {
        Resolver {
            catalog,
            graph,
            records,
        }
    }

    /// For each article of the catalog (in order), the IDs of the entries it discusses, best
    /// first: what the catalog's JSON lists.
    pub fn discussed_by_article(&self) -> Vec<Vec<&'a str>> {
        let of = |a: &'a errbook_core::model::Article| -> Vec<&'a str> {
            self.graph
                .entries_for_article(&a.id)
                .filter_map(|l| match &l.to {
                    Node::Entry { id } => Some(id.as_str()),
                    _ => None,
                })
                .collect()
        };
        self.catalog.articles.iter().map(|a| of(a)).collect()
    }

    /// Code examples on other pages than entry `own`, from links whose `from` is a snippet.
    fn examples(&self, links: impl Iterator<Item = &'a Link>, own: &str) -> Vec<Example<'a>> {
        links
            .filter_map(|l| {
                let Node::Snippet { page, index } = &l.from else {
                    return None;
                };
                if page.kind == errbook_core::model::PageKind::Entry && page.id == own {
                    return None;
                }
                let p = self.catalog.page(page)?;
                Some(Example {
                    page_path: errbook_core::urls::page(page),
                    page_title: p.title(),
                    snippet: p.snippets().get(*index)?,
                    link: l,
                })
            })
            .collect()
    }

    /// Entries related to entry `id`, best first.
    fn related(&self, id: &'a str) -> Vec<Related<'a>> {
        self.graph
            .related(id)
            .filter_map(|(other, link)| {
                let entry = self.catalog.entry(other)?;
                Some(Related { entry, link })
            })
            .collect()
    }
}
