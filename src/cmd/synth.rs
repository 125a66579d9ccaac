//! `errbook synth`: a deterministic synthetic catalog for benchmarks (not yet written).

use crate::Result;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output folder (gets errbook/, hugo/ and mdbook/ sites).
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Number of structured entries.
    #[arg(long, default_value_t = 1000)]
    pub entries: usize,
    /// Number of articles.
    #[arg(long, default_value_t = 0)]
    pub articles: usize,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let _ = args;
    Err(crate::Error::Other(
        "`errbook synth` is not implemented yet".into(),
    ))
}
