//! Rebuild: incremental builds for `serve`. After a content file changes, only that file is
//! read and parsed again (`edit`), the link graph is brought up to date from the edit
//! (`link::LinkState`: only what the edit can change is linked again), and only the pages that
//! can show something of it are rendered again (`affected`): its own page, the pages at either end of its
//! links (before and after the change, and every link that appeared or went away), the index
//! pages of its domain, category and code, the lists, the JSON, the feeds and the search shards
//! whose content changed (`output`; the search index itself is kept between updates and changed
//! in place, `search::live`). A page is written only when its bytes differ from what is on
//! disk, so unaffected pages keep their mtime.
//!
//! Anything else that changes (book.toml, the theme, static files, verification records) makes
//! a full build. The result is byte-for-byte what a full build of the same content writes
//! (tests/it/incremental.rs checks it).

mod affected;
mod edit;
mod lines;
mod output;
#[cfg(test)]
mod tests;

use super::build::{build_keep, BuildOptions, BuildReport};
use super::Analysis;
use crate::core::config::Config;
use crate::core::diag::{Diagnostic, Diagnostics};
use crate::core::error::{Error, Result};
use crate::core::model::Catalog;
use crate::records::RecordSet;
use crate::render::Renderer;
use edit::Edit;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What one update did.
#[derive(Debug, Default, Clone)]
pub struct Update {
    /// Pages and files rendered again.
    pub rendered: usize,
    /// Of those, the ones whose bytes changed and were written.
    pub written: Vec<String>,
    pub full: bool,
    /// The files of a failed update are back to what the last good build read: nothing to
    /// render, but the site is good again (serve clears the error it shows).
    pub recovered: bool,
    pub millis: u128,
}

/// Render the list pages of `r` whose site paths `lists` holds: (index, (site path, HTML)).
/// None is long enough to keep between updates: the list of all errors names the domains
/// instead of the entries on a large catalog (`render::lists::LIST_ALL_ERRORS`).
fn draw_lists(
    r: &Renderer<'_>,
    lists: &std::collections::HashSet<String>,
) -> Result<Vec<(usize, (String, String))>> {
    use rayon::prelude::*;
    let todo: Vec<usize> = (r.lists.pages.iter().enumerate())
        .filter(|(_, p)| lists.contains(&p.path))
        .map(|(i, _)| i)
        .collect();
    (todo.par_iter()).map(|&i| Ok((i, r.list(i)?))).collect()
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
    /// The link graph's parts, brought up to date from each edit (`link::LinkState`).
    links: crate::link::LinkState,
    /// The search index as the site's files hold it, kept so that an update changes only what
    /// an edit touches (`None` after a failed update: the next one makes it whole).
    search: Option<crate::search::LiveIndex>,
    /// The theme, loaded once: a change of the theme or of book.toml makes a full build, which
    /// loads it again (`start`).
    look: std::sync::Arc<crate::render::Look>,
    /// catalog.json's entries as their JSON, kept so that an update serializes only those it
    /// touched (`None` after a failed update: the next one makes them whole).
    lines: Option<lines::CatalogLines>,
}

impl Live {
    /// A full build; keeps what later updates need. Content errors come back as `Error::Content`.
    pub fn start(root: &Path, opts: &BuildOptions) -> Result<(Live, BuildReport, Diagnostics)> {
        let cfg = Config::load(root)?;
        let (report, diags, mut analysis, records, search) = build_keep(root, &cfg, opts)?;
        let mut file_diags: HashMap<PathBuf, Vec<Diagnostic>> = HashMap::new();
        // Parse diagnostics only (warnings): link diagnostics are recomputed on every update.
        for f in &analysis.files {
            let (_, d) = crate::parse::parse_file(f, cfg.verify.timeout_s);
            file_diags.insert(f.path.clone(), d.items);
        }
        // The build kept the link stage's parts (`Scope::live`); a build without them draws
        // the graph again, keeping them this time.
        let links = match analysis.links.take() {
            Some(links) => links,
            None => {
                crate::link::LinkState::new(
                    &analysis.catalog,
                    &analysis.files,
                    &cfg,
                    !opts.no_infer,
                    Some(&records),
                    false,
                    &mut Diagnostics::default(),
                )
                .0
            }
        };
        // The build made the search index as it is kept (`render_into`, `keep`).
        let search = search.unwrap_or_else(|| {
            let _t = crate::core::timings::stage("serve: search index");
            let (search, offline) = (cfg.search, opts.offline);
            crate::search::LiveIndex::new(&analysis.catalog, &analysis.graph, search, offline)
        });
        let look = std::sync::Arc::new(crate::render::Look::load(root, &cfg)?);
        let lines = lines::CatalogLines::new(&analysis.catalog, &cfg)?;
        let live = Live {
            // Absolute, so that changed paths as a watcher reports them (absolute) are found.
            root: std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf()),
            cfg,
            opts: opts.clone(),
            analysis,
            records,
            file_diags,
            pending: Vec::new(),
            links,
            search: Some(search),
            look,
            lines: Some(lines),
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
        let started = Instant::now();
        let was_failing = !self.pending.is_empty();
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
            let up = Update {
                recovered: was_failing,
                ..Update::default()
            };
            return Ok((up, self.analysis.diags.clone()));
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
        started: Instant,
        early: &mut dyn FnMut(&str, u128),
    ) -> Result<(Update, Diagnostics)> {
        let content_only = rel.iter().all(|p| {
            (p.starts_with(crate::core::ids::ERRORS_DIR)
                || p.starts_with(crate::core::ids::ARTICLES_DIR))
                && p.extension().is_some_and(|e| e == "md")
        });
        if !content_only {
            let (live, report, diags) = Live::start(&self.root, &self.opts)?;
            *self = live;
            let up = Update {
                rendered: report.files_written,
                written: Vec::new(),
                full: true,
                recovered: false,
                millis: started.elapsed().as_millis(),
            };
            return Ok((up, diags));
        }
        self.apply(rel, started, early)
    }

