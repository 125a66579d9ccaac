//! The serve loop: read and analyse the catalog into a workspace (`site::Workspace`), serve its
//! site over HTTP, each file made when first asked, watch what a build reads, take a new
//! snapshot on each change (only the files whose text changed are parsed again), and tell open
//! pages to reload or show the errors. What happens is told to the caller as `Event`s; only the
//! binary prints them.

use super::event::{Event, Sink};
use super::http::{self, Current};
use super::{reload::Reload, watch};
use errbook_core::config::Config;
use errbook_core::error::{Error, Result};
use errbook_site::{Snapshot, Workspace};
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
        .map_err(|e| Error::system(format!("cannot resolve {}", root.display()), e))?;
    let cfg = Config::load(root)?;
    // Watch before the first snapshot: a file saved while it is taken is read right after.
    let watcher = watch::start(&watch::watched(root, &cfg))?;
    let reload = Arc::new(Reload::default());
    let current = Current::default();
    let mut workspace = Workspace::new(root, opts.drafts);
    let mut update = |changed: Option<&[std::path::PathBuf]>, soft: bool| {
        let result = guarded(|| workspace.snapshot(changed));
        settle(result, soft, &current, &reload, &sink);
    };
    update(None, false);

    let listener = std::net::TcpListener::bind(opts.addr)
        .map_err(|e| Error::system(format!("cannot listen on {}", opts.addr), e))?;
    http::spawn(listener, current.clone(), reload.clone(), sink.clone())?;
    sink(Event::Listening {
        url: format!("http://{}/", opts.addr),
    });
    let content = root.join("content");
    let watch_sink = sink.clone();
    watch::run(
        watcher,
        |changed| {
            // Only content changed: an open page may swap in its new `<main>` (no theme,
            // static file, record or configuration can have changed the rest of it).
            let soft = changed.iter().all(|p| p.starts_with(&content));
            sink(Event::Changed(changed.clone()));
            update(Some(&changed), soft);
        },
        move |e| watch_sink(Event::WatchError(e)),
    )
}

/// `take`, with a panic in it (a bug errbook must not have, on any input) turned into an error:
/// the previous site stays served.
fn guarded(take: impl FnOnce() -> Result<Snapshot>) -> Result<Snapshot> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(take)).unwrap_or_else(|p| {
        let what = (p.downcast_ref::<&str>().map(|s| s.to_string()))
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        Err(Error::Bug(format!(
            "errbook hit a bug while building ({what}); the previous site is still served. \
             Please report it with the file you changed."
        )))
    })
}

/// Serve a good snapshot from now on, and tell the caller and the open pages how it went
/// (`soft`: only content changed).
fn settle(result: Result<Snapshot>, soft: bool, current: &Current, reload: &Reload, sink: &Sink) {
    match result {
        Ok(snapshot) => {
            sink(Event::Built {
                pages: snapshot.pages(),
                millis: snapshot.millis(),
                diags: snapshot.diagnostics().clone(),
            });
            *current.write().unwrap_or_else(|p| p.into_inner()) = Some(Arc::new(snapshot));
            let what = if soft {
                "swap in their new content"
            } else {
                "reload"
            };
            tracing::debug!("serving the new snapshot; open pages {what}");
            if soft {
                reload.publish_pages();
            } else {
                reload.publish(String::new());
            }
        }
        Err(Error::Content { errors, diags }) => {
            tracing::debug!("the snapshot has {errors} error(s); open pages show them");
            let text: Vec<String> = (diags.items.iter())
                .filter(|d| d.is_error())
                .map(|d| d.render(false))
                .collect();
            reload.publish(text.join("\n"));
            sink(Event::ContentFailed { errors, diags });
        }
        Err(e) => {
            tracing::debug!("the snapshot failed: {e}; open pages show why");
            reload.publish(e.to_string());
            sink(Event::Failed(e));
        }
    }
}
