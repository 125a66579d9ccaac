//! Analysis: the stages that only read, load -> parse -> link, with every diagnostic they find.
//! `check`, `search`, `verify` and `build` all start here.

use crate::core::config::Config;
use crate::core::diag::Diagnostics;
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
}

/// `analyse`, choosing what it takes in.
pub fn analyse_with(root: &Path, cfg: &Config, scope: Scope) -> Result<Analysis> {
    use crate::core::timings::stage;
    let infer = scope.infer;
    let mut diags = Diagnostics::default();
    let t = stage("load");
    let files = crate::load::load_all(root, &mut diags)?;
    drop(t);
    let t = stage("parse");
    let mut catalog = crate::parse::parse_all(&files, cfg.verify.timeout_s, &mut diags);
    if !scope.drafts {
        catalog.drop_drafts();
    }
    drop(t);
    let t = stage("link");
    let records = RecordSet::load(root, cfg)?;
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
        let graph = crate::link::link_with(
            &catalog,
            &files,
            cfg,
            infer,
            Some(&records),
            scope.review,
            &mut diags,
        );
        (graph, None)
    };
    drop(t);
    diags.sort();
    Ok(Analysis {
        files,
        catalog,
        graph,
        diags,
        links,
    })
}
