//! Link: the catalog's link graph. Explicit references (article `errors:`, entry `related:`,
//! Markdown links to content) are checked; the rest are inferred with evidence and a score.
//!
//! This file builds the graph (`link_with`) and re-exports the small surface later stages use;
//! every later stage reads the graph through the query methods of `Graph`.
//!
//! Submodules: `graph` (nodes, links, the graph and its queries), `evidence` (why a link was
//! drawn), `explicit` (references authors write, checked), `decide` (the authors' confirm and
//! reject), `infer/*` (one file per kind of inferred link), `text` and `code` (what matching
//! compares), `resolve` (content links to site paths), `explain` (`check --links`), `written` (every link
//! and image as written) and `external` (those out of the catalog).

pub(crate) mod code;
mod decide;
mod evidence;
pub mod explain;
pub mod explicit;
pub mod external;
mod graph;
pub(crate) mod infer;
mod resolve;
pub(crate) mod text;
pub mod written;

pub(crate) use evidence::{Evidence, Extent, Place, Signal, TokenKind};
pub use graph::{Graph, Left, Link, LinkKind, Node, Origin, Review};
pub use resolve::{resolve_href, resolve_href_from};

use decide::Decisions;
use errbook_core::config::Config;
use errbook_core::diag::Diagnostics;
use errbook_core::model::{Catalog, PageKind, PageRef};
use errbook_parse::load::SourceFile;
use errbook_records::RecordSet;
use std::collections::HashMap;
use std::path::Path;

/// Articles whose link candidates are inferred and decided together, per thread: an
/// article against a large catalog has megabytes of candidates, so a batch is kept small.
const ARTICLES_PER_THREAD: usize = 2;

/// How `link_from` draws the graph: `link_with`'s arguments beside the catalog and its texts.
pub struct How<'a> {
    pub cfg: &'a Config,
    pub infer: bool,
    pub records: Option<&'a RecordSet>,
    pub keep_review: bool,
}

/// `link_with`, where `files` need hold only the articles (what inference matches) and `texts`
/// says where the other files' texts are read again should a diagnostic need one: a build
/// drops the entries' texts after parse.
pub fn link_from(
    catalog: &Catalog,
    files: &[SourceFile],
    texts: &explicit::Texts<'_>,
    how: How<'_>,
    diags: &mut Diagnostics,
) -> Graph {
    link_parts(catalog, files, texts, how, diags, true)
}

/// `link_from` without the links of code examples to the workarounds and dead ends they apply
/// or fall into (most of an inferring link stage's time): the pages' links alone, what an
/// article is about among them (`errbook claims`).
pub fn link_pages_from(
    catalog: &Catalog,
    files: &[SourceFile],
    texts: &explicit::Texts<'_>,
    how: How<'_>,
    diags: &mut Diagnostics,
) -> Graph {
    link_parts(catalog, files, texts, how, diags, false)
}

/// `link_from`; `examples`: infer the code examples' links too.
fn link_parts(
    catalog: &Catalog,
    files: &[SourceFile],
    texts: &explicit::Texts<'_>,
    how: How<'_>,
    diags: &mut Diagnostics,
    examples: bool,
) -> Graph {
    let How {
        cfg,
        infer,
        records,
        keep_review,
    } = how;
    let threshold = cfg.link.threshold;
    let mut g = Graph::default();
    g.threshold = threshold;
    let decide = Decisions::new(catalog);
    let t = tracing::info_span!("link.explicit").entered();
    let mut links = explicit::check(catalog, texts, diags);
    drop(t);

    // Article <-> entry, entry <-> entry. The articles' candidates, most of them far below the
    // threshold, are decided a batch at a time so that memory holds one batch of them.
    if infer {
        let t = tracing::info_span!("link.articles").entered();
        let sources: HashMap<&Path, &str> =
            files.iter().map(|f| (f.path.as_path(), &*f.text)).collect();
        let ix = infer::index::Index::new(catalog);
        let mut drawn = decide::Drawn::of(&links);
        // What `apply_to` keeps: the links, the candidates for review if they are kept, and any
        // candidate of a pair drawn already or decided by an author.
        let least = least_score(threshold, keep_review);
        let pairs = discussed(&links).chain(decide.discussed());
        let wanted = infer::wanted::Wanted::new(catalog, least, pairs);
        let batch = (ARTICLES_PER_THREAD * rayon::current_num_threads()).max(4);
        for batch in catalog.articles.chunks(batch) {
            let cands = infer::articles::infer(catalog, &ix, batch, &sources, records, &wanted);
            decide.apply_to(&mut drawn, cands, &mut links, &mut g.review, threshold);
            if !keep_review {
                g.review = Vec::new();
            }
        }
        // The message index is large on a large catalog: gone before the next one is made.
        drop((ix, sources, wanted, t));
        let _t = tracing::info_span!("link.related").entered();
        let cands = infer::related::infer(catalog);
        decide.apply_to(&mut drawn, cands, &mut links, &mut g.review, threshold);
    }
    decide.add_confirmed_without_candidate(&mut links);

    // Code examples, for the pages now linked to each entry.
    if infer && examples {
        let _t = tracing::info_span!("link.snippets").entered();
        let pages = articles_by_entry(&links);
        let mut snips = Vec::new();
        for (i, e) in catalog.entries.iter().enumerate() {
            if let Some(p) = pages.get(e.id.as_str()) {
                snips.extend(infer::snippets::infer(catalog, i, p, records));
            }
        }
        decide.apply(snips, &mut links, &mut g.review, threshold);
    }
    if !keep_review {
        g.review = Vec::new();
    }
    decide.add_confirmed_snippets(&mut links);
    g.links = links;
    g.sort();
    g.review
        .sort_by(|a, b| b.link.score.total_cmp(&a.link.score));
    g
}

/// The least score of a candidate the graph has a use for, when nothing else is said of it
/// (no link drawn for its pair, no author's decision): the threshold, or a third of it where
/// the candidates left out are kept for review (`Decisions::apply_to`).
fn least_score(threshold: f64, keep_review: bool) -> f64 {
    if keep_review {
        threshold / 3.0
    } else {
        threshold
    }
}

/// The (article, entry) IDs of the `Discusses` links among `links`.
fn discussed(links: &[Link]) -> impl Iterator<Item = (&str, &str)> {
    links.iter().filter_map(|l| match (l.kind, &l.from, &l.to) {
        (LinkKind::Discusses, Node::Article { id: a }, Node::Entry { id: e }) => {
            Some((a.as_str(), e.as_str()))
        }
        _ => None,
    })
}

/// The articles each entry is discussed by, as pages, in the order of `links`.
fn articles_by_entry<'a>(
    links: impl IntoIterator<Item = &'a Link>,
) -> HashMap<&'a str, Vec<PageRef>> {
    let mut pages: HashMap<&str, Vec<PageRef>> = HashMap::new();
    for l in links {
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
    pages
}
