//! The workspace: a catalog held in memory between changes, as `serve` keeps it. It holds every
//! content file's text and parse result, and parses a file again only when its text changed;
//! what else a snapshot read (configuration, theme, records) is kept until a change names it.
//! Each `snapshot` runs the same analysis as a build over them (`analysis::link_stage`) and
//! hands it to a `Snapshot`, which makes the site's files when they are asked for.

use super::analysis::{link_stage, Scope};
use super::snapshot::Snapshot;
use errbook_core::config::Config;
use errbook_core::diag::{Diagnostic, Diagnostics};
use errbook_core::error::{Error, Result};
use errbook_core::model::PageKind;
use errbook_parse::load::SourceFile;
use errbook_parse::{Done, Parsed};
use errbook_records::RecordSet;
use errbook_render::Look;
use std::collections::BTreeMap;
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
}

/// One content file as last read: parsed, or why it could not be read.
enum Read {
    Parsed(ParsedFile),
    Unread(Diagnostic),
}

/// One content file's text and parse.
struct ParsedFile {
    file: SourceFile,
    parsed: Parsed,
    diags: Diagnostics,
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
        }
    }

    /// The catalog as it is now, analysed as a build does. `changed`: the paths changed since
    /// the last snapshot, if known; only those are read again, and a content file is parsed
    /// again only when its text changed. Content errors come back as `Error::Content`.
    #[tracing::instrument(name = "snapshot", skip_all, fields(changed = changed.map(<[PathBuf]>::len)))]
    pub fn snapshot(&mut self, changed: Option<&[PathBuf]>) -> Result<Snapshot> {
        let started = std::time::Instant::now();
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
        let text_of = |p: &Path| files.iter().find(|f| f.path == p).cloned();
        let catalog = errbook_parse::catalog_of(done, &text_of, &mut diags);
        drop(t);
        let records = match self.records.take() {
            Some(r) => r,
            None => Arc::new(RecordSet::load(&root, &cfg)?),
        };
        let scope = Scope {
            infer: true,
            drafts: self.drafts,
            review: false,
            entry_texts: true,
        };
        let parsed = (files, catalog);
        let analysis = link_stage(&root, &cfg, scope, parsed, (diags, &records))?;
        let look = match self.look.take() {
            Some(look) => look,
            None => Arc::new(super::theme::load(&root, &cfg)?),
        };
        (self.cfg, self.look, self.records) =
            (Some(cfg.clone()), Some(look.clone()), Some(records.clone()));
        if analysis.diags.has_errors() {
            return Err(Error::Content {
                errors: analysis.diags.error_count(),
                diags: analysis.diags,
            });
        }
        let _t = tracing::info_span!("routes").entered();
        Ok(Snapshot::new(root, cfg, analysis, (records, look), started))
    }

    /// Read and parse every content file, keeping the parse of those whose text is the same.
    fn read_all(&mut self, timeout: u64) -> Result<()> {
        use rayon::prelude::*;
        let paths = errbook_parse::load::content_paths(&self.root)?;
        let old = std::mem::take(&mut self.files);
        let read: Vec<Result<((PageKind, PathBuf), Read)>> = (paths.into_par_iter())
            .map(|key| {
                let read = read_file(&self.root, &key, old.get(&key), timeout)?;
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
            let kind = match rel.starts_with(errbook_parse::load::ERRORS_DIR) {
                true => PageKind::Entry,
                false => PageKind::Article,
            };
            let key = (kind, rel);
            if !self.root.join(&key.1).is_file() {
                self.files.remove(&key);
                continue;
            }
            let read = read_file(&self.root, &key, self.files.get(&key), timeout)?;
            self.files.insert(key, read);
        }
        Ok(())
    }
}

/// Read the content file `rel`; parse it unless its text is `before`'s.
fn read_file(
    root: &Path,
    (kind, rel): &(PageKind, PathBuf),
    before: Option<&Read>,
    timeout: u64,
) -> Result<Read> {
    let file = match errbook_parse::load::read_one(root, *kind, rel)? {
        Ok(file) => file,
        Err(d) => return Ok(Read::Unread(d)),
    };
    Ok(Read::Parsed(match before {
        Some(Read::Parsed(p)) if p.file.text == file.text => ParsedFile {
            file,
            parsed: p.parsed.clone(),
            diags: p.diags.clone(),
        },
        _ => {
            let (parsed, diags) = errbook_parse::parse_file(&file, timeout);
            ParsedFile {
                file,
                parsed,
                diags,
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
