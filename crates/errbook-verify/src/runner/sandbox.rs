//! The sandbox of every run on a host: what the session asks for (`SandboxSpec`, which travels
//! to remote hosts with the plan) and what this host can give (`Sandbox`: bwrap found and
//! checked, cgroups made, the interpreter resolved). `Sandbox::command` turns one `Request` into
//! the process to start, contained or (`--sandbox none`) not.

use super::super::error::VerifyError;
use super::bwrap::{self, BwrapError, Layout};
use super::cgroup::{Cgroups, RunCgroup};
use super::interp::{self, Resolved};
use super::{env, Request};
use errbook_core::config::SandboxKind;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// Tasks (processes and threads) a run may have at once by default: a PyTorch run with
/// DataLoader workers on a many-core host has a thousand or more.
pub(crate) const DEFAULT_TASKS: u64 = 8192;

/// What the session asks of the sandbox on every host.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct SandboxSpec {
    pub kind: SandboxKind,
    /// The bwrap binary (a path, or a name on `PATH`); `None`: `bwrap` on `PATH`.
    pub bwrap: Option<PathBuf>,
    /// Memory a run may use, in MiB; `None`: half of the host's memory.
    pub memory_mib: Option<u64>,
    /// Tasks a run may have at once.
    pub tasks: u64,
    /// More folders runs may read (a model cache in a home folder, say); `~/` is the home
    /// folder of the host the run happens on.
    pub bind: Vec<String>,
}

impl Default for SandboxSpec {
    fn default() -> SandboxSpec {
        SandboxSpec {
            kind: SandboxKind::Bwrap,
            bwrap: None,
            memory_mib: None,
            tasks: DEFAULT_TASKS,
            bind: Vec::new(),
        }
    }
}

/// The sandbox as this host gives it.
#[derive(Debug)]
pub(crate) struct Sandbox {
    /// bwrap's path and version; `None` for `--sandbox none`.
    bwrap: Option<(PathBuf, String)>,
    cgroups: Option<Cgroups>,
    memory: u64,
    tasks: u64,
    bind: Vec<PathBuf>,
    /// Interpreter commands, resolved once each.
    resolved: Mutex<HashMap<Vec<String>, Option<Resolved>>>,
}

/// Half of the host's memory, in bytes (8 GiB where /proc/meminfo says nothing).
fn default_memory() -> u64 {
    let text = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let kib = text
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
    kib.map_or(8 << 30, |k| k * 1024 / 2)
}

impl Sandbox {
    /// Find and check bwrap, make the session's cgroups. Fails closed: no bwrap, or a bwrap that
    /// cannot make a sandbox here, is an error, never an unsandboxed run.
    pub(crate) fn prepare(spec: &SandboxSpec) -> Result<Sandbox, BwrapError> {
        let memory = spec.memory_mib.map_or_else(default_memory, |m| m << 20);
        let mut sb = Sandbox {
            bwrap: None,
            cgroups: None,
            memory,
            tasks: spec.tasks.max(1),
            bind: spec.bind.iter().map(|b| expand_home(b)).collect(),
            resolved: Mutex::new(HashMap::new()),
        };
        if spec.kind == SandboxKind::None {
            return Ok(sb);
        }
        let exe = bwrap::find(spec.bwrap.as_deref(), std::env::var_os("PATH").as_deref())?;
        bwrap::check(&exe)?;
        sb.bwrap = Some((exe.clone(), bwrap::version(&exe)));
        sb.cgroups = Cgroups::detect();
        Ok(sb)
    }

    /// How runs are contained here, for the record: `bwrap 0.8.0: no network, ...` or `none`.
    pub(crate) fn describe(&self, network: bool) -> String {
        let Some((_, version)) = &self.bwrap else {
            return "none".to_string();
        };
        let version = version.replace("bubblewrap", "bwrap");
        let net = if network { "network" } else { "no network" };
        let limits = match &self.cgroups {
            Some(c) => format!(
                "memory {} MiB, {} tasks ({})",
                self.memory >> 20,
                self.tasks,
                c.describe()
            ),
            None if is_root() => "no memory or task limit (no cgroup)".to_string(),
            None => format!(
                "{} tasks (RLIMIT_NPROC), no memory limit (no cgroup)",
                self.tasks
            ),
        };
        format!("{version}: {net}, read-only root, {limits}")
    }

    /// What a maintainer should know about this host's sandbox before runs start.
    pub(crate) fn warnings(&self) -> Vec<String> {
        let mut w = Vec::new();
        if self.bwrap.is_none() {
            w.push("--sandbox none: snippets run unconfined, with your permissions, network and files; run only catalogs you trust".to_string());
            return w;
        }
        if self.cgroups.is_none() {
            w.push(format!("no cgroup could be made for runs here: {}; as root or with a delegated cgroup v2 subtree, runs get memory and task limits", self.describe(false)));
        }
        if is_root() {
            w.push("running as root: sandboxed runs cannot write outside their own folders, but can read files only root may read; run errbook as an ordinary user where you can".to_string());
        }
        if Path::new("/dev/nvidiactl").exists() && !Path::new("/dev/nvidia-uvm").exists() {
            w.push("/dev/nvidia-uvm does not exist yet, and a sandboxed run cannot create it: CUDA will fail inside; create it once as root (`nvidia-modprobe -u -c=0`, or run any CUDA program outside the sandbox)".to_string());
        }
        w
    }

