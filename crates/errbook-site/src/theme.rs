//! The theme a site is drawn with: errbook-render's `Look`, its ranking script given the numbers
//! it shares with errbook-search (`errbook_search::fill_rank_script`), which are written there
//! only. Every `Renderer` of the site is made over it.

use errbook_core::config::Config;
use errbook_core::error::{Error, Result};
use errbook_render::Look;
use std::path::Path;

/// The theme's file whose markers name the ranking's shared numbers.
const RANK_SCRIPT: &str = "search-rank.js";

/// The site's theme, loaded, with the ranking's numbers in its script.
pub(crate) fn load(root: &Path, cfg: &Config) -> Result<Look> {
    let mut look = Look::load(root, cfg)?;
    if let Some(js) = look.theme_files.get_mut(RANK_SCRIPT) {
        let text = std::str::from_utf8(js)
            .map_err(|e| Error::Template(format!("theme/{RANK_SCRIPT}: {e}")))?;
        let filled = errbook_search::fill_rank_script(text)
            .map_err(|e| Error::Template(format!("theme/{RANK_SCRIPT}: {e}")))?;
        *js = filled.into_bytes();
    }
    Ok(look)
}
