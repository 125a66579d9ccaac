//! Rebuild: incremental builds for `serve`. After a content file changes, only that file is
//! read and parsed again, the link graph is rebuilt, and only the pages that can show something
//! of it are rendered again: its own page, the pages at either end of its links (before and
//! after the change, and every link that appeared or went away), the index pages of its domain,
//! category and code, the lists, the JSON, the feeds and the search index. A page is written
//! only when its bytes differ from what is on disk, so unaffected pages keep their mtime.
//!
//! Anything else that changes (book.toml, the theme, static files, verification records) makes
//! a full build. The result is byte-for-byte what a full build of the same content writes
//! (tests/incremental.rs checks it).

use crate::core::config::Config;
use crate::core::diag::{Code, Diagnostic, Diagnostics};
use crate::core::model::PageKind;
use crate::link::{Graph, Link, Node};
use crate::load::SourceFile;
use crate::parse::Parsed;
use crate::records::RecordSet;
use crate::render::Job;
use crate::site::{Analysis, BuildOptions, BuildReport};
use crate::{Error, Result};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// What one update did.
#[derive(Debug, Default, Clone)]
pub struct Update {
    /// Pages and files rendered again.
    pub rendered: usize,
    /// Of those, the ones whose bytes changed and were written.
    pub written: Vec<String>,
    pub full: bool,
    pub millis: u128,
}

/// The state `serve` keeps between builds.
pub struct Live {
    root: PathBuf,
    cfg: Config,
    opts: BuildOptions,
    analysis: Analysis,
    records: RecordSet,
    /// Diagnostics of each content file from its last parse (link diagnostics are recomputed).
    file_diags: HashMap<PathBuf, Vec<Diagnostic>>,
    /// Changed paths of an update that failed: applied again with the next one.
    pending: Vec<PathBuf>,
}

impl Live {
    /// A full build; keeps what later updates need. Content errors come back as `Error::Content`.
    pub fn start(root: &Path, opts: &BuildOptions) -> Result<(Live, BuildReport, Diagnostics)> {
        let cfg = Config::load(root)?;
        let (report, diags, analysis, records) = crate::site::build_keep(root, &cfg, opts)?;
        let mut file_diags: HashMap<PathBuf, Vec<Diagnostic>> = HashMap::new();
        // Parse diagnostics only (warnings): link diagnostics are recomputed on every update.
        for f in &analysis.files {
            let (_, d) = crate::parse::parse_file(f, cfg.verify.timeout_s);
            file_diags.insert(f.path.clone(), d.items);
        }
        let live = Live {
            root: root.to_path_buf(),
            cfg,
            opts: opts.clone(),
            analysis,
            records,
            file_diags,
            pending: Vec::new(),
        };
        Ok((live, report, diags))
    }

    /// Apply a batch of changed paths (absolute or relative to the root).
    pub fn update(&mut self, changed: &[PathBuf]) -> Result<(Update, Diagnostics)> {
        self.update_then(changed, &mut |_, _| {})
    }

    /// `update`, calling `early` as soon as the edited page itself is on disk: when one entry or
    /// article was edited (same ID, no errors), its page is rendered with the links as they were
    /// and written first, so the author sees the edit at once; the link graph, the pages at the
    /// other ends of its links, the lists and the search index follow. `early` gets the site
    /// path of the page and the milliseconds since the update began.
    pub fn update_then(
        &mut self,
        changed: &[PathBuf],
        early: &mut dyn FnMut(&str, u128),
    ) -> Result<(Update, Diagnostics)> {
        let started = std::time::Instant::now();
        let mut rel: Vec<PathBuf> = std::mem::take(&mut self.pending);
        rel.extend(changed.iter().map(|p| {
            let p = p.strip_prefix(&self.root).unwrap_or(p);
            p.strip_prefix("./").unwrap_or(p).to_path_buf()
        }));
        rel.sort();
        rel.dedup();
        // Folders (their files report for themselves) and files saved without a change.
        rel.retain(|p| !self.root.join(p).is_dir() && !self.unchanged(p));
        if rel.is_empty() {
            return Ok((Update::default(), self.analysis.diags.clone()));
        }
        let result = self.update_rel(&rel, started, early);
        if result.is_err() {
            self.pending = rel;
        }
        result
    }

    /// A content file whose text is what the last build read.
    fn unchanged(&self, rel: &Path) -> bool {
        let Some(f) = self.analysis.files.iter().find(|f| f.path == rel) else {
            return false;
        };
        match std::fs::read(self.root.join(rel)) {
            Ok(bytes) => crate::load::check_text(rel, bytes).is_ok_and(|t| t == f.text),
            Err(_) => false,
        }
    }

