//! `--runner ssh://[user@]host[:port]`: SSH hosts, reached with the system's OpenSSH client
//! (`conn`). Each host gets errbook's binary (copied once per build) and is asked what it has
//! (GPUs, versions, its sandbox: a host without bubblewrap says so and takes no runs). The plan
//! is shared among the hosts by their GPUs (`split`); each host runs its share with the same
//! sandbox and packing as a local run (`errbook verify-worker`, `remote`), sending each run's end
//! as it happens. A host that drops loses no finished run; its unfinished ones move to the other
//! hosts that can take them.

mod conn;
mod remote;
mod split;

use super::error::VerifyError;
use super::gpu::Host;
use super::job::{Backend, Finished, Job, Ran, Update};
use super::options::SshHost;
use super::wire::{errbook_binary, Message, WorkPlan};
use conn::Conn;
use errbook_core::config::SshConfig;
use errbook_core::error::{Error, Result};
use remote::{Heard, Running};
use split::Offer;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A host ready for runs.
#[derive(Debug)]
struct Remote {
    conn: Conn,
    /// errbook's path there.
    exe: String,
    host: Host,
    jobs: usize,
    /// What the host said about its sandbox (no cgroup there, running as root).
    warnings: Vec<String>,
}

impl Remote {
    fn url(&self) -> String {
        self.conn.target.url()
    }
}

/// The SSH backend.
#[derive(Debug)]
pub(crate) struct Ssh {
    remotes: Vec<Remote>,
    /// The plan every worker gets, without its jobs.
    plan: WorkPlan,
    warnings: Vec<String>,
}

impl Ssh {
    /// Reach every host (in parallel): copy errbook, ask what it has. Hosts that cannot be used
    /// are warnings while one can; none is an error.
    pub(crate) fn prepare(targets: &[SshHost], cfg: &SshConfig, plan: WorkPlan) -> Result<Ssh> {
        let ssh = shlex::split(&cfg.command)
            .filter(|w| !w.is_empty())
            .ok_or_else(|| VerifyError::SshCommand(cfg.command.clone()))?;
        let (binary, key) = errbook_binary(cfg.errbook.as_deref())?;
        let probe = serde_json::to_string(&plan).map_err(|e| Error::encode("work plan", e))?;
        let reached: Vec<(String, std::result::Result<Remote, String>)> = std::thread::scope(|s| {
            let handles: Vec<_> = targets
                .iter()
                .map(|t| {
                    let conn = Conn {
                        ssh: ssh.clone(),
                        target: t.clone(),
                    };
                    let (binary, key, probe) = (&binary, &key, &probe);
                    s.spawn(move || reach(conn, binary, key, &cfg.remote_dir, probe))
                })
                .collect();
            targets
                .iter()
                .zip(handles)
                .map(|(t, h)| {
                    let r = h.join().unwrap_or_else(|_| Err("probe failed".into()));
                    (t.url(), r)
                })
                .collect()
        });
        let mut ssh = Ssh {
            remotes: Vec::new(),
            plan,
            warnings: Vec::new(),
        };
        let mut refused = Vec::new();
        for (url, r) in reached {
            match r {
                Ok(remote) => ssh.remotes.push(remote),
                Err(why) => refused.push(format!("{url}: {why}")),
            }
        }
        if ssh.remotes.is_empty() {
            return Err(VerifyError::NoHost(refused).into());
        }
        for r in refused {
            ssh.warnings
                .push(format!("{r}; the other hosts take its share"));
        }
        Ok(ssh)
    }
}

