//! The workspace: a catalog held in memory between changes, as `serve` keeps it. It holds every
//! content file's text and parse result (and its page's record diagnostics as the last check
//! found them), and parses a file again only when its text changed; what else a snapshot read
//! (configuration, theme, records) is kept until a change names it.
//! Each `snapshot` runs the same analysis as a build over them (`analysis::link_stage`) and
//! hands it to a `Snapshot`, which makes the site's files when they are asked for. An editor's
//! unsaved texts (the language server's open documents) are held here too and read instead of
//! the disk (`set_open`); `check` gives the analysis with `check`'s diagnostics, errors or not.

use super::analysis::{link_stage, Analysis, Scope};
use super::snapshot::Snapshot;
use errbook_core::config::Config;
use errbook_core::diag::{Diagnostic, Diagnostics};
use errbook_core::error::{Error, Result};
use errbook_core::model::PageKind;
use errbook_parse::load::SourceFile;
use errbook_parse::{Done, Parsed};
use errbook_records::RecordSet;
use errbook_render::Look;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The catalog at a root, kept between changes.
pub struct Workspace {
    root: PathBuf,
    drafts: bool,
    /// Each content file as last read (and parsed), by kind (entries first) and path.
    files: BTreeMap<(PageKind, PathBuf), Read>,
    /// What the last snapshot read besides the content, kept until a change names it.
    cfg: Option<Config>,
    look: Option<Arc<Look>>,
    records: Option<Arc<RecordSet>>,
    /// The texts an editor holds for content files (by path under the root), read instead of
    /// the disk.
    open: HashMap<PathBuf, Arc<str>>,
}

/// One content file as last read: parsed, or why it could not be read.
enum Read {
    Parsed(ParsedFile),
    Unread(Diagnostic),
}

/// One content file's text and parse, and what the records said of its page at the last check.
struct ParsedFile {
    file: SourceFile,
    parsed: Parsed,
    diags: Diagnostics,
    /// The page's record diagnostics (`check::page_records`) and the records they were found in:
    /// kept while the parse and the records are these.
    records: Option<(Arc<RecordSet>, Vec<Diagnostic>)>,
}

impl Workspace {
    /// The catalog at `root` (nothing read yet); `drafts`: keep the pages marked as drafts.
    pub fn new(root: &Path, drafts: bool) -> Workspace {
        Workspace {
            root: root.to_path_buf(),
            drafts,
            files: BTreeMap::new(),
            cfg: None,
            look: None,
            records: None,
            open: HashMap::new(),
        }
    }

    /// Read `text` as the content file `rel`'s (under the root) from now on, in place of what
    /// is on disk; `None` goes back to the disk. The next snapshot or check names `rel` as
    /// changed to read it.
    pub fn set_open(&mut self, rel: &Path, text: Option<Arc<str>>) {
        let rel = rel.strip_prefix(&self.root).unwrap_or(rel).to_path_buf();
        match text {
            Some(t) => self.open.insert(rel, t),
            None => self.open.remove(&rel),
        };
    }

    /// The catalog as it is now with every diagnostic `check` gives: the analysis, the
    /// records' warnings, and the links within the site written in `links_of` (paths under the
    /// root; all files when `None`). Errors come back in the analysis, not as an `Err`. The
    /// links authors did not write are not inferred: no diagnostic comes from them, and they
    /// took most of the link stage's time.
    pub fn check(
        &mut self,
        changed: Option<&[PathBuf]>,
        links_of: Option<&[PathBuf]>,
    ) -> Result<Analysis> {
        let (cfg, mut analysis, records) = self.analyse(changed, false)?;
        let t = tracing::info_span!("records").entered();
        let found = self.records_of(&analysis, &records);
        analysis.diags.extend(found);
        drop(t);
        let _t = tracing::info_span!("links within").entered();
        let look = self.look()?;
        let (root, theirs) = (self.root.clone(), (records, Some(look)));
        let (mut analysis, links) =
            super::internal::check(&root, &cfg, analysis, theirs, links_of)?;
        analysis.diags.extend(links);
        analysis.diags.sort();
        Ok(analysis)
    }

