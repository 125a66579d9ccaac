//! The build: analyse, then render every page and file of the site into a staging folder and
//! swap it in (`write`). On content errors nothing is written and the old output stays whole.

use super::analysis::{Analysis, Scope};
use errbook_core::config::{Config, EntryJson};
use errbook_core::diag::Diagnostics;
use errbook_core::error::Result;
use errbook_core::model::Entry;
use errbook_core::output::OutFile;
use errbook_records::RecordSet;
use errbook_render::view::Resolver;
use errbook_render::Renderer;
use std::path::Path;

/// How to build.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// Output directory (absolute or relative to the current directory).
    pub dest: std::path::PathBuf,
    /// A bundle that works from file://: every link names its file, no fetch, no modules.
    pub offline: bool,
    /// Render with one thread (output must be identical).
    pub single_thread: bool,
    /// Skip link inference.
    pub no_infer: bool,
    /// Build the pages marked `draft: true` too.
    pub drafts: bool,
    /// Told of each page rendered (the command draws it; the library prints nothing).
    pub progress: Option<OnProgress>,
}

/// A build's progress callback: `(pages rendered, pages in all)`, called from the threads that
/// render, once per page.
#[derive(Clone)]
pub struct OnProgress(pub std::sync::Arc<dyn Fn(usize, usize) + Send + Sync>);

impl std::fmt::Debug for OnProgress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OnProgress")
    }
}

/// What a build did.
#[derive(Debug, Clone, Default)]
pub struct BuildReport {
    pub pages: usize,
    pub files_written: usize,
    pub millis: u128,
    /// The whole site's files, bytes and largest file, for the hosts' limits.
    pub size: errbook_write::SiteSize,
}

/// The whole pipeline. On content errors nothing is written and the old output stays whole.
pub fn build(root: &Path, cfg: &Config, opts: &BuildOptions) -> Result<(BuildReport, Diagnostics)> {
    let started = std::time::Instant::now();
    cfg.check_output(root, &opts.dest)?;
    let run = || -> Result<(BuildReport, Diagnostics)> {
        let scope = Scope {
            infer: !opts.no_infer,
            drafts: opts.drafts,
            // A build only needs the links drawn, not the candidates left out (`check --links`).
            review: false,
            entry_texts: false,
        };
        let mut analysis = super::analyse_with(root, cfg, scope)?;
        if analysis.diags.has_errors() {
            return Err(errbook_core::error::Error::Content {
                errors: analysis.diags.error_count(),
                diags: analysis.diags,
            });
        }
        let records = RecordSet::load(root, cfg)?;
        let stage = errbook_write::Staging::new(&opts.dest)?;
        // Rendering reads the model, not the sources: free the articles' texts too.
        analysis.files = Vec::new();
        let render = render_into(root, cfg, &analysis, &records, opts, &stage);
        let (pages, files) = match render {
            Ok(counts) => counts,
            Err(e) => {
                stage.abandon(&e);
                return Err(e);
            }
        };
        let t = tracing::info_span!("write").entered();
        let size = stage.commit()?;
        drop(t);
        let report = BuildReport {
            pages,
            files_written: files,
            size,
            millis: started.elapsed().as_millis(),
        };
        Ok((report, analysis.diags))
    };
    if opts.single_thread {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .map_err(|e| errbook_core::error::Error::system("cannot make a thread pool", e))?;
        pool.install(run)
    } else {
        run()
    }
}

