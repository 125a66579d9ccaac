//! One recorded run: what ran (page, snippet, chain, hash, claim), what happened (verdict,
//! exit, exceptions, crashed children, log) and where (the environment). Plain data, read and
//! written as JSON by `store`.

use super::verdict::Verdict;
use crate::core::model::{Claim, PageRef};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

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
    /// Where it ran: `local`, `ssh://host`, `slurm job 12_3 on node7`.
    #[serde(default)]
    pub runner: String,
    /// How it was contained: `bwrap 0.8.0: no network, memory 16384 MiB, 8192 tasks (cgroup v2)`,
    /// or `none` (`--sandbox none`).
    #[serde(default)]
    pub sandbox: String,
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
}
