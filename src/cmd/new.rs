//! `errbook new error|article ID`: scaffold a valid file from a template (not yet written).

use crate::Result;
use std::path::Path;
use std::process::ExitCode;

pub fn run(root: &Path, kind: &str, id: &str) -> Result<ExitCode> {
    let _ = (root, kind, id);
    Err(crate::Error::Other(
        "`errbook new` is not implemented yet".into(),
    ))
}