/// Render every page and file of the site into `stage`; returns (pages, files).
fn render_into(
    root: &Path,
    cfg: &Config,
    analysis: &Analysis,
    records: &RecordSet,
    opts: &BuildOptions,
    stage: &errbook_write::Staging,
) -> Result<(usize, usize)> {
    let offline = opts.offline;
    let t = tracing::info_span!("render").entered();
    let render = t.id();
    let cat = &analysis.catalog;
    let look = std::sync::Arc::new(super::theme::load(root, cfg)?);
    let mut r = Renderer::with_look(look, cfg, cat, offline);
    r.highlights = errbook_render::highlight::Memo::for_catalog(cat, &cfg.build.default_code_lang);
    let resolver = Resolver::new(cat, &analysis.graph, records);
    let jobs = jobs(cat, r.lists.pages.len());
    let mode = cfg.build.entry_json;
    let done = std::sync::atomic::AtomicUsize::new(0);
    let tell = || {
        if let Some(OnProgress(f)) = &opts.progress {
            f(
                done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
                jobs.len(),
            );
        }
    };
    // The search index needs only the model and the graph: it is built while the pages render,
    // so that its serial parts run beside them rather than after, and written as soon as it is
    // made, so that memory does not hold it to the end.
    let (rendered, search) = rayon::join(
        || render_groups(&r, &resolver, stage, &jobs, mode, &tell),
        || -> Result<usize> {
            let _t = tracing::info_span!(parent: render, "search").entered();
            let write = &mut |f: &OutFile| stage.write(&f.path, &f.bytes);
            let hints = resolver.search_hints();
            errbook_search::write_files(cat, &analysis.graph, &hints, cfg, offline, write)
        },
    );
    let (paths, mut files) = rendered?;
    let written = search?;
    files += written;
    drop(t);

    // Feeds, theme and site files; the catalog's and the graph's JSON written as they are
    // serialised (each grows with the catalog).
    let t = tracing::info_span!("index").entered();
    {
        let _t = tracing::info_span!("catalog.json").entered();
        let discussed = resolver.discussed_by_article();
        let each = cat.entries.iter();
        let lines = each.map(|e| errbook_render::api::catalog_entry(e, cfg));
        let mut file = stage.stream("api/catalog.json")?;
        errbook_render::api::catalog_json(&mut file, cat, lines, &discussed, cfg)
            .map_err(|e| stream_error("api/catalog.json", e))?;
        file.finish()?;
    }
    {
        let _t = tracing::info_span!("links.json").entered();
        stream_json(stage, "api/links.json", &analysis.graph)?;
    }
    files += 2;
    let want = Wanted {
        sitemap: true,
        feed: true,
        ..Wanted::NONE
    };
    for f in catalog_files(cfg, &resolver, &paths, offline, want)? {
        stage.write(&f.path, &f.bytes)?;
        files += 1;
    }
    for (rel, bytes) in &r.look.theme_files {
        stage.write(&format!("theme/{rel}"), bytes)?;
    }
    files += r.look.theme_files.len();
    files += stage.copy_tree(&root.join("static"), "")?;
    drop(t);
    Ok((paths.len(), files))
}

/// Entries of a domain rendered at a time when their JSON goes into the domain's file: their
/// JSON is written before the next ones are rendered.
const DOMAIN_CHUNK: usize = 512;

/// Render the pages in their groups (`job_groups`) into `stage`, with the entries' JSON as
/// `mode` asks; returns each page's site path and the number of files written.
fn render_groups(
    r: &Renderer<'_>,
    resolver: &Resolver<'_>,
    stage: &errbook_write::Staging,
    jobs: &[Job],
    mode: EntryJson,
    tell: &(dyn Fn() + Sync),
) -> Result<(Vec<String>, usize)> {
    use errbook_render::shards;
    let cat = resolver.catalog;
    let mut paths: Vec<String> = Vec::with_capacity(jobs.len());
    let mut files = 0;
    // Entries of one domain are rendered together when their JSON goes into the domain's file,
    // a few hundred at a time, each lot's JSON written to the file before the next is rendered,
    // so that memory holds neither a domain's JSON nor its file.
    for group in job_groups(cat, jobs, mode) {
        let domain = match group.first() {
            Some(Job::Entry(first)) if mode == EntryJson::Domains => {
                Some(errbook_core::urls::id_domain(&cat.entries[*first].id))
            }
            _ => None,
        };
        let Some(domain) = domain else {
            let outs = render_jobs(r, resolver, stage, group, mode, tell)?;
            paths.extend(outs.into_iter().map(|(p, _)| p));
            continue;
        };
        let mut file = stage.stream(&errbook_core::urls::domain_json(domain))?;
        file.write(&shards::head(domain))?;
        let mut first = true;
        for lot in group.chunks(DOMAIN_CHUNK) {
            let outs = render_jobs(r, resolver, stage, lot, mode, tell)?;
            for (j, (path, json)) in lot.iter().zip(outs) {
                if let (Job::Entry(i), Some(json)) = (j, json) {
                    file.write(&shards::line(first, &cat.entries[*i].id, &json))?;
                    first = false;
                }
                paths.push(path);
            }
        }
        file.write(shards::TAIL)?;
        file.finish()?;
        files += 1;
    }
    if mode == EntryJson::Files {
        files += cat.entries.len();
    }
    files += paths.len();
    Ok((paths, files))
}

