//! Index: the search index, built from the typed model, written as files of the site; the same
//! ranking answers `errbook search`. (Interface first.)

use crate::config::Config;
use crate::site::{Analysis, OutFile};

/// The search files of the site (index data and its loader), paths relative to the output dir.
pub fn output_files(
    analysis: &Analysis,
    cfg: &Config,
    offline: bool,
) -> crate::Result<Vec<OutFile>> {
    let _ = (analysis, cfg, offline);
    Ok(Vec::new())
}
