//! Live linking: the link graph `serve` keeps between edits, brought up to date from what an
//! edit changed instead of drawn again. What each page contributes is kept apart (its explicit
//! links and their diagnostics, an article's candidates, the code-example candidates of an
//! entry) with what is needed to tell which contributions an edit can change; the graph is then
//! put together from them in the order `link_with` draws it, with the authors' decisions
//! applied again, so the result is the graph (and the link diagnostics) a full `link_with`
//! gives (`site/rebuild/tests.rs` checks that over random edits of a catalog). Put together by
//! reference and patched into the graph before (`patch`): only the links that changed are made
//! and sorted.
//!
//! What an edit can change, and what is done again for it:
//! - explicit links: the edited pages' own; every page's when a page came or went, failed to
//!   parse, or an entry's workaround or dead-end numbers changed (`shape`: what references are
//!   checked against, and the hints of broken ones);
//! - article candidates: the edited articles'; when an entry's message, aliases, exception type
//!   or error code changed (or an entry came or went), every article holding one of its old or
//!   new message trigrams or its code (`infer::keys`), against the message index changed in
//!   place for it (made again when an entry came or went);
//!   articles an edited entry's `links:` names (a candidate kept only for a decision);
//! - related entries, a ranking (each entry's best few): when an edited entry's message words,
//!   API names, code or category changed, the pairs whose score that can change are scored
//!   again (`infer::related_kept`; all of them when an entry came or went) and the ranking is
//!   taken again over every candidate pair;
//! - code examples: an entry's, when the entry, the articles discussing it, or one of those
//!   articles changed.
//!
//! An edit of many files at once, or an update after one that failed (which may have left the
//! state part-way), draws everything again (`LinkState::new`).

use super::decide::{Decisions, Drawn};
pub(crate) use super::edited::Changed;
use super::edited::{articles_named, moved_entries, shape};
use super::explicit;
use super::graph::FastMap;
use super::infer::{self, index::Index, related_kept::Kept, wanted::Wanted};
use super::patch::{Before, Drawing, Patch};
use super::{articles_by_entry, Graph, Link, Node, Review};
use crate::core::config::Config;
use crate::core::diag::{Diagnostic, Diagnostics};
use crate::core::model::{Article, Catalog, Page, PageKind, PageRef};
use crate::core::timings::stage;
use crate::load::SourceFile;
use crate::records::RecordSet;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

/// An edit of more pages than this is drawn whole (it costs what a full pass costs anyway).
const MAX_TOUCHED: usize = 64;

/// What one article contributes: what inference looks entries up by in it, and its
/// candidates (those `Decisions::matters` keeps).
struct ArticleLinks {
    grams: HashSet<u64>,
    codes: HashSet<String>,
    cands: Vec<Link>,
}

/// The link graph's parts, kept between updates (see the top of this file).
pub(crate) struct LinkState {
    infer: bool,
    keep_review: bool,
    threshold: f64,
    /// Set when an update failed half-way: the next one draws everything again.
    stale: bool,
    /// `shape` of the catalog the explicit links were checked against.
    shape: u64,
    explicit: HashMap<PageRef, (Vec<Link>, Vec<Diagnostic>)>,
    /// Every page's explicit links together (deduplicated) and their diagnostics, while no
    /// page's changed.
    explicit_all: Option<(Vec<Link>, Vec<Diagnostic>)>,
    /// The entries' message index (`None` without inference).
    index: Option<Index>,
    articles: HashMap<String, ArticleLinks>,
    /// Related entries: every candidate pair, and the ranking of them (`None` without inference).
    kept: Option<Kept>,
    related: Vec<Link>,
    /// Each entry's code-example candidates, with the pages they were drawn from.
    snippets: Snippets,
    /// The text each pair of ends sorts by (`Graph::sort_by_ends`), by `from` then `to`, and
    /// how many there are: most links are the same from one update to the next.
    ends_keys: FastMap<Node, FastMap<Node, Arc<str>>>,
    ends_count: usize,
}