    /// `check::records` over the catalog of `analysis`: each page's diagnostics kept from the
    /// last check while its file's parse and the records are the same, so that a change to one
    /// file finds those of that file alone again.
    fn records_of(&mut self, analysis: &Analysis, set: &Arc<RecordSet>) -> Vec<Diagnostic> {
        use errbook_core::model::Page;
        let cat = &analysis.catalog;
        let mut out = Vec::new();
        for read in self.files.values_mut() {
            let Read::Parsed(p) = read else { continue };
            // The catalog's page for this file: the same parse (a duplicate ID's later file
            // and a draft left out are not).
            let page = match &p.parsed {
                Parsed::Entry(e) => (cat.entry(&e.id))
                    .filter(|x| std::ptr::eq(*x, &**e))
                    .map(Page::Entry),
                Parsed::Article(a) => (cat.article(&a.id))
                    .filter(|x| std::ptr::eq(*x, &**a))
                    .map(Page::Article),
                Parsed::Failed => None,
            };
            let Some(page) = page else { continue };
            let kept = (p.records.as_ref()).filter(|(s, _)| Arc::ptr_eq(s, set));
            let found = match kept {
                Some((_, found)) => found,
                None => {
                    let found = super::check::page_records(page, &p.file.text, set);
                    &p.records.insert((set.clone(), found)).1
                }
            };
            out.extend(found.iter().cloned());
        }
        out.extend(super::check::set_records(analysis, set));
        out
    }

    /// The records the last snapshot or check read, if one did.
    pub fn records(&self) -> Option<Arc<RecordSet>> {
        self.records.clone()
    }

    /// The theme, loaded once until a change names it.
    fn look(&mut self) -> Result<Arc<Look>> {
        if let Some(look) = &self.look {
            return Ok(look.clone());
        }
        let cfg = match &self.cfg {
            Some(cfg) => cfg.clone(),
            None => Config::load(&self.root)?,
        };
        let look = Arc::new(super::theme::load(&self.root, &cfg)?);
        self.look = Some(look.clone());
        Ok(look)
    }

    /// The catalog as it is now, analysed as a build does. `changed`: the paths changed since
    /// the last snapshot, if known; only those are read again, and a content file is parsed
    /// again only when its text changed. Content errors come back as `Error::Content`.
    #[tracing::instrument(name = "snapshot", skip_all, fields(changed = changed.map(<[PathBuf]>::len)))]
    pub fn snapshot(&mut self, changed: Option<&[PathBuf]>) -> Result<Snapshot> {
        let started = std::time::Instant::now();
        let (cfg, analysis, records) = self.analyse(changed, true)?;
        let look = self.look()?;
        if analysis.diags.has_errors() {
            return Err(Error::Content {
                errors: analysis.diags.error_count(),
                diags: analysis.diags,
            });
        }
        let _t = tracing::info_span!("routes").entered();
        let root = self.root.clone();
        Ok(Snapshot::new(root, cfg, analysis, (records, look), started))
    }

    /// Read what `changed` names again (everything when `None`) and run the link stage (with
    /// the links authors did not write when `infer`): the configuration, the analysis and the
    /// records it used.
    fn analyse(
        &mut self,
        changed: Option<&[PathBuf]>,
        infer: bool,
    ) -> Result<(Config, Analysis, Arc<RecordSet>)> {
        let root = self.root.clone();
        let under = |p: &Path, dir: &Path| p.strip_prefix(&root).unwrap_or(p).starts_with(dir);
        let named = |dir: &Path| changed.is_none_or(|c| c.iter().any(|p| under(p, dir)));
        if named(Path::new("book.toml")) || self.cfg.is_none() {
            self.cfg = None;
            self.look = None;
            self.records = None;
        }
        let cfg = match self.cfg.take() {
            Some(cfg) => cfg,
            None => Config::load(&root)?,
        };
        let timeout = cfg.verify.timeout_s;
        if named(Path::new("themes")) {
            self.look = None;
        }
        if named(&cfg.verify.records_dir) {
            self.records = None;
        }
        let content_only = changed.filter(|c| c.iter().all(|p| is_content_file(&root, p)));
        let t = tracing::info_span!("read").entered();
        match content_only {
            Some(paths) => self.read_again(paths, timeout)?,
            None => self.read_all(timeout)?,
        }
        drop(t);
        // Each page is shared with the file's parse held here (`Parsed`): a pointer copied.
        let t = tracing::info_span!("catalog").entered();
        let mut diags = Diagnostics::default();
        let mut files = Vec::with_capacity(self.files.len());
        let mut done = Vec::with_capacity(self.files.len());
        for read in self.files.values() {
            match read {
                Read::Parsed(p) => {
                    done.push(Done::of(&p.file, (p.parsed.clone(), p.diags.clone())));
                    files.push(p.file.clone());
                }
                Read::Unread(d) => diags.push(d.clone()),
            }
        }
        let text_of = |p: &Path| match self.files.get(&(kind_of(p), p.to_path_buf())) {
            Some(Read::Parsed(f)) => Some(f.file.clone()),
            _ => None,
        };
        let catalog = errbook_parse::catalog_of(done, &text_of, &mut diags);
        drop(t);
        let records = match self.records.take() {
            Some(r) => r,
            None => Arc::new(RecordSet::load(&root, &cfg)?),
        };
        let scope = Scope {
            infer,
            drafts: self.drafts,
            review: false,
            entry_texts: true,
        };
        let parsed = (files, catalog);
        let analysis = link_stage(&root, &cfg, scope, parsed, (diags, &records))?;
        self.records = Some(records.clone());
        self.cfg = Some(cfg.clone());
        Ok((cfg, analysis, records))
    }

