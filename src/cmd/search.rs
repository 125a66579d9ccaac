//! `errbook search QUERY`: the site's ranking in the terminal (not yet written).

use crate::Result;
use std::path::Path;
use std::process::ExitCode;

pub fn run(root: &Path, query: &str, limit: usize, json: bool) -> Result<ExitCode> {
    let _ = (root, query, limit, json);
    Err(crate::Error::Other(
        "`errbook search` is not implemented yet".into(),
    ))
}
