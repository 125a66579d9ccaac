//! Link: the catalog's link graph. Explicit references (article `errors:`, entry `related:`,
//! Markdown links to content) are checked; the rest are inferred with evidence and a score.
//!
//! Every later stage reads the graph through the query methods below.
//!
//! Submodules: `explicit` (references authors write, checked), `infer/*` (one file per kind of
//! inferred link), `text` and `code` (what matching compares), `explain` (`check --links`).

pub mod code;
pub mod explain;
pub mod explicit;
pub mod infer;
pub mod text;

use crate::core::config::Config;
use crate::core::diag::Diagnostics;
use crate::core::model::{Catalog, PageKind, PageRef};
use crate::load::SourceFile;
use serde::Serialize;
use std::collections::HashMap;

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
    /// Inferred candidates left out (below the threshold, or rejected by an author), for
    /// `errbook check --links`. Not part of the site.
    #[serde(skip)]
    pub review: Vec<Review>,
    /// The threshold the inferred links passed.
    #[serde(skip)]
    pub threshold: f64,
    /// Index of `links` by their ends, built on the first query (after `link` has sorted them;
    /// `sort` drops it).
    #[serde(skip)]
    ends: std::sync::OnceLock<Ends>,
}

/// Why an inferred candidate is not in the graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Left {
    BelowThreshold,
    Rejected,
}

#[derive(Debug, Clone, Serialize)]
pub struct Review {
    pub link: Link,
    pub why: Left,
}

/// Links by the node at either end, as positions in `Graph::links` (so in its order): page
/// rendering asks "what points at this workaround?" for every block of every page, and a scan of
/// all links per question made large catalogs quadratic.
#[derive(Debug, Clone, Default)]
struct Ends {
    from: HashMap<Node, Vec<u32>>,
    to: HashMap<Node, Vec<u32>>,
    /// Links with an end on an entry (the entry, its workarounds, dead ends or code).
    entry: HashMap<String, Vec<u32>>,
}

/// The entry a node belongs to, if any.
fn entry_of(n: &Node) -> Option<&str> {
    match n {
        Node::Entry { id } => Some(id),
        Node::Workaround { entry, .. } | Node::DeadEnd { entry, .. } => Some(entry),
        Node::Snippet { page, .. } if page.kind == PageKind::Entry => Some(&page.id),
        Node::Snippet { .. } | Node::Article { .. } => None,
    }
}

impl Graph {
    fn ends(&self) -> &Ends {
        self.ends.get_or_init(|| {
            let mut e = Ends::default();
            for (i, l) in self.links.iter().enumerate() {
                e.from.entry(l.from.clone()).or_default().push(i as u32);
                e.to.entry(l.to.clone()).or_default().push(i as u32);
                let (a, b) = (entry_of(&l.from), entry_of(&l.to));
                for id in a.into_iter().chain(b.filter(|b| Some(*b) != a)) {
                    e.entry.entry(id.to_string()).or_default().push(i as u32);
                }
            }
            e
        })
    }