impl LinkState {
    /// Draw everything: the state and the graph (`link_with`'s arguments, same result).
    pub(crate) fn new(
        catalog: &Catalog,
        files: &[SourceFile],
        cfg: &Config,
        infer: bool,
        records: Option<&RecordSet>,
        keep_review: bool,
        diags: &mut Diagnostics,
    ) -> (LinkState, Graph) {
        let mut s = LinkState {
            infer,
            keep_review,
            threshold: cfg.link.threshold,
            stale: false,
            shape: shape(catalog),
            explicit: HashMap::new(),
            explicit_all: None,
            index: None,
            articles: HashMap::new(),
            kept: None,
            related: Vec::new(),
            snippets: HashMap::new(),
            ends_keys: FastMap::default(),
            ends_count: 0,
        };
        let texts = explicit::texts(files);
        for page in explicit::pages(catalog) {
            s.check_page(catalog, &texts, page);
        }
        if infer {
            s.index = Some(Index::new(catalog));
            let all: Vec<&Article> = catalog.articles.iter().collect();
            s.infer_articles(catalog, files, records, &all, true);
            let kept = Kept::new(catalog);
            s.related = kept.links(catalog);
            s.kept = Some(kept);
        }
        let none = BTreeSet::new();
        let g = s.assemble(catalog, records, &none, diags);
        (s, g)
    }

    /// The graph after `changed`, `catalog` and `files` being the content as it is now; and
    /// what the graph before (`changed.graph`) was, to tell what changed or to put it back (the
    /// patch that made the new graph from it, or itself).
    pub(crate) fn update(
        &mut self,
        catalog: &Catalog,
        files: &[SourceFile],
        cfg: &Config,
        records: Option<&RecordSet>,
        changed: Changed<'_>,
        diags: &mut Diagnostics,
    ) -> (Graph, Before) {
        let mut changed = changed;
        let old = std::mem::take(&mut changed.graph);
        let changed = &changed;
        // Many files at once (a checkout, a search-and-replace): the full pass costs no more.
        if self.stale || changed.touched.len() > MAX_TOUCHED || cfg.link.threshold != self.threshold
        {
            let (s, g) = LinkState::new(
                catalog,
                files,
                cfg,
                self.infer,
                records,
                self.keep_review,
                diags,
            );
            *self = s;
            return (g, Before::Whole(old));
        }
        // Stale until the update is through: a panic half-way must not leave it trusted.
        self.stale = true;
        let t = stage("  link: explicit");
        self.update_explicit(catalog, files, changed);
        drop(t);
        if self.infer {
            let t = stage("  link: articles");
            self.update_articles(catalog, files, records, changed);
            drop(t);
            let t = stage("  link: related");
            self.update_related(catalog, changed);
            drop(t);
        }
        let t = stage("  link: assemble");
        // The candidates left out are kept whole only for `check --links` (not `serve`): the
        // graph is made again with them.
        let (g, before) = if self.keep_review {
            let g = self.assemble(catalog, records, changed.touched, diags);
            (g, Before::Whole(old))
        } else {
            let (g, p) = self.patched(catalog, records, changed.touched, diags, old);
            (g, Before::Patched(p))
        };
        drop(t);
        self.stale = false;
        (g, before)
    }

    /// The graph `assemble` makes, patched into `old` (`patch`): only what changed is made.
    fn patched(
        &mut self,
        catalog: &Catalog,
        records: Option<&RecordSet>,
        touched: &BTreeSet<PageRef>,
        diags: &mut Diagnostics,
        old: Graph,
    ) -> (Graph, Patch) {
        self.explicit_ready(catalog);
        let decide = Decisions::new(catalog);
        let confirmed = decide.confirmed_without_candidate();
        let confirmed_snippets = decide.confirmed_snippets();
        let LinkState {
            infer,
            threshold,
            explicit_all,
            articles,
            related,
            snippets,
            ..
        } = self;
        let (infer, threshold) = (*infer, *threshold);
        let mut d = Drawing::new();
        if let Some((links, dg)) = explicit_all.as_ref() {
            diags.extend(dg.iter().cloned());
            d.take_all(links);
        }
        if infer {
            for a in &catalog.articles {
                if let Some(x) = articles.get(&a.id) {
                    d.apply(&decide, &x.cands, threshold);
                }
            }
            d.apply(&decide, related.iter(), threshold);
        }
        d.add_new(&confirmed);
        if infer {
            let pages = articles_by_entry(d.drawn());
            refresh_snippets(snippets, catalog, records, &pages, touched);
            let snips = (catalog.entries.iter())
                .filter(|e| pages.contains_key(e.id.as_str()))
                .filter_map(|e| snippets.get(&e.id))
                .flat_map(|(_, c)| c.iter());
            d.apply(&decide, snips, threshold);
        }
        d.add_new(&confirmed_snippets);
        d.patch(old)
    }