/// Copy errbook to the host and ask it what it has.
fn reach(
    conn: Conn,
    binary: &Path,
    key: &str,
    dir: &str,
    probe: &str,
) -> std::result::Result<Remote, String> {
    let exe = conn.install(binary, key, dir)?;
    tracing::debug!("asking {} what it has", conn.target.url());
    let mut child = conn
        .worker(&exe, probe)
        .map_err(|e| format!("cannot run ssh: {e}"))?;
    drop(child.stdin.take());
    let out = child
        .wait_with_output()
        .map_err(|e| format!("cannot run ssh: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    match text.lines().next().map(serde_json::from_str::<Message>) {
        Some(Ok(Message::Host {
            host,
            jobs,
            warnings,
            ..
        })) => Ok(Remote {
            conn,
            exe,
            host,
            jobs,
            warnings,
        }),
        Some(Ok(Message::Fatal { message })) => Err(message),
        _ => Err(format!(
            "errbook there did not answer: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
    }
}

impl Backend for Ssh {
    fn host(&self) -> &Host {
        let largest = self.remotes.iter().max_by_key(|r| r.host.gpus.len());
        largest.map_or(&self.remotes[0].host, |r| &r.host)
    }
    fn jobs(&self) -> usize {
        self.remotes.iter().map(|r| r.jobs).sum()
    }
    fn describe(&self) -> String {
        let each = self.remotes.iter().map(|r| match r.host.gpus.len() {
            0 => format!("{} (no GPU)", r.url()),
            n => format!("{} ({n} GPU{})", r.url(), if n == 1 { "" } else { "s" }),
        });
        each.collect::<Vec<_>>().join(", ")
    }
    fn warnings(&self) -> Vec<String> {
        let mut w = self.warnings.clone();
        for r in &self.remotes {
            w.extend(r.warnings.iter().map(|x| format!("{}: {x}", r.url())));
        }
        w
    }
    fn run(&mut self, jobs: Vec<Job>, cancel: &AtomicBool, sink: &mut dyn FnMut(Update)) {
        let mut s = Share::new(self, jobs, sink);
        let mut all: Vec<usize> = s.jobs.keys().copied().collect();
        all.sort();
        s.hand_out(
            &all,
            (0..self.remotes.len()).collect(),
            "no host can run it",
        );
        s.listen(cancel);
    }
}

/// One run of the backend: who runs what, and what has ended.
struct Share<'a, 'b> {
    ssh: &'a Ssh,
    jobs: HashMap<usize, Job>,
    /// The worker each unfinished job was handed to.
    owner: HashMap<usize, usize>,
    workers: Vec<Running>,
    alive: Vec<bool>,
    tx: mpsc::Sender<(usize, Heard)>,
    rx: mpsc::Receiver<(usize, Heard)>,
    sink: &'b mut dyn FnMut(Update),
}

impl<'a, 'b> Share<'a, 'b> {
    fn new(ssh: &'a Ssh, jobs: Vec<Job>, sink: &'b mut dyn FnMut(Update)) -> Share<'a, 'b> {
        let (tx, rx) = mpsc::channel();
        Share {
            ssh,
            jobs: jobs.into_iter().map(|j| (j.id, j)).collect(),
            owner: HashMap::new(),
            workers: Vec::new(),
            alive: vec![true; ssh.remotes.len()],
            tx,
            rx,
            sink,
        }
    }

    /// Share `ids` among the hosts in `hosts`; those none can take end, `why` not.
    fn hand_out(&mut self, ids: &[usize], hosts: Vec<usize>, why: &str) {
        let offers: Vec<Offer> = hosts
            .iter()
            .map(|&h| Offer {
                gpus: self.ssh.remotes[h].host.gpus.len() as u32,
                slots: self.ssh.remotes[h].jobs,
            })
            .collect();
        let needs: Vec<u32> = ids.iter().map(|id| self.jobs[id].gpus).collect();
        let to = split::assign(&needs, &offers);
        for (k, &h) in hosts.iter().enumerate() {
            let mine: Vec<usize> = (0..ids.len())
                .filter(|&i| to[i] == Some(k))
                .map(|i| ids[i])
                .collect();
            if !mine.is_empty() {
                self.start(h, &mine);
            }
        }
        for (i, &id) in ids.iter().enumerate() {
            if to[i].is_none() {
                let why = format!("{why} (it needs {} GPUs)", self.jobs[&id].gpus);
                self.end(id, "ssh", Ran::Failed(why));
            }
        }
    }

    /// Start a worker on host `h` with the jobs `ids`.
    fn start(&mut self, h: usize, ids: &[usize]) {
        let remote = &self.ssh.remotes[h];
        let mut plan = self.ssh.plan.clone();
        plan.items = ids.iter().map(|id| self.jobs[id].clone()).collect();
        let text = serde_json::to_string(&plan).unwrap_or_default();
        let tag = self.workers.len();
        match Running::start(&remote.conn, &remote.exe, &text, (h, tag), self.tx.clone()) {
            Ok(w) => {
                tracing::debug!(
                    "{} job(s) handed to the worker on {}",
                    ids.len(),
                    remote.url()
                );
                self.workers.push(w);
                for &id in ids {
                    self.owner.insert(id, tag);
                    (self.sink)(Update::Queued {
                        id,
                        place: remote.url(),
                    });
                }
            }
            Err(e) => {
                for &id in ids {
                    self.end(
                        id,
                        &remote.url(),
                        Ran::Failed(format!("cannot run ssh: {e}")),
                    );
                }
            }
        }
    }

    fn end(&mut self, id: usize, runner: &str, ran: Ran) {
        self.owner.remove(&id);
        if let Some(job) = self.jobs.remove(&id) {
            (self.sink)(Update::Finished(Box::new(Finished {
                id: job.id,
                runner: runner.to_string(),
                gpus: Vec::new(),
                env: Default::default(),
                peak_mib: None,
                ran,
            })));
        }
    }

    /// Hear the workers until every job has ended.
    fn listen(&mut self, cancel: &AtomicBool) {
        let mut deadline: Option<Instant> = None;
        while !self.jobs.is_empty() {
            if cancel.load(Ordering::Relaxed) && deadline.is_none() {
                self.workers.iter_mut().for_each(Running::hang_up);
                deadline = Some(Instant::now() + Duration::from_secs(20));
            }
            if deadline.is_some_and(|d| Instant::now() > d) {
                self.workers.iter().for_each(Running::kill);
                let left: Vec<usize> = self.jobs.keys().copied().collect();
                left.into_iter()
                    .for_each(|id| self.end(id, "ssh", Ran::Cancelled));
                break;
            }
            match self.rx.recv_timeout(Duration::from_millis(200)) {
                Ok((tag, heard)) => self.heard(tag, heard, cancel),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        self.workers.iter_mut().for_each(Running::hang_up);
    }

    fn heard(&mut self, tag: usize, heard: Heard, cancel: &AtomicBool) {
        let h = self.workers[tag].host;
        let url = self.ssh.remotes[h].url();
        let said = match heard {
            Heard::Said(m) => *m,
            Heard::Gone(how) => return self.lost(tag, &how, cancel),
        };
        match said {
            Message::Started { id, gpus } => {
                if self.owner.get(&id) == Some(&tag) {
                    (self.sink)(Update::Started {
                        id,
                        place: url,
                        gpus,
                    });
                }
            }
            Message::Finished {
                id,
                gpus,
                env,
                peak_mib,
                ran,
            } => {
                if self.owner.get(&id) == Some(&tag) {
                    self.owner.remove(&id);
                    self.jobs.remove(&id);
                    (self.sink)(Update::Finished(Box::new(Finished {
                        id,
                        runner: url,
                        gpus,
                        env,
                        peak_mib,
                        ran,
                    })));
                }
            }
            Message::Fatal { message } => self.lost(tag, &message, cancel),
            Message::Again { id } => {
                if self.owner.get(&id) == Some(&tag) {
                    (self.sink)(Update::Again { id });
                }
            }
            Message::Host { .. } => {}
        }
    }

    /// Worker `tag` ended: its unfinished jobs move to the hosts still up.
    fn lost(&mut self, tag: usize, how: &str, cancel: &AtomicBool) {
        let h = self.workers[tag].host;
        let mut left: Vec<usize> = self
            .owner
            .iter()
            .filter(|(_, &t)| t == tag)
            .map(|(&id, _)| id)
            .collect();
        if left.is_empty() {
            return;
        }
        left.sort();
        let url = self.ssh.remotes[h].url();
        if cancel.load(Ordering::Relaxed) {
            left.into_iter()
                .for_each(|id| self.end(id, &url, Ran::Cancelled));
            return;
        }
        self.alive[h] = false;
        let hosts: Vec<usize> = (0..self.alive.len()).filter(|&k| self.alive[k]).collect();
        let (n, to) = (left.len(), hosts.iter().map(|&k| self.ssh.remotes[k].url()));
        let to: Vec<String> = to.collect();
        let whither = match to.is_empty() {
            true => "no host is left to run them".to_string(),
            false => format!("they move to {}", to.join(", ")),
        };
        (self.sink)(Update::Warning(format!(
            "{url} dropped ({how}) with {n} run(s) unfinished; {whither}"
        )));
        self.hand_out(
            &left,
            hosts,
            &format!("{url} dropped and no other host can run it"),
        );
    }
}
