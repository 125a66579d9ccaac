//! A snapshot: the site as one state of the catalog gives it. Each file is made when first
//! asked, with the build's own rendering (`build::run_job` for a page, `build::catalog_files`
//! for what is made from the whole catalog), and kept for as long as the snapshot is served.

use super::analysis::Analysis;
use super::build::{catalog_files, jobs, run_job, to_json, Job, Wanted};
use errbook_core::config::{Config, EntryJson};
use errbook_core::diag::Diagnostics;
use errbook_core::error::{Error, Result};
use errbook_core::urls;
use errbook_records::RecordSet;
use errbook_render::view::Resolver;
use errbook_render::{Look, Renderer};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Files of the site by their path, each as it was made.
type Files = HashMap<String, Arc<Vec<u8>>>;

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
    whole: OnceLock<std::result::Result<Files, Arc<Error>>>,
    /// The files made so far.
    made: Mutex<Files>,
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
    pub(super) fn new(
        root: PathBuf,
        cfg: Config,
        analysis: Analysis,
        (records, look): (Arc<RecordSet>, Arc<Look>),
        started: std::time::Instant,
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
            millis: started.elapsed().as_millis(),
        }
    }

    /// The analysis the site is made from.
    pub(crate) fn analysis(&self) -> &Analysis {
        &self.analysis
    }

    /// The analysis again, once the site has been asked what it needed.
    pub(crate) fn into_analysis(self) -> Analysis {
        self.analysis
    }

    /// The site path of every page, in the order a build renders them.
    pub(crate) fn page_paths(&self) -> &[String] {
        &self.pages
    }

    /// Whether the site path `path` (`errors/a/b/`) is a page.
    pub(crate) fn is_page(&self, path: &str) -> bool {
        matches!(self.routes.get(&urls::file_of(path)), Some(Route::Page(_)))
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

    fn lock(&self) -> std::sync::MutexGuard<'_, Files> {
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
                use errbook_render::shards;
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
    fn whole(&self) -> Result<&Files> {
        let made = self.whole.get_or_init(|| {
            let cat = &self.analysis.catalog;
            let resolver = Resolver::new(cat, &self.analysis.graph, &self.records);
            let files = catalog_files(&self.cfg, &resolver, &self.pages, false, Wanted::ALL)
                .map_err(Arc::new)?;
            Ok(files
                .into_iter()
                .map(|f| (f.path, Arc::new(f.bytes)))
                .collect())
        });
        made.as_ref().map_err(|e| Error::Shared(e.clone()))
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
    let e = (resolver.catalog.entries.get(i)).ok_or_else(|| Error::Bug(format!("no entry {i}")))?;
    to_json(&errbook_render::api::entry(&resolver.entry(e)))
}
