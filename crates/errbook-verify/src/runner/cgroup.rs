//! A cgroup per run, holding its memory and task limits: cgroup v2 where errbook may create one
//! with the memory and pids controllers (as root at the hierarchy's root, or in a delegated
//! subtree), else cgroup v1's memory and pids hierarchies, else none (the caller falls back to
//! `RLIMIT_NPROC` and says so). The run joins its cgroup between fork and exec, so everything it
//! starts is inside; afterwards the cgroup tells whether a limit stopped it, and is removed.
//!
//! Not address-space limits: CUDA reserves far more virtual memory than it uses.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Which limit stopped a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hit {
    Memory,
    Tasks,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Version {
    V2,
    V1,
}

/// The session's cgroup(s), under which each run gets its own.
#[derive(Debug)]
pub(crate) struct Cgroups {
    version: Version,
    /// v2: the session's cgroup; v1: its memory and its pids cgroup.
    sessions: Vec<PathBuf>,
    next: AtomicUsize,
}

/// One run's cgroup(s).
#[derive(Debug)]
pub(crate) struct RunCgroup {
    version: Version,
    /// v2: one; v1: memory, then pids.
    dirs: Vec<PathBuf>,
    /// Each dir's `cgroup.procs`, opened for the child to write itself into.
    procs: Vec<File>,
}

/// A mount of a cgroup filesystem, from /proc/self/mountinfo.
struct Mount {
    root: String,
    point: PathBuf,
    fstype: String,
    options: String,
}

fn mounts() -> Vec<Mount> {
    let text = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let (left, right) = l.split_once(" - ")?;
            let left: Vec<&str> = left.split(' ').collect();
            let right: Vec<&str> = right.split(' ').collect();
            Some(Mount {
                root: left.get(3)?.to_string(),
                point: PathBuf::from(left.get(4)?),
                fstype: right.first()?.to_string(),
                options: right.get(2).unwrap_or(&"").to_string(),
            })
        })
        .filter(|m| m.fstype.starts_with("cgroup"))
        .collect()
}

/// This process's cgroup in the hierarchy named `controller` (`""` for v2), as a folder.
fn own_dir(m: &Mount, controller: &str) -> Option<PathBuf> {
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = text.lines().find_map(|l| {
        let mut f = l.splitn(3, ':');
        let (_, ctrls, path) = (f.next()?, f.next()?, f.next()?);
        let ok = if controller.is_empty() {
            ctrls.is_empty()
        } else {
            ctrls.split(',').any(|c| c == controller)
        };
        ok.then(|| path.to_string())
    })?;
    let rel = path.strip_prefix(m.root.as_str()).unwrap_or(&path);
    Some(m.point.join(rel.trim_start_matches('/')))
}

fn write(path: &Path, text: &str) -> io::Result<()> {
    let mut f = OpenOptions::new().write(true).open(path)?;
    f.write_all(text.as_bytes())
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// A `key value` line of a cgroup's flat-keyed file.
fn counter(text: &str, key: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.trim().parse().ok())
        .unwrap_or(0)
}

fn name() -> String {
    format!("errbook-{}-{:08x}", std::process::id(), fastrand::u32(..))
}

impl Cgroups {
    /// The cgroups errbook may make here, v2 first; `None` when it may make none.
    pub(crate) fn detect() -> Option<Cgroups> {
        let all = mounts();
        v2(&all).or_else(|| v1(&all))
    }

    /// `cgroup v2` or `cgroup v1`, for the record's sandbox line.
    pub(crate) fn describe(&self) -> &'static str {
        match self.version {
            Version::V2 => "cgroup v2",
            Version::V1 => "cgroup v1",
        }
    }

    /// A new cgroup for one run, with its limits set.
    pub(crate) fn run(&self, memory: u64, tasks: u64) -> io::Result<RunCgroup> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let mut rc = RunCgroup {
            version: self.version,
            dirs: Vec::new(),
            procs: Vec::new(),
        };
        for s in &self.sessions {
            let dir = s.join(format!("run-{n}"));
            std::fs::create_dir(&dir)?;
            rc.dirs.push(dir);
        }
        let (mem, pids) = match self.version {
            Version::V2 => (&rc.dirs[0], &rc.dirs[0]),
            Version::V1 => (&rc.dirs[0], &rc.dirs[1]),
        };
        match self.version {
            Version::V2 => {
                write(&mem.join("memory.max"), &memory.to_string())?;
                // No swap: a run over its limit is stopped, not slowed to a crawl.
                let _ = write(&mem.join("memory.swap.max"), "0");
            }
            Version::V1 => {
                write(&mem.join("memory.limit_in_bytes"), &memory.to_string())?;
                let _ = write(
                    &mem.join("memory.memsw.limit_in_bytes"),
                    &memory.to_string(),
                );
            }
        }
        write(&pids.join("pids.max"), &tasks.to_string())?;
        for d in &rc.dirs {
            rc.procs.push(
                OpenOptions::new()
                    .write(true)
                    .open(d.join("cgroup.procs"))?,
            );
        }
        Ok(rc)
    }
}