    fn update_rel(
        &mut self,
        rel: &[PathBuf],
        started: std::time::Instant,
        early: &mut dyn FnMut(&str, u128),
    ) -> Result<(Update, Diagnostics)> {
        let content_only = rel.iter().all(|p| {
            (p.starts_with(crate::load::ERRORS_DIR) || p.starts_with(crate::load::ARTICLES_DIR))
                && p.extension().is_some_and(|e| e == "md")
        });
        if !content_only {
            let (live, report, diags) = Live::start(&self.root, &self.opts)?;
            *self = live;
            let up = Update {
                rendered: report.files_written,
                written: Vec::new(),
                full: true,
                millis: started.elapsed().as_millis(),
            };
            return Ok((up, diags));
        }
        self.apply(rel, started, early)
    }

    fn apply(
        &mut self,
        rel: &[PathBuf],
        started: std::time::Instant,
        early: &mut dyn FnMut(&str, u128),
    ) -> Result<(Update, Diagnostics)> {
        let timeout = self.cfg.verify.timeout_s;
        // Work on the state itself (a deep copy of a large catalog costs more than the whole
        // update); `undo` puts it back if the change does not build.
        let mut next = std::mem::replace(&mut self.analysis, empty_analysis());
        let mut old_graph = std::mem::take(&mut next.graph);
        let old_files = next.files.clone();
        let mut undo = Undo::default();
        let mut file_diags = self.file_diags.clone();
        // IDs whose pages must be rendered again (old and new IDs of each changed file).
        let mut touched: BTreeSet<(PageKind, String)> = BTreeSet::new();
        let mut facets: BTreeSet<String> = BTreeSet::new();
        // What list pages show of the touched files, before and after.
        let (mut listed_before, mut listed_after) = (Vec::new(), Vec::new());

        for path in rel {
            let kind = if path.starts_with(crate::load::ERRORS_DIR) {
                PageKind::Entry
            } else {
                PageKind::Article
            };
            // Forget what the file was.
            if let Some(i) = next.files.iter().position(|f| &f.path == path) {
                next.files.remove(i);
            }
            file_diags.remove(path);
            let cat = &mut next.catalog;
            if let Some(i) = cat.entries.iter().position(|e| &e.source == path) {
                let e = cat.entries.remove(i);
                touched.insert((PageKind::Entry, e.id.clone()));
                facets.extend(entry_facets(&e));
                listed_before.push(listed_entry(&e));
                undo.entries.push(e);
            }
            if let Some(i) = cat.articles.iter().position(|a| &a.source == path) {
                let a = cat.articles.remove(i);
                touched.insert((PageKind::Article, a.id.clone()));
                listed_before.push(listed_article(&a));
                undo.articles.push(a);
            }
            // Read what it is now (a deleted file stays forgotten).
            if !self.root.join(path).is_file() {
                continue;
            }
            let file = match crate::load::read_one(&self.root, kind, path) {
                Ok(Ok(f)) => f,
                Ok(Err(d)) => {
                    file_diags.insert(path.clone(), vec![d]);
                    continue;
                }
                Err(e) => {
                    undo.revert(&mut next, old_graph, old_files);
                    self.analysis = next;
                    return Err(e);
                }
            };
            let (parsed, d) = crate::parse::parse_file(&file, timeout);
            let mut d = d.items;
            match parsed {
                Parsed::Entry(e) => {
                    touched.insert((PageKind::Entry, e.id.clone()));
                    facets.extend(entry_facets(&e));
                    listed_after.push(listed_entry(&e));
                    match cat.entries.binary_search_by(|x| x.id.cmp(&e.id)) {
                        Ok(i) => d.push(duplicate(&file, &e.id, &cat.entries[i].source)),
                        Err(i) => {
                            undo.added_entries.push(e.id.clone());
                            cat.entries.insert(i, e);
                        }
                    }
                }
                Parsed::Article(a) => {
                    touched.insert((PageKind::Article, a.id.clone()));
                    listed_after.push(listed_article(&a));
                    match cat.articles.binary_search_by(|x| x.id.cmp(&a.id)) {
                        Ok(i) => d.push(duplicate(&file, &a.id, &cat.articles[i].source)),
                        Err(i) => {
                            undo.added_articles.push(a.id.clone());
                            cat.articles.insert(i, a);
                        }
                    }
                }
                Parsed::Failed => {}
            }
            file_diags.insert(path.clone(), d);
            let at = next.files.partition_point(|f| f.path < file.path);
            next.files.insert(at, file);
        }

        // One page edited in place: write it now, with the links as they were.
        let same_page = touched.len() == 1
            && listed_before.len() == 1
            && listed_after.len() == 1
            && rel.len() == 1
            && !file_diags
                .get(&rel[0])
                .is_some_and(|d| d.iter().any(|d| d.is_error()));
        let mut written_early = None;
        if same_page {
            next.graph = old_graph;
            let first = touched.iter().next().cloned();
            if let Some((site, wrote)) =
                first.and_then(|(k, id)| self.write_page(&next, k, &id).ok())
            {
                early(&site, started.elapsed().as_millis());
                written_early = wrote.then(|| crate::core::urls::file_of(&site));
            }
            old_graph = std::mem::take(&mut next.graph);
        }

        let mut diags = Diagnostics::default();
        for d in file_diags.values() {
            diags.extend(d.iter().cloned());
        }
        next.graph = crate::link::link_with(
            &next.catalog,
            &next.files,
            &self.cfg,
            !self.opts.no_infer,
            Some(&self.records),
            &mut diags,
        );
        diags.sort();
        if diags.has_errors() {
            undo.revert(&mut next, old_graph, old_files);
            self.analysis = next;
            return Err(Error::Content {
                errors: diags.error_count(),
                diags,
            });
        }
        next.diags = diags.clone();

        let (pages, graph_changed) = affected_pages(&old_graph, &next.graph, &touched);
        let changes = Changes {
            pages,
            touched,
            facets,
            listed: listed_before != listed_after,
            graph: graph_changed,
        };
        let written = self.write_affected(&next, &changes);
        match written {
            Ok(mut up) => {
                if let Some(f) = written_early.filter(|f| !up.written.contains(f)) {
                    up.written.push(f);
                    up.written.sort();
                }
                self.analysis = next;
                self.file_diags = file_diags;
                Ok((
                    Update {
                        millis: started.elapsed().as_millis(),
                        ..up
                    },
                    diags,
                ))
            }
            Err(e) => {
                undo.revert(&mut next, old_graph, old_files);
                self.analysis = next;
                Err(e)
            }
        }
    }

