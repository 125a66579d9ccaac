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

use crate::config::Config;
use crate::diag::{Diagnostic, Diagnostics};
use crate::link::{Graph, Link, Node};
use crate::load::{ContentKind, SourceFile};
use crate::model::PageKind;
use crate::parse::Parsed;
use crate::render::Job;
use crate::site::{Analysis, BuildOptions, BuildReport};
use crate::verify::records::RecordSet;
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
        let started = std::time::Instant::now();
        let mut rel: Vec<PathBuf> = std::mem::take(&mut self.pending);
        rel.extend(changed.iter().map(|p| {
            let p = p.strip_prefix(&self.root).unwrap_or(p);
            p.strip_prefix("./").unwrap_or(p).to_path_buf()
        }));
        rel.sort();
        rel.dedup();
        let result = self.update_rel(&rel, started);
        if result.is_err() {
            self.pending = rel;
        }
        result
    }

    fn update_rel(
        &mut self,
        rel: &[PathBuf],
        started: std::time::Instant,
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
        self.apply(rel, started)
    }

    fn apply(
        &mut self,
        rel: &[PathBuf],
        started: std::time::Instant,
    ) -> Result<(Update, Diagnostics)> {
        let timeout = self.cfg.verify.timeout_s;
        let old_graph = self.analysis.graph.clone();
        let mut next = Analysis {
            files: self.analysis.files.clone(),
            catalog: self.analysis.catalog.clone(),
            graph: Graph::default(),
            diags: Diagnostics::default(),
        };
        let mut file_diags = self.file_diags.clone();
        // IDs whose pages must be rendered again (old and new IDs of each changed file).
        let mut touched: BTreeSet<(PageKind, String)> = BTreeSet::new();
        let mut facets: BTreeSet<String> = BTreeSet::new();

        for path in rel {
            let kind = if path.starts_with(crate::load::ERRORS_DIR) {
                ContentKind::Entry
            } else {
                ContentKind::Article
            };
            // Forget what the file was.
            if let Some(i) = next.files.iter().position(|f| &f.path == path) {
                next.files.remove(i);
            }
            file_diags.remove(path);
            if let Some(i) = next.catalog.entries.iter().position(|e| &e.source == path) {
                let e = next.catalog.entries.remove(i);
                touched.insert((PageKind::Entry, e.id.clone()));
                facets.extend(entry_facets(&e));
            }
            if let Some(i) = next.catalog.articles.iter().position(|a| &a.source == path) {
                let a = next.catalog.articles.remove(i);
                touched.insert((PageKind::Article, a.id.clone()));
            }
            // Read what it is now (a deleted file stays forgotten).
            if !self.root.join(path).is_file() {
                continue;
            }
            let file = match crate::load::read_one(&self.root, kind, path)? {
                Ok(f) => f,
                Err(d) => {
                    file_diags.insert(path.clone(), vec![d]);
                    continue;
                }
            };
            let (parsed, d) = crate::parse::parse_file(&file, timeout);
            let mut d = d.items;
            match parsed {
                Parsed::Entry(e) => {
                    touched.insert((PageKind::Entry, e.id.clone()));
                    facets.extend(entry_facets(&e));
                    match next.catalog.entries.binary_search_by(|x| x.id.cmp(&e.id)) {
                        Ok(i) => d.push(duplicate(&file, &e.id, &next.catalog.entries[i].source)),
                        Err(i) => next.catalog.entries.insert(i, e),
                    }
                }
                Parsed::Article(a) => {
                    touched.insert((PageKind::Article, a.id.clone()));
                    match next.catalog.articles.binary_search_by(|x| x.id.cmp(&a.id)) {
                        Ok(i) => d.push(duplicate(&file, &a.id, &next.catalog.articles[i].source)),
                        Err(i) => next.catalog.articles.insert(i, a),
                    }
                }
                Parsed::Failed => {}
            }
            file_diags.insert(path.clone(), d);
            let at = next.files.partition_point(|f| f.path < file.path);
            next.files.insert(at, file);
        }

        let mut diags = Diagnostics::default();
        for d in file_diags.values() {
            diags.extend(d.iter().cloned());
        }
        next.graph = crate::link::link(
            &next.catalog,
            &next.files,
            &self.cfg,
            !self.opts.no_infer,
            &mut diags,
        );
        diags.sort();
        if diags.has_errors() {
            return Err(Error::Content {
                errors: diags.error_count(),
                diags,
            });
        }
        next.diags = diags.clone();

        let pages = affected_pages(&old_graph, &next.graph, &touched);
        let up = self.write_affected(&next, &pages, &touched, &facets)?;
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

    /// Render the affected pages and every catalog-wide file; write what changed.
    fn write_affected(
        &self,
        next: &Analysis,
        pages: &HashSet<(PageKind, String)>,
        touched: &BTreeSet<(PageKind, String)>,
        facets: &BTreeSet<String>,
    ) -> Result<Update> {
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
        // Lists that can show a touched page: home, everything-lists, its facets' pages.
        let mut lists: HashSet<String> = [
            "",
            "errors/",
            "articles/",
            "domains/",
            "categories/",
            "codes/",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        lists.extend(facets.iter().cloned());
        let mut gone_facets: HashSet<&String> = facets.iter().collect();
        for p in crate::render::lists::pages(&r)? {
            gone_facets.remove(&p.path);
            if lists.contains(&p.path) {
                jobs.push(Job::Ready(Box::new(p)));
            }
        }
        let mut out: Vec<(String, Vec<u8>)> = jobs
            .par_iter()
            .map(|j| {
                let (path, html) = r.run(j)?;
                Ok((crate::urls::file_of(&path), html.into_bytes()))
            })
            .collect::<Result<_>>()?;
        for (kind, id) in touched {
            if *kind == PageKind::Entry {
                if let Some(e) = cat.entry(id) {
                    let v = crate::render::api::entry(next, &self.records, e);
                    out.push((crate::urls::entry_json(id), crate::site::to_json(&v)?));
                }
            }
        }
        let all_paths: Vec<String> = crate::render::jobs(&r)?
            .iter()
            .map(|j| match j {
                Job::Entry(i) => crate::urls::entry(&cat.entries[*i].id),
                Job::Article(i) => crate::urls::article(&cat.articles[*i].id),
                Job::Ready(p) => p.path.clone(),
            })
            .collect();
        out.extend(
            crate::site::catalog_files(&self.cfg, next, &all_paths, self.opts.offline)?
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
                    PageKind::Entry => crate::urls::entry(id),
                    PageKind::Article => crate::urls::article(id),
                };
                let _ = std::fs::remove_dir_all(dest.join(&site));
                if *kind == PageKind::Entry {
                    let _ = std::fs::remove_file(dest.join(crate::urls::entry_json(id)));
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

/// Site paths of the index pages that list an entry.
fn entry_facets(e: &crate::model::Entry) -> Vec<String> {
    let mut v = vec![crate::urls::domain(&e.domain)];
    if !e.category.is_empty() {
        v.push(crate::urls::category(&e.category));
    }
    if let Some(c) = &e.error_code {
        v.push(crate::urls::code(c));
    }
    v
}

fn duplicate(file: &SourceFile, id: &str, first: &Path) -> Diagnostic {
    let needle = if file.kind == ContentKind::Entry {
        "**ID:**"
    } else {
        "id:"
    };
    let at = file.text.find(needle).unwrap_or(0);
    Diagnostic::error_at(
        "E-duplicate-id",
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

/// Pages that can show something of the touched pages: themselves, both ends of every link
/// touching them (old and new graph), and both ends of every link that appeared or went away.
pub fn affected_pages(
    old: &Graph,
    new: &Graph,
    touched: &BTreeSet<(PageKind, String)>,
) -> HashSet<(PageKind, String)> {
    let mut pages: HashSet<(PageKind, String)> = touched.iter().cloned().collect();
    let old_set: HashSet<u64> = old.links.iter().map(link_hash).collect();
    let new_set: HashSet<u64> = new.links.iter().map(link_hash).collect();
    for (links, other) in [(&old.links, &new_set), (&new.links, &old_set)] {
        for l in links.iter() {
            let (a, b) = (page_of(&l.from), page_of(&l.to));
            if touched.contains(&a) || touched.contains(&b) || !other.contains(&link_hash(l)) {
                pages.insert(a);
                pages.insert(b);
            }
        }
    }
    pages
}

/// Write through a temporary file and a rename, so a reader never sees half a page.
fn write_atomic(target: &Path, bytes: &[u8]) -> Result<()> {
    use crate::error::IoContext;
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