impl Drop for Cgroups {
    fn drop(&mut self) {
        for s in &self.sessions {
            let _ = std::fs::remove_dir(s);
        }
    }
}

/// v2: a session cgroup with memory and pids, at the hierarchy's root or under our own.
fn v2(all: &[Mount]) -> Option<Cgroups> {
    let m = all.iter().find(|m| m.fstype == "cgroup2")?;
    let mut parents = vec![m.point.clone()];
    parents.extend(own_dir(m, ""));
    parents.dedup();
    for parent in parents {
        let ok = |p: &Path, file: &str| {
            let t = read(&p.join(file));
            let has = |c: &str| t.split_whitespace().any(|w| w == c);
            has("memory") && has("pids")
        };
        if !ok(&parent, "cgroup.subtree_control") {
            let _ = write(&parent.join("cgroup.subtree_control"), "+memory +pids");
        }
        if !ok(&parent, "cgroup.subtree_control") {
            continue;
        }
        let session = parent.join(name());
        if std::fs::create_dir(&session).is_err() {
            continue;
        }
        let enabled = write(&session.join("cgroup.subtree_control"), "+memory +pids").is_ok();
        if enabled && ok(&session, "cgroup.subtree_control") {
            return Some(Cgroups {
                version: Version::V2,
                sessions: vec![session],
                next: AtomicUsize::new(0),
            });
        }
        let _ = std::fs::remove_dir(&session);
    }
    None
}

/// v1: session cgroups in the memory and the pids hierarchies, under our own.
fn v1(all: &[Mount]) -> Option<Cgroups> {
    let mut sessions = Vec::new();
    let n = name();
    for ctrl in ["memory", "pids"] {
        let m = all
            .iter()
            .find(|m| m.fstype == "cgroup" && m.options.split(',').any(|o| o == ctrl))?;
        let dir = own_dir(m, ctrl)?.join(&n);
        if std::fs::create_dir(&dir).is_err() {
            for s in &sessions {
                let _ = std::fs::remove_dir(s);
            }
            return None;
        }
        sessions.push(dir);
    }
    Some(Cgroups {
        version: Version::V1,
        sessions,
        next: AtomicUsize::new(0),
    })
}

impl RunCgroup {
    /// The `cgroup.procs` descriptors the child writes `0` to, between fork and exec.
    pub(crate) fn join_fds(&self) -> Vec<RawFd> {
        self.procs.iter().map(|f| f.as_raw_fd()).collect()
    }

    /// Which limit the run hit, if any: an OOM kill, or a fork refused at the task limit.
    pub(crate) fn hit(&self) -> Option<Hit> {
        let d = &self.dirs;
        let (oom, forks) = match self.version {
            Version::V2 => (
                counter(&read(&d[0].join("memory.events")), "oom_kill "),
                counter(&read(&d[0].join("pids.events")), "max "),
            ),
            Version::V1 => (
                counter(&read(&d[0].join("memory.oom_control")), "oom_kill "),
                counter(&read(&d[1].join("pids.events")), "max "),
            ),
        };
        match (oom, forks) {
            (o, _) if o > 0 => Some(Hit::Memory),
            (_, f) if f > 0 => Some(Hit::Tasks),
            _ => None,
        }
    }

    /// Kill everything still in the run's cgroup.
    pub(crate) fn kill(&self) {
        if self.version == Version::V2 && write(&self.dirs[0].join("cgroup.kill"), "1").is_ok() {
            return;
        }
        for d in &self.dirs {
            for pid in read(&d.join("cgroup.procs")).lines() {
                if let Ok(pid) = pid.trim().parse::<libc::pid_t>() {
                    // SAFETY: kill sends a signal; a process already gone gives ESRCH.
                    unsafe {
                        libc::kill(pid, libc::SIGKILL);
                    }
                }
            }
        }
    }
}

impl Drop for RunCgroup {
    fn drop(&mut self) {
        // A cgroup can be removed once its last process is reaped; killed ones take a moment.
        for _ in 0..100 {
            self.kill();
            self.dirs
                .retain(|d| std::fs::remove_dir(d).is_err() && d.exists());
            if self.dirs.is_empty() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// Write `0` (this process) to each descriptor: called in the child between fork and exec, so
/// only async-signal-safe calls.
pub(crate) fn join(fds: &[RawFd]) -> io::Result<()> {
    for &fd in fds {
        // SAFETY: `fd` is open (its `File` lives in the parent until the child has exec'd);
        // write(2) is async-signal-safe.
        let n = unsafe { libc::write(fd, b"0".as_ptr().cast(), 1) };
        if n != 1 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_read_from_flat_keyed_files() {
        let t = "low 0\nhigh 0\nmax 12\noom 1\noom_kill 2\n";
        assert_eq!(counter(t, "oom_kill "), 2);
        assert_eq!(counter(t, "max "), 12);
        assert_eq!(counter(t, "missing "), 0);
    }
}