    /// The kept analysis with the files of `rel` read again, and the edit that did it. Works on
    /// the state itself (a deep copy of a large catalog costs more than the whole update);
    /// `Edit::revert` puts it back if the change does not build (here, if a file cannot be read).
    fn reread(&mut self, rel: &[PathBuf]) -> Result<(Analysis, Edit)> {
        let _t = crate::core::timings::stage("update: read");
        let mut next = std::mem::take(&mut self.analysis);
        let mut edit = Edit::new(&mut next, self.file_diags.clone());
        for path in rel {
            let (timeout, drafts) = (self.cfg.verify.timeout_s, self.opts.drafts);
            if let Err(e) = edit.apply_file(&mut next, &self.root, path, timeout, drafts) {
                self.analysis = edit.revert(next);
                return Err(e);
            }
        }
        Ok((next, edit))
    }

    /// Apply the edits of `rel` to the kept state: re-read the files, write the edited page
    /// early, relink, and write what the change affects. On any failure the state is put back.
    fn apply(
        &mut self,
        rel: &[PathBuf],
        started: Instant,
        early: &mut dyn FnMut(&str, u128),
    ) -> Result<(Update, Diagnostics)> {
        let (mut next, mut edit) = self.reread(rel)?;
        // One renderer for the update (the early page and the rest), with the theme kept: it
        // groups the lists from the catalog, which the edit has already changed.
        let r = {
            let _t = crate::core::timings::stage("update: renderer");
            let look = self.look.clone();
            Renderer::with_look(look, &self.cfg, &next.catalog, self.opts.offline)
        };
        let written_early = self.write_early(&r, &next.catalog, &edit, rel, started, early);
        let mut diags = edit.parse_diagnostics();
        // The list pages that show what changed need no links: drawn while the graph is made.
        let lists = output::lists_to_redraw(&edit.listing());
        let old = edit.take_old_graph();
        let (linked, drawn) = rayon::join(
            || {
                let _t = crate::core::timings::stage("update: link");
                self.links.update(
                    &next.catalog,
                    &next.files,
                    &self.cfg,
                    Some(&self.records),
                    edit.changed(old),
                    &mut diags,
                )
            },
            || {
                let _t = crate::core::timings::stage("update: lists (beside link)");
                draw_lists(&r, &lists)
            },
        );
        let (graph, before) = linked;
        next.graph = graph;
        edit.set_before(before);
        diags.sort();
        let drawn = match drawn {
            Ok(d) if !diags.has_errors() => d,
            // Content errors first: they are what the author must see.
            failed => {
                drop(r);
                self.links.failed();
                self.analysis = edit.revert(next);
                return Err(match failed {
                    Err(e) if !diags.has_errors() => e,
                    _ => Error::Content {
                        errors: diags.error_count(),
                        diags,
                    },
                });
            }
        };
        next.diags = diags.clone();
        let changes = {
            let _t = crate::core::timings::stage("update: affected");
            edit.changes(&next.graph)
        };
        // The kept search index follows on the way; when the update fails it is dropped, and
        // the next update makes it whole again (the files on disk may be half way).
        let mut index = self.search.take();
        let mut lines = self.lines.take();
        let written = self.write_affected(&r, &next, &changes, (&mut index, &mut lines), drawn);
        drop(r);
        match written {
            Ok(mut up) => {
                self.search = index;
                self.lines = lines;
                if let Some(f) = written_early.filter(|f| !up.written.contains(f)) {
                    up.written.push(f);
                    up.written.sort();
                }
                self.file_diags = edit.into_file_diags();
                self.analysis = next;
                up.millis = started.elapsed().as_millis();
                Ok((up, diags))
            }
            Err(e) => {
                self.links.failed();
                self.analysis = edit.revert(next);
                Err(e)
            }
        }
    }

    /// One page edited in place (same ID, no parse errors): render and write it now, with the
    /// links as they were; its output file when its bytes changed.
    fn write_early(
        &self,
        r: &Renderer<'_>,
        catalog: &Catalog,
        edit: &Edit,
        rel: &[PathBuf],
        started: Instant,
        early: &mut dyn FnMut(&str, u128),
    ) -> Option<String> {
        let page = edit.single_page(rel)?;
        let old = edit.old_graph()?;
        let (site, wrote) = self.write_page(r, catalog, old, &page).ok()?;
        early(&site, started.elapsed().as_millis());
        wrote.then(|| crate::core::urls::file_of(&site))
    }
}
