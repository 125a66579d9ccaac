//! `errbook serve`: build, serve on 127.0.0.1 (or `--bind ADDR`), rebuild on change, reload the
//! browser; prints what the serve loop reports.

use errbook_core::Result;
use errbook_serve::Event;
use errbook_serve::Options;
use std::net::IpAddr;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// The port to listen on (a busy port exits 3: choose another).
    #[arg(short, long, default_value_t = 3000)]
    port: u16,
    /// The address to listen on: 0.0.0.0 to preview from a phone on the LAN or from outside a
    /// container (anyone who can reach it sees the preview).
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    bind: IpAddr,
    /// Open the site in a browser.
    #[arg(long)]
    open: bool,
    /// Show the pages marked `draft: true` too.
    #[arg(long)]
    drafts: bool,
}

pub(crate) fn run(root: &Path, args: Args) -> Result<ExitCode> {
    if !args.bind.is_loopback() {
        eprintln!(
            "warning: serving on {}: every machine that can reach it sees the preview (drafts too with --drafts)",
            args.bind
        );
    }
    let opts = Options {
        addr: (args.bind, args.port).into(),
        drafts: args.drafts,
    };
    // Changed files are shown under the root; the watcher names them by absolute paths.
    let root_shown = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    let open = args.open;
    let sink = Arc::new(move |e: Event| print(&root_shown, open, e));
    errbook_serve::run(root, &opts, sink)?;
    Ok(ExitCode::SUCCESS)
}

fn print(root: &Path, open: bool, e: Event) {
    match e {
        Event::Listening { url } => {
            eprintln!("serving {} at {url} (Ctrl-C to stop)", root.display());
            if open {
                if let Err(e) = opener::open(&url) {
                    eprintln!("could not open a browser: {e}");
                }
            }
        }
        Event::Built {
            pages,
            millis,
            diags,
        } => {
            super::print_diagnostics(&diags);
            eprintln!("built: {pages} pages in {millis} ms");
        }
        Event::ContentFailed { errors, diags } => {
            super::print_diagnostics(&diags);
            eprintln!("build failed with {errors} error(s); still serving the previous build");
        }
        Event::Failed(e) => eprintln!("build failed: {e}"),
        Event::Changed(paths) => {
            for p in paths.iter().take(3) {
                eprintln!("changed: {}", p.strip_prefix(root).unwrap_or(p).display());
            }
            if paths.len() > 3 {
                eprintln!("changed: {} more", paths.len() - 3);
            }
        }
        Event::WatchError(e) => eprintln!("watch error: {e}"),
        Event::HttpStopped(e) => eprintln!("serve: the HTTP server stopped: {e}"),
    }
}