    /// The update this state was brought to did not go through (the catalog is put back): the
    /// next update draws everything again.
    pub(crate) fn failed(&mut self) {
        self.stale = true;
    }

    fn check_page(&mut self, catalog: &Catalog, texts: &explicit::Texts<'_>, page: Page<'_>) {
        let mut d = Diagnostics::default();
        let links = explicit::check_page(catalog, texts, page, &mut d);
        self.explicit.insert(page.reference(), (links, d.items));
    }

    fn update_explicit(&mut self, catalog: &Catalog, files: &[SourceFile], changed: &Changed<'_>) {
        let now = shape(catalog);
        if now != self.shape {
            let texts = explicit::texts(files);
            self.shape = now;
            self.explicit.clear();
            self.explicit_all = None;
            for page in explicit::pages(catalog) {
                self.check_page(catalog, &texts, page);
            }
            return;
        }
        // The texts of the touched pages only (a page is checked against its own text).
        let sources: Vec<&Path> = (changed.touched.iter())
            .filter_map(|p| catalog.page(p))
            .map(|p| p.source())
            .collect();
        let texts =
            explicit::texts_of(files.iter().filter(|f| sources.contains(&f.path.as_path())));
        for p in changed.touched {
            let old = self.explicit.remove(p);
            if let Some(page) = catalog.page(p) {
                self.check_page(catalog, &texts, page);
            }
            // A page with no explicit links and no diagnostics adds nothing, there or not.
            let bare = |x: Option<&(Vec<Link>, Vec<Diagnostic>)>| {
                x.is_none_or(|(l, d)| l.is_empty() && d.is_empty())
            };
            let same = match (&old, self.explicit.get(p)) {
                (Some((lo, dof)), Some((ln, dn))) => lo == ln && dof.is_empty() && dn.is_empty(),
                (o, n) => bare(o.as_ref()) && bare(n),
            };
            if !same {
                self.explicit_all = None;
            }
        }
    }

    /// Infer the candidates of `articles` again (`keys`: and what they are looked up by).
    fn infer_articles(
        &mut self,
        catalog: &Catalog,
        files: &[SourceFile],
        records: Option<&RecordSet>,
        articles: &[&Article],
        keys: bool,
    ) {
        let Some(ix) = &self.index else { return };
        // The texts of these articles only (a path hashes component by component: its bytes
        // are looked up instead, once per file).
        let wanted: HashSet<&[u8], foldhash::fast::RandomState> = (articles.iter())
            .map(|a| a.source.as_os_str().as_encoded_bytes())
            .collect();
        let sources: HashMap<&Path, &str> = (files.iter())
            .filter(|f| wanted.contains(f.path.as_os_str().as_encoded_bytes()))
            .map(|f| (f.path.as_path(), &*f.text))
            .collect();
        let decide = Decisions::new(catalog);
        // An article's explicit links to entries are its own page's (`errors:`): the only ones
        // its candidates can meet.
        let own: Vec<Link> = (articles.iter())
            .filter_map(|a| self.explicit.get(&Page::Article(a).reference()))
            .flat_map(|(l, _)| l.iter().cloned())
            .collect();
        let drawn = Drawn::of(&own);
        // The candidates `matters` keeps, and only those are made.
        let least = super::least_score(self.threshold, self.keep_review);
        let pairs = super::discussed(&own).chain(decide.discussed());
        let wanted = Wanted::new(catalog, least, pairs);
        // In batches, as `link_with` does: an article's candidates before they are cut down are
        // megabytes on a large catalog.
        let batch = (super::ARTICLES_PER_THREAD * rayon::current_num_threads()).max(4);
        for chunk in articles.chunks(batch) {
            let cands = infer::articles::infer_each(catalog, ix, chunk, &sources, records, &wanted);
            for (a, mut cands) in chunk.iter().zip(cands) {
                cands.retain(|c| decide.matters(&drawn, &own, c, least));
                let old = self.articles.remove(&a.id);
                let (grams, codes) = match old {
                    Some(o) if !keys => (o.grams, o.codes),
                    _ => {
                        let src = sources.get(a.source.as_path()).copied().unwrap_or("");
                        infer::keys::article_keys(a, src, records)
                    }
                };
                let links = ArticleLinks {
                    grams,
                    codes,
                    cands,
                };
                self.articles.insert(a.id.clone(), links);
            }
        }
    }