    /// Read and parse every content file, keeping the parse of those whose text is the same.
    fn read_all(&mut self, timeout: u64) -> Result<()> {
        use rayon::prelude::*;
        let mut paths = errbook_parse::load::content_paths(&self.root)?;
        for rel in self.open.keys() {
            let key = (kind_of(rel), rel.clone());
            if is_content_file(&self.root, rel) && !paths.contains(&key) {
                paths.push(key);
            }
        }
        let old = std::mem::take(&mut self.files);
        let open = &self.open;
        let read: Vec<Result<((PageKind, PathBuf), Read)>> = (paths.into_par_iter())
            .map(|key| {
                let text = open.get(&key.1).cloned();
                let read = read_file(&self.root, &key, (old.get(&key), text), timeout)?;
                Ok((key, read))
            })
            .collect();
        self.files = read.into_iter().collect::<Result<_>>()?;
        Ok(())
    }

    /// Read the content files `paths` again (absolute, or under the root): those gone are
    /// forgotten.
    fn read_again(&mut self, paths: &[PathBuf], timeout: u64) -> Result<()> {
        for p in paths {
            let rel = p.strip_prefix(&self.root).unwrap_or(p).to_path_buf();
            let key = (kind_of(&rel), rel);
            let text = self.open.get(&key.1).cloned();
            if text.is_none() && !self.root.join(&key.1).is_file() {
                self.files.remove(&key);
                continue;
            }
            let read = read_file(&self.root, &key, (self.files.get(&key), text), timeout)?;
            self.files.insert(key, read);
        }
        Ok(())
    }
}

/// Whether the content file `rel` is an entry's or an article's.
fn kind_of(rel: &Path) -> PageKind {
    match rel.starts_with(errbook_parse::load::ERRORS_DIR) {
        true => PageKind::Entry,
        false => PageKind::Article,
    }
}

/// Read the content file `rel` (or take `open`, an editor's text for it); parse it unless its
/// text is `before`'s.
fn read_file(
    root: &Path,
    (kind, rel): &(PageKind, PathBuf),
    (before, open): (Option<&Read>, Option<Arc<str>>),
    timeout: u64,
) -> Result<Read> {
    let read = match open {
        Some(text) => errbook_parse::load::check_text(rel, text.as_bytes().to_vec())
            .map(|text| SourceFile {
                kind: *kind,
                path: rel.clone(),
                text,
            })
            .map_err(|d| *d),
        None => errbook_parse::load::read_one(root, *kind, rel)?,
    };
    let file = match read {
        Ok(file) => file,
        Err(d) => return Ok(Read::Unread(d)),
    };
    Ok(Read::Parsed(match before {
        Some(Read::Parsed(p)) if p.file.text == file.text => ParsedFile {
            file,
            parsed: p.parsed.clone(),
            diags: p.diags.clone(),
            records: p.records.clone(),
        },
        _ => {
            let (parsed, diags) = errbook_parse::parse_file(&file, timeout);
            ParsedFile {
                file,
                parsed,
                diags,
                records: None,
            }
        }
    }))
}

/// Whether `path` (absolute, or under `root`) is a content file's: a `.md` under the entries'
/// or the articles' folder, there or gone.
fn is_content_file(root: &Path, path: &Path) -> bool {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let under = [
        errbook_parse::load::ERRORS_DIR,
        errbook_parse::load::ARTICLES_DIR,
    ]
    .iter()
    .any(|d| rel.starts_with(d));
    under && rel.extension().is_some_and(|e| e == "md") && !root.join(rel).is_dir()
}
