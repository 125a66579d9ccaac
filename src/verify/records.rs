//! Verification records: one file per snippet hash under `verify/` (see DESIGN.md), read by the
//! build to show what each run found. (Interface first; the writer comes with `errbook verify`.)

use crate::link::PageRef;
use crate::model::Snippet;
use serde::{Deserialize, Serialize};
use std::path::Path;

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

/// One recorded run (fields per DESIGN.md; the full set is filled in by `errbook verify`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Record {
    pub hash: String,
    pub verdict: Verdict,
    #[serde(default)]
    pub skip_reason: Option<String>,
    #[serde(default)]
    pub exit_status: Option<i32>,
    #[serde(default)]
    pub exception: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub duration_s: f64,
    #[serde(default)]
    pub date: String,
    #[serde(default)]
    pub log: String,
    #[serde(default)]
    pub env: serde_json::Value,
    #[serde(flatten)]
    pub rest: serde_json::Map<String, serde_json::Value>,
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
}

impl RecordSet {
    /// Read every record under `<root>/<records_dir>`; a missing folder is an empty set.
    pub fn load(root: &Path, cfg: &crate::config::Config) -> crate::Result<RecordSet> {
        let _ = (root, cfg);
        Ok(RecordSet::default())
    }

    /// The status of snippet `s` of `page` (the hash covers its continuation chain).
    pub fn status(&self, page: &PageRef, snippets: &[Snippet], s: &Snippet) -> Status<'_> {
        let _ = (page, snippets, s);
        Status::Missing
    }
}

impl Record {
    /// One line about where it ran: GPUs, driver, CUDA, Python, PyTorch, host.
    pub fn env_summary(&self) -> String {
        let get = |k: &str| {
            self.env
                .get(k)
                .and_then(|v| v.as_str())
                .filter(|s| !s.is_empty())
        };
        let mut parts = Vec::new();
        match (
            self.env.get("gpu_count").and_then(|v| v.as_u64()),
            get("gpu_model"),
        ) {
            (Some(n), Some(m)) if n > 0 => parts.push(format!("{n}\u{d7} {m}")),
            _ => parts.push("no GPU".to_string()),
        }
        for (k, label) in [
            ("driver", "driver"),
            ("cuda", "CUDA"),
            ("python", "Python"),
            ("torch", "PyTorch"),
            ("host", "host"),
        ] {
            if let Some(v) = get(k) {
                parts.push(format!("{label} {v}"));
            }
        }
        parts.join(", ")
    }
}
