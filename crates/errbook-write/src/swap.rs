//! The swap of a finished staging folder with the output, and the repair of a swap that a kill
//! interrupted. Called with the output's lock held.
//!
//! Where the filesystem has it (Linux: ext4, xfs, btrfs, tmpfs...), the swap is one
//! `renameat2(RENAME_EXCHANGE)`: the output is the old site or the new one at every instant, and
//! the old one becomes the staging folder of the next build. Elsewhere it takes three renames
//! (output -> `.<name>.old`, staging -> output, `.<name>.old` -> staging); a kill between the
//! first two leaves no output for a moment, and the next build (`recover`) puts `.<name>.old`
//! back before anything else.

use errbook_core::error::{IoContext, Result};
use std::path::{Path, PathBuf};

/// Swap `staging` in as `dest` (which may not exist yet); the old output ends up as `staging`.
pub(crate) fn swap(staging: &Path, dest: &Path) -> Result<()> {
    if !dest.exists() {
        return std::fs::rename(staging, dest).at(dest);
    }
    match exchange(staging, dest) {
        Ok(()) => Ok(()),
        Err(e) if !unsupported(&e) => Err(e).at(dest),
        Err(_) => by_renames(staging, dest),
    }
}

/// The swap in three renames, where the filesystem cannot exchange.
fn by_renames(staging: &Path, dest: &Path) -> Result<()> {
    let aside = aside(dest);
    std::fs::rename(dest, &aside).at(dest)?;
    if let Err(e) = std::fs::rename(staging, dest) {
        let _ = std::fs::rename(&aside, dest);
        return Err(e).at(dest);
    }
    std::fs::rename(&aside, staging).at(&aside)
}

/// Where the three-rename swap keeps the old output between its renames.
fn aside(dest: &Path) -> PathBuf {
    super::sibling(dest, "old")
}

/// Repair what an interrupted swap left: with no output, the old one set aside is put back;
/// with an output, what was set aside is the staging folder's (or, when there is one, debris).
pub(crate) fn recover(staging: &Path, dest: &Path) -> Result<()> {
    let a = aside(dest);
    if !a.is_dir() {
        return Ok(());
    }
    if !dest.exists() {
        std::fs::rename(&a, dest).at(&a)?;
    } else if !staging.exists() {
        std::fs::rename(&a, staging).at(&a)?;
    } else {
        std::fs::remove_dir_all(&a).at(&a)?;
    }
    Ok(())
}

/// Whether the filesystem cannot exchange (the fallback applies).
fn unsupported(e: &std::io::Error) -> bool {
    #[cfg(target_os = "linux")]
    {
        matches!(
            e.raw_os_error(),
            Some(libc::EINVAL | libc::ENOSYS | libc::ENOTSUP)
        )
    }
    #[cfg(not(target_os = "linux"))]
    {
        e.kind() == std::io::ErrorKind::Unsupported
    }
}

/// Exchange two paths atomically.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let ca = CString::new(a.as_os_str().as_bytes())?;
    let cb = CString::new(b.as_os_str().as_bytes())?;
    // The system call, not glibc's wrapper: the wrapper came with glibc 2.28, and the release
    // binary (scripts/dist.sh) starts on glibc 2.17; a kernel without it answers ENOSYS.
    // SAFETY: both are valid NUL-terminated paths for the duration of the call.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(dir: &Path, name: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("index.html"), name).unwrap();
    }

    fn read(dir: &Path) -> String {
        std::fs::read_to_string(dir.join("index.html")).unwrap()
    }

    #[test]
    fn swap_exchanges_the_two_folders() {
        let t = tempfile::tempdir().unwrap();
        let (staging, dest) = (t.path().join(".book.prev"), t.path().join("book"));
        tree(&staging, "new");
        swap(&staging, &dest).unwrap();
        assert_eq!(read(&dest), "new");
        tree(&staging, "newer");
        swap(&staging, &dest).unwrap();
        assert_eq!(
            (read(&dest), read(&staging)),
            ("newer".into(), "new".into())
        );
    }

    #[test]
    fn the_three_rename_swap_does_the_same() {
        let t = tempfile::tempdir().unwrap();
        let (staging, dest) = (t.path().join(".book.prev"), t.path().join("book"));
        tree(&dest, "old");
        tree(&staging, "new");
        by_renames(&staging, &dest).unwrap();
        assert_eq!((read(&dest), read(&staging)), ("new".into(), "old".into()));
        assert!(!aside(&dest).exists());
    }

    #[test]
    fn a_kill_between_the_renames_is_repaired() {
        let t = tempfile::tempdir().unwrap();
        let (staging, dest) = (t.path().join(".book.prev"), t.path().join("book"));
        // Killed after `book` was set aside, before the staging folder took its place.
        tree(&aside(&dest), "old");
        tree(&staging, "half-built");
        recover(&staging, &dest).unwrap();
        assert_eq!(read(&dest), "old");
        assert!(!aside(&dest).exists());
        // Killed after the staging folder took its place: the set-aside one is the staging.
        std::fs::remove_dir_all(&staging).unwrap();
        tree(&aside(&dest), "older");
        recover(&staging, &dest).unwrap();
        assert_eq!(
            (read(&dest), read(&staging)),
            ("old".into(), "older".into())
        );
        // With both in place, what was set aside is debris.
        tree(&aside(&dest), "debris");
        recover(&staging, &dest).unwrap();
        assert!(!aside(&dest).exists());
        assert_eq!(
            (read(&dest), read(&staging)),
            ("old".into(), "older".into())
        );
    }
}
