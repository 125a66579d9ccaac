//! Atomic file writes: the one place that replaces a file. A reader (a browser, `git`, the next
//! build) sees the old bytes or the new ones, never half a file.

use super::error::{Error, IoContext, Result};
use std::path::Path;

/// Write `bytes` to `target` through a temporary file in the same folder and a rename; creates
/// the folder. The file gets mode 0644, like the files of a full build.
pub fn write_atomic(target: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).at(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir).at(dir)?;
    std::io::Write::write_all(&mut tmp, bytes).at(target)?;
    #[cfg(unix)]
    {
        // NamedTempFile makes its files private.
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::Permissions::from_mode(0o644);
        tmp.as_file().set_permissions(mode).at(target)?;
    }
    tmp.persist(target).map_err(|e| Error::Io {
        path: target.to_path_buf(),
        source: e.error,
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_and_creates_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("a/b/c.json");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(p.parent().unwrap()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file left behind");
    }
}
