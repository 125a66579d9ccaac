//! `errbook serve`: build, serve on 127.0.0.1, rebuild on change (not yet written).

use crate::Result;
use std::path::Path;
use std::process::ExitCode;

pub fn run(root: &Path, port: u16, open: bool) -> Result<ExitCode> {
    let _ = (root, port, open);
    Err(crate::Error::Other(
        "`errbook serve` is not implemented yet".into(),
    ))
}
