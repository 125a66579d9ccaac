//! `errbook synth`: write a deterministic synthetic catalog (for the benchmark) as an errbook
//! catalog, a Hugo site and an mdBook with the same pages: DIR/errbook, DIR/hugo, DIR/mdbook.

use crate::synth::{self, Site};
use crate::Result;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output folder (gets errbook/, hugo/ and mdbook/ sites).
    #[arg(long)]
    pub out: PathBuf,
    /// Number of structured entries.
    #[arg(long, default_value_t = 1000)]
    pub entries: usize,
    /// Number of articles.
    #[arg(long, default_value_t = 0)]
    pub articles: usize,
    /// Seed of the generator: the same arguments give the same bytes.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Which sites to write (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "errbook,hugo,mdbook")]
    pub sites: Vec<SiteArg>,
    /// The theme copied into the errbook catalog as themes/default.
    #[arg(long, default_value = "themes/default")]
    pub theme: PathBuf,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteArg {
    Errbook,
    Hugo,
    Mdbook,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let sites: Vec<Site> = args
        .sites
        .iter()
        .map(|s| match s {
            SiteArg::Errbook => Site::Errbook,
            SiteArg::Hugo => Site::Hugo,
            SiteArg::Mdbook => Site::Mdbook,
        })
        .collect();
    if sites.contains(&Site::Errbook) && !args.theme.join("templates").is_dir() {
        return Err(crate::Error::Other(format!(
            "{} has no templates/ folder; run from the errbook repository or pass --theme DIR",
            args.theme.display()
        )));
    }
    let s = synth::generate(args.entries, args.articles, args.seed);
    for site in &sites {
        match site {
            Site::Errbook => s.write_errbook(&args.out.join("errbook"), &args.theme)?,
            Site::Hugo => s.write_hugo(&args.out.join("hugo"))?,
            Site::Mdbook => s.write_mdbook(&args.out.join("mdbook"))?,
        }
    }
    eprintln!(
        "synth: {} entries, {} articles (seed {}) into {}",
        args.entries,
        args.articles,
        args.seed,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
