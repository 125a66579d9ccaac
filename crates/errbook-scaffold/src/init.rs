//! `errbook init`: a working catalog (book.toml, one entry, one article, runnable snippets) that
//! the binary alone builds into a site, embedded from src/init/. Refuses a folder that
//! already holds a catalog; writes no file over an existing one.

use errbook_core::error::{Error, IoContext, Result};
use include_dir::{include_dir, Dir, DirEntry};
use std::path::{Path, PathBuf};

static CATALOG: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/src/init");

/// What `init` did.
#[derive(Debug)]
pub enum Init {
    /// These files were written, relative to the folder.
    Written(Vec<PathBuf>),
    /// The folder already holds a catalog (this book.toml); nothing was written.
    Exists(PathBuf),
}

/// Write a new catalog into `dir` (created when missing).
pub fn init(dir: &Path) -> Result<Init> {
    let toml = dir.join("book.toml");
    if toml.exists() {
        return Ok(Init::Exists(toml));
    }
    let mut files = Vec::new();
    collect(&CATALOG, &mut files);
    if let Some(taken) = files
        .iter()
        .map(|(rel, _)| dir.join(rel))
        .find(|p| p.exists())
    {
        return Err(Error::Exists {
            path: taken,
            command: "init",
        });
    }
    let mut written = Vec::new();
    for (rel, bytes) in files {
        let path = dir.join(&rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).at(parent)?;
        }
        std::fs::write(&path, bytes).at(&path)?;
        written.push(rel);
    }
    Ok(Init::Written(written))
}

fn collect(d: &'static Dir<'static>, out: &mut Vec<(PathBuf, &'static [u8])>) {
    for e in d.entries() {
        match e {
            DirEntry::Dir(sub) => collect(sub, out),
            DirEntry::File(f) => out.push((f.path().to_path_buf(), f.contents())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_a_catalog_once() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("new");
        let Init::Written(files) = init(&dir).unwrap() else {
            panic!("nothing written")
        };
        assert!(files.iter().any(|f| f == Path::new("book.toml")));
        assert!(files.iter().any(|f| f.starts_with("content/errors")));
        assert!(files.iter().any(|f| f.starts_with("content/articles")));
        assert!(matches!(init(&dir).unwrap(), Init::Exists(_)));
    }
}