    /// Render one entry or article page of `a` and write it if its bytes changed; its site path
    /// and whether it was written.
    fn write_page(&self, a: &Analysis, kind: PageKind, id: &str) -> Result<(String, bool)> {
        let r = crate::render::Renderer::new(
            &self.root,
            &self.cfg,
            a,
            &self.records,
            self.opts.offline,
        )?;
        let job = match kind {
            PageKind::Entry => a
                .catalog
                .entries
                .binary_search_by(|e| e.id.as_str().cmp(id))
                .map(Job::Entry),
            PageKind::Article => a
                .catalog
                .articles
                .binary_search_by(|x| x.id.as_str().cmp(id))
                .map(Job::Article),
        }
        .map_err(|_| Error::Other(format!("no page for {id}")))?;
        let (path, html) = r.run(&job)?;
        let target = self.opts.dest.join(crate::core::urls::file_of(&path));
        let changed = std::fs::read(&target).ok().as_deref() != Some(html.as_bytes());
        if changed {
            write_atomic(&target, html.as_bytes())?;
        }
        Ok((path, changed))
    }

    /// Render the affected pages and every catalog-wide file; write what changed.
    fn write_affected(&self, next: &Analysis, ch: &Changes) -> Result<Update> {
        let (pages, touched, facets) = (&ch.pages, &ch.touched, &ch.facets);
        use rayon::prelude::*;
        let r = crate::render::Renderer::new(
            &self.root,
            &self.cfg,
            next,
            &self.records,
            self.opts.offline,
        )?;
        let cat = &next.catalog;
        let mut jobs: Vec<Job> = Vec::new();
        for (kind, id) in pages {
            match kind {
                PageKind::Entry => {
                    if let Ok(i) = cat.entries.binary_search_by(|e| e.id.as_str().cmp(id)) {
                        jobs.push(Job::Entry(i));
                    }
                }
                PageKind::Article => {
                    if let Ok(i) = cat.articles.binary_search_by(|a| a.id.as_str().cmp(id)) {
                        jobs.push(Job::Article(i));
                    }
                }
            }
        }
        // Lists show titles, messages, codes, rates and counts: redrawn only when those
        // changed (or a page came or went), with the pages of the touched facets.
        let mut lists: HashSet<String> = HashSet::new();
        if ch.listed {
            lists.extend(
                [
                    "",
                    "errors/",
                    "articles/",
                    "domains/",
                    "categories/",
                    "codes/",
                ]
                .iter()
                .map(|s| s.to_string()),
            );
            lists.extend(facets.iter().cloned());
        }
        let mut gone_facets: HashSet<&String> = facets.iter().collect();
        // Site paths of every page, for the sitemap (in the order of a full build).
        let mut all_paths: Vec<String> = cat
            .entries
            .iter()
            .map(|e| crate::core::urls::entry(&e.id))
            .collect();
        all_paths.extend(
            cat.articles
                .iter()
                .map(|a| crate::core::urls::article(&a.id)),
        );
        for (i, p) in r.lists.pages.iter().enumerate() {
            gone_facets.remove(&p.path);
            all_paths.push(p.path.clone());
            if lists.contains(&p.path) {
                jobs.push(Job::List(i));
            }
        }
        let mut out: Vec<(String, Vec<u8>)> = jobs
            .par_iter()
            .map(|j| {
                let (path, html) = r.run(j)?;
                Ok((crate::core::urls::file_of(&path), html.into_bytes()))
            })
            .collect::<Result<_>>()?;
        for (kind, id) in touched {
            if *kind == PageKind::Entry {
                if let Some(e) = cat.entry(id) {
                    let v = crate::render::api::entry(next, &self.records, e);
                    out.push((crate::core::urls::entry_json(id), crate::site::to_json(&v)?));
                }
            }
        }
        out.extend(
            crate::site::catalog_files(
                &self.cfg,
                next,
                &all_paths,
                self.opts.offline,
                crate::site::Wanted {
                    catalog: ch.listed || ch.graph,
                    links: ch.graph,
                    sitemap: ch.listed,
                    feed: touched.iter().any(|(k, _)| *k == PageKind::Article),
                    search: true,
                },
            )?
            .into_iter()
            .map(|f| (f.path.to_string_lossy().into_owned(), f.bytes)),
        );
        let dest = &self.opts.dest;
        let written: Vec<String> = out
            .par_iter()
            .filter_map(|(rel, bytes)| {
                let target = dest.join(rel);
                match std::fs::read(&target) {
                    Ok(old) if &old == bytes => None,
                    _ => Some(write_atomic(&target, bytes).map(|_| rel.clone())),
                }
            })
            .collect::<Result<_>>()?;
        // Index pages of a domain, category or code that lost its last entry.
        for f in gone_facets {
            let _ = std::fs::remove_dir_all(dest.join(f));
        }
        // Pages of entries or articles that no longer exist.
        for (kind, id) in touched {
            let gone = match kind {
                PageKind::Entry => cat.entry(id).is_none(),
                PageKind::Article => cat.article(id).is_none(),
            };
            if gone {
                let site = match kind {
                    PageKind::Entry => crate::core::urls::entry(id),
                    PageKind::Article => crate::core::urls::article(id),
                };
                let _ = std::fs::remove_dir_all(dest.join(&site));
                if *kind == PageKind::Entry {
                    let _ = std::fs::remove_file(dest.join(crate::core::urls::entry_json(id)));
                }
            }
        }
        Ok(Update {
            rendered: out.len(),
            written,
            full: false,
            millis: 0,
        })
    }
}

