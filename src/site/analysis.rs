//! Analysis: the stages that only read, load -> parse -> link, with every diagnostic they find.
//! `check`, `search`, `verify` and `build` all start here.

use crate::core::config::Config;
use crate::core::diag::{Diagnostic, Diagnostics};
use crate::core::error::Result;
use crate::core::model::Catalog;
use crate::link::Graph;
use crate::load::SourceFile;
use crate::records::RecordSet;
use std::path::Path;

/// Everything known about the content before rendering.
#[derive(Default)]
pub struct Analysis {
    pub files: Vec<SourceFile>,
    pub catalog: Catalog,
    pub graph: Graph,
    pub diags: Diagnostics,
    /// The link stage's parts, kept for incremental updates when the scope asks (`Scope::live`).
    pub(crate) links: Option<crate::link::LinkState>,
    /// A lean analysis's code blocks seen more than once, found before the entries' code was
    /// dropped (`Scope::lean`); the build highlights each of them once.
    pub(crate) highlights: Option<crate::render::highlight::Memo>,
}

/// load -> parse -> link.
pub fn analyse(root: &Path, cfg: &Config, infer: bool) -> Result<Analysis> {
    analyse_with(
        root,
        cfg,
        Scope {
            infer,
            drafts: true,
            review: true,
            live: false,
            lean: false,
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
    /// Keep the link stage's parts (`Analysis::links`), for `serve`'s incremental updates.
    pub live: bool,
    /// A build's analysis: each entry's text is dropped once it is parsed (`Analysis::files`
    /// holds the articles', which inference matches), and so is what only the entry's own page
    /// shows (`parse::lean`; the build reads the file again to render it). Else every file's
    /// text and the whole model are kept.
    pub lean: bool,
}

/// `analyse`, choosing what it takes in.
pub fn analyse_with(root: &Path, cfg: &Config, scope: Scope) -> Result<Analysis> {
    use crate::core::timings::stage;
    let infer = scope.infer;
    let mut diags = Diagnostics::default();
    let (files, mut catalog, highlights) = if !scope.lean {
        let t = stage("load");
        let files = crate::load::load_all(root, &mut diags)?;
        drop(t);
        let _t = stage("parse");
        let catalog = crate::parse::parse_all(&files, cfg.verify.timeout_s, &mut diags);
        (files, catalog, None)
    } else {
        let _t = stage("load+parse");
        let repeated = super::repeated::Repeated::new(&cfg.build.default_code_lang);
        let (files, catalog) = load_and_parse(root, cfg, &repeated, &mut diags)?;
        (files, catalog, Some(repeated.memo()))
    };
    if !scope.drafts {
        catalog.drop_drafts();
    }
    let t = stage("link");
    let records = RecordSet::load(root, cfg)?;
    let texts = if scope.lean {
        crate::link::explicit::texts_or_read(&files, Some(root))
    } else {
        crate::link::explicit::texts(&files)
    };
    let (graph, links) = if scope.live {
        let (state, graph) = crate::link::LinkState::new(
            &catalog,
            &files,
            cfg,
            infer,
            Some(&records),
            scope.review,
            &mut diags,
        );
        (graph, Some(state))
    } else {
        let how = crate::link::How {
            cfg,
            infer,
            records: Some(&records),
            keep_review: scope.review,
        };
        let graph = crate::link::link_from(&catalog, &files, &texts, how, &mut diags);
        (graph, None)
    };
    drop((t, texts));
    if scope.lean {
        // The entries whose parts other pages show keep their whole model.
        super::reread::restore_linked(root, cfg, &mut catalog, &graph)?;
    }
    diags.sort();
    Ok(Analysis {
        files,
        catalog,
        graph,
        diags,
        links,
        highlights,
    })
}

/// Read and parse every content file, a file at a time per thread, keeping the text of the
/// articles only (link inference matches them) and of each entry what a lean build keeps
/// (`parse::lean`); what the link stage checks of an entry was taken out at parse time, and
/// the code blocks are counted in `repeated` before they go. Returns the files kept and the
/// catalog.
fn load_and_parse(
    root: &Path,
    cfg: &Config,
    repeated: &super::repeated::Repeated<'_>,
    diags: &mut Diagnostics,
) -> Result<(Vec<SourceFile>, Catalog)> {
    use crate::core::model::PageKind;
    use crate::parse::{Done, Parsed};
    use rayon::prelude::*;
    let paths = crate::load::content_paths(root)?;
    let timeout = cfg.verify.timeout_s;
    // Each file: its parse and, for an article, the file kept; or why it could not be read.
    type Read = Result<std::result::Result<(Done, Option<SourceFile>), Diagnostic>>;
    let read: Vec<Read> = paths
        .par_iter()
        .map(|(kind, rel)| {
            let f = match crate::load::read_one(root, *kind, rel)? {
                Ok(f) => f,
                Err(d) => return Ok(Err(d)),
            };
            let (mut parsed, d) = crate::parse::parse_file(&f, timeout);
            match &mut parsed {
                Parsed::Entry(e) => {
                    repeated.count(&e.snippets);
                    crate::parse::lean::entry(e);
                }
                Parsed::Article(a) => repeated.count(&a.snippets),
                Parsed::Failed => {}
            }
            let done = Done::of(&f, (parsed, d));
            Ok(Ok((done, (f.kind == PageKind::Article).then_some(f))))
        })
        .collect();
    let mut files = Vec::new();
    let mut results = Vec::with_capacity(read.len());
    for r in read {
        match r? {
            Ok((done, kept)) => {
                results.extend([done]);
                files.extend(kept);
            }
            Err(d) => diags.push(d),
        }
    }
    // A duplicate ID's diagnostic shows the file: read again, the rare time there is one.
    let text_of = |rel: &Path| {
        let (kind, _) = paths.iter().find(|(_, p)| p == rel)?;
        crate::load::read_one(root, *kind, rel).ok()?.ok()
    };
    let catalog = crate::parse::catalog_of(results, &text_of, diags);
    Ok((files, catalog))
}
