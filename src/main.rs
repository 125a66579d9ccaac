//! The `errbook` command line: argument parsing (clap) and dispatch to `cmd`.

mod cmd;
mod debug;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// mimalloc: glibc's per-thread arenas fragmented under rayon, and a large build held several
/// times its peak. Its defaults are kept.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "errbook",
    version,
    about = "A static site generator for error catalogs"
)]
struct Cli {
    /// The site root, where book.toml is.
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Print what errbook does on stderr: each stage's time, the commands verify runs (ssh,
    /// Slurm's, each run's sandbox), what serve's watcher and server see. RUST_LOG picks more or
    /// less (`RUST_LOG=errbook_site=info`: the build's stages alone).
    #[arg(long, global = true)]
    debug: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Start a new catalog in DIR (default: here) that builds with this binary alone.
    Init {
        /// The folder for the catalog (created when missing).
        dir: Option<PathBuf>,
    },
    /// Build the site (default output: book/).
    Build {
        /// Output directory (overrides book.toml's build.output_dir).
        #[arg(short = 'd', long = "dest-dir", value_name = "DIR")]
        dest: Option<PathBuf>,
        /// Write a bundle that works when opened from file:// (no server, no network).
        #[arg(long)]
        offline: bool,
        /// Render with one thread (for comparisons; output is identical).
        #[arg(long, hide = true)]
        single_thread: bool,
        /// Skip link inference (benchmarking).
        #[arg(long, hide = true)]
        no_infer: bool,
        /// Build the pages marked `draft: true` too.
        #[arg(long)]
        drafts: bool,
    },
    /// Build, serve on 127.0.0.1, rebuild on change and reload the browser.
    Serve(cmd::serve::Args),
    /// Report every diagnostic; write nothing; exit non-zero on errors.
    Check(cmd::check::Args),
    /// Run the runnable snippets and record the results.
    Verify(Box<cmd::verify::Args>),
    /// errbook on a remote host, started by `verify --runner ssh://...|slurm`.
    #[command(hide = true)]
    VerifyWorker(cmd::worker::Args),
    /// Create a new entry or article from a template.
    New {
        #[arg(value_parser = ["error", "article"])]
        kind: String,
        /// `domain/slug` for an error, the article id for an article.
        id: String,
    },
    /// The language server for editors, on stdin and stdout (docs/editors.md).
    Lsp,
    /// Search the catalog from the terminal (a message, a traceback, or - for stdin).
    Search {
        query: String,
        /// How many results to show.
        #[arg(short = 'n', long, default_value_t = 5)]
        limit: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    debug::install(cli.debug);
    let root = cli.root.unwrap_or_else(|| PathBuf::from("."));
    let result = match cli.command {
        Command::Build {
            dest,
            offline,
            single_thread,
            no_infer,
            drafts,
        } => cmd::build::run(&root, dest, offline, single_thread, no_infer, drafts),
        Command::Serve(args) => cmd::serve::run(&root, args),
        Command::Check(args) => cmd::check::run(&root, args),
        Command::Verify(args) => cmd::verify::run(&root, *args),
        Command::VerifyWorker(args) => cmd::worker::run(args),
        Command::Init { dir } => cmd::init::run(dir.as_deref().unwrap_or(&root)),
        Command::New { kind, id } => cmd::new::run(&root, &kind, &id),
        Command::Lsp => cmd::lsp::run(&root),
        Command::Search { query, limit, json } => cmd::search::run(&root, &query, limit, json),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
