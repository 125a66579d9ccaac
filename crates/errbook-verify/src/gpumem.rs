//! The GPU memory of runs in flight, measured. Twice a second `nvidia-smi
//! --query-compute-apps=pid,used_memory` lists the processes that hold GPU memory; a process
//! belongs to a run when its environment carries the run's `ERRBOOK_RUN_ID` (set for every run,
//! inherited by its workers). A run's peak is the most its processes held at one sample; runs
//! shorter than a sample, and hosts whose `nvidia-smi` cannot see the runs' processes (another
//! PID namespace), get none. Packing learns from the peaks the records keep.

use std::collections::HashMap;
use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The variable that names a run in its processes' environments.
pub(super) const RUN_VAR: &str = "ERRBOOK_RUN_ID";

/// How often the processes on the GPUs are listed.
const EVERY: Duration = Duration::from_millis(500);
/// How long one listing may take.
const ANSWER: Duration = Duration::from_secs(5);

/// Samples GPU memory on a thread of its own until dropped.
pub(super) struct Sampler {
    peaks: Arc<Mutex<HashMap<String, u64>>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Sampler {
    pub(super) fn start() -> Sampler {
        let peaks = Arc::new(Mutex::new(HashMap::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (p, s) = (peaks.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                let now = sample();
                if let Ok(mut peaks) = p.lock() {
                    for (run, mib) in now {
                        let e = peaks.entry(run).or_insert(0);
                        *e = (*e).max(mib);
                    }
                }
                std::thread::sleep(EVERY);
            }
        });
        Sampler {
            peaks,
            stop,
            thread: Some(thread),
        }
    }

    /// The most GPU memory run `id`'s processes held at one sample, in MiB.
    pub(super) fn peak(&self, id: &str) -> Option<u64> {
        self.peaks.lock().ok()?.get(id).copied()
    }
}

impl Drop for Sampler {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// One sample: MiB held per run id, summed over the run's processes (and GPUs).
fn sample() -> HashMap<String, u64> {
    let mut by_run = HashMap::new();
    let Some(text) = query() else {
        return by_run;
    };
    for (pid, mib) in parse(&text) {
        if let Some(run) = run_of(pid) {
            *by_run.entry(run).or_insert(0) += mib;
        }
    }
    by_run
}

/// What `nvidia-smi` lists of the processes on the GPUs; None when it fails, or hangs (as it
/// can on a GPU in trouble) past `ANSWER`, when it is killed so the session never waits on it.
fn query() -> Option<String> {
    let mut child = Command::new("nvidia-smi")
        .args([
            "--query-compute-apps=pid,used_memory",
            "--format=csv,noheader,nounits",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => break,
            Ok(Some(_)) | Err(_) => return None,
            Ok(None) if start.elapsed() > ANSWER => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    let mut text = String::new();
    child.stdout.take()?.read_to_string(&mut text).ok()?;
    Some(text)
}

/// `pid, used_memory` lines (`[N/A]` and other odd lines are skipped).
fn parse(text: &str) -> Vec<(u32, u64)> {
    text.lines()
        .filter_map(|l| {
            let (pid, mib) = l.split_once(',')?;
            Some((pid.trim().parse().ok()?, mib.trim().parse().ok()?))
        })
        .collect()
}

/// The run id in process `pid`'s environment, if it has one (and may be read).
fn run_of(pid: u32) -> Option<String> {
    let env = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    let want = format!("{RUN_VAR}=");
    env.split(|&b| b == 0).find_map(|var| {
        let v = var.strip_prefix(want.as_bytes())?;
        String::from_utf8(v.to_vec()).ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compute_apps_lines_are_read_and_odd_ones_skipped() {
        let text = "1234, 502\n 77 , 1024\n99, [N/A]\n\nnot a line\n";
        assert_eq!(parse(text), [(1234, 502), (77, 1024)]);
    }

    #[test]
    fn a_process_names_its_run_in_its_environment() {
        // This test process has no run id; a child started with one does.
        assert_eq!(run_of(std::process::id()), None);
        let mut child = Command::new("sleep")
            .arg("5")
            .env(RUN_VAR, "42-7")
            .spawn()
            .unwrap();
        // Just after spawn the kernel may still show the parent's environment: poll a while.
        let mut got = None;
        for _ in 0..200 {
            got = run_of(child.id());
            if got.is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(got.as_deref(), Some("42-7"));
    }
}
