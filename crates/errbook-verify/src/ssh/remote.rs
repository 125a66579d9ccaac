//! A worker running on an SSH host for this session: the ssh process, a thread reading its
//! messages line by line (each job's end reaches the session the moment the host sends it), and
//! what it said on stderr, for when the connection ends early.

use super::super::wire::Message;
use super::conn::Conn;
use std::io::{BufRead, BufReader};
use std::process::ChildStdin;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

/// What the session hears from a worker.
#[derive(Debug)]
pub(super) enum Heard {
    Said(Box<Message>),
    /// The connection ended (normally, once every job has ended): how.
    Gone(String),
}

/// One worker in flight.
#[derive(Debug)]
pub(super) struct Running {
    /// Which host it runs on (its index among the session's hosts).
    pub host: usize,
    pid: u32,
    /// Open until the session ends or is cancelled.
    stdin: Option<ChildStdin>,
}

impl Running {
    /// Start the worker at `exe` on `conn` with `plan`; what it says goes to `tx`, tagged `tag`.
    pub(super) fn start(
        conn: &Conn,
        exe: &str,
        plan: &str,
        (host, tag): (usize, usize),
        tx: Sender<(usize, Heard)>,
    ) -> std::io::Result<Running> {
        let mut child = conn.worker(exe, plan)?;
        let url = conn.target.url();
        tracing::debug!("the worker on {url} started (ssh's pid {})", child.id());
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let said = Arc::new(Mutex::new(String::new()));
        let keep = said.clone();
        let from = url.clone();
        let err_thread = std::thread::spawn(move || {
            // Kept whole for the message should it fail, and told line by line as it comes.
            let mut text = String::new();
            for line in stderr
                .into_iter()
                .flat_map(|e| BufReader::new(e).split(b'\n'))
            {
                let Ok(line) = line else { break };
                let line = String::from_utf8_lossy(&line);
                tracing::debug!("the worker on {from} said: {line}");
                text.push_str(&line);
                text.push('\n');
            }
            if let Ok(mut k) = keep.lock() {
                *k = text;
            }
        });
        let stdin = child.stdin.take();
        let pid = child.id();
        std::thread::spawn(move || {
            if let Some(out) = stdout {
                for line in BufReader::new(out).lines() {
                    let Ok(line) = line else { break };
                    if let Ok(m) = serde_json::from_str::<Message>(&line) {
                        if tx.send((tag, Heard::Said(Box::new(m)))).is_err() {
                            break;
                        }
                    }
                }
            }
            let status = child.wait();
            let _ = err_thread.join();
            let tail = said.lock().map(|s| tail(&s)).unwrap_or_default();
            let how = match status {
                Ok(st) if st.success() => "it ended".to_string(),
                Ok(st) => match st.code() {
                    Some(255) => format!("the connection failed: {tail}"),
                    Some(c) => format!("errbook there exited {c}: {tail}"),
                    None => "ssh was killed".to_string(),
                },
                Err(e) => format!("ssh: {e}"),
            };
            tracing::debug!("the worker on {url} is gone: {how}");
            let _ = tx.send((tag, Heard::Gone(how)));
        });
        Ok(Running { host, pid, stdin })
    }

    /// Close the worker's stdin: it kills its runs, reports them cancelled, and ends.
    pub(super) fn hang_up(&mut self) {
        self.stdin = None;
    }

    /// End the ssh process itself.
    pub(super) fn kill(&self) {
        // SAFETY: kill sends a signal; a process already gone gives ESRCH.
        unsafe {
            libc::kill(self.pid as libc::pid_t, libc::SIGKILL);
        }
    }
}

/// The last lines of what ssh or the worker said.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.trim().lines().collect();
    let start = lines.len().saturating_sub(3);
    lines[start..].join(" / ")
}
