//! Run the units the plan runs: estimate each one's GPU memory and duration (`estimate`), pack
//! them onto the host's GPUs (`schedule`), sample the GPU memory they hold (`gpumem`), make a
//! record of each run (`record`) and write it with `records::store` (a record that is not
//! evidence never replaces one that is). A run that ran out of GPU memory while it shared its GPU
//! is no finding: it runs again on a GPU of its own.

use super::gpumem::{self, Sampler};
use super::options::{Options, Runner};
use super::plan::{Plan, Unit};
use super::progress::{Event, Progress};
use super::runner::{self, local, Request};
use super::schedule::{self, Job, Slot};
use super::session::Packing;
use super::summary::{Done, Summary};
use super::{estimate, record};
use crate::records::store::{self, Written};
use crate::records::{Record, RecordSet};
use std::cell::RefCell;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The variables of errbook's environment that runs get: the default ones and `--keep-env`'s.
pub(super) fn keep_env(opts: &Options) -> Vec<String> {
    runner::DEFAULT_KEEP
        .iter()
        .map(|s| s.to_string())
        .chain(opts.keep_env.iter().cloned())
        .collect()
}

/// The command of interpreter `name` (`python3` is book.toml's `verify.python`).
pub(super) fn interpreter(python: &[String], name: &str) -> Vec<String> {
    if name == "python3" {
        python.to_vec()
    } else {
        shlex::split(name).unwrap_or_else(|| vec![name.to_string()])
    }
}

/// What a finished run becomes: its record, written, and the session's account of it.
struct Recorder<'a> {
    dir: &'a Path,
    plan: &'a Plan,
    half: usize,
    sampler: Option<Sampler>,
    done: &'a mut Vec<Done>,
    failures: &'a mut Vec<String>,
}

/// What a run returns to the scheduler: when it started, its run id, what the runner saw.
type Ran = (String, String, std::io::Result<runner::Output>);

impl Recorder<'_> {
    /// Record the run of unit `unit` on `gpus`; true when it is to run again alone (it ran out
    /// of GPU memory while it shared its GPU), and then nothing is recorded.
    fn finish(
        &mut self,
        unit: usize,
        gpus: &[u32],
        shared: bool,
        (date, id, result): Ran,
        p: &mut dyn Progress,
    ) -> bool {
        let u = &self.plan.units[unit];
        let env = self.plan.host.env_for(gpus);
        let mut record = record::finished(u, &date, gpus, env, result, self.half);
        record.gpu_mem_peak_mib = self.sampler.as_ref().and_then(|s| s.peak(&id));
        let name = u.name();
        if shared && out_of_memory(&record) {
            p.event(Event::Again { name: &name });
            return true;
        }
        p.event(Event::Finished {
            name: &name,
            record: &record,
        });
        let kept = match store::write(self.dir, &record) {
            Ok(Written::At(_)) => false,
            Ok(Written::KeptEvidence(_)) => {
                p.event(Event::Kept {
                    name: &name,
                    record: &record,
                });
                true
            }
            Err(e) => {
                self.failures.push(e.to_string());
                false
            }
        };
        self.done.push(Done { unit, record, kept });
        false
    }
}

/// Run the units the plan runs, packed onto the host's GPUs, and write a record of each.
pub(super) fn run_units(
    dir: &Path,
    opts: &Options,
    set: &RecordSet,
    packing: &Packing,
    s: &mut Summary,
    progress: &mut dyn Progress,
) {
    let plan = &s.plan;
    let to_run = plan.to_run();
    let jobs: Vec<Job> = to_run
        .iter()
        .map(|&i| estimate::job(&plan.units[i], set, packing.default_mib))
        .collect();
    let gpus: Vec<(u32, u64)> = (plan.host.gpus.iter())
        .map(|g| (g.index, packing.cap.on(g.memory_mib)))
        .collect();
    let (keep, half) = (keep_env(opts), opts.log_bytes / 2);
    let sampling = opts.runner == Runner::Local && jobs.iter().any(|j| j.gpus > 0);
    let mut rec = Recorder {
        dir,
        plan,
        half,
        sampler: sampling.then(Sampler::start),
        done: &mut s.done,
        failures: &mut s.failures,
    };
    let attempts = AtomicUsize::new(0);
    progress.event(Event::Running(to_run.len()));
    let progress = RefCell::new(progress);
    let slots = schedule::run_all(
        &jobs,
        &gpus,
        plan.jobs,
        |k, gpus| {
            let id = format!(
                "{}-{}",
                std::process::id(),
                attempts.fetch_add(1, Ordering::Relaxed)
            );
            let req = request(plan, &plan.units[to_run[k]], gpus, &keep, half, &id);
            let started = now();
            let result = match opts.runner {
                Runner::Local => local::run(&req),
            };
            (started, id, result)
        },
        |k, gpus| {
            let name = plan.units[to_run[k]].name();
            let mut p = progress.borrow_mut();
            p.event(Event::Started { name: &name, gpus });
        },
        |k, gpus, shared, ran| {
            let mut p = progress.borrow_mut();
            rec.finish(to_run[k], gpus, shared, ran, &mut **p)
        },
    );
    drop(rec);
    s.timeline = slots
        .into_iter()
        .map(|slot| Slot {
            job: to_run[slot.job],
            ..slot
        })
        .collect();
}

/// Whether the run failed for want of GPU memory.
fn out_of_memory(r: &Record) -> bool {
    let all = r
        .final_error()
        .into_iter()
        .chain(r.wrapped.iter().cloned())
        .chain(r.children.iter().cloned());
    all.map(|e| format!("{} {}", e.exception, e.message).to_lowercase())
        .any(|t| t.contains("out of memory") || t.contains("outofmemoryerror"))
}

/// What the runner gets for unit `u` on `gpus`, named `id` in its processes' environments.
fn request(
    plan: &Plan,
    u: &Unit,
    gpus: &[u32],
    keep_env: &[String],
    half: usize,
    id: &str,
) -> Request {
    let mut env = u.spec.env.clone();
    env.push((gpumem::RUN_VAR.to_string(), id.to_string()));
    Request {
        program: u.program.clone(),
        file_name: format!("snippet.{}", ext(&u.lang)),
        interpreter: interpreter(&plan.python, &u.spec.interpreter),
        env,
        keep_env: keep_env.to_vec(),
        gpus: gpus.to_vec(),
        timeout: Duration::from_secs(u.spec.timeout_s),
        // Tracebacks are read from a larger window than the log keeps.
        keep_head: (256 * 1024).max(half),
        keep_tail: (1024 * 1024).max(half),
    }
}

/// The file extension of a snippet's language.
fn ext(lang: &str) -> &str {
    match lang {
        "python" | "py" | "python3" | "" => "py",
        "bash" | "sh" | "shell" => "sh",
        other => other,
    }
}

/// Now, as records write dates (RFC 3339, UTC, whole seconds).
fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}
