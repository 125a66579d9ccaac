//! Write: the output goes into a staging folder beside the destination and is swapped in only
//! when the whole build succeeded, so a failed build leaves the previous site whole.

use crate::error::{Error, IoContext, Result};
use std::path::{Path, PathBuf};

/// A folder being filled with the next build's output.
pub struct Staging {
    dir: tempfile::TempDir,
}

impl Staging {
    /// A fresh staging folder next to `dest` (same file system, so the swap is a rename).
    pub fn new(dest: &Path) -> Result<Staging> {
        let parent = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&parent).at(&parent)?;
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "book".into());
        let dir = tempfile::Builder::new()
            .prefix(&format!(".{name}.staging-"))
            .tempdir_in(&parent)
            .at(&parent)?;
        Ok(Staging { dir })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Write one file (relative path with `/` separators), creating its folders.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<()> {
        write_file(self.dir.path(), rel, bytes)
    }

    /// Copy every file under `src` into the staging folder under `prefix` (`""` or `theme/`).
    pub fn copy_tree(&self, src: &Path, prefix: &str) -> Result<usize> {
        if !src.is_dir() {
            return Ok(0);
        }
        let mut n = 0;
        for item in walkdir::WalkDir::new(src).sort_by_file_name() {
            let item = item.map_err(|e| Error::Other(format!("{}: {e}", src.display())))?;
            if !item.file_type().is_file() {
                continue;
            }
            let rel = item.path().strip_prefix(src).unwrap_or(item.path());
            let rel = rel.to_string_lossy().replace('\\', "/");
            let to = self.dir.path().join(format!("{prefix}{rel}"));
            if let Some(p) = to.parent() {
                std::fs::create_dir_all(p).at(p)?;
            }
            std::fs::copy(item.path(), &to).at(item.path())?;
            n += 1;
        }
        Ok(n)
    }

    /// Replace `dest` with the staging folder: rename the old output aside, rename the new one
    /// in, then delete the old one. Only the two renames touch `dest`.
    pub fn commit(self, dest: &Path) -> Result<()> {
        let staged = self.dir.keep();
        let old = if dest.exists() {
            let mut aside = dest.as_os_str().to_owned();
            aside.push(format!(".old-{}", std::process::id()));
            let aside = PathBuf::from(aside);
            std::fs::rename(dest, &aside).at(dest)?;
            Some(aside)
        } else {
            None
        };
        if let Err(e) = std::fs::rename(&staged, dest) {
            if let Some(o) = &old {
                let _ = std::fs::rename(o, dest);
            }
            let _ = std::fs::remove_dir_all(&staged);
            return Err(Error::Io {
                path: dest.to_path_buf(),
                source: e,
            });
        }
        if let Some(o) = old {
            std::fs::remove_dir_all(&o).at(&o)?;
        }
        Ok(())
    }
}

/// Write `bytes` to `base/rel`, creating folders.
pub fn write_file(base: &Path, rel: &str, bytes: &[u8]) -> Result<()> {
    let to = base.join(rel);
    if let Some(p) = to.parent() {
        std::fs::create_dir_all(p).at(p)?;
    }
    std::fs::write(&to, bytes).at(&to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_replaces_old_output_and_drop_leaves_it() {
        let tmp = tempfile::tempdir().unwrap();
        let dest = tmp.path().join("book");
        std::fs::create_dir_all(&dest).unwrap();
        std::fs::write(dest.join("old.html"), "old").unwrap();

        // A build that fails drops its staging folder: the old output stays.
        let s = Staging::new(&dest).unwrap();
        s.write("a/new.html", b"new").unwrap();
        drop(s);
        assert!(dest.join("old.html").exists());
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);

        let s = Staging::new(&dest).unwrap();
        s.write("a/new.html", b"new").unwrap();
        s.commit(&dest).unwrap();
        assert!(!dest.join("old.html").exists());
        assert_eq!(std::fs::read(dest.join("a/new.html")).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
    }
}
