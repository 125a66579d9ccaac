//! The session's side of a backend's run: each unit to run becomes a `Job` (its program, its
//! interpreter, the declared and the passed variables, the GPU memory and time `estimate` expects)
//! and each `Update` a progress event and, at a job's end, a record written at once, so that a
//! host or a session that stops mid-way loses no finished run. A record that is not evidence
//! never replaces one that is (`records::store`); a cancelled run writes none.

use super::estimate::Packing;
use super::job::{Backend, Finished, Job, Ran, Update};
use super::options::Options;
use super::plan::{Plan, Unit};
use super::progress::{Event, Progress};
use super::runner::{env, Request};
use super::schedule::Slot;
use super::summary::{Done, Summary};
use super::{estimate, record};
use errbook_core::config::Config;
use errbook_records::store::{self, Written};
use errbook_records::RecordSet;
use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// What the session hands a backend's run.
pub(super) type Ctx<'a> = (&'a Options, &'a Config, &'a RecordSet, &'a Packing);

/// Run the units the plan runs on `backend` and write a record of each.
pub(super) fn run(
    dir: &Path,
    (opts, cfg, set, packing): Ctx<'_>,
    backend: &mut dyn Backend,
    s: &mut Summary,
    progress: &mut dyn Progress,
) {
    let half = opts.log_bytes / 2;
    let passed = env::passed(&opts.kept_names(&cfg.verify), std::env::vars_os());
    let jobs: Vec<Job> = (s.plan.to_run().into_iter())
        .map(|i| {
            let u = &s.plan.units[i];
            let est = estimate::job(u, set, packing.default_mib);
            Job {
                id: i,
                gpus: u.spec.gpus,
                mem_mib: est.mem_mib,
                expect_s: est.expect_s,
                name: u.name(),
                request: request(&s.plan, u, &passed, half),
            }
        })
        .collect();
    let mem: HashMap<usize, u64> = jobs.iter().map(|j| (j.id, j.mem_mib)).collect();
    progress.event(Event::Running(jobs.len()));
    let t0 = Instant::now();
    // When and where each job's attempt in flight started.
    let mut starts: HashMap<usize, (f64, Vec<u32>)> = HashMap::new();
    let plan = s.plan.clone();
    let name = |id: usize| plan.units[id].name();
    backend.run(jobs, &opts.cancel, &mut |update| match update {
        Update::Queued { id, place } => progress.event(Event::Queued {
            name: &name(id),
            place: &place,
        }),
        Update::Pending { id, place, reason } => progress.event(Event::Pending {
            name: &name(id),
            place: &place,
            reason: &reason,
        }),
        Update::Started { id, place, gpus } => {
            starts.insert(id, (t0.elapsed().as_secs_f64(), gpus.clone()));
            progress.event(Event::Started {
                name: &name(id),
                gpus: &gpus,
                place: &place,
            });
        }
        Update::Again { id } => {
            // The attempt that ran out of GPU memory beside others stays in the timeline.
            if let Some((start_s, gpus)) = starts.remove(&id) {
                s.timeline.push(Slot {
                    job: id,
                    gpus,
                    mem_mib: mem.get(&id).copied().unwrap_or(0),
                    shared: false,
                    start_s,
                    end_s: t0.elapsed().as_secs_f64(),
                });
            }
            progress.event(Event::Again { name: &name(id) })
        }
        Update::Warning(w) => progress.event(Event::Warning(&w)),
        Update::Finished(f) => {
            let end_s = t0.elapsed().as_secs_f64();
            let start_s = starts.get(&f.id).map_or(end_s, |(t, _)| *t);
            if f.ran != Ran::Cancelled {
                s.timeline.push(Slot {
                    job: f.id,
                    gpus: f.gpus.clone(),
                    mem_mib: mem.get(&f.id).copied().unwrap_or(0),
                    shared: false,
                    start_s,
                    end_s,
                });
            }
            finish(dir, &plan.units[f.id], *f, half, s, progress);
        }
    });
    mark_shared(&mut s.timeline);
}

/// Record a job's end: write its record and tell; a cancelled run is only told.
fn finish(
    dir: &Path,
    u: &Unit,
    f: Finished,
    half: usize,
    s: &mut Summary,
    progress: &mut dyn Progress,
) {
    let name = u.name();
    let result = match f.ran {
        Ran::Output(out) => Ok(out),
        Ran::Failed(reason) => Err(reason),
        Ran::Cancelled => {
            s.cancelled.push(f.id);
            progress.event(Event::Cancelled { name: &name });
            return;
        }
    };
    let mut record = record::finished(u, &now(), &f.gpus, (f.env, &f.runner), result, half);
    record.gpu_mem_peak_mib = f.peak_mib;
    progress.event(Event::Finished {
        name: &name,
        record: &record,
    });
    let kept = match store::write(dir, &record) {
        Ok(Written::At(_)) => false,
        Ok(Written::KeptEvidence(_)) => {
            progress.event(Event::Kept {
                name: &name,
                record: &record,
            });
            true
        }
        Err(e) => {
            s.failures.push(e.to_string());
            false
        }
    };
    s.done.push(Done {
        unit: f.id,
        record,
        kept,
    });
}

/// Mark the runs that had a GPU with another run at the same time.
fn mark_shared(timeline: &mut [Slot]) {
    let all = timeline.to_vec();
    for a in timeline.iter_mut() {
        a.shared = all.iter().any(|b| {
            b.job != a.job
                && b.gpus.iter().any(|g| a.gpus.contains(g))
                && b.start_s < a.end_s
                && a.start_s < b.end_s
        });
    }
}

/// The command of interpreter `name` (`python3` is book.toml's `verify.python`).
pub(super) fn interpreter(python: &[String], name: &str) -> Vec<String> {
    if name == "python3" {
        python.to_vec()
    } else {
        shlex::split(name).unwrap_or_else(|| vec![name.to_string()])
    }
}

/// What the runner gets for unit `u` (its GPUs are picked where it runs).
fn request(plan: &Plan, u: &Unit, passed: &[(String, String)], half: usize) -> Request {
    Request {
        program: u.program.clone(),
        file_name: format!("snippet.{}", ext(&u.lang)),
        interpreter: interpreter(&plan.python, &u.spec.interpreter),
        env: u.spec.env.clone(),
        passed: passed.to_vec(),
        gpus: Vec::new(),
        network: u.spec.network,
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
pub(super) fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}