    fn update_articles(
        &mut self,
        catalog: &Catalog,
        files: &[SourceFile],
        records: Option<&RecordSet>,
        changed: &Changed<'_>,
    ) {
        let moved = moved_entries(catalog, changed, infer::keys::same_features);
        let mut grams: HashSet<u64> = HashSet::new();
        let mut codes: HashSet<String> = HashSet::new();
        for e in moved.iter().flat_map(|(o, n)| o.iter().chain(n)) {
            let (g, c) = infer::keys::entry_keys(e);
            grams.extend(g);
            codes.extend(c);
        }
        // Of the edited entries' trigrams, those that seed a passage before or after the edit
        // (`Index::seeds`): the others find nothing either way, and an article that holds
        // only those finds the same passages as before (every other trigram's postings stay).
        let seeded_before: HashSet<u64> = match &self.index {
            Some(ix) => grams.iter().copied().filter(|g| ix.seeds(*g)).collect(),
            None => grams.clone(),
        };
        // Entries' positions in the index are their positions in the catalog: one that came or
        // went moves the others, and the index is made again.
        let came_or_went = moved.iter().any(|(o, n)| o.is_none() || n.is_none());
        if came_or_went {
            self.index = Some(Index::new(catalog));
        } else if let Some(ix) = &mut self.index {
            for (o, n) in &moved {
                if let (Some(o), Some(n)) = (o, n) {
                    let i = catalog.entries.partition_point(|e| e.id < n.id);
                    ix.replace_entry(i, o, n);
                }
            }
        }
        if let Some(ix) = &self.index {
            grams.retain(|g| seeded_before.contains(g) || ix.seeds(*g));
        }
        let edited: HashSet<&str> = (changed.touched.iter())
            .filter(|p| p.kind == PageKind::Article)
            .map(|p| p.id.as_str())
            .collect();
        self.articles.retain(|id, _| catalog.article(id).is_some());
        for id in &edited {
            self.articles.remove(*id);
        }
        let named = articles_named(catalog, changed);
        let again: Vec<&Article> = (catalog.articles.iter())
            .filter(|a| {
                named.contains(a.id.as_str())
                    || match self.articles.get(&a.id) {
                        None => true,
                        Some(x) => {
                            codes.iter().any(|c| x.codes.contains(c))
                                || grams.iter().any(|g| x.grams.contains(g))
                        }
                    }
            })
            .collect();
        self.infer_articles(catalog, files, records, &again, false);
    }

    fn update_related(&mut self, catalog: &Catalog, changed: &Changed<'_>) {
        let moved = moved_entries(catalog, changed, infer::related::same_features);
        if moved.is_empty() {
            return;
        }
        // Positions hold unless an entry came or went; then everything is scored again (every
        // word's rarity changed with the number of entries).
        let came_or_went = moved.iter().any(|(o, n)| o.is_none() || n.is_none());
        match &mut self.kept {
            Some(k) if !came_or_went => {
                for (o, n) in &moved {
                    if let (Some(o), Some(n)) = (o, n) {
                        let i = catalog.entries.partition_point(|e| e.id < n.id);
                        k.replace_entry(catalog, i, o, n);
                    }
                }
            }
            _ => self.kept = Some(Kept::new(catalog)),
        }
        if let Some(k) = &self.kept {
            // A ranking (each entry's best few, taken greedily over the whole catalog): taken
            // again over every candidate.
            self.related = k.links(catalog);
        }
    }

    /// Every page's explicit links together, made again if a page's changed.
    fn explicit_ready(&mut self, catalog: &Catalog) {
        if self.explicit_all.is_none() {
            let mut d = Diagnostics::default();
            let links = self.explicit_joined(catalog, &mut d);
            self.explicit_all = Some((links, d.items));
        }
    }

    /// The explicit links of every page, in `explicit::check`'s order, and their diagnostics.
    fn explicit_links(&mut self, catalog: &Catalog, diags: &mut Diagnostics) -> Vec<Link> {
        self.explicit_ready(catalog);
        match &self.explicit_all {
            Some((links, d)) => {
                diags.extend(d.iter().cloned());
                links.clone()
            }
            None => Vec::new(),
        }
    }

    fn explicit_joined(&self, catalog: &Catalog, diags: &mut Diagnostics) -> Vec<Link> {
        let mut links = Vec::new();
        for page in explicit::pages(catalog) {
            if let Some((l, d)) = self.explicit.get(&page.reference()) {
                links.extend(l.iter().cloned());
                diags.extend(d.iter().cloned());
            }
        }
        explicit::dedup(&mut links);
        links
    }

