//! What a verify session is asked to do: typed options that the command line (or any other
//! caller) fills in. The GPU selection and the runner are parsed and checked here, so a session
//! never starts on a malformed `--gpus` list.

use super::error::VerifyError;
use super::runner::sandbox::{SandboxSpec, DEFAULT_TASKS};
use errbook_core::config::{MemCap, Mib, SandboxKind, VerifyConfig};
use errbook_core::error::{Error, Result};
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Bytes of each run's output kept in its record by default.
pub const DEFAULT_LOG_BYTES: usize = 32 * 1024;

/// Where runs happen.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Runner {
    /// This machine (`runner::local`).
    #[default]
    Local,
    /// These hosts, over the system's OpenSSH client; they share the plan by their GPUs.
    Ssh(Vec<SshHost>),
    /// A Slurm cluster: one job array per plan and resource shape.
    Slurm,
}

/// `ssh://[user@]host[:port]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SshHost {
    pub user: Option<String>,
    pub host: String,
    pub port: Option<u16>,
}

impl SshHost {
    /// `user@host`, as ssh takes it.
    pub(crate) fn destination(&self) -> String {
        match &self.user {
            Some(u) => format!("{u}@{}", self.host),
            None => self.host.clone(),
        }
    }

    /// `ssh://user@host:port`, as written.
    pub(crate) fn url(&self) -> String {
        match self.port {
            Some(p) => format!("ssh://{}:{p}", self.destination()),
            None => format!("ssh://{}", self.destination()),
        }
    }
}

impl FromStr for SshHost {
    type Err = Error;
    fn from_str(s: &str) -> Result<SshHost> {
        let bad = |why: &str| -> Error {
            VerifyError::Arg {
                flag: "--runner",
                message: format!("`{s}`: {why} (write ssh://[user@]host[:port])"),
            }
            .into()
        };
        let rest = s
            .strip_prefix("ssh://")
            .ok_or_else(|| bad("not an ssh:// address"))?;
        let (user, hostport) = match rest.rsplit_once('@') {
            Some((u, h)) => (Some(u.to_string()), h),
            None => (None, rest),
        };
        let (host, port) = match hostport.rsplit_once(':') {
            Some((h, p)) if !h.contains(':') || h.ends_with(']') => (
                h,
                Some(
                    p.parse::<u16>()
                        .map_err(|_| bad("the port is not a number"))?,
                ),
            ),
            _ => (hostport, None),
        };
        // Never an option to ssh (`-oProxyCommand=...`), never a shell word.
        let word = |w: &str| {
            !w.is_empty()
                && !w.starts_with('-')
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-[]:".contains(c))
        };
        if !word(host) || user.as_deref().is_some_and(|u| !word(u) || u.contains(':')) {
            return Err(bad("not a host name"));
        }
        Ok(SshHost {
            user,
            host: host.to_string(),
            port,
        })
    }
}

impl Runner {
    /// The runner of `--runner` values: `local`, `slurm`, or one or more `ssh://` hosts.
    pub fn parse(values: &[String]) -> Result<Runner> {
        let hosts: Vec<&String> = values.iter().filter(|v| v.starts_with("ssh://")).collect();
        match values {
            [] => Ok(Runner::Local),
            [one] if one == "local" => Ok(Runner::Local),
            [one] if one == "slurm" => Ok(Runner::Slurm),
            _ if hosts.len() == values.len() => Ok(Runner::Ssh(
                hosts.iter().map(|h| h.parse()).collect::<Result<_>>()?,
            )),
            _ => Err(VerifyError::Arg {
                flag: "--runner",
                message: format!(
                    "`{}`: use `local`, `slurm`, or one or more `ssh://[user@]host[:port]`",
                    values.join(" ")
                ),
            }
            .into()),
        }
    }
}

impl FromStr for Runner {
    type Err = Error;
    fn from_str(s: &str) -> Result<Runner> {
        Runner::parse(&[s.to_string()])
    }
}

/// The sandbox as the command line asks for it; what it leaves unset comes from `book.toml`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SandboxChoice {
    pub kind: Option<SandboxKind>,
    pub bwrap: Option<PathBuf>,
    /// Memory a run may use.
    pub memory: Option<Mib>,
    pub tasks: Option<u64>,
}

/// Slurm settings from the command line; they override `[verify.slurm]`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SlurmChoice {
    pub partition: Option<String>,
    pub account: Option<String>,
    pub qos: Option<String>,
    /// More sbatch flags, added after the configured ones.
    pub flags: Vec<String>,
}

