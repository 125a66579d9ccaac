//! Verification records: one JSON file per run under `verify/` (the `[verify] records_dir`),
//! `verify/<entries|articles>/<page id>/<snippet id>.<hash prefix>.json`. One file per snippet
//! hash, so two contributors verifying different snippets never touch the same file. The build
//! reads them through `RecordSet` to show each snippet's claim beside what the run found; `check`
//! reports missing and stale ones through `check_records`.

use crate::diag::{Diagnostic, Severity};
use crate::link::PageRef;
use crate::model::{Claim, PageKind, Snippet};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub use super::hash::hash_of;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The run did what the text claims.
    Confirmed,
    /// The run did the opposite (claimed to run, failed; claimed to fail, ran).
    Contradicted,
    /// Claimed to fail with one error, failed with another.
    DifferentError,
    TimedOut,
    Skipped,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Confirmed => "confirmed",
            Verdict::Contradicted => "contradicted",
            Verdict::DifferentError => "different_error",
            Verdict::TimedOut => "timed_out",
            Verdict::Skipped => "skipped",
        }
    }
    /// A finding: the run disagrees with the text.
    pub fn is_finding(self) -> bool {
        matches!(self, Verdict::Contradicted | Verdict::DifferentError)
    }
}

/// An exception found in the output: the final one, one wrapped inside it (DataLoader's
/// "Original Traceback", `mp.spawn`'s "Process 0 terminated"), or a crashed child's.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RaisedError {
    /// Exception type as printed (`RuntimeError`, `torch.multiprocessing.spawn.ProcessRaisedException`).
    pub exception: String,
    /// The message (may span lines), without nested tracebacks.
    #[serde(default)]
    pub message: String,
    /// Who raised it: `main`, `wrapped`, or the child's name (`Process-1`).
    #[serde(default)]
    pub origin: String,
    /// The traceback text (capped).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub traceback: String,
}

/// Where the run happened.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Environment {
    pub host: String,
    /// GPUs given to the run.
    pub gpu_count: u32,
    pub gpu_model: String,
    pub gpu_memory_mib: u64,
    /// GPUs on the host.
    pub host_gpu_count: u32,
    pub driver: String,
    /// CUDA version PyTorch was built with (else the driver's).
    pub cuda: String,
    /// The highest CUDA version the driver supports (nvidia-smi).
    pub cuda_driver: String,
    pub python: String,
    pub torch: String,
    pub os: String,
    pub errbook: String,
}

/// One recorded run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Record {
    pub hash: String,
    pub page: PageRef,
    /// Source file of the page, relative to the root.
    #[serde(default)]
    pub source: PathBuf,
    /// The snippet's id on its page, and the ids of the chain it ran as (ancestors first).
    pub snippet: String,
    #[serde(default)]
    pub chain: Vec<String>,
    /// 1-based line of the snippet's opening fence when it ran.
    #[serde(default)]
    pub line: usize,
    /// The claim as the text writes it.
    pub claim: Claim,
    pub verdict: Verdict,
    /// One sentence: why this verdict.
    #[serde(default)]
    pub finding: String,
    #[serde(default)]
    pub skip_reason: Option<String>,
    #[serde(default)]
    pub exit_status: Option<i32>,
    /// Signal that ended the main process, if one did.
    #[serde(default)]
    pub signal: Option<i32>,
    #[serde(default)]
    pub timed_out: bool,
    /// Final exception of the main process.
    #[serde(default)]
    pub exception: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
    /// Exceptions wrapped inside the final one (the original cause).
    #[serde(default)]
    pub wrapped: Vec<RaisedError>,
    /// Child processes that died with a traceback.
    #[serde(default)]
    pub children: Vec<RaisedError>,
    #[serde(default)]
    pub duration_s: f64,
    /// RFC 3339, UTC.
    #[serde(default)]
    pub date: String,
    /// CUDA_VISIBLE_DEVICES given to the run.
    #[serde(default)]
    pub gpus_used: Vec<u32>,
    #[serde(default)]
    pub env: Environment,
    /// Bytes the run wrote to stdout and stderr; the log keeps its head and tail.
    #[serde(default)]
    pub output_bytes: u64,
    #[serde(default)]
    pub log: String,
}

