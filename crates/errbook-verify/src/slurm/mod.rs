//! `--runner slurm`: a Slurm cluster, through Slurm's own commands (as submitit and Snakemake
//! do; no maintained Rust crate speaks Slurm). The session's jobs become job arrays, one per
//! resource shape (`submit`), on a folder every node sees; each array task runs
//! `errbook verify-worker` on its node, sandboxed as a local run, and writes its end to a file
//! there. The session watches the queue (`queue`: squeue, then sacct or `scontrol show job`):
//! PENDING with its reason, RUNNING and where, and for a task that left the queue without a
//! result its final state: TIMEOUT a time-out, OUT_OF_MEMORY a run stopped by a limit,
//! NODE_FAIL and PREEMPTED tried again (twice), anything else a run that could not happen.
//! Ctrl-C cancels the arrays (scancel). Records name the job and the node.

mod probe;
mod queue;
mod submit;

use super::cmdline;
use super::error::VerifyError;
use super::gpu::Host;
use super::job::{Backend, Finished, Job, Ran, Update};
use super::options::{GpuSelection, Options};
use super::runner::Output;
use super::wire::{errbook_binary, Message, WorkPlan};
use errbook_core::config::Config;
use errbook_core::error::{IoContext, Result};
use queue::Ending;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use submit::{Array, Settings};

/// Tries a run gets when its node fails or it is preempted.
const TRIES: u32 = 3;
/// How long a task that left the queue may take to show its result (a shared filesystem's
/// caches).
const GRACE: Duration = Duration::from_secs(60);

/// The Slurm backend.
#[derive(Debug)]
pub(crate) struct Slurm {
    settings: Settings,
    /// The folder every node sees.
    shared: PathBuf,
    /// errbook's binary for the nodes, and its cache key.
    binary: (PathBuf, String),
    template: WorkPlan,
    /// GPUs per node at most (sinfo).
    gpus: u32,
    /// Tasks one array may hold: the cluster's MaxArraySize (`scontrol show config`).
    max_array: usize,
    host: Host,
    poll: Duration,
}

impl Slurm {
    /// Check Slurm's commands are here and read what the partition's nodes offer.
    pub(crate) fn prepare(
        root: &Path,
        (cfg, opts): (&Config, &Options),
        template: WorkPlan,
        said: &mut dyn FnMut(&str),
    ) -> Result<Slurm> {
        let c = &cfg.verify.slurm;
        let o = &opts.slurm;
        let settings = Settings {
            partition: o.partition.clone().or_else(|| c.partition.clone()),
            account: o.account.clone().or_else(|| c.account.clone()),
            qos: o.qos.clone().or_else(|| c.qos.clone()),
            gpu_flag: c.gpu_flag,
            flags: c.flags.iter().chain(&o.flags).cloned().collect(),
        };
        let ok = cmdline::status(
            Command::new("sbatch")
                .arg("--version")
                .stdout(Stdio::null()),
        );
        if !ok.is_ok_and(|s| s.success()) {
            return Err(VerifyError::NoSbatch.into());
        }
        let root = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
        let shared = root.join(
            c.shared_dir
                .clone()
                .unwrap_or_else(|| ".errbook/slurm".into()),
        );
        let binary = errbook_binary(c.errbook.as_deref())?;
        // `--gpus none` holds on a cluster too: GPU runs are skipped.
        let gpus = match opts.gpus {
            GpuSelection::None => 0,
            _ => queue::gpus_per_node(settings.partition.as_deref()).unwrap_or(0),
        };
        let max_array = queue::max_array_size().unwrap_or_else(|| {
            let n = submit::DEFAULT_MAX_ARRAY;
            said(&format!(
                "scontrol does not say MaxArraySize: arrays of at most {n} tasks"
            ));
            n
        });
        let poll = Duration::from_secs_f64(c.poll_s.unwrap_or(5.0).clamp(0.1, 600.0));
        let exe = submit::install(&shared, &binary.0, &binary.1).at(&shared)?;
        let ask = (&settings, shared.as_path(), exe.as_path());
        let host = probe::ask(ask, &template, gpus, poll, &opts.cancel, said)
            .map_err(VerifyError::Node)?;
        Ok(Slurm {
            settings,
            shared,
            binary,
            template,
            gpus,
            max_array,
            host,
            poll,
        })
    }
}