    /// The process for `req` with its program at `program`: its command, environment and
    /// working folder, and the cgroup it joins when it starts. `status_fd`: where a sandbox
    /// reports its run's start and end (`bwrap --json-status-fd`).
    pub(crate) fn command(
        &self,
        req: &Request,
        program: &Path,
        status_fd: Option<i32>,
    ) -> std::io::Result<(Command, Option<RunCgroup>)> {
        let host_dir = program.parent().unwrap_or(Path::new("/"));
        let Some((exe, _)) = &self.bwrap else {
            let mut cmd = plain(&req.interpreter)?;
            cmd.arg(&req.file_name).current_dir(host_dir);
            set_env(&mut cmd, req, host_dir);
            return Ok((cmd, None));
        };
        let resolved = self.resolve(&req.interpreter);
        let work = Path::new("/tmp").join(host_dir.file_name().unwrap_or_default());
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let hidden = hidden(home.as_deref());
        let under_hidden =
            |p: &PathBuf| hidden.iter().any(|h| p.starts_with(h)) || p.starts_with("/tmp");
        let mut reveal: Vec<PathBuf> = resolved
            .reveal
            .iter()
            .chain(&self.bind)
            .chain(&network_files(req.network))
            .filter(|p| under_hidden(p))
            .cloned()
            .collect();
        reveal.sort();
        reveal.dedup();
        let layout = Layout {
            network: req.network,
            // Made on the tmpfs that hides it; a HOME elsewhere on the read-only root stays.
            home: home.filter(|h| hidden.iter().any(|x| h.starts_with(x))),
            hidden,
            devices: nvidia_devices(),
            reveal,
            work: work.clone(),
            program: program.to_path_buf(),
            file_name: req.file_name.clone(),
            status_fd,
        };
        let mut cmd = Command::new(exe);
        cmd.args(bwrap::args(&layout, &resolved.argv));
        set_env(&mut cmd, req, &work);
        let cg = match &self.cgroups {
            Some(c) => Some(c.run(self.memory, self.tasks)?),
            None => None,
        };
        Ok((cmd, cg))
    }

    /// The task limit a run gets by `RLIMIT_NPROC` where no cgroup holds it (none as root, whom
    /// the kernel exempts).
    pub(crate) fn nproc(&self) -> Option<u64> {
        (self.bwrap.is_some() && self.cgroups.is_none() && !is_root()).then_some(self.tasks)
    }

    /// Whether runs are sandboxed here.
    pub(crate) fn contained(&self) -> bool {
        self.bwrap.is_some()
    }

    /// A run's memory limit, in MiB.
    pub(crate) fn memory_mib(&self) -> u64 {
        self.memory >> 20
    }

    /// A run's task limit.
    pub(crate) fn tasks(&self) -> u64 {
        self.tasks
    }

    fn resolve(&self, argv: &[String]) -> Resolved {
        let unresolved = || Resolved {
            argv: argv.to_vec(),
            reveal: Vec::new(),
        };
        let Ok(mut cache) = self.resolved.lock() else {
            return unresolved();
        };
        cache
            .entry(argv.to_vec())
            .or_insert_with(|| interp::resolve(argv, std::env::var_os("PATH").as_deref()))
            .clone()
            .unwrap_or_else(unresolved)
    }
}

/// `~/x` as `$HOME/x` of this host; other paths as they are.
fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(path),
    }
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// The interpreter command, uncontained.
fn plain(interpreter: &[String]) -> std::io::Result<Command> {
    let (exe, args) = interpreter
        .split_first()
        .ok_or_else(|| std::io::Error::other("empty interpreter"))?;
    let mut cmd = Command::new(exe);
    cmd.args(args);
    Ok(cmd)
}

fn set_env(cmd: &mut Command, req: &Request, tmpdir: &Path) {
    cmd.env_clear();
    let tmp = tmpdir.to_string_lossy();
    cmd.envs(env::build(
        std::env::vars_os(),
        &req.passed,
        &req.env,
        &tmp,
        &req.gpus,
    ));
}

/// Folders a sandbox replaces with an empty tmpfs: home folders (keys, tokens, other users'
/// files) and /run (sockets: Docker's, the user's session bus).
fn hidden(home: Option<&Path>) -> Vec<PathBuf> {
    let mut h: Vec<PathBuf> = ["/home", "/root", "/run", "/var/run"]
        .iter()
        .map(PathBuf::from)
        .filter(|p| p.symlink_metadata().is_ok_and(|m| m.is_dir()))
        .collect();
    if let Some(home) = home.filter(|h| h.is_dir() && h.as_os_str().len() > 1) {
        if !h.iter().any(|x| home.starts_with(x)) {
            h.push(home.to_path_buf());
        }
    }
    h
}

/// What name resolution reads under /run, for runs with the network.
fn network_files(network: bool) -> Vec<PathBuf> {
    if !network {
        return Vec::new();
    }
    let mut v = Vec::new();
    if let Ok(real) = Path::new("/etc/resolv.conf").canonicalize() {
        v.extend(real.parent().map(Path::to_path_buf));
    }
    v
}

/// Every /dev/nvidia* node (and the nvidia-caps folder of MIG).
fn nvidia_devices() -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir("/dev") else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = rd
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("nvidia"))
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

/// The environment names a maintainer passes, checked: names only, never patterns.
pub(crate) fn check_names(names: &[String]) -> Result<(), VerifyError> {
    match names.iter().find(|n| !env::valid_name(n)) {
        Some(bad) => Err(VerifyError::KeepEnv(bad.clone())),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_record_says_how_runs_were_contained() {
        let none = Sandbox::prepare(&SandboxSpec {
            kind: SandboxKind::None,
            ..Default::default()
        })
        .unwrap();
        assert_eq!(none.describe(false), "none");
        assert!(none.warnings()[0].starts_with("--sandbox none"));
        assert!(check_names(&["HF_TOKEN".into()]).is_ok());
        assert!(check_names(&["NCCL_*".into()])
            .unwrap_err()
            .to_string()
            .contains("`NCCL_*` is not a variable name"));
    }
}