fn empty_analysis() -> Analysis {
    Analysis {
        files: Vec::new(),
        catalog: Default::default(),
        graph: Graph::default(),
        diags: Diagnostics::default(),
    }
}

/// What an update changed in the catalog, to put it back when the update fails.
#[derive(Default)]
struct Undo {
    entries: Vec<crate::core::model::Entry>,
    articles: Vec<crate::core::model::Article>,
    added_entries: Vec<String>,
    added_articles: Vec<String>,
}

impl Undo {
    fn revert(self, a: &mut Analysis, graph: Graph, files: Vec<SourceFile>) {
        let cat = &mut a.catalog;
        cat.entries.retain(|e| !self.added_entries.contains(&e.id));
        cat.articles
            .retain(|x| !self.added_articles.contains(&x.id));
        cat.entries.extend(self.entries);
        cat.articles.extend(self.articles);
        cat.sort();
        a.graph = graph;
        a.files = files;
    }
}

/// Site paths of the index pages that list an entry.
fn entry_facets(e: &crate::core::model::Entry) -> Vec<String> {
    let mut v = vec![crate::core::urls::domain(&e.domain)];
    if !e.category.is_empty() {
        v.push(crate::core::urls::category(&e.category));
    }
    if let Some(c) = &e.error_code {
        v.push(crate::core::urls::code(c));
    }
    v
}