    /// The graph from the parts, as `link_with` draws it; the code examples of entries whose
    /// pages changed (or which `touched` names) are inferred again on the way.
    fn assemble(
        &mut self,
        catalog: &Catalog,
        records: Option<&RecordSet>,
        touched: &BTreeSet<PageRef>,
        diags: &mut Diagnostics,
    ) -> Graph {
        let threshold = self.threshold;
        let mut g = Graph::default();
        g.threshold = threshold;
        let decide = Decisions::new(catalog);
        let mut links = self.explicit_links(catalog, diags);
        let mut review: Vec<Review> = Vec::new();
        // `link_with` indexes the links drawn afresh for the code examples; kept up to date
        // here instead, it is the same index.
        let mut drawn = self.infer.then(|| Drawn::of(&links));
        if let Some(drawn) = &mut drawn {
            for a in &catalog.articles {
                if let Some(x) = self.articles.get(&a.id) {
                    let cands = x.cands.clone();
                    decide.apply_to(drawn, cands, &mut links, &mut review, threshold);
                }
            }
            let cands = self.related.clone();
            decide.apply_to(drawn, cands, &mut links, &mut review, threshold);
        }
        let before = links.len();
        decide.add_confirmed_without_candidate(&mut links);
        if let Some(drawn) = &mut drawn {
            drawn.note(&links, before);
            let snips = self.snippet_candidates(catalog, records, &links, touched);
            decide.apply_to(drawn, snips, &mut links, &mut review, threshold);
        }
        if self.keep_review {
            g.review = review;
        }
        decide.add_confirmed_snippets(&mut links);
        g.links = links;
        // Ends of links long gone: written again from scratch now and then.
        if self.ends_count > 2 * g.links.len() + 1024 {
            self.ends_keys.clear();
            self.ends_count = 0;
        }
        let (keys, count) = (&mut self.ends_keys, &mut self.ends_count);
        g.sort_by_ends(|l| {
            if let Some(k) = keys.get(&l.from).and_then(|m| m.get(&l.to)) {
                return k.clone();
            }
            let k: Arc<str> = format!("{:?}{:?}", l.from, l.to).into();
            let at = keys.entry(l.from.clone()).or_default();
            at.insert(l.to.clone(), k.clone());
            *count += 1;
            k
        });
        g.review
            .sort_by(|a, b| b.link.score.total_cmp(&a.link.score));
        g
    }

    /// Every entry's code-example candidates, in catalog order, drawn again where they can
    /// have changed.
    fn snippet_candidates(
        &mut self,
        catalog: &Catalog,
        records: Option<&RecordSet>,
        links: &[Link],
        touched: &BTreeSet<PageRef>,
    ) -> Vec<Link> {
        let pages = articles_by_entry(links);
        refresh_snippets(&mut self.snippets, catalog, records, &pages, touched);
        let mut out = Vec::new();
        for e in &catalog.entries {
            if !pages.contains_key(e.id.as_str()) {
                continue;
            }
            if let Some((_, c)) = self.snippets.get(&e.id) {
                out.extend(c.iter().cloned());
            }
        }
        out
    }
}

/// Each entry's code-example candidates (`snippets`), for the entries `pages` has articles
/// for: drawn again where the entry, its articles, or one of them changed (`touched`).
fn refresh_snippets(
    snippets: &mut Snippets,
    catalog: &Catalog,
    records: Option<&RecordSet>,
    pages: &HashMap<&str, Vec<PageRef>>,
    touched: &BTreeSet<PageRef>,
) {
    snippets.retain(|id, _| pages.contains_key(id.as_str()));
    let entry_touched =
        |id: &str| (touched.iter()).any(|t| t.kind == PageKind::Entry && t.id == id);
    for (i, e) in catalog.entries.iter().enumerate() {
        let Some(p) = pages.get(e.id.as_str()) else {
            continue;
        };
        let fresh = snippets.get(&e.id).is_some_and(|(was, _)| {
            was == p && !entry_touched(&e.id) && !p.iter().any(|x| touched.contains(x))
        });
        if !fresh {
            let cands = infer::snippets::infer(catalog, i, p, records);
            snippets.insert(e.id.clone(), (p.clone(), cands));
        }
    }
}

/// Each entry's code-example candidates, with the pages they were drawn from.
type Snippets = HashMap<String, (Vec<PageRef>, Vec<Link>)>;
