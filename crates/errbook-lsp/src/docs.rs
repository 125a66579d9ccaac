//! The documents the editor has open: their text as the editor holds it (whole, at each change),
//! version, and line index. A document over `MAX_BYTES` is not taken: the disk's text stays.

use super::convert::Lines;
use lsp_types::{Position, Uri};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The largest document read (a content file is a page; this is far above any).
pub(crate) const MAX_BYTES: usize = 4 << 20;

/// One open document.
pub(crate) struct Doc {
    pub(crate) uri: Uri,
    pub(crate) version: i32,
    pub(crate) text: Arc<str>,
    pub(crate) lines: Lines,
}

impl Doc {
    pub(crate) fn new(uri: Uri, version: i32, text: &str) -> Doc {
        Doc {
            uri,
            version,
            text: Arc::from(text),
            lines: Lines::new(text),
        }
    }

    /// The byte offset of `pos`.
    pub(crate) fn offset(&self, pos: Position) -> usize {
        self.lines.offset(&self.text, pos)
    }

    /// The line around byte `offset`: its start and its text up to `offset`.
    pub(crate) fn line_before(&self, offset: usize) -> (usize, &str) {
        let before = self.text.get(..offset).unwrap_or("");
        let start = before.rfind('\n').map_or(0, |i| i + 1);
        (start, &before[start..])
    }
}

/// The open documents, by path under the root.
#[derive(Default)]
pub(crate) struct Docs {
    by_path: HashMap<PathBuf, Doc>,
}

impl Docs {
    pub(crate) fn get(&self, rel: &Path) -> Option<&Doc> {
        self.by_path.get(rel)
    }

    pub(crate) fn insert(&mut self, rel: PathBuf, doc: Doc) {
        self.by_path.insert(rel, doc);
    }

    pub(crate) fn remove(&mut self, rel: &Path) -> Option<Doc> {
        self.by_path.remove(rel)
    }

    pub(crate) fn paths(&self) -> Vec<PathBuf> {
        self.by_path.keys().cloned().collect()
    }
}