impl Backend for Slurm {
    fn host(&self) -> &Host {
        &self.host
    }
    fn jobs(&self) -> usize {
        0
    }
    fn describe(&self) -> String {
        let part = self.settings.partition.as_deref().unwrap_or("default");
        let n = self.gpus;
        format!("slurm (partition {part}, up to {n} GPUs a node)")
    }
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }
    fn run(&mut self, jobs: Vec<Job>, cancel: &AtomicBool, sink: &mut dyn FnMut(Update)) {
        let (path, key) = &self.binary;
        let dir = match submit::session_dir(&self.shared, path, key) {
            Ok(d) => d,
            Err(e) => {
                let why = format!("cannot prepare {}: {e}", self.shared.display());
                for j in jobs {
                    sink(Update::Finished(Box::new(lost(
                        j.id,
                        Ran::Failed(why.clone()),
                    ))));
                }
                return;
            }
        };
        let mut w = Watch {
            slurm: self,
            dir,
            arrays: Vec::new(),
            tasks: BTreeMap::new(),
            sink,
            failed: false,
        };
        let arrays = submit::arrays(jobs, self.max_array);
        if arrays.len() > 1 {
            let (n, most) = (arrays.len(), self.max_array);
            tracing::debug!("{n} arrays (MaxArraySize {most})");
        }
        for a in arrays {
            w.submit(a, 1);
        }
        w.watch(cancel);
        w.clean_up();
    }
}

/// A field of the debug output that an empty value leaves out.
fn some(s: &str) -> Option<&str> {
    (!s.is_empty()).then_some(s)
}

fn lost(id: usize, ran: Ran) -> Finished {
    Finished {
        id,
        runner: "slurm".into(),
        gpus: Vec::new(),
        env: Default::default(),
        peak_mib: None,
        ran,
    }
}

/// A task in flight.
#[derive(Debug, Clone)]
struct Task {
    /// Its array (position in `Watch::arrays`) and index there.
    array: usize,
    index: usize,
    job: Job,
    try_no: u32,
    /// The state the queue last showed (for the debug output).
    state: String,
    started: bool,
    pending: Option<String>,
    /// When it was first missed from the queue without a result.
    gone: Option<Instant>,
}

/// One backend run: the arrays submitted and the tasks not yet ended.
struct Watch<'a, 'b> {
    slurm: &'a Slurm,
    dir: PathBuf,
    /// Each submitted array: its shape and Slurm's job id.
    arrays: Vec<(Array, String)>,
    /// By Slurm's task name (`12_3`).
    tasks: BTreeMap<String, Task>,
    sink: &'b mut dyn FnMut(Update),
    failed: bool,
}

impl Watch<'_, '_> {
    fn submit(&mut self, a: Array, try_no: u32) {
        let n = self.arrays.len();
        match submit::submit(&self.slurm.settings, &a, n, &self.dir, &self.slurm.template) {
            Ok(id) => {
                let (tasks, gpus, minutes) = (a.jobs.len(), a.gpus, a.minutes);
                tracing::debug!(
                    "slurm job {id}: {tasks} task(s), {gpus} GPU(s) and {minutes} min each"
                );
                for (index, job) in a.jobs.iter().enumerate() {
                    let name = format!("{id}_{index}");
                    let place = format!("slurm job {name}");
                    (self.sink)(Update::Queued { id: job.id, place });
                    let task = Task {
                        array: n,
                        index,
                        job: job.clone(),
                        try_no,
                        state: String::new(),
                        started: false,
                        pending: None,
                        gone: None,
                    };
                    self.tasks.insert(name, task);
                }
                self.arrays.push((a, id));
            }
            Err(why) => {
                self.failed = true;
                for j in &a.jobs {
                    (self.sink)(Update::Finished(Box::new(lost(
                        j.id,
                        Ran::Failed(why.clone()),
                    ))));
                }
                self.arrays.push((a, String::new()));
            }
        }
    }

