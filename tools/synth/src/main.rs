//! `errbook-synth`: the benchmark's catalog generator, kept out of the errbook library that users
//! link. It writes a deterministic synthetic catalog (same arguments, same bytes) as an errbook
//! catalog, a Hugo site, a Zola site and an mdBook with the same pages: OUT/errbook, OUT/hugo,
//! OUT/zola, OUT/mdbook.
//!
//!     cargo run --release --bin errbook-synth -- --out /tmp/c --entries 9500 --articles 500

mod articles;
mod catalog;
mod entries;
mod hugo;
mod mdbook;
mod text;
mod writer;
mod written;
mod zola;

use catalog::Site;
use clap::Parser;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Errors are messages with the path they concern; the generator has nothing to recover from.
type Result<T> = std::result::Result<T, String>;

/// Attach a path to an `io::Error`.
trait IoContext<T> {
    fn at(self, path: &Path) -> Result<T>;
}

impl<T> IoContext<T> for std::io::Result<T> {
    fn at(self, path: &Path) -> Result<T> {
        self.map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Write a deterministic synthetic catalog (for benchmarks), also as Hugo, Zola and mdBook sources.
#[derive(Parser, Debug)]
#[command(name = "errbook-synth", version)]
struct Args {
    /// Output folder (gets errbook/, hugo/, zola/ and mdbook/ sites).
    #[arg(long)]
    out: PathBuf,
    /// Number of structured entries.
    #[arg(long, default_value_t = 1000)]
    entries: usize,
    /// Number of articles.
    #[arg(long, default_value_t = 0)]
    articles: usize,
    /// Seed of the generator: the same arguments give the same bytes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Which sites to write (comma-separated).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "errbook,hugo,zola,mdbook"
    )]
    sites: Vec<SiteArg>,
    /// Articles as the catalog writes them: no `errors:` front matter, examples that claim in
    /// words only (a failing one, a fix continuing it, a shell line, an output listing).
    #[arg(long)]
    as_written: bool,
    /// The theme copied into the errbook catalog as themes/default.
    #[arg(long, default_value = "themes/default")]
    theme: PathBuf,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum SiteArg {
    Errbook,
    Hugo,
    Zola,
    Mdbook,
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Args) -> Result<()> {
    let sites: Vec<Site> = args
        .sites
        .iter()
        .map(|s| match s {
            SiteArg::Errbook => Site::Errbook,
            SiteArg::Hugo => Site::Hugo,
            SiteArg::Zola => Site::Zola,
            SiteArg::Mdbook => Site::Mdbook,
        })
        .collect();
    if sites.contains(&Site::Errbook) && !args.theme.join("templates").is_dir() {
        return Err(format!(
            "{} has no templates/ folder; run from the errbook repository or pass --theme DIR",
            args.theme.display()
        ));
    }
    let s = catalog::generate(args.entries, args.articles, args.seed, args.as_written);
    for site in &sites {
        match site {
            Site::Errbook => s.write_errbook(&args.out.join("errbook"), &args.theme)?,
            Site::Hugo => s.write_hugo(&args.out.join("hugo"))?,
            Site::Zola => s.write_zola(&args.out.join("zola"))?,
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
    Ok(())
}
