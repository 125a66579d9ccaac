//! The serve loop: build, serve the output over HTTP, watch what a build reads, build again on
//! each change with the same pipeline as `errbook build`, and tell open pages to reload or show
//! the errors. What happens is told to the caller as `Event`s; only the binary prints them.

use super::event::{Event, Sink};
use super::{http, reload::Reload, watch};
use crate::core::config::Config;
use crate::core::diag::Diagnostics;
use crate::core::error::{Error, Result};
use crate::site::{BuildOptions, BuildReport};
use std::net::SocketAddr;
use std::path::Path;
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
    // The watcher reports absolute paths; with the root absolute too, a changed path is shown
    // under the root.
    let root = &std::path::absolute(root)
        .map_err(|e| Error::Other(format!("cannot resolve {}: {e}", root.display())))?;
    let cfg = Config::load(root)?;
    // The folder served stays the one the server started with, whatever book.toml says later.
    let dest = root.join(&cfg.build.output_dir);
    // Watch before the first build: a file saved while it runs is built right after it.
    let watcher = watch::start(&watch::watched(root, &cfg))?;
    let reload = Arc::new(Reload::default());
    let content = root.join("content");
    let build = |soft: bool| guarded(|| rebuild(root, &dest, opts.drafts), soft, &reload, &sink);
    build(false);

    let listener = std::net::TcpListener::bind(opts.addr)
        .map_err(|e| Error::Other(format!("cannot listen on {}: {e}", opts.addr)))?;
    http::spawn(listener, dest.clone(), reload.clone(), sink.clone())?;
    let url = format!("http://{}/", opts.addr);
    sink(Event::Listening {
        url,
        dest: dest.clone(),
    });
    let watch_sink = sink.clone();
    watch::run(
        watcher,
        |changed| {
            // Only content changed: an open page may swap in its new `<main>` (no theme,
            // static file, record or configuration can have changed the rest of it).
            let soft = changed.iter().all(|p| p.starts_with(&content));
            sink(Event::Changed(changed));
            build(soft);
        },
        move |e| watch_sink(Event::WatchError(e)),
    )
}

/// One build of the site into `dest`, with the configuration as it is now.
fn rebuild(root: &Path, dest: &Path, drafts: bool) -> Result<(BuildReport, Diagnostics)> {
    let cfg = Config::load(root)?;
    let opts = BuildOptions {
        dest: dest.to_path_buf(),
        drafts,
        ..Default::default()
    };
    crate::site::build(root, &cfg, &opts)
}

/// Run one build and tell the caller and the open pages how it went (`soft`: it changed content
/// pages only). A panic in it (a bug errbook must not have, on any input) is reported like a
/// failed build instead of ending `serve`: the previous site stays served.
fn guarded(
    f: impl FnOnce() -> Result<(BuildReport, Diagnostics)>,
    soft: bool,
    reload: &Reload,
    sink: &Sink,
) {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let what = (p.downcast_ref::<&str>().map(|s| s.to_string()))
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        Err(Error::Other(format!(
            "errbook hit a bug while building ({what}); the previous site is still served. \
             Please report it with the file you changed."
        )))
    });
    match result {
        Ok((report, diags)) => {
            sink(Event::Built {
                pages: report.pages,
                millis: report.millis,
                diags,
            });
            if soft {
                reload.publish_pages();
            } else {
                reload.publish(String::new());
            }
        }
        Err(Error::Content { errors, diags }) => {
            let text: Vec<String> = (diags.items.iter())
                .filter(|d| d.is_error())
                .map(|d| d.render(false))
                .collect();
            reload.publish(text.join("\n"));
            sink(Event::ContentFailed { errors, diags });
        }
        Err(e) => {
            reload.publish(e.to_string());
            sink(Event::Failed(e));
        }
    }
}