impl SandboxChoice {
    /// The sandbox every host gives runs: these choices over `cfg`'s.
    pub(crate) fn spec(&self, cfg: &VerifyConfig) -> SandboxSpec {
        SandboxSpec {
            kind: self.kind.unwrap_or(cfg.sandbox),
            bwrap: self.bwrap.clone().or_else(|| cfg.bwrap.clone()),
            memory_mib: self.memory.or(cfg.memory_limit).map(|m| m.0),
            tasks: self.tasks.or(cfg.tasks_limit).unwrap_or(DEFAULT_TASKS),
            bind: cfg.sandbox_bind.clone(),
        }
    }
}

/// Which GPUs runs may use.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
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
            .map_err(|_| {
                VerifyError::Arg {
                    flag: "--gpus",
                    message: format!("not a list of GPU indices: `{s}`"),
                }
                .into()
            })
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
    /// Variables of errbook's environment passed to runs, by name (besides `verify.keep_env`);
    /// their values are redacted from records.
    pub keep_env: Vec<String>,
    pub sandbox: SandboxChoice,
    pub slurm: SlurmChoice,
    /// Turned true (by Ctrl-C): runs in flight are killed, queued Slurm jobs cancelled.
    pub cancel: Arc<AtomicBool>,
    /// Bytes of each run's output kept in its record (half from the start, half from the end).
    pub log_bytes: usize,
    /// Delete records that match no runnable snippet any more, before planning.
    pub prune: bool,
    /// Read the findings of the records again from their logs (with today's traceback reader),
    /// before planning; runs nothing by itself.
    pub reread: bool,
    /// How much of each GPU's memory packed runs may plan to use (default: book.toml's
    /// `verify.gpu_mem_cap`).
    pub gpu_mem_cap: Option<MemCap>,
    /// Also write the session (plan, packing timeline, verdicts) as JSON to this file.
    pub report: Option<PathBuf>,
}

impl Options {
    /// The variables passed to runs: `verify.keep_env`'s names, then `--keep-env`'s.
    pub(crate) fn kept_names(&self, cfg: &VerifyConfig) -> Vec<String> {
        cfg.keep_env.iter().chain(&self.keep_env).cloned().collect()
    }
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
            sandbox: SandboxChoice::default(),
            slurm: SlurmChoice::default(),
            cancel: Arc::new(AtomicBool::new(false)),
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
    }

    #[test]
    fn runners_are_parsed_and_hosts_checked() {
        let parse =
            |v: &[&str]| Runner::parse(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(parse(&[]).unwrap(), Runner::Local);
        assert_eq!(parse(&["slurm"]).unwrap(), Runner::Slurm);
        let Runner::Ssh(hosts) = parse(&["ssh://gpu1", "ssh://me@gpu2:2222"]).unwrap() else {
            panic!("ssh")
        };
        assert_eq!(hosts[0].destination(), "gpu1");
        assert_eq!(
            (hosts[1].destination(), hosts[1].port),
            ("me@gpu2".into(), Some(2222))
        );
        assert_eq!(hosts[1].url(), "ssh://me@gpu2:2222");
        assert!(
            parse(&["ssh://-oProxyCommand=x"]).is_err(),
            "never an ssh option"
        );
        assert!(parse(&["ssh://a;b"]).is_err());
        assert!(parse(&["ssh://a:x"]).is_err());
        assert!(parse(&["local", "slurm"]).is_err());
        assert!(parse(&["kubernetes"]).is_err());
    }

    #[test]
    fn the_sandbox_comes_from_flags_over_book_toml() {
        let mut cfg = VerifyConfig {
            memory_limit: Some(Mib(4096)),
            ..Default::default()
        };
        let spec = SandboxChoice::default().spec(&cfg);
        assert_eq!(
            (spec.kind, spec.memory_mib, spec.tasks),
            (SandboxKind::Bwrap, Some(4096), DEFAULT_TASKS)
        );
        let choice = SandboxChoice {
            kind: Some(SandboxKind::None),
            memory: Some(Mib(1024)),
            ..Default::default()
        };
        let spec = choice.spec(&cfg);
        assert_eq!(
            (spec.kind, spec.memory_mib),
            (SandboxKind::None, Some(1024))
        );
        cfg.sandbox = SandboxKind::None;
        let spec = SandboxChoice::default().spec(&cfg);
        assert_eq!(
            (spec.kind, spec.memory_mib),
            (SandboxKind::None, Some(4096))
        );
    }
}
