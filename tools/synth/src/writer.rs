//! Writes the generated files under one folder, creating parents.

use super::{IoContext, Result};
use std::path::PathBuf;

/// Writes files under one folder, creating parents.
pub(crate) struct Writer {
    root: PathBuf,
}

impl Writer {
    pub(crate) fn new(root: PathBuf) -> Self {
        Writer { root }
    }
    pub(crate) fn put(&self, rel: &str, text: &str) -> Result<()> {
        let path = self.root.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).at(dir)?;
        }
        std::fs::write(&path, text).at(&path)
    }
}