/// Render `jobs` in parallel into `stage`: each page's site path and, for an entry whose JSON
/// goes into its domain's file, that JSON (written here otherwise).
fn render_jobs(
    r: &Renderer<'_>,
    resolver: &Resolver<'_>,
    stage: &errbook_write::Staging,
    jobs: &[Job],
    mode: EntryJson,
    tell: &(dyn Fn() + Sync),
) -> Result<Vec<(String, Option<Vec<u8>>)>> {
    use rayon::prelude::*;
    let cat = resolver.catalog;
    jobs.par_iter()
        .map(|j| {
            let out = run_job(r, resolver, j)?;
            stage.write(&errbook_core::urls::file_of(&out.path), out.html.as_bytes())?;
            let json = match (*j, out.json) {
                (Job::Entry(i), Some(json)) if mode == EntryJson::Files => {
                    stage.write(&errbook_core::urls::entry_json(&cat.entries[i].id), &json)?;
                    None
                }
                (_, json) => json,
            };
            tell();
            Ok((out.path, json))
        })
        .collect()
}

/// One unit of rendering work; each resolves its view in the worker that renders it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Job {
    Entry(usize),
    Article(usize),
    /// Index into the renderer's list pages.
    List(usize),
}

/// Every page of the site, in a stable order: entries, articles, list pages.
pub(super) fn jobs(cat: &errbook_core::model::Catalog, lists: usize) -> Vec<Job> {
    let mut out: Vec<Job> = (0..cat.entries.len()).map(Job::Entry).collect();
    out.extend((0..cat.articles.len()).map(Job::Article));
    out.extend((0..lists).map(Job::List));
    out
}

/// The jobs in the groups a build renders one after the other: all at once, or, when the
/// entries' JSON goes into one file per domain, each domain's entries (contiguous, as entries
/// are in ID order) and then the rest.
fn job_groups<'j>(
    cat: &errbook_core::model::Catalog,
    jobs: &'j [Job],
    mode: EntryJson,
) -> Vec<&'j [Job]> {
    if mode != EntryJson::Domains {
        return vec![jobs];
    }
    let domain_of = |j: &Job| match j {
        Job::Entry(i) => Some(errbook_core::urls::id_domain(&cat.entries[*i].id)),
        _ => None,
    };
    let mut groups = Vec::new();
    let mut rest = jobs;
    while let Some(first) = rest.first() {
        let d = domain_of(first);
        let n = rest.iter().take_while(|j| domain_of(j) == d).count();
        let (group, tail) = rest.split_at(n);
        groups.push(group);
        rest = tail;
    }
    groups
}

/// What one job makes: a page (its site path and HTML) and, for an entry when the site has
/// entry JSON (`build.entry_json`), its compact JSON.
pub(super) struct JobOutput {
    pub path: String,
    pub html: String,
    pub json: Option<Vec<u8>>,
}

/// Resolve the job's view once, and render its page (and an entry's JSON) from it.
pub(super) fn run_job(r: &Renderer<'_>, resolver: &Resolver<'_>, job: &Job) -> Result<JobOutput> {
    let cat = resolver.catalog;
    let missing = || errbook_core::error::Error::Bug(format!("no page for {job:?}"));
    Ok(match *job {
        Job::Entry(i) => entry_job(r, *resolver, cat.entries.get(i).ok_or_else(missing)?)?,
        Job::Article(i) => {
            let a = cat.articles.get(i).ok_or_else(missing)?;
            let (path, html) = r.article(&resolver.article(a))?;
            JobOutput {
                path,
                html,
                json: None,
            }
        }
        Job::List(i) => {
            let (path, html) = r.list(i)?;
            JobOutput {
                path,
                html,
                json: None,
            }
        }
    })
}

