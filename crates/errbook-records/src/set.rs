//! The records of a catalog, read once: each runnable snippet's status (the runs of the snippet
//! as it is now, one per environment, each judged against the block's claim as it is now; an
//! older run of a snippet that changed since; or none). Files that are not records are listed,
//! never fatal.

use super::hash::{hash_of, legacy_hash_of};
use super::judge::{judge_record_on, Basis};
use super::record::Record;
use super::verdict::Verdict;
use errbook_core::model::{Catalog, Claim, PageRef, Snippet};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// A record with its verdict and finding against a claim: the block's claim as it is now for a
/// fresh run, the claim it ran under for a stale one. Everything else is the record's (`Deref`).
#[derive(Debug, Clone)]
pub struct Judged<'a> {
    pub record: &'a Record,
    pub verdict: Verdict,
    pub finding: String,
    /// The claim the verdict answers.
    pub claim: Claim,
}

impl<'a> Judged<'a> {
    /// `rec` judged against `claim` (`judge::judge_record`).
    pub fn against(rec: &'a Record, claim: &Claim) -> Judged<'a> {
        Judged::against_on(rec, claim, Basis::Text)
    }
    /// `rec` judged against `claim`, whose error rests on `basis`.
    fn against_on(rec: &'a Record, claim: &Claim, basis: Basis) -> Judged<'a> {
        let (verdict, finding) = judge_record_on(rec, claim, basis);
        Judged {
            record: rec,
            verdict,
            finding,
            claim: claim.clone(),
        }
    }
    /// `rec` as it was recorded.
    pub fn as_recorded(rec: &'a Record) -> Judged<'a> {
        Judged {
            record: rec,
            verdict: rec.verdict,
            finding: rec.finding.clone(),
            claim: rec.claim.clone(),
        }
    }
}

impl std::ops::Deref for Judged<'_> {
    type Target = Record;
    fn deref(&self) -> &Record {
        self.record
    }
}

/// What the site knows about one runnable snippet.
#[derive(Debug, Clone)]
pub enum Status<'a> {
    /// The runs of the snippet as it is now, one per environment, ordered by environment key.
    Fresh(Vec<Judged<'a>>),
    /// No run of the snippet as it is now, but one of an earlier version (the newest).
    Stale(Judged<'a>),
    /// Never run.
    Missing,
}

impl<'a> Status<'a> {
    /// The fresh runs (none for a stale or missing snippet).
    pub fn fresh(&self) -> &[Judged<'a>] {
        match self {
            Status::Fresh(runs) => runs,
            _ => &[],
        }
    }
}

#[derive(Debug, Default)]
pub struct RecordSet {
    pub records: Vec<Record>,
    /// Path of each record (relative to the root), parallel to `records`.
    pub paths: Vec<PathBuf>,
    /// Files under the records folder that could not be read, with the reason.
    pub unreadable: Vec<(PathBuf, String)>,
    /// The runs of each (page, hash), newest per environment key.
    by_hash: HashMap<(PageRef, String), Vec<usize>>,
    /// The newest run of each (page, snippet id), whatever its hash.
    by_snippet: HashMap<(PageRef, String), usize>,
}

impl RecordSet {
    /// Read every `.json` file under `<root>/<records_dir>` as a record (`records::store` names
    /// them); a missing folder is an empty set. A file that is not a record is listed in
    /// `unreadable` (reported by `check`), never fatal.
    pub fn load(
        root: &Path,
        cfg: &errbook_core::config::Config,
    ) -> errbook_core::error::Result<RecordSet> {
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
        self.records.push(r);
        self.paths.push(path);
        let r = &self.records[i];
        let newer = |j: usize| self.records[j].date.as_str() <= r.date.as_str();
        let runs = self
            .by_hash
            .entry((r.page.clone(), r.hash.clone()))
            .or_default();
        let key = r.env.key();
        match runs.iter().position(|&j| self.records[j].env.key() == key) {
            // Two files for one run and environment (two blocks of a page with the same code, or a
            // copy of a record under another name): the newer stands.
            Some(k) if newer(runs[k]) => runs[k] = i,
            Some(_) => {}
            None => {
                runs.push(i);
                let records = &self.records;
                runs.sort_by_cached_key(|&j| records[j].env.key());
            }
        }
        let at = self.by_snippet.get(&(r.page.clone(), r.snippet.clone()));
        if at.is_none_or(|&j| newer(j)) {
            self.by_snippet
                .insert((r.page.clone(), r.snippet.clone()), i);
        }
    }

    /// The runs of exactly this version of a snippet (page and hash), one per environment.
    pub fn runs(&self, page: &PageRef, hash: &str) -> Vec<&Record> {
        self.by_hash
            .get(&(page.clone(), hash.to_string()))
            .map(|v| v.iter().map(|&i| &self.records[i]).collect())
            .unwrap_or_default()
    }

    /// The run of this version of a snippet in the environment whose key is `env_key`.
    pub fn run_in(&self, page: &PageRef, hash: &str, env_key: &str) -> Option<&Record> {
        self.runs(page, hash)
            .into_iter()
            .find(|r| r.env.key() == env_key)
    }

    /// The newest run of this version of the snippet, else of any version of it: what the
    /// scheduler learns a run's GPU memory and duration from.
    pub fn last_run(&self, page: &PageRef, hash: &str, snippet: &str) -> Option<&Record> {
        let runs = self.runs(page, hash);
        runs.into_iter()
            .max_by(|a, b| a.date.cmp(&b.date))
            .or_else(|| {
                let i = self.by_snippet.get(&(page.clone(), snippet.to_string()))?;
                Some(&self.records[*i])
            })
    }

    /// The status of snippet `s` of `page` (the hash covers its continuation chain).
    pub fn status(&self, page: &PageRef, snippets: &[Snippet], s: &Snippet) -> Status<'_> {
        self.status_expecting(page, snippets, s, None)
    }

    /// `status`, its fresh runs judged against `entry` where given: the claim that the block
    /// raises the error of the entry its article is about (`judge::entry_claim`), for a block
    /// its text reads as failing without naming an error.
    pub fn status_expecting(
        &self,
        page: &PageRef,
        snippets: &[Snippet],
        s: &Snippet,
        entry: Option<&Claim>,
    ) -> Status<'_> {
        let Some(spec) = s.run.as_ref() else {
            return Status::Missing;
        };
        let runs = self.current(page, snippets, s);
        if !runs.is_empty() {
            let (claim, basis) = match entry {
                Some(c) => (c, Basis::Entry),
                None => (&spec.claim, Basis::Text),
            };
            let judged = runs
                .into_iter()
                .map(|r| Judged::against_on(r, claim, basis));
            return Status::Fresh(judged.collect());
        }
        match self.by_snippet.get(&(page.clone(), s.id.clone())) {
            Some(&i) => Status::Stale(Judged::as_recorded(&self.records[i])),
            None => Status::Missing,
        }
    }

    /// The runs of `s` as it is now: under its hash, else (records of the first scheme) under
    /// the hash that scheme gave it.
    pub fn current(&self, page: &PageRef, snippets: &[Snippet], s: &Snippet) -> Vec<&Record> {
        let runs = self.runs(page, &hash_of(snippets, s));
        if !runs.is_empty() || self.by_hash.is_empty() {
            return runs;
        }
        self.runs(page, &legacy_hash_of(snippets, s))
    }

    /// Records that match no runnable snippet of `catalog` as it is now (their snippet changed
    /// or went away), as positions in `records`.
    pub fn orphans(&self, catalog: &Catalog) -> Vec<usize> {
        let mut live: HashSet<(PageRef, String)> = HashSet::new();
        for page in catalog.pages() {
            let snippets = page.snippets();
            for s in snippets.iter().filter(|s| s.run.is_some()) {
                live.insert((page.reference(), hash_of(snippets, s)));
                live.insert((page.reference(), legacy_hash_of(snippets, s)));
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
