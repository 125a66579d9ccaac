//! Write: the output goes into a staging folder beside the destination and is swapped in only
//! when the whole build succeeded, so a failed build leaves the previous site whole.
//!
//! The staging folder is the output of the build before: after a swap the old output is kept as
//! `.<name>.prev` beside the destination, and the next build overwrites its files in place and
//! deletes the ones it did not write. Overwriting an existing file is far cheaper than creating
//! and deleting tens of thousands of them on every build (the profile of a 10,000-entry build
//! showed a third of its time in ext4's inode allocation after the previous output was deleted).
//! When there is no previous output, the staging folder is made new: nothing in it needs
//! comparing or deleting.
//!
//! A build may be killed at any instant, run twice at once, or fill the disk, and the output
//! stays the previous site or the new one, whole:
//! - `lock`: one build at a time per output folder (`.<name>.lock`, the second waits);
//! - `swap`: the swap is one atomic exchange where the filesystem has it, and an interrupted
//!   three-rename swap is repaired by the next build before anything else;
//! - a build that runs out of space deletes its staging folder, so the space is free for the
//!   next one;
//! - a file too large to hold whole is streamed (`stream`), written beside the old one and put
//!   in its place when whole;
//! - the output carries a marker (`MARKER`): a folder that is not empty and has none is not
//!   errbook's, and a build refuses to replace it (and so to delete its files at the next build).

mod hosts;
mod lock;
mod stream;
mod swap;

use errbook_core::error::{Error, IoContext, Result};
pub use hosts::{SiteSize, HOSTS};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
pub(crate) use stream::Stream;

/// The file that marks a folder as errbook's output.
pub(crate) const MARKER: &str = ".errbook";
const MARKER_TEXT: &str = "This folder is the output of errbook: each build replaces all of it.\n";

/// A folder being filled with the next build's output.
pub struct Staging {
    dir: PathBuf,
    dest: PathBuf,
    /// Files written by this build (relative paths), to delete the rest at commit.
    written: Mutex<HashSet<String>>,
    /// The folder was made by this build: no file is there yet to compare or replace.
    fresh: bool,
    /// What was written: files, bytes, the largest (for the hosts' limits).
    tally: Arc<hosts::Tally>,
    /// Held until the swap is done.
    _lock: lock::Lock,
}

/// `.book.prev` beside `book/`.
pub(crate) fn prev_dir(dest: &Path) -> PathBuf {
    sibling(dest, "prev")
}

fn sibling(dest: &Path, tag: &str) -> PathBuf {
    let parent = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "book".into());
    parent.join(format!(".{name}.{tag}"))
}

impl Staging {
    /// The staging folder for `dest`: the previous build's leftover output, or a new folder.
    /// Waits for another build into `dest`; repairs what a killed one left.
    pub fn new(dest: &Path) -> Result<Staging> {
        let lock = lock::Lock::acquire(dest)?;
        let dir = prev_dir(dest);
        swap::recover(&dir, dest)?;
        check_replaceable(dest)?;
        if dir.exists() && !dir.is_dir() {
            std::fs::remove_file(&dir).at(&dir)?;
        }
        let fresh = !dir.is_dir();
        if fresh {
            std::fs::create_dir_all(&dir).at(&dir)?;
        }
        Ok(Staging {
            dir,
            dest: dest.to_path_buf(),
            written: Mutex::new(HashSet::new()),
            fresh,
            tally: Arc::default(),
            _lock: lock,
        })
    }