impl Record {
    /// One line about where it ran: GPUs, driver, CUDA, Python, PyTorch, host.
    pub fn env_summary(&self) -> String {
        let e = &self.env;
        let mut parts = Vec::new();
        if e.gpu_count > 0 {
            let model = if e.gpu_model.is_empty() {
                "GPU"
            } else {
                e.gpu_model.as_str()
            };
            parts.push(format!("{}\u{d7} {model}", e.gpu_count));
        } else if self.verdict != Verdict::Skipped {
            parts.push("CPU only".to_string());
        }
        for (v, label) in [
            (&e.driver, "driver"),
            (&e.cuda, "CUDA"),
            (&e.python, "Python"),
            (&e.torch, "PyTorch"),
            (&e.host, "host"),
        ] {
            if !v.is_empty() {
                parts.push(format!("{label} {v}"));
            }
        }
        parts.join(", ")
    }

    /// The exception that explains the failure best: the innermost wrapped one, else the final
    /// one, else the first crashed child's.
    pub fn cause(&self) -> Option<(String, String)> {
        if let Some(w) = self.wrapped.last() {
            return Some((w.exception.clone(), w.message.clone()));
        }
        if let Some(e) = &self.exception {
            return Some((e.clone(), self.message.clone().unwrap_or_default()));
        }
        self.children
            .first()
            .map(|c| (c.exception.clone(), c.message.clone()))
    }

    /// The record's file, relative to the records folder.
    pub fn rel_path(&self) -> PathBuf {
        let kind = match self.page.kind {
            PageKind::Entry => "entries",
            PageKind::Article => "articles",
        };
        let mut p = PathBuf::from(kind);
        for part in self.page.id.split('/') {
            p.push(safe(part));
        }
        p.push(format!(
            "{}.{}.json",
            safe(&self.snippet),
            &self.hash[..self.hash.len().min(16)]
        ));
        p
    }
}

fn safe(s: &str) -> String {
    let t: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if t.is_empty() {
        "_".into()
    } else {
        t
    }
}

/// What the site knows about one runnable snippet.
#[derive(Debug, Clone)]
pub enum Status<'a> {
    /// A record for the snippet as it is now.
    Fresh(&'a Record),
    /// A record exists for this snippet's page position, but the snippet changed since.
    Stale(&'a Record),
    /// Never run.
    Missing,
}

#[derive(Debug, Default)]
pub struct RecordSet {
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
    pub fn load(root: &Path, cfg: &crate::config::Config) -> crate::Result<RecordSet> {
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
    pub fn get(&self, page: &PageRef, hash: &str) -> Option<&Record> {
        self.by_hash
            .get(&(page.clone(), hash.to_string()))
            .map(|&i| &self.records[i])
    }

    /// The status of snippet `s` of `page` (the hash covers its continuation chain).
    pub fn status(&self, page: &PageRef, snippets: &[Snippet], s: &Snippet) -> Status<'_> {
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
}

/// Write `rec` under `<root>/<records_dir>` (pretty JSON, trailing newline) and remove the older
/// records of the same snippet position that it replaces (`supersede`). Returns the path.
pub fn write(
    root: &Path,
    cfg: &crate::config::Config,
    rec: &Record,
    supersede: bool,
) -> crate::Result<PathBuf> {
    use crate::error::IoContext;
    let dir = root.join(&cfg.verify.records_dir);
    let path = dir.join(rec.rel_path());
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).at(parent)?;
    }
    let mut text =
        serde_json::to_string_pretty(rec).map_err(|e| crate::Error::Other(e.to_string()))?;
    text.push('\n');
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text).at(&tmp)?;
    std::fs::rename(&tmp, &path).at(&path)?;
    // Older runs of the same snippet position (a changed snippet) are superseded by a real
    // result; a skip leaves them (the site then still shows the last real run as stale).
    if let Some(parent) = path.parent().filter(|_| supersede) {
        let prefix = format!("{}.", safe(&rec.snippet));
        if let Ok(rd) = std::fs::read_dir(parent) {
            for e in rd.flatten() {
                let p = e.path();
                let name = e.file_name().to_string_lossy().into_owned();
                if p != path && name.starts_with(&prefix) && name.ends_with(".json") {
                    let stem = &name[prefix.len()..name.len() - 5];
                    if stem.len() == 16 && stem.chars().all(|c| c.is_ascii_hexdigit()) {
                        let _ = std::fs::remove_file(&p);
                    }
                }
            }
        }
    }
    Ok(path)
}

