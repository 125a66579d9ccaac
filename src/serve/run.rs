//! The serve loop: build, serve the output over HTTP, watch what a build reads, apply each
//! change incrementally (a full build when the previous one failed), and tell open pages to
//! reload or show the errors. What happens is told to the caller as `Event`s; only the binary
//! prints them.

use super::event::{Event, Sink};
use super::{http, reload::Reload, watch};
use crate::core::config::Config;
use crate::core::diag::Diagnostics;
use crate::core::error::{Error, Result};
use crate::site::BuildOptions;
use crate::site::Live;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How to serve.
#[derive(Debug, Clone)]
pub struct Options {
    pub addr: SocketAddr,
    /// Show the pages marked `draft: true` too.
    pub drafts: bool,
}

/// Serve the site at `root` until the process ends.
pub fn run(root: &Path, opts: &Options, sink: Sink) -> Result<()> {
    // The watcher reports absolute paths; with the root absolute too, a changed file is found
    // in the catalog (`./content/x.md` under `.` is not, and became a full build).
    let root = &std::path::absolute(root)
        .map_err(|e| Error::Other(format!("cannot resolve {}: {e}", root.display())))?;
    let cfg = Config::load(root)?;
    let dest = root.join(&cfg.build.output_dir);
    let build = BuildOptions {
        dest: dest.clone(),
        drafts: opts.drafts,
        ..Default::default()
    };
    // Watch before the first build: a file saved while it runs is rebuilt right after it.
    let watcher = watch::start(&watch::watched(root, &cfg))?;
    let reload = Arc::new(Reload::default());
    let start = || Live::start(root, &build).map(|(l, r, d)| (l, r.pages, r.millis, d));
    let mut live = guarded(|| settle(start(), false, &reload, &sink), &reload, &sink);

    let listener = std::net::TcpListener::bind(opts.addr)
        .map_err(|e| Error::Other(format!("cannot listen on {}: {e}", opts.addr)))?;
    http::spawn(listener, dest.clone(), reload.clone(), sink.clone())?;
    let url = format!("http://{}/", opts.addr);
    sink(Event::Listening { url, dest });
    let watch_sink = sink.clone();
    watch::run(
        watcher,
        |changed| {
            live = match live.take() {
                Some(l) => guarded(|| update(l, changed, &reload, &sink), &reload, &sink),
                None => guarded(|| settle(start(), false, &reload, &sink), &reload, &sink),
            };
        },
        move |e| watch_sink(Event::WatchError(e)),
    )
}

/// Run one (re)build; a panic in it (a bug errbook must not have, on any input) is reported like
/// a failed build instead of ending `serve`: the previous site stays served, and the next change
/// starts from a full build.
fn guarded(f: impl FnOnce() -> Option<Live>, reload: &Reload, sink: &Sink) -> Option<Live> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(live) => live,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            let msg = format!(
                "errbook hit a bug while rebuilding ({what}); the previous site is still served. \
                 Please report it with the file you changed."
            );
            reload.publish(msg.clone());
            sink(Event::Failed(Error::Other(msg)));
            None
        }
    }
}

/// Incremental: only what depends on the changed files is rendered and written.
fn update(mut l: Live, changed: Vec<PathBuf>, reload: &Reload, sink: &Sink) -> Option<Live> {
    let result = l.update_then(&changed, &mut |page, millis| {
        sink(Event::PageWritten {
            page: page.to_string(),
            millis,
        });
        reload.publish_pages();
    });
    match result {
        // Nothing really changed (a file saved as it was): no rebuild, no reload.
        Ok((u, _)) if u.rendered == 0 && !u.full && !u.recovered => Some(l),
        Ok((u, d)) => {
            sink(Event::Updated {
                changed,
                rendered: u.rendered,
                written: u.written.len(),
                full: u.full,
            });
            settle(Ok((l, u.written.len(), u.millis, d)), !u.full, reload, sink)
        }
        // The last good state stays; the failed files are retried with the next change.
        Err(e) => {
            settle(Err(e), false, reload, sink);
            Some(l)
        }
    }
}

/// Tell the caller and the open pages how a (re)build went (`soft`: it changed content pages
/// only); hand back the state to keep.
fn settle(
    result: Result<(Live, usize, u128, Diagnostics)>,
    soft: bool,
    reload: &Reload,
    sink: &Sink,
) -> Option<Live> {
    match result {
        Ok((live, pages, millis, diags)) => {
            sink(Event::Built {
                pages,
                millis,
                diags,
            });
            if soft {
                reload.publish_pages();
            } else {
                reload.publish(String::new());
            }
            Some(live)
        }
        Err(Error::Content { errors, diags }) => {
            let text: Vec<String> = diags
                .items
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.render(false))
                .collect();
            reload.publish(text.join("\n"));
            sink(Event::ContentFailed { errors, diags });
            None
        }
        Err(e) => {
            reload.publish(e.to_string());
            sink(Event::Failed(e));
            None
        }
    }
}
