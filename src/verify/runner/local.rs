//! The local runner: each run in its own temporary directory and process group, with a clean
//! environment plus the declared variables, a time limit that kills the whole group, and output
//! (stdout and stderr interleaved in one pipe) captured with its head and tail kept.

use super::{kept, Output, Request};
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Default)]
struct Capture {
    head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    bytes: u64,
}

/// Run one program; never panics on what the program does.
pub(crate) fn run(req: &Request) -> std::io::Result<Output> {
    let dir = tempfile::Builder::new().prefix("errbook-run-").tempdir()?;
    std::fs::write(dir.path().join(&req.file_name), &req.program)?;
    let mut cmd = command(req, dir.path())?;
    let (reader, writer) = std::io::pipe()?;
    cmd.stdin(Stdio::null())
        .stdout(writer.try_clone()?)
        .stderr(writer);
    cmd.process_group(0);
    let start = Instant::now();
    let mut child = cmd.spawn()?;
    drop(cmd); // close our copies of the pipe's write end
    let pgid = child.id() as libc::pid_t;
    let (cap, done_rx) = capture(reader, req.keep_head, req.keep_tail);

    let mut timed_out = false;
    let status = loop {
        if let Some(st) = child.try_wait()? {
            break st;
        }
        if start.elapsed() >= req.timeout {
            timed_out = true;
            kill_group(pgid);
            break child.wait()?;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let duration = start.elapsed();
    // Whatever the program left behind in its group goes too (workers, managers, sleepers).
    kill_group(pgid);
    // The pipe closes when the last writer in the group is gone; one that escaped the group
    // (setsid) could keep it open, so the wait is bounded.
    let _ = done_rx.recv_timeout(Duration::from_secs(3));
    let c = cap
        .lock()
        .map_err(|_| std::io::Error::other("capture poisoned"))?;
    Ok(Output {
        exit_status: status.code(),
        signal: if timed_out { None } else { status.signal() },
        timed_out,
        limit: None,
        duration,
        bytes: c.bytes,
        head: c.head.clone(),
        tail: c.tail.iter().copied().collect(),
    })
}

/// The interpreter on the program in `dir`, with a clean environment: the kept variables, the
/// run's own temporary directory, the declared variables, the GPUs packing chose.
fn command(req: &Request, dir: &Path) -> std::io::Result<Command> {
    let (exe, args) = req
        .interpreter
        .split_first()
        .ok_or_else(|| std::io::Error::other("empty interpreter"))?;
    let mut cmd = Command::new(exe);
    cmd.args(args).arg(&req.file_name).current_dir(dir);
    cmd.env_clear();
    for (k, v) in std::env::vars_os() {
        if let Some(name) = k.to_str() {
            if kept(name, &req.keep_env) {
                cmd.env(&k, &v);
            }
        }
    }
    cmd.env("TMPDIR", dir)
        .env("PYTHONUNBUFFERED", "1")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("PYTHONFAULTHANDLER", "1");
    for (k, v) in &req.env {
        cmd.env(k, v);
    }
    // Packing decides the GPUs; a declared CUDA_VISIBLE_DEVICES does not override it.
    let visible: Vec<String> = req.gpus.iter().map(|g| g.to_string()).collect();
    cmd.env("CUDA_VISIBLE_DEVICES", visible.join(","));
    Ok(cmd)
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

fn kill_group(pgid: libc::pid_t) {
    // SAFETY: killpg sends a signal; a group that is already gone gives ESRCH, which is fine.
    unsafe {
        libc::killpg(pgid, libc::SIGKILL);
    }
}
