//! What a verify session is asked to do: typed options that the command line (or any other
//! caller) fills in. The GPU selection and the runner are parsed and checked here, so a session
//! never starts on a malformed `--gpus` list.

use crate::core::error::{Error, Result};
use std::path::PathBuf;
use std::str::FromStr;

/// Bytes of each run's output kept in its record by default.
pub const DEFAULT_LOG_BYTES: usize = 32 * 1024;

/// Where runs happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Runner {
    /// This machine (`runner::local`).
    #[default]
    Local,
}

impl FromStr for Runner {
    type Err = Error;
    fn from_str(s: &str) -> Result<Runner> {
        match s {
            "local" => Ok(Runner::Local),
            other => Err(Error::Other(format!(
                "--runner: `{other}` is not a runner (known: local)"
            ))),
        }
    }
}

/// Which GPUs runs may use.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum GpuSelection {
    /// Every GPU nvidia-smi lists.
    #[default]
    All,
    /// No GPU: snippets that need one are skipped.
    None,
    /// These indices; an index nvidia-smi does not list is still used (tests fake GPUs so).
    List(Vec<u32>),
}

impl GpuSelection {
    /// The indices to restrict detection to; `None` for every GPU found.
    pub(crate) fn only(&self) -> Option<&[u32]> {
        match self {
            GpuSelection::All => None,
            GpuSelection::None => Some(&[]),
            GpuSelection::List(list) => Some(list),
        }
    }
}

impl FromStr for GpuSelection {
    type Err = Error;
    /// `none` (or nothing) for no GPU, else a comma-separated list of indices (`0,1`).
    fn from_str(s: &str) -> Result<GpuSelection> {
        if s == "none" || s.is_empty() {
            return Ok(GpuSelection::None);
        }
        s.split(',')
            .map(|x| x.trim().parse::<u32>())
            .collect::<std::result::Result<Vec<u32>, _>>()
            .map(GpuSelection::List)
            .map_err(|_| Error::Other(format!("--gpus: not a list of GPU indices: `{s}`")))
    }
}

/// One session's options.
#[derive(Debug, Clone)]
pub struct Options {
    pub runner: Runner,
    /// Runs at a time; `None`: the CPU count (GPU runs are also limited by the GPUs).
    pub jobs: Option<usize>,
    /// Run again even where a record for the same hash exists.
    pub force: bool,
    /// Only the snippets whose name (`article/<id>#<snippet>`) contains one of these texts;
    /// empty: every snippet.
    pub only: Vec<String>,
    /// Plan only: nothing runs, nothing is written.
    pub dry_run: bool,
    pub gpus: GpuSelection,
    /// Variables of errbook's environment passed to runs besides `runner::DEFAULT_KEEP`
    /// (`NAME` or `PREFIX*`).
    pub keep_env: Vec<String>,
    /// Bytes of each run's output kept in its record (half from the start, half from the end).
    pub log_bytes: usize,
    /// Delete records that match no runnable snippet any more, before planning.
    pub prune: bool,
    /// Read the findings of the records again from their logs (with today's traceback reader),
    /// before planning; runs nothing by itself.
    pub reread: bool,
    /// How much of each GPU's memory packed runs may plan to use (default: book.toml's
    /// `verify.gpu_mem_cap`).
    pub gpu_mem_cap: Option<super::MemCap>,
    /// Also write the session (plan, packing timeline, verdicts) as JSON to this file.
    pub report: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            runner: Runner::Local,
            jobs: None,
            force: false,
            only: Vec::new(),
            dry_run: false,
            gpus: GpuSelection::All,
            keep_env: Vec::new(),
            log_bytes: DEFAULT_LOG_BYTES,
            prune: false,
            reread: false,
            gpu_mem_cap: None,
            report: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpu_selection_is_parsed_and_checked() {
        let parse = |s: &str| s.parse::<GpuSelection>().ok();
        assert_eq!(parse("none"), Some(GpuSelection::None));
        assert_eq!(parse(""), Some(GpuSelection::None));
        assert_eq!(parse("0, 1"), Some(GpuSelection::List(vec![0, 1])));
        assert_eq!(parse("0,x"), None);
        assert_eq!(parse("-1"), None);
        let err = "0,x".parse::<GpuSelection>().unwrap_err().to_string();
        assert_eq!(err, "--gpus: not a list of GPU indices: `0,x`");
        assert_eq!(GpuSelection::All.only(), None);
        assert_eq!(GpuSelection::None.only(), Some(&[][..]));
        assert_eq!("local".parse::<Runner>().ok(), Some(Runner::Local));
        assert!("slurm".parse::<Runner>().is_err());
    }
}
