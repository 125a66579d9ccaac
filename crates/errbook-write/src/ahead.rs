//! Folders made ahead of the files: a build knows its pages' folders once the catalog is parsed,
//! and makes them on a thread of its own while the link stage (which leaves a core idle) runs,
//! so that the render threads find most of them there.
//!
//! Only a hint: a folder this thread could not make is made (or its error reported) by the
//! write that needs it, and a folder a render thread made first is skipped. Nothing but folders
//! is made here, and only folders that the build writes a file into.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The thread making the folders; dropping it stops the thread and waits for it, so no folder
/// is made after the staging folder is swapped in or given up.
pub struct Ahead {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Start making `dirs` (relative to `base`, with `/` separators), in their order.
pub(super) fn start(base: PathBuf, dirs: Vec<String>) -> Ahead {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let thread = std::thread::Builder::new()
        .name("errbook-folders".into())
        .spawn(move || {
            for rel in &dirs {
                if flag.load(Ordering::Relaxed) {
                    return;
                }
                // An error here is the write's to report, when it makes the folder itself.
                let _ = super::dirs::make_for_file(&base.join(rel));
            }
        })
        .ok();
    Ahead { stop, thread }
}

impl Ahead {
    /// Wait for every folder to be made (or found there already).
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Ahead {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makes_the_folders_in_turn_and_stops_when_dropped() {
        let tmp = tempfile::tempdir().unwrap();
        let dirs = vec!["errors/a/x".to_string(), "errors/b/y".to_string()];
        start(tmp.path().to_path_buf(), dirs).wait();
        assert!(tmp.path().join("errors/a/x").is_dir() && tmp.path().join("errors/b/y").is_dir());
        // Dropped, it stops: once dropped, it makes no more folders (whether it made this one
        // first depends on the scheduler).
        drop(start(tmp.path().to_path_buf(), vec!["articles/z".into()]));
        let made = tmp.path().join("articles/z").is_dir();
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert_eq!(tmp.path().join("articles/z").is_dir(), made);
        // A file where a folder must go, or a folder there already, stops nothing and panics
        // nowhere.
        std::fs::write(tmp.path().join("file"), "x").unwrap();
        let dirs = vec!["file/a".into(), "errors/a/x".into(), "errors/c".into()];
        start(tmp.path().to_path_buf(), dirs).wait();
        assert!(tmp.path().join("file").is_file() && tmp.path().join("errors/c").is_dir());
    }
}
