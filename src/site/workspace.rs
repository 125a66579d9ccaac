//! The workspace: a catalog held in memory between changes, as `serve` keeps it. It holds every
//! content file's text and parse result, and parses a file again only when its text changed.
//! Each `snapshot` runs the same analysis as a build over them (`analysis::link_stage`) and
//! answers any file of the site on request with the same rendering (`build::run_job`,
//! `build::catalog_files`): only what is asked is rendered, once per snapshot.

use super::analysis::{link_stage, Analysis, Scope};
use super::build::{catalog_files, jobs, run_job, to_json, Job, Wanted};
use crate::core::config::{Config, EntryJson};
use crate::core::diag::{Diagnostic, Diagnostics};
use crate::core::error::{Error, Result};
use crate::core::model::PageKind;
use crate::core::urls;
use crate::load::SourceFile;
use crate::parse::{Done, Parsed};
use crate::records::RecordSet;
use crate::render::{Look, Renderer};
use crate::view::Resolver;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

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
        let t = crate::core::timings::stage("  read");
        match content_only {
            Some(paths) => self.read_again(paths, timeout)?,
            None => self.read_all(timeout)?,
        }
        drop(t);
        let t = crate::core::timings::stage("  catalog");
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
        let catalog = crate::parse::catalog_of(done, &text_of, &mut diags);
        drop(t);
        let records = match self.records.take() {
            Some(r) => r,
            None => Arc::new(RecordSet::load(&root, &cfg)?),
        };
        let scope = Scope {
            infer: true,
            drafts: self.drafts,
            review: false,
            lean: false,
        };
        let parsed = (files, catalog);
        let analysis = link_stage(
            &root,
            &cfg,
            scope,
            parsed,
            (diags, &records),
            &mut |_, _| {},
        )?;
        let look = match self.look.take() {
            Some(look) => look,
            None => Arc::new(Look::load(&root, &cfg)?),
        };
        (self.cfg, self.look, self.records) =
            (Some(cfg.clone()), Some(look.clone()), Some(records.clone()));
        if analysis.diags.has_errors() {
            return Err(Error::Content {
                errors: analysis.diags.error_count(),
                diags: analysis.diags,
            });
        }
        let _t = crate::core::timings::stage("  routes");
        let snapshot = Snapshot::new(root, cfg, analysis, (records, look));
        Ok(Snapshot {
            millis: started.elapsed().as_millis(),
            ..snapshot
        })
    }

    /// Read and parse every content file, keeping the parse of those whose text is the same.
    fn read_all(&mut self, timeout: u64) -> Result<()> {
        use rayon::prelude::*;
        let paths = crate::load::content_paths(&self.root)?;
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
            let kind = match rel.starts_with(crate::load::ERRORS_DIR) {
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
    let file = match crate::load::read_one(root, *kind, rel)? {
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
            let (parsed, diags) = crate::parse::parse_file(&file, timeout);
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
    let under = [crate::load::ERRORS_DIR, crate::load::ARTICLES_DIR]
        .iter()
        .any(|d| rel.starts_with(d));
    under && rel.extension().is_some_and(|e| e == "md") && !root.join(rel).is_dir()
}

/// The site as one state of the catalog gives it: any of its files, made when first asked.
pub struct Snapshot {
    root: PathBuf,
    cfg: Config,
    analysis: Analysis,
    records: Arc<RecordSet>,
    look: Arc<Look>,
    /// The site's files made one at a time (pages, entries' JSON, the theme's files), by path.
    routes: HashMap<String, Route>,
    /// The site path of every page, in the order a build renders them.
    pages: Vec<String>,
    /// The files made from the whole catalog at once (its JSON, sitemap, feed, search index).
    whole: OnceLock<std::result::Result<HashMap<String, Arc<Vec<u8>>>, String>>,
    /// The files made so far.
    made: Mutex<HashMap<String, Arc<Vec<u8>>>>,
    millis: u128,
}

/// How one file of the site is made.
#[derive(Debug, Clone)]
enum Route {
    Page(Job),
    /// The JSON of the entry at this index, alone (`build.entry_json = "files"`).
    EntryJson(usize),
    /// The JSON of a domain's entries (`"domains"`): the entries from `.0`, `.1` of them.
    DomainJson(String, usize, usize),
    /// A file of the theme, under `theme/`.
    Theme(String),
}

impl Snapshot {
    fn new(
        root: PathBuf,
        cfg: Config,
        analysis: Analysis,
        (records, look): (Arc<RecordSet>, Arc<Look>),
    ) -> Snapshot {
        let cat = &analysis.catalog;
        let r = Renderer::with_look(look.clone(), &cfg, cat, false);
        let mut routes: HashMap<String, Route> = HashMap::new();
        let mut pages = Vec::new();
        for job in jobs(cat, r.lists.pages.len()) {
            let path = match job {
                Job::Entry(i) => urls::entry(&cat.entries[i].id),
                Job::Article(i) => urls::article(&cat.articles[i].id),
                Job::List(i) => r.lists.pages[i].path.clone(),
            };
            routes.insert(urls::file_of(&path), Route::Page(job));
            pages.push(path);
        }
        match cfg.build.entry_json {
            EntryJson::None => {}
            EntryJson::Files => {
                for (i, e) in cat.entries.iter().enumerate() {
                    routes.insert(urls::entry_json(&e.id), Route::EntryJson(i));
                }
            }
            EntryJson::Domains => {
                let mut start = 0;
                while let Some(first) = cat.entries.get(start) {
                    let domain = urls::id_domain(&first.id);
                    let n = (cat.entries[start..].iter())
                        .take_while(|e| urls::id_domain(&e.id) == domain)
                        .count();
                    let route = Route::DomainJson(domain.to_string(), start, n);
                    routes.insert(urls::domain_json(domain), route);
                    start += n;
                }
            }
        }
        for rel in look.theme_files.keys() {
            routes.insert(format!("theme/{rel}"), Route::Theme(rel.clone()));
        }
        drop(r);
        Snapshot {
            root,
            cfg,
            analysis,
            records,
            look,
            routes,
            pages,
            whole: OnceLock::new(),
            made: Mutex::new(HashMap::new()),
            millis: 0,
        }
    }

    /// The warnings of the analysis.
    pub fn diagnostics(&self) -> &Diagnostics {
        &self.analysis.diags
    }

    /// The pages of the site (entries, articles and lists).
    pub fn pages(&self) -> usize {
        self.pages.len()
    }

    /// How long reading and analysing the catalog took.
    pub fn millis(&self) -> u128 {
        self.millis
    }

    /// The site's root folder (its `static/` files are served as they are).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Whether `rel` (a path in the site, without a leading `/`) is a folder of pages.
    pub fn is_folder(&self, rel: &str) -> bool {
        let rel = rel.trim_end_matches('/');
        self.routes.contains_key(&format!("{rel}/index.html"))
    }

    /// The bytes of the site's file `rel` (a path in the site, without a leading `/`), the same
    /// as a hosted build writes; `None` where the site has no such file (its `static/` files
    /// aside, which are not made).
    pub fn file(&self, rel: &str) -> Result<Option<Arc<Vec<u8>>>> {
        if let Some(made) = self.lock().get(rel) {
            return Ok(Some(made.clone()));
        }
        let bytes = match self.routes.get(rel) {
            Some(route) => Arc::new(self.make(route)?),
            None if from_whole(rel) => return self.whole().map(|w| w.get(rel).cloned()),
            None => return Ok(None),
        };
        self.lock().insert(rel.to_string(), bytes.clone());
        Ok(Some(bytes))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Vec<u8>>>> {
        self.made.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Make one file.
    fn make(&self, route: &Route) -> Result<Vec<u8>> {
        let cat = &self.analysis.catalog;
        let r = Renderer::with_look(self.look.clone(), &self.cfg, cat, false);
        let resolver = Resolver::new(cat, &self.analysis.graph, &self.records);
        Ok(match route {
            Route::Page(job) => run_job(&r, &resolver, job)?.html.into_bytes(),
            Route::EntryJson(i) => entry_json(&resolver, *i)?,
            Route::DomainJson(domain, start, n) => {
                use crate::render::shards;
                let mut out = shards::head(domain);
                for i in *start..*start + *n {
                    let json = entry_json(&resolver, i)?;
                    out.extend(shards::line(i == *start, &cat.entries[i].id, &json));
                }
                out.extend_from_slice(shards::TAIL);
                out
            }
            Route::Theme(rel) => self.look.theme_files.get(rel).cloned().unwrap_or_default(),
        })
    }

    /// The files made from the whole catalog, made once for this snapshot.
    fn whole(&self) -> Result<&HashMap<String, Arc<Vec<u8>>>> {
        let made = self.whole.get_or_init(|| {
            let cat = &self.analysis.catalog;
            let resolver = Resolver::new(cat, &self.analysis.graph, &self.records);
            let files = catalog_files(&self.cfg, &resolver, &self.pages, false, Wanted::ALL)
                .map_err(|e| e.to_string())?;
            Ok(files
                .into_iter()
                .map(|f| (f.path, Arc::new(f.bytes)))
                .collect())
        });
        made.as_ref().map_err(|e| Error::Other(e.clone()))
    }
}

/// Whether `rel` is one of the files made from the whole catalog.
fn from_whole(rel: &str) -> bool {
    rel.starts_with("api/")
        || rel.starts_with("search/")
        || rel.starts_with("sitemap")
        || rel == "feed.xml"
}

/// The JSON of the `i`th entry, from its view.
fn entry_json(resolver: &Resolver<'_>, i: usize) -> Result<Vec<u8>> {
    let e =
        (resolver.catalog.entries.get(i)).ok_or_else(|| Error::Other(format!("no entry {i}")))?;
    to_json(&crate::render::api::entry(&resolver.entry(e)))
}
