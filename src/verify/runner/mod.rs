//! Runners: where a planned run happens. `local` runs on this machine.

pub(super) mod local;

use std::time::Duration;

/// One program to run.
#[derive(Debug, Clone)]
pub(super) struct Request {
    pub program: String,
    /// File name the program is written to in the run's directory (`snippet.py`).
    pub file_name: String,
    /// Interpreter command (may hold arguments: `python3 -X dev`).
    pub interpreter: Vec<String>,
    /// Declared variables, set after the kept ones.
    pub env: Vec<(String, String)>,
    /// Variables of errbook's own environment passed through (by exact name or `PREFIX*`).
    pub keep_env: Vec<String>,
    /// CUDA_VISIBLE_DEVICES for the run (empty: no GPU).
    pub gpus: Vec<u32>,
    pub timeout: Duration,
    /// Bytes of output kept from the start and from the end.
    pub keep_head: usize,
    pub keep_tail: usize,
}

/// What happened.
#[derive(Debug, Clone, Default)]
pub(super) struct Output {
    pub exit_status: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    /// The sandbox limit that stopped the run (`memory`, `processes`), if one did.
    pub limit: Option<String>,
    pub duration: Duration,
    /// All bytes written to stdout and stderr.
    pub bytes: u64,
    pub head: Vec<u8>,
    pub tail: Vec<u8>,
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

/// Variables kept from errbook's environment by default: what finding programs, Python and
/// CUDA need, and the NCCL/NVSHMEM/PyTorch settings a GPU host may require to stay set.
pub(super) const DEFAULT_KEEP: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "LANG",
    "LC_ALL",
    "TERM",
    "LD_LIBRARY_PATH",
    "VIRTUAL_ENV",
    "CONDA_PREFIX",
    "CONDA_DEFAULT_ENV",
    "PYTHONHOME",
    "CUDA_HOME",
    "CUDA_PATH",
    "CUDA_ROOT",
    "NVIDIA_*",
    "NCCL_*",
    "NVSHMEM_*",
    "TORCH_*",
];

pub(super) fn kept(name: &str, keep: &[String]) -> bool {
    keep.iter().any(|k| match k.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => name == k,
    })
}
