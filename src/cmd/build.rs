//! `errbook build`: the whole pipeline into the output directory (not yet written).

use crate::Result;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn run(
    root: &Path,
    dest: Option<PathBuf>,
    offline: bool,
    single_thread: bool,
    no_infer: bool,
) -> Result<ExitCode> {
    let _ = (root, dest, offline, single_thread, no_infer);
    Err(crate::Error::Other(
        "`errbook build` is not implemented yet".into(),
    ))
}
