//! `errbook serve`: build, serve on 127.0.0.1, rebuild on change, reload the browser; prints
//! what the serve loop reports.

use errbook::serve::Event;
use errbook::serve::Options;
use errbook::Result;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

pub(crate) fn run(root: &Path, port: u16, open: bool, drafts: bool) -> Result<ExitCode> {
    let opts = Options {
        addr: ([127, 0, 0, 1], port).into(),
        drafts,
    };
    let root_shown = root.to_path_buf();
    let sink = Arc::new(move |e: Event| print(&root_shown, open, e));
    errbook::serve::run(root, &opts, sink)?;
    Ok(ExitCode::SUCCESS)
}

fn print(root: &Path, open: bool, e: Event) {
    match e {
        Event::Listening { url, dest } => {
            eprintln!("serving {} at {url} (Ctrl-C to stop)", dest.display());
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
        Event::PageWritten { page, millis } => {
            eprintln!("written: {page} in {millis} ms (the pages linking to it follow)")
        }
        Event::Updated {
            changed,
            rendered,
            written,
            full,
        } => {
            for p in changed.iter().take(3) {
                eprintln!("changed: {}", p.strip_prefix(root).unwrap_or(p).display());
            }
            let full = if full { " (full build)" } else { "" };
            eprintln!("{rendered} files rendered, {written} changed on disk{full}");
        }
        Event::WatchError(e) => eprintln!("watch error: {e}"),
        Event::HttpStopped(e) => eprintln!("serve: the HTTP server stopped: {e}"),
    }
}