fn duplicate(file: &SourceFile, id: &str, first: &Path) -> Diagnostic {
    let needle = if file.kind == PageKind::Entry {
        "**ID:**"
    } else {
        "id:"
    };
    let at = file.text.find(needle).unwrap_or(0);
    Diagnostic::at(
        Code::DuplicateId,
        &file.path,
        &file.text,
        at,
        needle.len(),
        format!("the ID `{id}` is already used by {}", first.display()),
    )
    .hint("give each file its own ID (the ID follows the file path)")
}

/// The page a graph node is shown on.
fn page_of(n: &Node) -> (PageKind, String) {
    match n {
        Node::Entry { id } => (PageKind::Entry, id.clone()),
        Node::Workaround { entry, .. } | Node::DeadEnd { entry, .. } => {
            (PageKind::Entry, entry.clone())
        }
        Node::Article { id } => (PageKind::Article, id.clone()),
        Node::Snippet { page, .. } => (page.kind, page.id.clone()),
    }
}

fn link_hash(l: &Link) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    l.from.hash(&mut h);
    l.to.hash(&mut h);
    l.kind.hash(&mut h);
    (l.origin as u8).hash(&mut h);
    l.score.to_bits().hash(&mut h);
    for e in &l.evidence {
        e.signal.hash(&mut h);
        e.excerpt.hash(&mut h);
        e.line.hash(&mut h);
        e.weight.to_bits().hash(&mut h);
    }
    h.finish()
}

/// What an update changed, for deciding what to render again.
struct Changes {
    /// Entry and article pages to render.
    pages: HashSet<(PageKind, String)>,
    /// The changed files' pages (old and new IDs).
    touched: BTreeSet<(PageKind, String)>,
    /// Facet pages (domain, category, code) of the touched entries, old and new.
    facets: BTreeSet<String>,
    /// Something list pages show changed (a title, message, code, rate; a page came or went).
    listed: bool,
    /// The link graph changed.
    graph: bool,
}

/// What list pages and catalog.json show of an entry.
fn listed_entry(e: &crate::core::model::Entry) -> String {
    format!(
        "E\u{1}{}\u{1}{}\u{1}{:?}\u{1}{:?}\u{1}{}\u{1}{}",
        e.id, e.message, e.error_code, e.fix_rate, e.domain, e.category
    )
}

/// What list pages, catalog.json and the sitemap show of an article.
fn listed_article(a: &crate::core::model::Article) -> String {
    format!(
        "A\u{1}{}\u{1}{}\u{1}{}\u{1}{:?}",
        a.id, a.title, a.date, a.tags
    )
}

/// Pages that can show something of the touched pages: themselves, both ends of every link
/// touching them (old and new graph), and both ends of every link that appeared or went away.
pub fn affected_pages(
    old: &Graph,
    new: &Graph,
    touched: &BTreeSet<(PageKind, String)>,
) -> (HashSet<(PageKind, String)>, bool) {
    let mut pages: HashSet<(PageKind, String)> = touched.iter().cloned().collect();
    let old_set: HashSet<u64> = old.links.iter().map(link_hash).collect();
    let new_set: HashSet<u64> = new.links.iter().map(link_hash).collect();
    let changed = old_set != new_set;
    for (links, other) in [(&old.links, &new_set), (&new.links, &old_set)] {
        for l in links.iter() {
            let (a, b) = (page_of(&l.from), page_of(&l.to));
            if touched.contains(&a) || touched.contains(&b) || !other.contains(&link_hash(l)) {
                pages.insert(a);
                pages.insert(b);
            }
        }
    }
    (pages, changed)
}

/// Write through a temporary file and a rename, so a reader never sees half a page.
fn write_atomic(target: &Path, bytes: &[u8]) -> Result<()> {
    use crate::core::error::IoContext;
    let dir = target.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).at(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir).at(dir)?;
    std::io::Write::write_all(&mut tmp, bytes).at(target)?;
    #[cfg(unix)]
    {
        // Same mode as the files of a full build (NamedTempFile makes them private).
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::Permissions::from_mode(0o644);
        tmp.as_file().set_permissions(mode).at(target)?;
    }
    tmp.persist(target).map_err(|e| Error::Io {
        path: target.to_path_buf(),
        source: e.error,
    })?;
    Ok(())
}
