//! The local runner: one run on this machine, in its own temporary folder and process group,
//! contained by the session's `Sandbox`, with a time limit that kills it whole, and its output
//! (stdout and stderr interleaved in one pipe) captured with its head and tail kept and the
//! passed variables' values redacted.

use super::cgroup::{self, Hit, RunCgroup};
use super::sandbox::Sandbox;
use super::{env, Output, Request};
use std::io::Read;
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Default)]
struct Capture {
    head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    bytes: u64,
}

/// Run one program; never panics on what the program does. `cancel`: when it turns true, the
/// run is killed and this returns an error.
pub(crate) fn run(req: &Request, sb: &Sandbox, cancel: &AtomicBool) -> std::io::Result<Output> {
    let dir = tempfile::Builder::new().prefix("errbook-run-").tempdir()?;
    let program = dir.path().join(&req.file_name);
    std::fs::write(&program, &req.program)?;
    // The sandbox's report of the run's start and end, on a pipe of its own.
    let (status_rx, status_tx) = std::io::pipe()?;
    let status_fd = sb.contained().then(|| status_tx.as_raw_fd());
    let (mut cmd, cg) = sb.command(req, &program, status_fd)?;
    tracing::debug!("running {}", super::super::cmdline::line(&cmd));
    let (reader, writer) = std::io::pipe()?;
    cmd.stdin(Stdio::null())
        .stdout(writer.try_clone()?)
        .stderr(writer);
    cmd.process_group(0);
    let fds = cg.as_ref().map(RunCgroup::join_fds).unwrap_or_default();
    let nproc = sb.nproc();
    // SAFETY: the closure runs between fork and exec and makes only async-signal-safe calls
    // (write, setrlimit, fcntl).
    unsafe {
        cmd.pre_exec(move || {
            cgroup::join(&fds)?;
            limit(libc::RLIMIT_CORE, 0)?;
            if let Some(n) = nproc {
                limit(libc::RLIMIT_NPROC, n)?;
            }
            if let Some(fd) = status_fd {
                // Kept open across exec in this child only (the parent's copy stays close-on-exec).
                if libc::fcntl(fd, libc::F_SETFD, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd.spawn()?;
    drop(cmd); // close our copies of the pipes' write ends
    drop(status_tx);
    let status_text = read_all(status_rx);
    let (cap, done_rx) = capture(reader, req.keep_head, req.keep_tail);
    let (status, timed_out) = wait(&mut child, req.timeout, cg.as_ref(), cancel)?;
    let duration = start.elapsed();
    // Whatever the program left behind goes too (the sandbox's PID namespace has already ended
    // it; unsandboxed, its process group and cgroup).
    kill_group(child.id());
    let hit = cg.as_ref().and_then(RunCgroup::hit);
    drop(cg);
    // The pipe closes when the last writer is gone; one that escaped an unsandboxed run's
    // group (setsid) could keep it open, so the wait is bounded.
    let _ = done_rx.recv_timeout(Duration::from_secs(3));
    let c = cap
        .lock()
        .map_err(|_| std::io::Error::other("capture poisoned"))?;
    // bwrap reports the end of a command it started; without it (and not killed by errbook or a
    // limit) the sandbox never started, and bwrap's complaint is all the output.
    let reported = status_text
        .recv_timeout(Duration::from_secs(3))
        .unwrap_or_default();
    if sb.contained() && !timed_out && hit.is_none() && !reported.contains("exit-code") {
        let said = String::from_utf8_lossy(&c.head);
        let said = said.lines().find(|l| l.starts_with("bwrap:"));
        let said = said.unwrap_or("bwrap: the sandbox did not start, saying nothing");
        return Err(std::io::Error::other(said.to_string()));
    }
    let (mut head, mut tail): (Vec<u8>, Vec<u8>) =
        (c.head.clone(), c.tail.iter().copied().collect());
    if c.bytes == (head.len() + tail.len()) as u64 {
        // All of it was kept: one text, so that no value is cut between head and tail.
        head.append(&mut tail);
    }
    let (exit_status, signal) = match (status.code(), status.signal()) {
        // bwrap reports a command killed by a signal as 128 + the signal, as shells do.
        (Some(c), None) if sb.contained() && (129..=192).contains(&c) => (None, Some(c - 128)),
        other => other,
    };
    // A limit stopped the run when it failed or ran out of time at it; a run that met one and
    // coped is judged like any other.
    let stopped = timed_out || exit_status != Some(0) || signal.is_some();
    Ok(Output {
        exit_status,
        signal: if timed_out { None } else { signal },
        timed_out,
        limit: hit.filter(|_| stopped).map(|h| match h {
            Hit::Memory => format!("memory ({} MiB)", sb.memory_mib()),
            Hit::Tasks => format!("tasks ({})", sb.tasks()),
        }),
        duration,
        bytes: c.bytes,
        head: env::redact(&head, &req.passed),
        tail: env::redact(&tail, &req.passed),
        sandbox: sb.describe(req.network),
    })
}

/// Everything `r` gives until it closes, read on a thread of its own.
fn read_all(mut r: std::io::PipeReader) -> Receiver<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = r.read_to_string(&mut text);
        let _ = tx.send(text);
    });
    rx
}

/// Wait for the run to end, or kill it whole at its time limit or when cancelled.
fn wait(
    child: &mut Child,
    timeout: Duration,
    cg: Option<&RunCgroup>,
    cancel: &AtomicBool,
) -> std::io::Result<(ExitStatus, bool)> {
    let start = Instant::now();
    loop {
        if let Some(st) = child.try_wait()? {
            return Ok((st, false));
        }
        let cancelled = cancel.load(Ordering::Relaxed);
        if cancelled || start.elapsed() >= timeout {
            kill_group(child.id());
            if let Some(cg) = cg {
                cg.kill();
            }
            let st = child.wait()?;
            if cancelled {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::Interrupted,
                    "cancelled",
                ));
            }
            return Ok((st, true));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn limit(resource: libc::__rlimit_resource_t, n: u64) -> std::io::Result<()> {
    let lim = libc::rlimit {
        rlim_cur: n,
        rlim_max: n,
    };
    // SAFETY: setrlimit reads the struct we pass; it is async-signal-safe.
    if unsafe { libc::setrlimit(resource, &lim) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Read the run's output on a thread of its own, keeping `head_max` bytes from the start and
/// `tail_max` from the end; the receiver hears when the pipe has closed.
fn capture(
    mut reader: std::io::PipeReader,
    head_max: usize,
    tail_max: usize,
) -> (Arc<Mutex<Capture>>, Receiver<()>) {
    let cap = Arc::new(Mutex::new(Capture::default()));
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let shared = cap.clone();
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match reader.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let Ok(mut c) = shared.lock() else { break };
                    c.bytes += n as u64;
                    let mut data = &buf[..n];
                    if c.head.len() < head_max {
                        let take = (head_max - c.head.len()).min(data.len());
                        c.head.extend_from_slice(&data[..take]);
                        data = &data[take..];
                    }
                    c.tail.extend(data);
                    let over = c.tail.len().saturating_sub(tail_max);
                    c.tail.drain(..over);
                }
            }
        }
        let _ = done_tx.send(());
    });
    (cap, done_rx)
}

fn kill_group(pgid: u32) {
    // SAFETY: killpg sends a signal; a group that is already gone gives ESRCH, which is fine.
    unsafe {
        libc::killpg(pgid as libc::pid_t, libc::SIGKILL);
    }
}
