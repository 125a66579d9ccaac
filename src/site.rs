//! The build pipeline in order: load -> parse -> link -> render -> index -> write.
//! `analyse` runs the stages that only read (used by `check`, `search` and `build`).

use crate::config::Config;
use crate::diag::Diagnostics;
use crate::link::Graph;
use crate::load::SourceFile;
use crate::model::Catalog;
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
    let mut diags = Diagnostics::default();
    let files = crate::load::load_all(root, &mut diags)?;
    let catalog = crate::parse::parse_all(&files, cfg.verify.timeout_s, &mut diags);
    let graph = crate::link::link(&catalog, &files, cfg, infer, &mut diags);
    diags.sort();
    Ok(Analysis {
        files,
        catalog,
        graph,
        diags,
    })
}
