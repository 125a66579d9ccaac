//! Watch what a build reads (content/, themes/, static/, book.toml, the verification records)
//! and call back with the changed paths, debounced so one save is one rebuild.

use crate::error::{Error, Result};
use notify_debouncer_mini::{new_debouncer, notify::RecursiveMode, DebounceEventResult};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// The paths under `root` a build depends on (those that exist).
pub fn watched(root: &Path, cfg: &crate::config::Config) -> Vec<PathBuf> {
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

/// Block forever, calling `on_change` with each debounced batch of changed paths.
pub fn run(paths: &[PathBuf], mut on_change: impl FnMut(Vec<PathBuf>)) -> Result<()> {
    let (tx, rx) = mpsc::channel::<DebounceEventResult>();
    let mut debouncer = new_debouncer(Duration::from_millis(100), tx)
        .map_err(|e| Error::Other(format!("cannot watch files: {e}")))?;
    for p in paths {
        debouncer
            .watcher()
            .watch(p, RecursiveMode::Recursive)
            .map_err(|e| Error::Other(format!("cannot watch {}: {e}", p.display())))?;
    }
    for batch in rx {
        match batch {
            Ok(events) => {
                let mut changed: Vec<PathBuf> = events.into_iter().map(|e| e.path).collect();
                changed.sort();
                changed.dedup();
                // Editors' swap and backup files are not content.
                changed.retain(|p| {
                    let name = p
                        .file_name()
                        .map(|n| n.to_string_lossy())
                        .unwrap_or_default();
                    !(name.starts_with(".#") || name.ends_with('~') || name.ends_with(".swp"))
                });
                if !changed.is_empty() {
                    on_change(changed);
                }
            }
            Err(e) => eprintln!("watch error: {e}"),
        }
    }
    Ok(())
}