    /// Links whose `from` (or `to`) is `node`, in graph order.
    fn at<'a>(&'a self, node: &Node, from: bool) -> impl Iterator<Item = &'a Link> + 'a {
        let e = self.ends();
        let m = if from { &e.from } else { &e.to };
        m.get(node)
            .map(|v| v.as_slice())
            .unwrap_or(&[])
            .iter()
            .map(|&i| &self.links[i as usize])
    }

    /// Every link with an end on entry `id` (the entry itself, its workarounds, dead ends or
    /// code), in graph order.
    pub fn touching_entry<'a>(&'a self, id: &str) -> impl Iterator<Item = &'a Link> + 'a {
        self.ends()
            .entry
            .get(id)
            .map(|v| v.as_slice())
            .unwrap_or(&[])
            .iter()
            .map(|&i| &self.links[i as usize])
    }

    /// Articles discussing an entry, best first.
    pub fn articles_for_entry<'a>(&'a self, entry: &'a str) -> impl Iterator<Item = &'a Link> + 'a {
        let node = Node::Entry { id: entry.into() };
        self.at(&node, false)
            .filter(|l| l.kind == LinkKind::Discusses && matches!(l.from, Node::Article { .. }))
    }

    /// Entries an article discusses, best first.
    pub fn entries_for_article<'a>(
        &'a self,
        article: &'a str,
    ) -> impl Iterator<Item = &'a Link> + 'a {
        let node = Node::Article { id: article.into() };
        self.at(&node, true)
            .filter(|l| l.kind == LinkKind::Discusses)
    }

    /// Code examples that apply workaround `number` of `entry`.
    pub fn snippets_for_workaround<'a>(
        &'a self,
        entry: &'a str,
        number: usize,
    ) -> impl Iterator<Item = &'a Link> + 'a {
        let node = Node::Workaround {
            entry: entry.into(),
            number,
        };
        self.at(&node, false)
            .filter(|l| l.kind == LinkKind::Applies)
    }

    /// Code examples that do what dead end `number` of `entry` says fails.
    pub fn snippets_for_dead_end<'a>(
        &'a self,
        entry: &'a str,
        number: usize,
    ) -> impl Iterator<Item = &'a Link> + 'a {
        let node = Node::DeadEnd {
            entry: entry.into(),
            number,
        };
        self.at(&node, false)
            .filter(|l| l.kind == LinkKind::DeadEnd)
    }

    /// Links from one snippet (workarounds it applies, dead ends it falls into).
    pub fn links_from_snippet<'a>(
        &'a self,
        page: &'a PageRef,
        index: usize,
    ) -> impl Iterator<Item = &'a Link> + 'a {
        let node = Node::Snippet {
            page: page.clone(),
            index,
        };
        self.at(&node, true)
    }

    /// Entries related to an entry (either direction), best first.
    pub fn related<'a>(&'a self, entry: &'a str) -> impl Iterator<Item = (&'a str, &'a Link)> + 'a {
        let node = Node::Entry { id: entry.into() };
        let e = self.ends();
        let get =
            |m: &'a HashMap<Node, Vec<u32>>| m.get(&node).map(|v| v.as_slice()).unwrap_or(&[]);
        let mut at: Vec<u32> = get(&e.from).iter().chain(get(&e.to)).copied().collect();
        at.sort_unstable();
        at.dedup();
        at.into_iter().filter_map(move |i| {
            let l = &self.links[i as usize];
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
        self.ends = Default::default();
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
/// links scoring at least `cfg.link.threshold`, with the authors' `links: {confirm, reject}`
/// applied. With `records`, also reading what the snippets printed when they ran (fresh verification records):
/// an article whose snippet's run ended in an entry's error discusses it, and a snippet that
/// does what a dead end names and failed with the entry's error falls into that dead end.
pub fn link_with(
    catalog: &Catalog,
    files: &[SourceFile],
    cfg: &Config,
    infer: bool,
    records: Option<&crate::records::RecordSet>,
    diags: &mut Diagnostics,
) -> Graph {
    use std::collections::HashMap;
    let mut g = Graph::default();
    let explicit = explicit::check(catalog, files, diags);
    let threshold = cfg.link.threshold;
    g.threshold = threshold;
    let decide = Decisions::new(catalog);

    // Article <-> entry.
    let mut candidates: Vec<Link> = Vec::new();
    if infer {
        let sources: HashMap<&std::path::Path, &str> =
            files.iter().map(|f| (f.path.as_path(), &*f.text)).collect();
        let ix = infer::articles::Index::new(catalog);
        candidates.extend(infer::articles::infer(catalog, &ix, &sources, records));
        candidates.extend(infer::related::infer(catalog));
    }
    let mut links = explicit;
    decide.apply(candidates, &mut links, &mut g.review, threshold);
    decide.add_confirmed_without_candidate(catalog, &mut links);

    // Code examples, for the pages now linked to each entry.
    if infer {
        let mut pages: HashMap<&str, Vec<PageRef>> = HashMap::new();
        for l in &links {
            if let (LinkKind::Discusses, Node::Article { id: a }, Node::Entry { id: e }) =
                (l.kind, &l.from, &l.to)
            {
                let v = pages.entry(e.as_str()).or_default();
                let p = PageRef {
                    kind: PageKind::Article,
                    id: a.clone(),
                };
                if !v.contains(&p) {
                    v.push(p);
                }
            }
        }
        let mut snips = Vec::new();
        for (i, e) in catalog.entries.iter().enumerate() {
            if let Some(p) = pages.get(e.id.as_str()) {
                snips.extend(infer::snippets::infer(catalog, i, p, records));
            }
        }
        decide.apply(snips, &mut links, &mut g.review, threshold);
    }
    decide.add_confirmed_snippets(catalog, &mut links);
    g.links = links;
    g.sort();
    g.review
        .sort_by(|a, b| b.link.score.total_cmp(&a.link.score));
    g
}

/// Every `links: {confirm, reject}` item of the catalog, parsed, by page.
struct Decisions<'a> {
    catalog: &'a Catalog,
    /// (page, key, confirm?)
    items: Vec<(PageRef, explicit::Key, bool)>,
}

impl<'a> Decisions<'a> {
    fn new(catalog: &'a Catalog) -> Decisions<'a> {
        let mut items = Vec::new();
        let pages = catalog
            .articles
            .iter()
            .map(|a| (PageKind::Article, &a.id, &a.links))
            .chain(
                catalog
                    .entries
                    .iter()
                    .map(|e| (PageKind::Entry, &e.id, &e.links)),
            );
        for (kind, id, lo) in pages {
            for (items_of, confirm) in [(&lo.confirm, true), (&lo.reject, false)] {
                for raw in items_of {
                    // Broken items were reported by `explicit::check`.
                    if let Ok(k) = explicit::parse_key(catalog, raw) {
                        items.push((
                            PageRef {
                                kind,
                                id: id.clone(),
                            },
                            k,
                            confirm,
                        ));
                    }
                }
            }
        }
        Decisions { catalog, items }
    }

    /// The author's decision on a candidate: Some(true) confirmed, Some(false) rejected.
    fn on(&self, l: &Link) -> Option<bool> {
        let catalog = self.catalog;
        use explicit::Target as T;
        let snippet_id = |page: &PageRef, index: usize| -> Option<String> {
            let s = match page.kind {
                PageKind::Article => catalog.article(&page.id)?.snippets.get(index)?,
                PageKind::Entry => catalog.entry(&page.id)?.snippets.get(index)?,
            };
            Some(s.id.clone())
        };
        let mut verdict = None;
        for (page, k, confirm) in &self.items {
            let hit = match (&l.kind, &l.from, &l.to, &k.target) {
                (LinkKind::Discusses, Node::Article { id: a }, Node::Entry { id: e }, t) => {
                    (page.kind == PageKind::Article
                        && &page.id == a
                        && matches!(t, T::Entry(x) if x == e))
                        || (page.kind == PageKind::Entry
                            && &page.id == e
                            && matches!(t, T::Article(x) if x == a))
                }
                (LinkKind::Related, Node::Entry { id: a }, Node::Entry { id: b }, T::Entry(x)) => {
                    page.kind == PageKind::Entry
                        && ((&page.id == a && x == b) || (&page.id == b && x == a))
                }
                (
                    LinkKind::Applies | LinkKind::DeadEnd,
                    Node::Snippet { page: p, index },
                    Node::Workaround { entry, number } | Node::DeadEnd { entry, number },
                    t,
                ) => {
                    let same_part = match t {
                        T::Workaround(e, n) => {
                            l.kind == LinkKind::Applies && e == entry && n == number
                        }
                        T::DeadEnd(e, n) => {
                            l.kind == LinkKind::DeadEnd && e == entry && n == number
                        }
                        _ => false,
                    };
                    p == page
                        && same_part
                        && match &k.snippet {
                            None => true,
                            Some(sid) => snippet_id(p, *index).as_deref() == Some(sid.as_str()),
                        }
                }
                _ => false,
            };
            if hit {
                // A rejection wins over a confirmation.
                verdict = Some(verdict.unwrap_or(true) && *confirm);
            }
        }
        verdict
    }

    /// Sort candidates into `links` (kept) and `review` (left out). A candidate for a pair that
    /// already has an explicit link adds its evidence to it.
    fn apply(
        &self,
        cands: Vec<Link>,
        links: &mut Vec<Link>,
        review: &mut Vec<Review>,
        threshold: f64,
    ) {
        // Links already drawn, by their pair (a scan per candidate was quadratic).
        let mut at: HashMap<(LinkKind, Node, Node), usize> = links
            .iter()
            .enumerate()
            .map(|(i, l)| (pair_key(l), i))
            .collect();
        for mut c in cands {
            if let Some(&i) = at.get(&pair_key(&c)) {
                let x = &mut links[i];
                if x.evidence.is_empty() {
                    x.evidence = std::mem::take(&mut c.evidence);
                }
                continue;
            }
            match self.on(&c) {
                Some(false) => review.push(Review {
                    link: c,
                    why: Left::Rejected,
                }),
                Some(true) => {
                    c.origin = Origin::Confirmed;
                    at.insert(pair_key(&c), links.len());
                    links.push(c);
                }
                None if c.score >= threshold => {
                    at.insert(pair_key(&c), links.len());
                    links.push(c)
                }
                None => {
                    if c.score >= threshold / 3.0 {
                        review.push(Review {
                            link: c,
                            why: Left::BelowThreshold,
                        })
                    }
                }
            }
        }
    }

    /// `confirm:` items naming an entry, article or related entry that inference did not
    /// propose: the author's word is enough.
    fn add_confirmed_without_candidate(&self, catalog: &Catalog, links: &mut Vec<Link>) {
        use explicit::Target as T;
        for (page, k, confirm) in &self.items {
            if !confirm || k.snippet.is_some() {
                continue;
            }
            let (from, to, kind) = match (page.kind, &k.target) {
                (PageKind::Article, T::Entry(e)) => (
                    Node::Article {
                        id: page.id.clone(),
                    },
                    Node::Entry { id: e.clone() },
                    LinkKind::Discusses,
                ),
                (PageKind::Entry, T::Article(a)) => (
                    Node::Article { id: a.clone() },
                    Node::Entry {
                        id: page.id.clone(),
                    },
                    LinkKind::Discusses,
                ),
                (PageKind::Entry, T::Entry(e)) if *e != page.id => (
                    Node::Entry {
                        id: page.id.clone(),
                    },
                    Node::Entry { id: e.clone() },
                    LinkKind::Related,
                ),
                _ => continue,
            };
            let l = Link {
                from,
                to,
                kind,
                origin: Origin::Confirmed,
                score: 1.0,
                evidence: vec![],
            };
            if !links.iter().any(|x| same_pair(x, &l)) {
                links.push(l);
            }
        }
        let _ = catalog;
    }

    /// `confirm: ["<snippet-id> -> entry#dead-end-N"]` with no candidate: link that block.
    fn add_confirmed_snippets(&self, catalog: &Catalog, links: &mut Vec<Link>) {
        use explicit::Target as T;
        for (page, k, confirm) in &self.items {
            let Some(sid) = &k.snippet else { continue };
            if !confirm {
                continue;
            }
            let snippets = match page.kind {
                PageKind::Article => catalog.article(&page.id).map(|a| &a.snippets),
                PageKind::Entry => catalog.entry(&page.id).map(|e| &e.snippets),
            };
            let Some(s) = snippets.and_then(|v| v.iter().find(|s| &s.id == sid)) else {
                continue;
            };
            let (to, kind) = match &k.target {
                T::Workaround(e, n) => (
                    Node::Workaround {
                        entry: e.clone(),
                        number: *n,
                    },
                    LinkKind::Applies,
                ),
                T::DeadEnd(e, n) => (
                    Node::DeadEnd {
                        entry: e.clone(),
                        number: *n,
                    },
                    LinkKind::DeadEnd,
                ),
                _ => continue,
            };
            let l = Link {
                from: Node::Snippet {
                    page: page.clone(),
                    index: s.index,
                },
                to,
                kind,
                origin: Origin::Confirmed,
                score: 1.0,
                evidence: vec![],
            };
            if !links.iter().any(|x| same_pair(x, &l)) {
                links.push(l);
            }
        }
    }
}

/// Do two links join the same two nodes with the same kind (related links either way)?
/// What makes two links the same: kind and ends (either way round for related entries).
fn pair_key(l: &Link) -> (LinkKind, Node, Node) {
    match (&l.from, &l.to) {
        (Node::Entry { id: a }, Node::Entry { id: b }) if l.kind == LinkKind::Related && a > b => {
            (l.kind, l.to.clone(), l.from.clone())
        }
        _ => (l.kind, l.from.clone(), l.to.clone()),
    }
}

fn same_pair(a: &Link, b: &Link) -> bool {
    a.kind == b.kind
        && ((a.from == b.from && a.to == b.to)
            || (a.kind == LinkKind::Related && a.from == b.to && a.to == b.from))
}
/// Resolve a Markdown link to other content (Zola-style `@/errors/pytorch/x.md`,
/// `@/articles/a.md`, or a bare ID `@/pytorch/x`) to the target's site path (`errors/pytorch/x/`,
/// see `crate::core::urls`), keeping a `#fragment`. `None` when `href` is not a content link or names
/// nothing that exists (the link stage reports those).
///
/// Relative links to content files (`../errors/pytorch/x.md` from an article,
/// `../../articles/a.md` from an entry) resolve too; for links relative to the same folder use
/// `resolve_href_from`, which knows the linking file.
pub fn resolve_href(catalog: &Catalog, href: &str) -> Option<String> {
    let owned;
    let rest = match href.strip_prefix("@/") {
        Some(r) => r,
        None => {
            let path = href.split('#').next().unwrap_or(href);
            if !path.ends_with(".md") || path.contains("://") || path.starts_with('/') {
                return None;
            }
            let mut p = href;
            while let Some(r) = p.strip_prefix("../").or_else(|| p.strip_prefix("./")) {
                p = r;
            }
            if !(p.starts_with("errors/") || p.starts_with("articles/")) {
                return None;
            }
            owned = p.to_string();
            &owned
        }
    };
    let (path, frag) = match rest.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (rest, None),
    };
    let path = path.trim_start_matches("content/");
    let path = path.strip_suffix(".md").unwrap_or(path);
    let site = if let Some(id) = path.strip_prefix("errors/") {
        catalog.entry(id).map(|e| crate::core::urls::entry(&e.id))
    } else if let Some(id) = path.strip_prefix("articles/") {
        catalog
            .article(id)
            .map(|a| crate::core::urls::article(&a.id))
    } else {
        catalog
            .entry(path)
            .map(|e| crate::core::urls::entry(&e.id))
            .or_else(|| {
                catalog
                    .article(path)
                    .map(|a| crate::core::urls::article(&a.id))
            })
    }?;
    Some(match frag {
        Some(f) => format!("{site}#{f}"),
        None => site,
    })
}

/// `resolve_href`, also for relative links to content from the page whose source is `source`
/// (`../errors/pytorch/x.md` from `content/articles/a.md`).
pub fn resolve_href_from(
    catalog: &Catalog,
    source: &std::path::Path,
    href: &str,
) -> Option<String> {
    if href.starts_with("@/") {
        return resolve_href(catalog, href);
    }
    let rel = explicit::relative_target(source, href)?;
    let frag = href
        .split_once('#')
        .map(|(_, f)| format!("#{f}"))
        .unwrap_or_default();
    resolve_href(catalog, &format!("@/{rel}.md{frag}"))
}
