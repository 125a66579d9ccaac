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
    let _ = (root, cfg, opts);
    Err(crate::Error::Other("build is not implemented yet".into()))
}

/// One file of the output, relative to the output directory.
#[derive(Debug, Clone)]
pub struct OutFile {
    pub path: std::path::PathBuf,
    pub bytes: Vec<u8>,
}
