//! `errbook verify`: run the runnable snippets and record the results (not yet written).

use crate::Result;
use std::path::Path;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Where runs happen: `local` (this machine).
    #[arg(long, default_value = "local")]
    pub runner: String,
    /// Runs at a time (default: one per GPU, or the CPU count for CPU-only runs).
    #[arg(long)]
    pub jobs: Option<usize>,
}

pub fn run(root: &Path, args: Args) -> Result<ExitCode> {
    let _ = (root, args);
    Err(crate::Error::Other(
        "`errbook verify` is not implemented yet".into(),
    ))
}
