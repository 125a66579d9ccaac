//! Watch what a build reads (content/, themes/, static/, book.toml, the verification records)
//! and call back with the changed paths, debounced so one save is one rebuild. Each batch with
//! a write in it goes to the debug output, swap files and all (`--debug`); reads, at trace level.

use errbook_core::error::{Error, Result};
use notify_debouncer_full::notify::{EventKind, RecursiveMode};
use notify_debouncer_full::{new_debouncer, DebounceEventResult};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// The paths under `root` a build depends on (those that exist).
pub(super) fn watched(root: &Path, cfg: &errbook_core::config::Config) -> Vec<PathBuf> {
    [
        root.join("content"),
        root.join("themes"),
        root.join("static"),
        root.join("book.toml"),
        root.join(&cfg.verify.records_dir),
    ]
    .into_iter()
    .filter(|p| p.exists())
    .collect()
}

/// A watcher of a build's inputs, started before the first build so that nothing saved while it
/// runs is missed: the changes wait in the channel until `run` takes them.
pub(super) struct Watcher {
    // Dropping the debouncer ends the watch; kept here for as long as `run` reads.
    _debouncer: notify_debouncer_full::Debouncer<
        notify_debouncer_full::notify::RecommendedWatcher,
        notify_debouncer_full::RecommendedCache,
    >,
    rx: mpsc::Receiver<DebounceEventResult>,
}

/// Start watching `paths` (recursively).
pub(super) fn start(paths: &[PathBuf]) -> Result<Watcher> {
    let (tx, rx) = mpsc::channel::<DebounceEventResult>();
    let mut debouncer = new_debouncer(Duration::from_millis(50), None, tx)
        .map_err(|e| Error::system("cannot watch files", e))?;
    for p in paths {
        debouncer
            .watch(p, RecursiveMode::Recursive)
            .map_err(|e| Error::system(format!("cannot watch {}", p.display()), e))?;
    }
    Ok(Watcher {
        _debouncer: debouncer,
        rx,
    })
}

/// Block forever, calling `on_change` with each debounced batch of changed paths (those saved
/// since `start` first), and `on_error` with what the watcher reports.
pub(super) fn run(
    watcher: Watcher,
    mut on_change: impl FnMut(Vec<PathBuf>),
    on_error: impl Fn(String),
) -> Result<()> {
    let Watcher { _debouncer, rx } = watcher;
    for batch in rx {
        match batch {
            Ok(events) => {
                let seen = events.len();
                // Reading a file (the build itself does) is not a change.
                let mut changed: Vec<PathBuf> = events
                    .into_iter()
                    .filter(|e| !matches!(e.kind, EventKind::Access(_) | EventKind::Other))
                    .flat_map(|e| e.event.paths)
                    .collect();
                changed.sort();
                changed.dedup();
                let written = changed.len();
                // Editors' swap and backup files are not content.
                changed.retain(|p| {
                    let name = p
                        .file_name()
                        .map(|n| n.to_string_lossy())
                        .unwrap_or_default();
                    !(name.starts_with(".#") || name.ends_with('~') || name.ends_with(".swp"))
                });
                let swap_files = written - changed.len();
                if written == 0 {
                    // Reads: each build's, each file served from disk (trace level).
                    tracing::trace!(events = seen, "the watcher saw no change");
                } else {
                    tracing::debug!(events = seen, swap_files, ?changed, "the watcher reported");
                }
                if !changed.is_empty() {
                    on_change(changed);
                }
            }
            Err(errs) => {
                for e in errs {
                    on_error(e.to_string());
                }
            }
        }
    }
    Ok(())
}
