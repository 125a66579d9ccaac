//! The folders of the staging tree: made as a file needs them, and, where the filesystem takes
//! the hint, marked so that the page folders under them are spread over the disk.
//!
//! Why: a site is mostly page folders (`errors/<domain>/<id>/index.html`), so a build from
//! nothing makes tens of thousands of inodes. ext4 puts a new folder's inode in its parent's
//! group and, without a journal, skips every inode of that group deleted in the last few
//! minutes (`recently_deleted`, checked one by one from the start of the group for each new
//! inode). Right after the previous output was deleted, most of a cold build's system time went
//! there. A folder marked "top of a hierarchy" (`chattr +T`, `FS_TOPDIR_FL`) has its
//! subfolders placed as the root's are, in the emptiest groups, away from what was just
//! deleted. Every folder made here that holds folders is marked; the page folders themselves
//! are not, so a page's file lands beside its folder. Filesystems without the flag ignore it,
//! and nothing else about the files changes.

use errbook_core::error::{IoContext, Result};
use std::path::Path;

/// Make the folder `dir` for a file and its missing parents; those parents (folders that
/// hold folders) get the top-of-hierarchy hint.
pub(super) fn make_for_file(dir: &Path) -> Result<()> {
    match std::fs::create_dir(dir) {
        Ok(()) => return Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).at(dir),
    }
    if let Some(parent) = dir.parent() {
        make_parent(parent)?;
    }
    match std::fs::create_dir(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => Err(e).at(dir),
        _ => Ok(()),
    }
}

/// A folder that holds folders, and its missing parents, each given the hint when made here.
fn make_parent(dir: &Path) -> Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent() {
        make_parent(parent)?;
    }
    match std::fs::create_dir(dir) {
        Ok(()) => {
            spread_children(dir);
            Ok(())
        }
        // Another render thread made it first (it gave the hint).
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e).at(dir),
    }
}

/// Mark `dir` as the top of a hierarchy (ext4's Orlov allocator then spreads its subfolders);
/// a hint only: where the filesystem has no such flag, nothing happens.
pub(super) fn spread_children(dir: &Path) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // `FS_TOPDIR_FL` of <linux/fs.h>; the ioctls take an int (the kernel reads 4 bytes).
        const FS_TOPDIR_FL: libc::c_int = 0x0002_0000;
        let Ok(f) = std::fs::File::open(dir) else {
            return;
        };
        let mut flags: libc::c_int = 0;
        // SAFETY: `f` is an open descriptor for the call's duration and `flags` a valid int
        // the kernel reads or writes, as FS_IOC_GETFLAGS and FS_IOC_SETFLAGS require.
        unsafe {
            if libc::ioctl(f.as_raw_fd(), libc::FS_IOC_GETFLAGS, &mut flags) != 0 {
                return;
            }
            if flags & FS_TOPDIR_FL == 0 {
                flags |= FS_TOPDIR_FL;
                libc::ioctl(f.as_raw_fd(), libc::FS_IOC_SETFLAGS, &flags);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = dir;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makes_every_missing_folder_once_and_twice_is_fine() {
        let tmp = tempfile::tempdir().unwrap();
        let page = tmp.path().join("errors/pytorch/x");
        make_for_file(&page).unwrap();
        make_for_file(&page).unwrap();
        make_for_file(&tmp.path().join("errors/pytorch/y")).unwrap();
        assert!(page.is_dir() && tmp.path().join("errors/pytorch/y").is_dir());
        // A file where a folder must go is an error, not a panic.
        std::fs::write(tmp.path().join("file"), "x").unwrap();
        assert!(make_for_file(&tmp.path().join("file/a/b")).is_err());
    }
}
