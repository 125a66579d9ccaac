//! The `errbook` command line: argument parsing (clap) and dispatch to `cmd`.

mod cmd;
mod debug;

use clap::{CommandFactory, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// The exit statuses, shown under `--help` and in the manual page (docs/commands.md has the same
/// table).
const EXIT_STATUS: &str = "Exit status:
  0    done
  1    the catalog says no: content errors (warnings too with `check --strict`), an invalid
       book.toml, a claim a run contradicted, no close match (`search`), a file already there
  2    usage: an unknown command or option, a bad value, no catalog where one is needed
  3    errbook could not do its work: a file it could not read or write, a busy port, a sandbox
       or host it could not use
  130  interrupted (Ctrl-C)";

/// mimalloc: glibc's per-thread arenas fragmented under rayon, and a large build held several
/// times its peak. Its defaults are kept.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "errbook",
    version,
    about = "A static site generator for error catalogs",
    after_help = EXIT_STATUS
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
    /// Build the site (default output: book/; with --offline, book-offline/).
    Build {
        /// Output directory (overrides book.toml's build.output_dir, and its `-offline` twin).
        #[arg(short = 'd', long = "dest-dir", value_name = "DIR")]
        dest: Option<PathBuf>,
        /// Write a bundle that works when opened from file:// (no server, no network), into
        /// book-offline/ unless -d says otherwise.
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
    /// List each code block's claim (read from the text or declared), evidence and runnability.
    Claims(cmd::claims::Args),
    /// Run the runnable snippets and record the results.
    Verify(Box<cmd::verify::Args>),
    /// errbook on a remote host, started by `verify --runner ssh://...|slurm`.
    #[command(hide = true)]
    VerifyWorker(cmd::worker::Args),
    /// Create a new entry or article from a template.
    New {
        /// What to create: `error` (an entry, content/errors/DOMAIN/SLUG.md) or `article`
        /// (content/articles/ID.md).
        #[arg(value_parser = ["error", "article"])]
        kind: String,
        /// `domain/slug` for an error, the article id for an article.
        id: String,
    },
    /// The language server for editors, on stdin and stdout (docs/editors.md).
    Lsp,
    /// Search the catalog from the terminal (a message, a traceback, or - for stdin).
    Search {
        /// The message, traceback or log to look up; `-` reads it from stdin.
        query: String,
        /// How many results to show.
        #[arg(short = 'n', long, default_value_t = 5)]
        limit: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print a completion script for SHELL on stdout (`errbook completions bash >
    /// ~/.local/share/bash-completion/completions/errbook`).
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) on stdout, or write one page per command into a folder.
    Man {
        /// Write errbook.1, errbook-build.1, ... into DIR instead (created when missing).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli.command;
    debug::install(cli.debug);
    let root = cli.root.unwrap_or_else(|| PathBuf::from("."));
    let prints_only = matches!(
        command,
        Command::Check(_)
            | Command::Claims(_)
            | Command::Search { .. }
            | Command::Completions { .. }
            | Command::Man { .. }
    );
    if prints_only {
        end_quietly_when_stdout_closes();
    }
    let result = match command {
        Command::Build {
            dest,
            offline,
            single_thread,
            no_infer,
            drafts,
        } => cmd::build::run(&root, dest, offline, single_thread, no_infer, drafts),
        Command::Serve(args) => cmd::serve::run(&root, args),
        Command::Check(args) => cmd::check::run(&root, args),
        Command::Claims(args) => cmd::claims::run(&root, args),
        Command::Verify(args) => cmd::verify::run(&root, *args),
        Command::VerifyWorker(args) => cmd::worker::run(args),
        Command::Init { dir } => cmd::init::run(dir.as_deref().unwrap_or(&root)),
        Command::New { kind, id } => cmd::new::run(&root, &kind, &id),
        Command::Lsp => cmd::lsp::run(&root),
        Command::Search { query, limit, json } => cmd::search::run(&root, &query, limit, json),
        Command::Completions { shell } => cmd::manual::completions(shell, Cli::command()),
        Command::Man { dir } => cmd::manual::man(Cli::command(), dir.as_deref()),
    };
    result.unwrap_or_else(|e| cmd::failed(&e))
}

/// `errbook claims | head` ends as Unix tools do, of SIGPIPE when the reader goes away, instead
/// of panicking in `println!`. Only the commands that print and do nothing else take this: the
/// others write to sockets and to their children's pipes, where a closed end is an error to
/// handle, not the end of errbook.
fn end_quietly_when_stdout_closes() {
    #[cfg(unix)]
    // SAFETY: called on the main thread before any other starts; SIG_DFL is always valid.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// Every argument and option of every visible command says what it is for in `--help`.
    #[test]
    fn every_argument_has_help_text() {
        fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for a in cmd.get_arguments() {
                let builtin = matches!(a.get_id().as_str(), "help" | "version");
                if !builtin && !a.is_hide_set() && a.get_help().is_none() {
                    missing.push(format!("{path} {}", a.get_id()));
                }
            }
            for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
                walk(sub, &format!("{path} {}", sub.get_name()), missing);
            }
        }
        let cmd = Cli::command();
        cmd.clone().debug_assert();
        let mut missing = Vec::new();
        walk(&cmd, "errbook", &mut missing);
        assert!(missing.is_empty(), "no help text: {missing:?}");
    }
}
