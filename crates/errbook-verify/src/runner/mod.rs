//! Runners: where a planned run happens. `local` starts one run on this machine, contained by
//! `sandbox` (bubblewrap: `bwrap`, limits: `cgroup`, the interpreter as the sandbox sees it:
//! `interp`) with an environment of named variables (`env`). The remote runners (`verify::ssh`,
//! `verify::slurm`) send `Request`s to errbook on other machines, which run them with `local`
//! and send `Output`s back.

pub(super) mod bwrap;
pub(super) mod cgroup;
pub(super) mod env;
pub(super) mod interp;
pub(super) mod local;
pub(super) mod sandbox;

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// One program to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Request {
    pub program: String,
    /// File name the program is written to in the run's directory (`snippet.py`).
    pub file_name: String,
    /// Interpreter command (may hold arguments: `python3 -X dev`).
    pub interpreter: Vec<String>,
    /// Declared variables (the snippet's `env=`), set last.
    pub env: Vec<(String, String)>,
    /// Variables the maintainer named, with their values from errbook's environment where the
    /// session started; redacted from the output.
    pub passed: Vec<(String, String)>,
    /// CUDA_VISIBLE_DEVICES for the run (empty: no GPU).
    pub gpus: Vec<u32>,
    /// The snippet declares `network`.
    pub network: bool,
    pub timeout: Duration,
    /// Bytes of output kept from the start and from the end.
    pub keep_head: usize,
    pub keep_tail: usize,
}

/// What happened.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Output {
    pub exit_status: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    /// The sandbox limit that stopped the run (`memory (2048 MiB)`), if one did.
    pub limit: Option<String>,
    pub duration: Duration,
    /// All bytes written to stdout and stderr.
    pub bytes: u64,
    #[serde(with = "lossy")]
    pub head: Vec<u8>,
    #[serde(with = "lossy")]
    pub tail: Vec<u8>,
    /// How the run was contained (the record's `sandbox`).
    pub sandbox: String,
}

impl Output {
    /// Head and tail joined, with a marker where output was left out.
    pub(super) fn text(&self) -> String {
        let kept = (self.head.len() + self.tail.len()) as u64;
        let mut s = String::from_utf8_lossy(&self.head).into_owned();
        if self.bytes > kept {
            s.push_str(&left_out(self.bytes - kept));
        }
        s.push_str(&String::from_utf8_lossy(&self.tail));
        s
    }
}

/// The line that stands where `bytes` of output were left out (here and in a record's log).
pub(crate) fn left_out(bytes: u64) -> String {
    format!("\n[errbook: {bytes} bytes of output left out]\n")
}

/// Output bytes travel between hosts as text, as records keep them.
mod lossy {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&String::from_utf8_lossy(b))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        Ok(String::deserialize(d)?.into_bytes())
    }
}