/// An entry's page (and its JSON when the site has entry JSON), from its view.
fn entry_job<'a>(r: &Renderer<'_>, resolver: Resolver<'a>, e: &'a Entry) -> Result<JobOutput> {
    let v = resolver.entry(e);
    let (path, html) = r.entry(&v)?;
    let json = match r.cfg.build.entry_json {
        EntryJson::None => None,
        _ => Some(to_json(&errbook_render::api::entry(&v))?),
    };
    Ok(JobOutput { path, html, json })
}

/// Which catalog-wide files to make.
#[derive(Debug, Clone, Copy)]
pub(super) struct Wanted {
    pub catalog: bool,
    pub links: bool,
    pub sitemap: bool,
    pub feed: bool,
    pub search: bool,
}

impl Wanted {
    pub(super) const ALL: Wanted = Wanted {
        catalog: true,
        links: true,
        sitemap: true,
        feed: true,
        search: true,
    };
    const NONE: Wanted = Wanted {
        catalog: false,
        links: false,
        sitemap: false,
        feed: false,
        search: false,
    };
}

/// The files made from the whole catalog: catalog and graph JSON, sitemap, feed, search index.
/// `paths`: site paths of every page.
pub(super) fn catalog_files(
    cfg: &Config,
    resolver: &Resolver<'_>,
    paths: &[String],
    offline: bool,
    want: Wanted,
) -> Result<Vec<OutFile>> {
    let (cat, graph) = (resolver.catalog, resolver.graph);
    let mut out = Vec::new();
    if want.catalog {
        let _t = tracing::info_span!("catalog.json").entered();
        let discussed = resolver.discussed_by_article();
        let lines = (cat.entries.iter()).map(|e| errbook_render::api::catalog_entry(e, cfg));
        let mut bytes = Vec::new();
        errbook_render::api::catalog_json(&mut bytes, cat, lines, &discussed, cfg)
            .map_err(json_error)?;
        out.push(OutFile::new("api/catalog.json", bytes));
    }
    if want.links {
        let _t = tracing::info_span!("links.json").entered();
        out.push(OutFile::new("api/links.json", to_json(graph)?));
    }
    if want.sitemap {
        for (name, xml) in errbook_render::feeds::sitemaps(cfg, paths)? {
            out.push(OutFile::new(name, xml.into_bytes()));
        }
    }
    if want.feed {
        let xml = errbook_render::feeds::atom(cfg, cat)?;
        out.push(OutFile::new("feed.xml", xml.into_bytes()));
    }
    if want.search {
        let _t = tracing::info_span!("search").entered();
        let hints = resolver.search_hints();
        out.extend(errbook_search::output_files(
            cat, graph, &hints, cfg, offline,
        )?);
    }
    Ok(out)
}

/// A JSON error as the crate's.
pub(super) fn json_error(e: serde_json::Error) -> errbook_core::error::Error {
    errbook_core::error::Error::encode("JSON", e)
}

/// A failure writing JSON into the staging file `rel` as the crate's error: a full disk stays
/// an I/O error (the staging folder is given up for the space).
fn stream_error(rel: &str, e: serde_json::Error) -> errbook_core::error::Error {
    match e.is_io() {
        true => errbook_core::error::Error::Io {
            path: rel.into(),
            source: e.into(),
        },
        false => errbook_core::error::Error::encode(rel, e),
    }
}

/// `v` as compact JSON (`to_json`'s bytes) into the staging file `rel`, written as it is
/// serialised rather than held.
fn stream_json(stage: &errbook_write::Staging, rel: &str, v: &impl serde::Serialize) -> Result<()> {
    let mut file = stage.stream(rel)?;
    serde_json::to_writer(&mut file, v).map_err(|e| stream_error(rel, e))?;
    file.finish()
}

/// Compact JSON: the API is for programs, and a tenth of a large site's bytes were indentation.
/// Cut to its length: a domain's entries' JSON is held until its file is made.
pub(super) fn to_json(v: &impl serde::Serialize) -> Result<Vec<u8>> {
    let mut out = serde_json::to_vec(v).map_err(json_error)?;
    out.shrink_to_fit();
    Ok(out)
}
