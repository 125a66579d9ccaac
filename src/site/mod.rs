//! The build pipeline in order: load -> parse -> link -> render -> index -> write.
//! `analyse` runs the stages that only read (used by `check`, `search` and `build`).

pub mod check;
pub mod rebuild;

use crate::core::config::Config;
use crate::core::diag::Diagnostics;
use crate::core::model::Catalog;
use crate::link::Graph;
use crate::load::SourceFile;
use crate::records::RecordSet;
use crate::Result;
use std::path::Path;

/// Everything known about the content before rendering.
pub struct Analysis {
    pub files: Vec<SourceFile>,
    pub catalog: Catalog,
    pub graph: Graph,
    pub diags: Diagnostics,
}

/// load -> parse -> link.
pub fn analyse(root: &Path, cfg: &Config, infer: bool) -> Result<Analysis> {
    use crate::core::timings::stage;
    let mut diags = Diagnostics::default();
    let t = stage("load");
    let files = crate::load::load_all(root, &mut diags)?;
    drop(t);
    let t = stage("parse");
    let catalog = crate::parse::parse_all(&files, cfg.verify.timeout_s, &mut diags);
    drop(t);
    let t = stage("link");
    let records = RecordSet::load(root, cfg)?;
    let graph = crate::link::link_with(&catalog, &files, cfg, infer, Some(&records), &mut diags);
    drop(t);
    diags.sort();
    Ok(Analysis {
        files,
        catalog,
        graph,
        diags,
    })
}

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
}

/// What a build did.
#[derive(Debug, Clone, Default)]
pub struct BuildReport {
    pub pages: usize,
    pub files_written: usize,
    pub millis: u128,
}

/// The whole pipeline. On content errors nothing is written and the old output stays whole.
pub fn build(root: &Path, cfg: &Config, opts: &BuildOptions) -> Result<(BuildReport, Diagnostics)> {
    build_inner(root, cfg, opts, false).map(|(report, diags, _, _)| (report, diags))
}

/// `build`, also handing back what it read (for incremental rebuilds).
pub fn build_keep(
    root: &Path,
    cfg: &Config,
    opts: &BuildOptions,
) -> Result<(BuildReport, Diagnostics, Analysis, RecordSet)> {
    build_inner(root, cfg, opts, true)
}

/// The pipeline; `keep`: hand back the source texts too (serve compares and re-reads them).
fn build_inner(
    root: &Path,
    cfg: &Config,
    opts: &BuildOptions,
    keep: bool,
) -> Result<(BuildReport, Diagnostics, Analysis, RecordSet)> {
    let started = std::time::Instant::now();
    let run = || -> Result<(BuildReport, Diagnostics, Analysis, RecordSet)> {
        let mut analysis = analyse(root, cfg, !opts.no_infer)?;
        if analysis.diags.has_errors() {
            return Err(crate::Error::Content {
                errors: analysis.diags.error_count(),
                diags: analysis.diags,
            });
        }
        if !keep {
            // Rendering reads the model, not the sources: free their text (a tenth of the
            // memory on large catalogs).
            analysis.files = Vec::new();
        }
        let records = RecordSet::load(root, cfg)?;
        let stage = crate::write::Staging::new(&opts.dest)?;
        let (pages, files) = render_into(root, cfg, &analysis, &records, opts.offline, &stage)?;
        let t = crate::core::timings::stage("write");
        stage.commit(&opts.dest)?;
        drop(t);
        let report = BuildReport {
            pages,
            files_written: files,
            millis: started.elapsed().as_millis(),
        };
        Ok((report, analysis.diags.clone(), analysis, records))
    };
    if opts.single_thread {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .map_err(|e| crate::Error::Other(format!("thread pool: {e}")))?;
        pool.install(run)
    } else {
        run()
    }
}

