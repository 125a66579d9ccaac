//! Analysis: the stages that only read, load -> parse -> link, with every diagnostic they find.
//! `check`, `search`, `verify` and `build` all start here; the workspace `serve` keeps parses
//! its files as they change and ends with the same link stage (`link_stage`).

use errbook_core::config::Config;
use errbook_core::diag::{Diagnostic, Diagnostics};
use errbook_core::error::Result;
use errbook_core::model::Catalog;
use errbook_link::Graph;
use errbook_parse::load::SourceFile;
use errbook_records::RecordSet;
use std::path::Path;

/// Everything known about the content before rendering.
#[derive(Default)]
pub struct Analysis {
    /// The content files whose text was kept (`Scope::entry_texts`).
    pub files: Vec<SourceFile>,
    pub catalog: Catalog,
    pub graph: Graph,
    pub diags: Diagnostics,
}

/// load -> parse -> link, every text kept and every candidate link too (`check`).
pub fn analyse(root: &Path, cfg: &Config, infer: bool) -> Result<Analysis> {
    analyse_with(
        root,
        cfg,
        Scope {
            infer,
            drafts: true,
            review: true,
            entry_texts: true,
        },
    )
}

/// What an analysis takes in.
#[derive(Debug, Clone, Copy)]
pub struct Scope {
    /// Infer the links authors did not write (else only the explicit ones).
    pub infer: bool,
    /// Keep the pages marked `draft: true` (a build leaves them out unless `--drafts`).
    pub drafts: bool,
    /// Keep the inferred links left out, for `check --links` (`Graph::review`).
    pub review: bool,
    /// Keep the entries' texts once they are parsed (`check` reads every link written in
    /// them). A build renders from the model and keeps the articles' texts only, which link
    /// inference matches; a diagnostic reads its file again for the lines it shows.
    pub entry_texts: bool,
}

/// `analyse`, choosing what it takes in.
pub fn analyse_with(root: &Path, cfg: &Config, scope: Scope) -> Result<Analysis> {
    let mut diags = Diagnostics::default();
    let t = tracing::info_span!("load+parse").entered();
    let claims_before = errbook_claims::time_spent();
    let (files, catalog) = load_and_parse(root, cfg, scope.entry_texts, &mut diags)?;
    drop(t);
    // The claims are read inside parse, a page at a time on each thread: the sum over threads.
    let spent = errbook_claims::time_spent().saturating_sub(claims_before);
    tracing::info!(thread_ms = spent.as_secs_f64() * 1000.0, "claims read");
    let records = RecordSet::load(root, cfg)?;
    link_stage(root, cfg, scope, (files, catalog), (diags, &records))
}

/// The stages after parse: drafts left out as the scope says, the link stage over the catalog,
/// the files' texts and the records, and every diagnostic sorted. `analyse_with` and the
/// workspace, which parses files as they change, both end here.
pub(super) fn link_stage(
    root: &Path,
    cfg: &Config,
    scope: Scope,
    (files, mut catalog): (Vec<SourceFile>, Catalog),
    (mut diags, records): (Diagnostics, &RecordSet),
) -> Result<Analysis> {
    if !scope.drafts {
        catalog.drop_drafts();
    }
    let t = tracing::info_span!("link").entered();
    let texts = if !scope.entry_texts {
        errbook_link::explicit::texts_or_read(&files, Some(root))
    } else {
        errbook_link::explicit::texts(&files)
    };
    let how = errbook_link::How {
        cfg,
        infer: scope.infer,
        records: Some(records),
        keep_review: scope.review,
    };
    let graph = errbook_link::link_from(&catalog, &files, &texts, how, &mut diags);
    drop((t, texts));
    diags.sort();
    Ok(Analysis {
        files,
        catalog,
        graph,
        diags,
    })
}

/// Read and parse every content file, a file at a time per thread, keeping the text of the
/// articles (link inference matches them) and, with `entry_texts`, of the entries too. Returns
/// the files kept and the catalog.
fn load_and_parse(
    root: &Path,
    cfg: &Config,
    entry_texts: bool,
    diags: &mut Diagnostics,
) -> Result<(Vec<SourceFile>, Catalog)> {
    use errbook_core::model::{Entry, PageKind};
    use errbook_parse::{Done, Parsed};
    use rayon::prelude::*;
    use std::sync::Arc;
    let timeout = cfg.verify.timeout_s;
    let paths = errbook_parse::load::content_paths(root)?;
    // Each file: an entry; any other file's parse and, for an article, the file kept; why it
    // could not be read; or a failure to read the folder.
    enum Read {
        Entry(Arc<Entry>, Diagnostics, Option<SourceFile>),
        Other(Done, Option<SourceFile>),
        Unread(Diagnostic),
        Failed(errbook_core::error::Error),
    }
    let read: Vec<Read> = paths
        .par_iter()
        .map(|(kind, rel)| {
            let f = match errbook_parse::load::read_one(root, *kind, rel) {
                Ok(Ok(f)) => f,
                Ok(Err(d)) => return Read::Unread(d),
                Err(e) => return Read::Failed(e),
            };
            if f.kind == PageKind::Entry {
                let (e, d) = errbook_parse::parse_entry(&f, timeout);
                let kept = entry_texts.then(|| f.clone());
                let Some(e) = e else {
                    return Read::Other(Done::of(&f, (Parsed::Failed, d)), kept);
                };
                return Read::Entry(Arc::new(e), d, kept);
            }
            let (parsed, d) = errbook_parse::parse_file(&f, timeout);
            Read::Other(Done::of(&f, (parsed, d)), Some(f))
        })
        .collect();
    let (mut files, mut others, mut failed) = (Vec::new(), Vec::new(), None);
    let entries: Vec<Arc<Entry>> = (read.into_iter())
        .filter_map(|r| match r {
            Read::Entry(e, d, kept) => {
                diags.extend(d.items);
                files.extend(kept);
                Some(e)
            }
            Read::Other(done, kept) => {
                others.push(done);
                files.extend(kept);
                None
            }
            Read::Unread(d) => {
                diags.push(d);
                None
            }
            Read::Failed(e) => {
                failed.get_or_insert(e);
                None
            }
        })
        .collect();
    if let Some(e) = failed {
        return Err(e);
    }
    // A duplicate ID's diagnostic shows the file: read again, the rare time there is one.
    let text_of = |rel: &Path| {
        let (kind, _) = paths.iter().find(|(_, p)| p == rel)?;
        errbook_parse::load::read_one(root, *kind, rel).ok()?.ok()
    };
    let catalog = errbook_parse::catalog_with(entries, others, &text_of, diags);
    Ok((files, catalog))
}
