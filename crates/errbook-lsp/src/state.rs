//! What the server knows between messages: the root, the open documents, the last analysis the
//! pipeline gave (with the records it read) and the diagnostics last published per file.

use super::convert::{path_of, uri_of};
use super::docs::Docs;
use errbook_core::model::Page;
use errbook_records::RecordSet;
use errbook_site::Analysis;
use lsp_types::Uri;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The server's state on its main thread.
pub(crate) struct State {
    /// The catalog's root, absolute.
    pub(crate) root: PathBuf,
    pub(crate) docs: Docs,
    /// The last analysis (an empty one until the first check ends).
    pub(crate) analysis: Arc<Analysis>,
    pub(crate) records: Option<Arc<RecordSet>>,
    /// The diagnostics last published, by path under the root.
    pub(crate) published: HashMap<PathBuf, Vec<lsp_types::Diagnostic>>,
}

impl State {
    pub(crate) fn new(root: PathBuf) -> State {
        State {
            root,
            docs: Docs::default(),
            analysis: Arc::new(Analysis::default()),
            records: None,
            published: HashMap::new(),
        }
    }

    /// The path under the root that `uri` names, if it is under the root.
    pub(crate) fn rel(&self, uri: &Uri) -> Option<PathBuf> {
        let abs = path_of(uri)?;
        Some(abs.strip_prefix(&self.root).ok()?.to_path_buf())
    }

    /// The URI of the file `rel`: the open document's own, else made from its path.
    pub(crate) fn uri(&self, rel: &Path) -> Option<Uri> {
        match self.docs.get(rel) {
            Some(d) => Some(d.uri.clone()),
            None => uri_of(&self.root.join(rel)),
        }
    }

    /// The text of the content file `rel`: the editor's if open, else the last analysis's.
    pub(crate) fn text(&self, rel: &Path) -> Option<Arc<str>> {
        if let Some(d) = self.docs.get(rel) {
            return Some(d.text.clone());
        }
        let f = self.analysis.files.iter().find(|f| f.path == rel)?;
        Some(f.text.clone())
    }

    /// The page whose file is `rel`, as the last analysis read it.
    pub(crate) fn page(&self, rel: &Path) -> Option<Page<'_>> {
        self.analysis.catalog.pages().find(|p| p.source() == rel)
    }
}
