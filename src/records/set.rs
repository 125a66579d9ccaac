//! The records of a catalog, read once: each runnable snippet's status (a record for the snippet
//! as it is now, an older one for a snippet that changed since, or none). Files that are not
//! records are listed, never fatal.

use super::hash::hash_of;
use super::record::Record;
use crate::core::model::{Catalog, PageRef, Snippet};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// What the site knows about one runnable snippet.
#[derive(Debug, Clone)]
pub(crate) enum Status<'a> {
    /// A record for the snippet as it is now.
    Fresh(&'a Record),
    /// A record exists for this snippet's page position, but the snippet changed since.
    Stale(&'a Record),
    /// Never run.
    Missing,
}

#[derive(Debug, Default)]
pub(crate) struct RecordSet {
    pub records: Vec<Record>,
    /// Path of each record (relative to the root), parallel to `records`.
    pub paths: Vec<PathBuf>,
    /// Files under the records folder that could not be read, with the reason.
    pub unreadable: Vec<(PathBuf, String)>,
    by_hash: HashMap<(PageRef, String), usize>,
    by_snippet: HashMap<(PageRef, String), usize>,
}

impl RecordSet {
    /// Read every record under `<root>/<records_dir>`; a missing folder is an empty set. A file
    /// that is not a record is listed in `unreadable` (reported by `check`), never fatal.
    pub(crate) fn load(
        root: &Path,
        cfg: &crate::core::config::Config,
    ) -> crate::core::error::Result<RecordSet> {
        let dir = root.join(&cfg.verify.records_dir);
        let mut set = RecordSet::default();
        if !dir.is_dir() {
            return Ok(set);
        }
        let mut files: Vec<PathBuf> = walkdir::WalkDir::new(&dir)
            .into_iter()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_file())
            .map(|e| e.into_path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for f in files {
            let rel = f.strip_prefix(root).unwrap_or(&f).to_path_buf();
            let parsed = std::fs::read_to_string(&f)
                .map_err(|e| e.to_string())
                .and_then(|t| serde_json::from_str::<Record>(&t).map_err(|e| e.to_string()));
            match parsed {
                Ok(r) => set.push(r, rel),
                Err(e) => set.unreadable.push((rel, e)),
            }
        }
        Ok(set)
    }

    fn push(&mut self, r: Record, path: PathBuf) {
        let i = self.records.len();
        self.by_hash.insert((r.page.clone(), r.hash.clone()), i);
        let key = (r.page.clone(), r.snippet.clone());
        // The newest record of a snippet position stands for it when the snippet changed.
        let newer = match self.by_snippet.get(&key) {
            Some(&j) => self.records[j].date < r.date,
            None => true,
        };
        if newer {
            self.by_snippet.insert(key, i);
        }
        self.records.push(r);
        self.paths.push(path);
    }

    /// The record of exactly this run (page and hash), if any.
    pub(crate) fn get(&self, page: &PageRef, hash: &str) -> Option<&Record> {
        self.by_hash
            .get(&(page.clone(), hash.to_string()))
            .map(|&i| &self.records[i])
    }

    /// The status of snippet `s` of `page` (the hash covers its continuation chain).
    pub(crate) fn status(&self, page: &PageRef, snippets: &[Snippet], s: &Snippet) -> Status<'_> {
        if s.run.is_none() {
            return Status::Missing;
        }
        let h = hash_of(snippets, s);
        if let Some(r) = self.get(page, &h) {
            return Status::Fresh(r);
        }
        match self.by_snippet.get(&(page.clone(), s.id.clone())) {
            Some(&i) => Status::Stale(&self.records[i]),
            None => Status::Missing,
        }
    }

    /// Records that match no runnable snippet of `catalog` as it is now (their snippet changed
    /// or went away), as positions in `records`.
    pub(crate) fn orphans(&self, catalog: &Catalog) -> Vec<usize> {
        let mut live: HashSet<(PageRef, String)> = HashSet::new();
        for page in catalog.pages() {
            let snippets = page.snippets();
            for s in snippets.iter().filter(|s| s.run.is_some()) {
                live.insert((page.reference(), hash_of(snippets, s)));
            }
        }
        (0..self.records.len())
            .filter(|&i| {
                let r = &self.records[i];
                !live.contains(&(r.page.clone(), r.hash.clone()))
            })
            .collect()
    }
}
