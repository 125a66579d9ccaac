//! One recorded run: what ran (page, snippet, chain, hash, claim), what happened (verdict,
//! exit, exceptions, the root cause a crashed child gave, the log, the GPU memory it used) and
//! where (the environment, whose key and words are `env`'s). Plain data, read and written as
//! JSON by `store`.

use super::message::without_warnings;
use super::verdict::Verdict;
use errbook_core::model::{Claim, PageRef};
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
    /// The model of the host's GPUs (what a run without GPUs ran beside); empty without GPUs.
    pub host_gpu_model: String,
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
    /// What made the main process fail when it failed because a child process died (a spawned
    /// worker failing at import) and reported only the death. (An original error that a wrapper
    /// carries, DataLoader's "Original Traceback", is in `wrapped`.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root_cause: Option<RaisedError>,
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
    pub runner: String,
    /// How it was contained: `bwrap 0.8.0: no network, memory 16384 MiB, 8192 tasks (cgroup v2)`,
    /// or `none` (`--sandbox none`).
    pub sandbox: String,
    /// The most GPU memory the run's processes held at once, in MiB, as `nvidia-smi` reported
    /// it while the run went on; none when it was not measured (no GPU, or too short a run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_mem_peak_mib: Option<u64>,
    /// Bytes the run wrote to stdout and stderr; the log keeps its head and tail.
    #[serde(default)]
    pub output_bytes: u64,
    #[serde(default)]
    pub log: String,
    /// When the finding was read again from this record's log by a newer traceback reader
    /// (`errbook verify --reread`), RFC 3339; the run itself is `date`'s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reread: Option<String>,
}

impl Record {
    /// One line about where it ran: hardware, driver, CUDA, Python, PyTorch.
    pub fn env_summary(&self) -> String {
        self.env.summary()
    }

    /// The exception that explains the failure best: the root cause another process gave, else
    /// the innermost wrapped one, else the final one, else the first crashed child's.
    pub fn cause(&self) -> Option<RaisedError> {
        self.root_cause
            .as_ref()
            .or(self.wrapped.last())
            .map(RaisedError::without_warnings)
            .or_else(|| self.final_error())
            .or_else(|| self.children.first().map(RaisedError::without_warnings))
    }

    /// The final exception of the main process, as one `RaisedError` (its message without the
    /// warnings printed after it, `message::without_warnings`).
    pub fn final_error(&self) -> Option<RaisedError> {
        self.exception.as_ref().map(|e| RaisedError {
            exception: e.clone(),
            message: without_warnings(self.message.as_deref().unwrap_or_default()).to_string(),
            origin: "main".into(),
            traceback: String::new(),
        })
    }
}

impl RaisedError {
    /// This error with its message cut before the warnings printed after it.
    pub fn without_warnings(&self) -> RaisedError {
        RaisedError {
            message: without_warnings(&self.message).to_string(),
            ..self.clone()
        }
    }
}