    fn watch(&mut self, cancel: &AtomicBool) {
        let mut cancelled: Option<Instant> = None;
        while !self.tasks.is_empty() {
            if cancel.load(Ordering::Relaxed) && cancelled.is_none() {
                self.scancel();
                cancelled = Some(Instant::now());
            }
            self.collect_results();
            let ids: Vec<String> = self.live_arrays();
            if let Some(rows) = queue::squeue(&ids) {
                self.read_queue(&rows, cancelled.is_some());
            }
            if cancelled.is_some_and(|t| t.elapsed() > Duration::from_secs(30)) {
                let names: Vec<String> = self.tasks.keys().cloned().collect();
                names.iter().for_each(|n| self.end(n, Ran::Cancelled, None));
            }
            if !self.tasks.is_empty() {
                std::thread::sleep(self.slurm.poll);
            }
        }
    }

    fn live_arrays(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .tasks
            .values()
            .map(|t| self.arrays[t.array].1.clone())
            .collect();
        ids.sort();
        ids.dedup();
        ids
    }

    fn scancel(&mut self) {
        let ids = self.live_arrays();
        if !ids.is_empty() {
            let _ = cmdline::status(Command::new("scancel").args(&ids).stdin(Stdio::null()));
        }
    }

    /// The ends the tasks wrote.
    fn collect_results(&mut self) {
        let names: Vec<String> = self.tasks.keys().cloned().collect();
        for name in names {
            let t = &self.tasks[&name];
            let file = submit::results(&self.dir, t.array).join(format!("{}.json", t.index));
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            let mut node = String::new();
            let mut ended: Option<Finished> = None;
            for m in text
                .lines()
                .filter_map(|l| serde_json::from_str::<Message>(l).ok())
            {
                match m {
                    Message::Host { host, .. } => node = host.env.host,
                    Message::Finished {
                        gpus,
                        env,
                        peak_mib,
                        ran,
                        ..
                    } => {
                        ended = Some(Finished {
                            gpus,
                            env,
                            peak_mib,
                            ..lost(0, ran)
                        })
                    }
                    Message::Fatal { message } => ended = Some(lost(0, Ran::Failed(message))),
                    Message::Started { .. } | Message::Again { .. } => {}
                }
            }
            if let Some(f) = ended {
                let runner = format!("slurm job {name} on {node}");
                if matches!(f.ran, Ran::Failed(_)) {
                    self.failed = true;
                }
                self.finish(&name, Finished { runner, ..f });
            }
        }
    }

    /// What the queue says of each task.
    fn read_queue(&mut self, rows: &[queue::Queued], cancelling: bool) {
        let names: Vec<String> = self.tasks.keys().cloned().collect();
        for name in names {
            let row = rows.iter().find(|r| r.task == name);
            let Some(t) = self.tasks.get_mut(&name) else {
                continue;
            };
            let id = t.job.id;
            if let Some(r) = row.filter(|r| r.state != t.state) {
                let (node, reason) = (some(&r.node), some(&r.reason));
                tracing::debug!(
                    node,
                    reason,
                    "slurm job {name} ({}): {}",
                    t.job.name,
                    r.state
                );
                t.state = r.state.clone();
            }
            match row {
                Some(r) if r.state == "PENDING" => {
                    t.gone = None;
                    if t.pending.as_deref() != Some(r.reason.as_str()) {
                        t.pending = Some(r.reason.clone());
                        let (place, reason) = (format!("slurm job {name}"), r.reason.clone());
                        (self.sink)(Update::Pending { id, place, reason });
                    }
                }
                Some(r) => {
                    t.gone = None;
                    if !t.started && ["RUNNING", "COMPLETING"].contains(&r.state.as_str()) {
                        t.started = true;
                        let place = format!("slurm job {name} on {}", r.node);
                        (self.sink)(Update::Started {
                            id,
                            place,
                            gpus: Vec::new(),
                        });
                    }
                }
                None => self.left_queue(&name, cancelling),
            }
        }
    }

