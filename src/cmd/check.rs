//! `errbook check`: run load, parse and link, print every diagnostic, write nothing.

use crate::config::Config;
use crate::Result;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn run(root: &Path, links_of: &[PathBuf]) -> Result<ExitCode> {
    let cfg = Config::load(root)?;
    let mut state = crate::site::analyse(root, &cfg, true)?;
    let records = crate::verify::records::check_records(root, &state, &cfg);
    state.diags.extend(records);
    state.diags.print();
    let _ = links_of;
    let (e, w) = (state.diags.error_count(), state.diags.warning_count());
    let entries = state.catalog.entries.len();
    let articles = state.catalog.articles.len();
    if e > 0 {
        eprintln!(
            "check: {e} error(s), {w} warning(s) in {entries} entries and {articles} articles"
        );
        Ok(ExitCode::from(1))
    } else {
        eprintln!("check: ok, {w} warning(s); {entries} entries, {articles} articles");
        Ok(ExitCode::SUCCESS)
    }
}