    /// Give up this build before anything was written: a staging folder this build made (it
    /// is empty) is deleted, as if the build had not started.
    pub fn discard(self) {
        if self.fresh {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    /// Give up this build after `e`. A disk that is full gets the staging folder's space back:
    /// the next build then starts from an empty one (slower, but it fits where this did not).
    pub fn abandon(self, e: &Error) {
        let full = matches!(e, Error::Io { source, .. }
            if matches!(source.kind(), std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded));
        if full {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    fn note(&self, rel: &str) {
        if let Ok(mut w) = self.written.lock() {
            w.insert(rel.to_string());
        }
    }

    /// Write one file (relative path with `/` separators), creating its folders.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<()> {
        self.tally.add(rel, bytes.len() as u64);
        if self.fresh {
            // Nothing is there to delete at commit: what is written need not be noted.
            return write_new(&self.dir, rel, bytes);
        }
        self.note(rel);
        write_file(&self.dir, rel, bytes)
    }

    /// A file (relative path with `/` separators) to write a piece at a time, for one too large
    /// to hold whole (`stream`); its folders are made now.
    pub fn stream(&self, rel: &str) -> Result<Stream> {
        if !self.fresh {
            self.note(rel);
        }
        let to = self.dir.join(rel);
        if let Some(p) = to.parent() {
            std::fs::create_dir_all(p).at(p)?;
        }
        Stream::start(to, self.fresh, rel, Arc::clone(&self.tally))
    }

    /// Copy every file under `src` into the staging folder under `prefix` (`""` or `theme/`).
    pub fn copy_tree(&self, src: &Path, prefix: &str) -> Result<usize> {
        if !src.is_dir() {
            return Ok(0);
        }
        let mut n = 0;
        for item in walkdir::WalkDir::new(src).sort_by_file_name() {
            // The file walkdir could not read, or the folder; its I/O error.
            let item = item.map_err(|e| Error::Io {
                path: e.path().unwrap_or(src).to_path_buf(),
                source: e.into(),
            })?;
            if !item.file_type().is_file() {
                continue;
            }
            let rel = item.path().strip_prefix(src).unwrap_or(item.path());
            let rel = format!("{prefix}{}", rel.to_string_lossy().replace('\\', "/"));
            let bytes = std::fs::read(item.path()).at(item.path())?;
            self.write(&rel, &bytes)?;
            n += 1;
        }
        Ok(n)
    }

    /// Delete what this build did not write (left from the build before), then swap: the old
    /// output becomes `.<name>.prev`, the staging folder becomes the output. Returns the size
    /// of the site (its files, bytes and largest file).
    pub fn commit(self) -> Result<SiteSize> {
        if let Err(e) = self.write(MARKER, MARKER_TEXT.as_bytes()) {
            self.abandon(&e);
            return Err(e);
        }
        let size = self.tally.size();
        if self.fresh {
            // Everything in a folder this build made, it wrote.
            swap::swap(&self.dir, &self.dest)?;
            return Ok(size);
        }
        let written = std::mem::take(&mut *self.written.lock().map_err(|_| poisoned())?);
        // Children come before their folder, so a folder emptied here is removed in turn.
        for item in walkdir::WalkDir::new(&self.dir)
            .min_depth(1)
            .contents_first(true)
        {
            let Ok(item) = item else { continue };
            if item.file_type().is_dir() {
                if dir_is_empty(item.path()) {
                    let _ = std::fs::remove_dir(item.path());
                }
                continue;
            }
            let rel = item.path().strip_prefix(&self.dir).unwrap_or(item.path());
            if !written.contains(&rel.to_string_lossy().replace('\\', "/")) {
                std::fs::remove_file(item.path()).at(item.path())?;
            }
        }
        swap::swap(&self.dir, &self.dest)?;
        Ok(size)
    }
}

fn poisoned() -> Error {
    Error::Bug("a render thread panicked while noting a written file".into())
}

/// Refuse to replace a folder that holds something and is not errbook's output: the build would
/// move it aside and the next one delete its files. An output written before the marker existed
/// (`index.html`, `theme/` and `sitemap.xml` or `search/`) is errbook's too.
fn check_replaceable(dest: &Path) -> Result<()> {
    if !dest.exists() {
        return Ok(());
    }
    let ours = || {
        dir_is_empty(dest)
            || dest.join(MARKER).is_file()
            || (dest.join("index.html").is_file()
                && dest.join("theme").is_dir()
                && (dest.join("sitemap.xml").is_file() || dest.join("search").is_dir()))
    };
    let why = if !dest.is_dir() {
        "it is a file, not a folder"
    } else if ours() {
        return Ok(());
    } else {
        "it holds files that errbook did not write (it has no `.errbook` marker), and a build replaces the whole folder"
    };
    Err(Error::OutputDir {
        path: dest.to_path_buf(),
        why: why.into(),
    })
}

/// Whether the file at `p` holds exactly `bytes` (false when it cannot be read).
fn same_bytes(p: &Path, bytes: &[u8]) -> bool {
    use std::io::Read;
    let Ok(mut f) = std::fs::File::open(p) else {
        return false;
    };
    match f.metadata() {
        Ok(m) if m.len() == bytes.len() as u64 => {}
        _ => return false,
    }
    let mut buf = Vec::with_capacity(bytes.len());
    f.read_to_end(&mut buf).is_ok() && buf == bytes
}

fn dir_is_empty(p: &Path) -> bool {
    std::fs::read_dir(p)
        .map(|mut d| d.next().is_none())
        .unwrap_or(false)
}

/// Write `bytes` to `base/rel` in a folder this build made: its folder first (most files are
/// a page's, alone in a folder of its own), then the file, two system calls where
/// `write_file` would try the file, fail, and try again.
fn write_new(base: &Path, rel: &str, bytes: &[u8]) -> Result<()> {
    let to = base.join(rel);
    if let Some(p) = to.parent() {
        std::fs::create_dir_all(p).at(p)?;
    }
    std::fs::write(&to, bytes).at(&to)
}

/// Write `bytes` to `base/rel`, creating folders. A file that already holds exactly these
/// bytes (the staging folder is the output of the build before last) is left alone: reading
/// it costs far less than truncating and rewriting it, and its mtime stays meaningful.
pub(crate) fn write_file(base: &Path, rel: &str, bytes: &[u8]) -> Result<()> {
    let to = base.join(rel);
    if same_bytes(&to, bytes) {
        return Ok(());
    }
    match std::fs::write(&to, bytes) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if let Some(p) = to.parent() {
                std::fs::create_dir_all(p).at(p)?;
            }
            std::fs::write(&to, bytes).at(&to)
        }
        Err(e) => Err(Error::Io {
            path: to,
            source: e,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_swaps_and_reuses_the_old_output_without_stale_files() {
        let tmp = tempfile::tempdir().unwrap();
        let dest = tmp.path().join("book");
        std::fs::create_dir_all(&dest).unwrap();
        std::fs::write(dest.join("old.html"), "old").unwrap();
        std::fs::write(dest.join(MARKER), MARKER_TEXT).unwrap();

        // A build that fails drops its staging folder: the old output stays.
        let s = Staging::new(&dest).unwrap();
        s.write("a/new.html", b"new").unwrap();
        drop(s);
        assert_eq!(std::fs::read(dest.join("old.html")).unwrap(), b"old");

        let s = Staging::new(&dest).unwrap();
        s.write("a/new.html", b"new").unwrap();
        s.commit().unwrap();
        assert!(!dest.join("old.html").exists());
        assert_eq!(std::fs::read(dest.join("a/new.html")).unwrap(), b"new");
        assert!(
            prev_dir(&dest).join("old.html").exists(),
            "old output kept as scratch"
        );

        // The next build reuses the scratch: stale files and folders go.
        let s = Staging::new(&dest).unwrap();
        s.write("b/other.html", b"other").unwrap();
        s.commit().unwrap();
        let mut names: Vec<String> = walkdir::WalkDir::new(&dest)
            .into_iter()
            .filter_map(|e| e.ok())
            .map(|e| {
                e.path()
                    .strip_prefix(&dest)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        assert_eq!(names, vec!["", ".errbook", "b", "b/other.html"]);
    }

    #[test]
    fn a_folder_that_is_not_errbooks_is_not_replaced() {
        let tmp = tempfile::tempdir().unwrap();
        let dest = tmp.path().join("Documents");
        std::fs::create_dir_all(&dest).unwrap();
        std::fs::write(dest.join("thesis.tex"), "years of work").unwrap();
        let e = Staging::new(&dest).err().expect("refused");
        assert!(e.to_string().contains("did not write"), "{e}");
        assert!(dest.join("thesis.tex").exists());
        // An empty folder, or one errbook wrote, is fine.
        std::fs::remove_file(dest.join("thesis.tex")).unwrap();
        Staging::new(&dest).unwrap().commit().unwrap();
        assert!(dest.join(MARKER).is_file());
        Staging::new(&dest).unwrap().commit().unwrap();
    }
}