/// Records that match no runnable snippet of the catalog as it is now (their snippet changed or
/// went away), as paths relative to the root.
pub fn orphans(analysis: &crate::site::Analysis, set: &RecordSet) -> Vec<usize> {
    let mut live: std::collections::HashSet<(PageRef, String)> = Default::default();
    for (page, snippets) in pages(&analysis.catalog) {
        for s in snippets.iter().filter(|s| s.run.is_some()) {
            live.insert((page.clone(), hash_of(snippets, s)));
        }
    }
    (0..set.records.len())
        .filter(|&i| {
            let r = &set.records[i];
            !live.contains(&(r.page.clone(), r.hash.clone()))
        })
        .collect()
}

/// Every page that holds snippets, with its snippets.
pub fn pages(catalog: &crate::model::Catalog) -> Vec<(PageRef, &[Snippet])> {
    let mut out: Vec<(PageRef, &[Snippet])> = Vec::new();
    for e in &catalog.entries {
        out.push((
            PageRef {
                kind: PageKind::Entry,
                id: e.id.clone(),
            },
            &e.snippets,
        ));
    }
    for a in &catalog.articles {
        out.push((
            PageRef {
                kind: PageKind::Article,
                id: a.id.clone(),
            },
            &a.snippets,
        ));
    }
    out
}

/// `check`'s view of the records: a warning for each runnable snippet with no record or a stale
/// one, each record that matches no snippet any more, and each unreadable record file.
pub fn check_records(
    root: &Path,
    analysis: &crate::site::Analysis,
    cfg: &crate::config::Config,
) -> Vec<Diagnostic> {
    match RecordSet::load(root, cfg) {
        Ok(set) => check_with(analysis, &set),
        Err(_) => Vec::new(),
    }
}

/// `check_records` on an already loaded set.
pub fn check_with(analysis: &crate::site::Analysis, set: &RecordSet) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let sources: HashMap<&Path, &std::sync::Arc<str>> = analysis
        .files
        .iter()
        .map(|f| (f.path.as_path(), &f.text))
        .collect();
    let mut source_of: HashMap<PageRef, &Path> = HashMap::new();
    for e in &analysis.catalog.entries {
        source_of.insert(
            PageRef {
                kind: PageKind::Entry,
                id: e.id.clone(),
            },
            &e.source,
        );
    }
    for a in &analysis.catalog.articles {
        source_of.insert(
            PageRef {
                kind: PageKind::Article,
                id: a.id.clone(),
            },
            &a.source,
        );
    }
    for (page, snippets) in pages(&analysis.catalog) {
        let Some(path) = source_of.get(&page) else {
            continue;
        };
        let Some(src) = sources.get(path) else {
            continue;
        };
        for s in snippets.iter().filter(|s| s.run.is_some()) {
            match set.status(&page, snippets, s) {
                Status::Fresh(_) => {}
                Status::Stale(r) => out.push(
                    Diagnostic::at_line(
                        Severity::Warning,
                        "W-verify-stale",
                        path,
                        src,
                        s.line,
                        format!(
                            "code block `{}` changed since it was verified ({} on {})",
                            s.id,
                            r.verdict.as_str(),
                            r.date.get(..10).unwrap_or(&r.date)
                        ),
                    )
                    .hint("run `errbook verify` on a GPU host and commit verify/"),
                ),
                Status::Missing => out.push(
                    Diagnostic::at_line(
                        Severity::Warning,
                        "W-verify-missing",
                        path,
                        src,
                        s.line,
                        format!("runnable code block `{}` has no verification record", s.id),
                    )
                    .hint("run `errbook verify` on a GPU host and commit verify/"),
                ),
            }
        }
    }
    // Stale records whose position is still used are reported above, at the snippet.
    for i in orphans(analysis, set) {
        let r = &set.records[i];
        let still_shown = pages(&analysis.catalog)
            .iter()
            .any(|(p, sn)| *p == r.page && sn.iter().any(|s| s.run.is_some() && s.id == r.snippet));
        if !still_shown {
            out.push(
                Diagnostic::file(
                    Severity::Warning,
                    "W-verify-orphan",
                    &set.paths[i],
                    format!(
                        "record for `{}` of {} `{}` matches no runnable code block",
                        r.snippet,
                        match r.page.kind {
                            PageKind::Entry => "entry",
                            PageKind::Article => "article",
                        },
                        r.page.id
                    ),
                )
                .hint("remove it with `errbook verify --prune`"),
            );
        }
    }
    for (p, e) in &set.unreadable {
        out.push(
            Diagnostic::file(
                Severity::Warning,
                "W-verify-record",
                p,
                format!("not a verification record: {e}"),
            )
            .hint("records are written by `errbook verify`; delete the file or rerun"),
        );
    }
    out
}