    /// A task is no longer queued and wrote no end: its final state decides.
    fn left_queue(&mut self, name: &str, cancelling: bool) {
        let Some(t) = self.tasks.get_mut(name) else {
            return;
        };
        let missed = t.gone.is_none();
        let first = *t.gone.get_or_insert_with(Instant::now);
        let (state, node) = queue::final_state(name).unwrap_or_default();
        if missed {
            let (node, ended) = (some(&node), some(&state));
            tracing::debug!(
                node,
                ended,
                "slurm job {name} ({}) left the queue",
                t.job.name
            );
        }
        let waited = first.elapsed() > GRACE.max(self.slurm.poll * 3);
        let log = self.log_tail(name);
        let ran = match queue::ending(&state) {
            _ if cancelling => Ran::Cancelled,
            Ending::TimedOut => Ran::Output(ended_by_slurm(&state, false)),
            Ending::OutOfMemory => Ran::Output(ended_by_slurm(&state, true)),
            Ending::Retry => return self.retry(name, &state, &node),
            Ending::Cancelled => Ran::Failed(format!(
                "Slurm cancelled the task (scancel, or an administrator); {log}"
            )),
            // COMPLETED, FAILED or forgotten: the end may still be on its way.
            Ending::Failed if !waited => return,
            Ending::Failed => {
                let state = if state.is_empty() {
                    "unknown".into()
                } else {
                    state
                };
                Ran::Failed(format!("the task ended ({state}) without a result; {log}"))
            }
        };
        if matches!(ran, Ran::Failed(_)) {
            self.failed = true;
        }
        let runner = format!("slurm job {name} on {node}");
        self.finish(
            name,
            Finished {
                runner,
                ..lost(0, ran)
            },
        );
    }

    /// Submit the task's job again, alone, unless it has had its tries.
    fn retry(&mut self, name: &str, state: &str, node: &str) {
        let Some(t) = self.tasks.remove(name) else {
            return;
        };
        if t.try_no >= TRIES {
            self.failed = true;
            let why = format!("Slurm ended it {state} on {node}, {TRIES} times");
            let f = Finished {
                runner: format!("slurm job {name} on {node}"),
                ..lost(t.job.id, Ran::Failed(why))
            };
            (self.sink)(Update::Finished(Box::new(f)));
            return;
        }
        (self.sink)(Update::Warning(format!(
            "slurm job {name} ended {state} on {node}; submitting {} again (try {} of {TRIES})",
            t.job.name,
            t.try_no + 1
        )));
        let shape = &self.arrays[t.array].0;
        let again = Array {
            gpus: shape.gpus,
            minutes: shape.minutes,
            jobs: vec![t.job],
        };
        self.submit(again, t.try_no + 1);
    }

    /// The task's end, told: `f` with the task's job id.
    fn finish(&mut self, name: &str, f: Finished) {
        if let Some(t) = self.tasks.remove(name) {
            tracing::debug!("slurm job {name} ({}): {}", t.job.name, f.ran.brief());
            let f = Finished { id: t.job.id, ..f };
            (self.sink)(Update::Finished(Box::new(f)));
        }
    }

    fn end(&mut self, name: &str, ran: Ran, node: Option<&str>) {
        let runner = format!("slurm job {name} on {}", node.unwrap_or("?"));
        self.finish(
            name,
            Finished {
                runner,
                ..lost(0, ran)
            },
        );
    }

    /// The last lines of the task's Slurm log, for messages.
    fn log_tail(&self, name: &str) -> String {
        let path = self.dir.join("logs").join(format!("{name}.out"));
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let lines: Vec<&str> = text.trim().lines().collect();
        match lines.len() {
            0 => format!("its log {} is empty", path.display()),
            n => format!("its log says: {}", lines[n.saturating_sub(3)..].join(" / ")),
        }
    }

    /// Plan files hold passed variables' values: always removed. The rest goes when every job
    /// ended well, and stays (with the logs) for a look when one did not.
    fn clean_up(&mut self) {
        for n in 0..self.arrays.len() {
            let _ = std::fs::remove_file(submit::plan_path(&self.dir, n));
        }
        if self.failed {
            let d = self.dir.display();
            (self.sink)(Update::Warning(format!(
                "Slurm's logs of this session are kept in {d}"
            )));
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// The output of a run Slurm ended before errbook could report: at its time limit, or at its
/// memory limit (a run stopped by a limit).
fn ended_by_slurm(state: &str, memory: bool) -> Output {
    let note = format!("[errbook: Slurm ended the task: {state}]\n");
    Output {
        exit_status: None,
        signal: Some(9),
        timed_out: !memory,
        limit: memory.then(|| "Slurm memory".to_string()),
        bytes: note.len() as u64,
        head: note.into_bytes(),
        sandbox: "unknown: Slurm ended the task before errbook reported".into(),
        ..Default::default()
    }
}
