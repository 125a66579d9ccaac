//! What errbook on a remote host (`errbook verify-worker`) is sent and sends back: a `WorkPlan`
//! (the sandbox, the GPUs to use, the jobs) as one JSON line, and `Message`s, one JSON line each:
//! the host first, then each job's start and end as they happen. Over SSH they travel on the
//! worker's stdin and stdout; under Slurm the plan is a file and each job's end a file of its own.

use super::error::VerifyError;
use super::gpu::Host;
use super::job::{Job, Ran};
use super::options::GpuSelection;
use super::runner::sandbox::SandboxSpec;
use errbook_core::config::MemCap;
use errbook_core::error::{IoContext, Result};
use errbook_records::Environment;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Everything a worker needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct WorkPlan {
    pub sandbox: SandboxSpec,
    pub gpus: GpuSelection,
    /// How much of each GPU the runs packed onto it may plan to use together.
    pub cap: MemCap,
    /// The Python command, for the host's versions.
    pub python: Vec<String>,
    /// Runs at a time; `None`: the host's CPU count.
    pub jobs: Option<usize>,
    /// The jobs; none: report the host and stop (a probe).
    pub items: Vec<Job>,
}

/// One line from a worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum Message {
    /// The host, first: its GPUs and versions, runs at a time, how runs are contained there.
    Host {
        host: Host,
        jobs: usize,
        sandbox: String,
        warnings: Vec<String>,
    },
    Started {
        id: usize,
        gpus: Vec<u32>,
    },
    Finished {
        id: usize,
        gpus: Vec<u32>,
        env: Environment,
        peak_mib: Option<u64>,
        ran: Ran,
    },
    /// A run ran out of GPU memory beside others: it runs again on a GPU of its own.
    Again {
        id: usize,
    },
    /// The worker cannot run anything here (no bubblewrap, say); nothing follows.
    Fatal {
        message: String,
    },
}

impl Message {
    /// One line of JSON, newline included.
    pub(crate) fn line(&self) -> String {
        let mut s = serde_json::to_string(self).unwrap_or_else(|e| {
            format!("{{\"type\":\"fatal\",\"message\":\"cannot encode a message: {e}\"}}")
        });
        s.push('\n');
        s
    }
}

/// The errbook binary remote hosts run: `configured` (a portable build, for hosts whose system
/// is older than this one), else this one; with a key that changes when it is rebuilt (its
/// version, size and modification time), under which hosts keep their copy.
pub(crate) fn errbook_binary(configured: Option<&Path>) -> Result<(PathBuf, String)> {
    let path = match configured {
        Some(p) => p.to_path_buf(),
        None => std::env::current_exe().map_err(VerifyError::ThisBinary)?,
    };
    let meta = std::fs::metadata(&path).at(&path)?;
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    use sha2::Digest;
    let id = format!("{}-{}-{mtime}", env!("CARGO_PKG_VERSION"), meta.len());
    let digest = sha2::Sha256::digest(id.as_bytes());
    let key = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    Ok((path, key))
}