/// Render every page and file of the site into `stage`; returns (pages, files).
pub fn render_into(
    root: &Path,
    cfg: &Config,
    analysis: &Analysis,
    records: &RecordSet,
    offline: bool,
    stage: &crate::write::Staging,
) -> Result<(usize, usize)> {
    use rayon::prelude::*;
    let t = crate::core::timings::stage("render");
    let mut r = crate::render::Renderer::new(root, cfg, analysis, records, offline)?;
    r.highlights = crate::render::highlight::Memo::for_catalog(
        &analysis.catalog,
        &cfg.build.default_code_lang,
    );
    let jobs = crate::render::jobs(&r);
    let paths: Vec<String> = jobs
        .par_iter()
        .map(|j| {
            let (path, html) = r.run(j)?;
            stage.write(&crate::core::urls::file_of(&path), html.as_bytes())?;
            Ok(path)
        })
        .collect::<Result<_>>()?;
    let mut files = paths.len();
    drop(t);

    // JSON, feeds, search index, theme and site files.
    let t = crate::core::timings::stage("api");
    let cat = &analysis.catalog;
    cat.entries.par_iter().try_for_each(|e| {
        let v = crate::render::api::entry(analysis, records, e);
        stage.write(&crate::core::urls::entry_json(&e.id), &to_json(&v)?)
    })?;
    files += cat.entries.len();
    drop(t);
    let t = crate::core::timings::stage("index");
    let mut extra = catalog_files(cfg, analysis, &paths, offline, Wanted::ALL)?;
    let (light, dark) = crate::render::highlight::stylesheets()?;
    extra.push(OutFile::new("theme/syntax-light.css", light.into_bytes()));
    extra.push(OutFile::new("theme/syntax-dark.css", dark.into_bytes()));
    for f in &extra {
        stage.write(&f.path.to_string_lossy(), &f.bytes)?;
    }
    files += extra.len();
    files += stage.copy_tree(&cfg.theme_dir(root).join("static"), "theme/")?;
    files += stage.copy_tree(&root.join("static"), "")?;
    drop(t);
    Ok((paths.len(), files))
}

/// Which catalog-wide files to make (a full build makes all; an incremental one what changed).
#[derive(Debug, Clone, Copy)]
pub struct Wanted {
    pub catalog: bool,
    pub links: bool,
    pub sitemap: bool,
    pub feed: bool,
    pub search: bool,
}

impl Wanted {
    pub const ALL: Wanted = Wanted {
        catalog: true,
        links: true,
        sitemap: true,
        feed: true,
        search: true,
    };
}

/// The files made from the whole catalog: catalog and graph JSON, sitemap, feed, search index.
/// `paths`: site paths of every page.
pub fn catalog_files(
    cfg: &Config,
    analysis: &Analysis,
    paths: &[String],
    offline: bool,
    want: Wanted,
) -> Result<Vec<OutFile>> {
    let mut out = Vec::new();
    if want.catalog {
        let _t = crate::core::timings::stage("  catalog.json");
        let v = crate::render::api::catalog(analysis, cfg);
        out.push(OutFile::new("api/catalog.json", to_json(&v)?));
    }
    if want.links {
        let _t = crate::core::timings::stage("  links.json");
        out.push(OutFile::new("api/links.json", to_json(&analysis.graph)?));
    }
    if want.sitemap {
        let xml = crate::render::feeds::sitemap(cfg, paths);
        out.push(OutFile::new("sitemap.xml", xml.into_bytes()));
    }
    if want.feed {
        let xml = crate::render::feeds::atom(cfg, &analysis.catalog);
        out.push(OutFile::new("feed.xml", xml.into_bytes()));
    }
    if want.search {
        let _t = crate::core::timings::stage("  search");
        out.extend(crate::search::output_files(analysis, cfg, offline)?);
    }
    Ok(out)
}

pub fn to_json(v: &impl serde::Serialize) -> Result<Vec<u8>> {
    serde_json::to_vec_pretty(v).map_err(|e| crate::Error::Other(format!("JSON: {e}")))
}

/// One file of the output, relative to the output directory.
#[derive(Debug, Clone)]
pub struct OutFile {
    pub path: std::path::PathBuf,
    pub bytes: Vec<u8>,
}

impl OutFile {
    pub fn new(path: impl Into<std::path::PathBuf>, bytes: Vec<u8>) -> OutFile {
        OutFile {
            path: path.into(),
            bytes,
        }
    }
}
