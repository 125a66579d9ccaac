//! The session's side of a backend's run: each unit to run becomes a `Job` (its program, its
//! interpreter, the declared and the passed variables), and each `Update` a progress event and,
//! at a job's end, a record written at once, so that a host or a session that stops mid-way
//! loses no finished run. A run that could not happen writes no record over a real one; a
//! cancelled one writes none.

use super::job::{Backend, Finished, Job, Ran, Update};
use super::options::Options;
use super::plan::{Plan, Unit};
use super::progress::{Event, Progress};
use super::record;
use super::runner::{env, Request};
use super::schedule::Slot;
use super::summary::{Done, Summary};
use crate::core::config::Config;
use crate::records::{self, RecordSet, Verdict};
use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// Run the units the plan runs on `backend` and write a record of each.
pub(super) fn run(
    dir: &Path,
    (opts, cfg, set): (&Options, &Config, &RecordSet),
    backend: &mut dyn Backend,
    s: &mut Summary,
    progress: &mut dyn Progress,
) {
    let Summary {
        plan,
        done,
        timeline,
        failures,
    } = s;
    let plan = &*plan;
    let half = opts.log_bytes / 2;
    let passed = env::passed(&opts.kept_names(&cfg.verify), std::env::vars_os());
    let jobs: Vec<Job> = plan
        .to_run()
        .into_iter()
        .map(|i| {
            let u = &plan.units[i];
            Job {
                id: i,
                gpus: u.spec.gpus,
                name: u.name(),
                request: request(plan, u, &passed, half),
            }
        })
        .collect();
    progress.event(Event::Running(jobs.len()));
    let t0 = Instant::now();
    let mut starts: HashMap<usize, f64> = HashMap::new();
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
            starts.insert(id, t0.elapsed().as_secs_f64());
            progress.event(Event::Started {
                name: &name(id),
                gpus: &gpus,
                place: &place,
            });
        }
        Update::Warning(w) => progress.event(Event::Warning(&w)),
        Update::Finished(f) => {
            let end_s = t0.elapsed().as_secs_f64();
            let start_s = starts.get(&f.id).copied().unwrap_or(end_s);
            let u = &plan.units[f.id];
            let record = finished(u, *f.clone(), half);
            progress.event(Event::Finished {
                name: &u.name(),
                record: &record,
            });
            if f.ran != Ran::Cancelled {
                if let Err(e) = write(dir, set, u, &record) {
                    failures.push(e.to_string());
                }
                timeline.push(Slot {
                    job: f.id,
                    gpus: f.gpus.clone(),
                    start_s,
                    end_s,
                });
            }
            done.push(Done { unit: f.id, record });
        }
    });
}

/// The record of a finished job (a cancelled one's is kept in the summary, never written).
fn finished(u: &Unit, f: Finished, half: usize) -> crate::records::Record {
    let date = now();
    let result = match f.ran {
        Ran::Output(out) => Ok(out),
        Ran::Failed(reason) => Err(reason),
        Ran::Cancelled => Err("cancelled".to_string()),
    };
    record::finished(u, &date, &f.gpus, (f.env, &f.runner), result, half)
}

/// Write `record`; a run that did not happen never replaces a real record of the same hash.
fn write(
    dir: &Path,
    set: &RecordSet,
    u: &Unit,
    record: &crate::records::Record,
) -> crate::core::error::Result<()> {
    let real = record.verdict != Verdict::Skipped;
    let keeps_real = set
        .get(&u.page, &u.hash)
        .is_some_and(|r| r.verdict != Verdict::Skipped);
    if !real && keeps_real {
        return Ok(());
    }
    records::store::write(dir, record, real).map(|_| ())
}

/// What the runner gets for unit `u` (its GPUs are picked where it runs).
fn request(plan: &Plan, u: &Unit, passed: &[(String, String)], half: usize) -> Request {
    let interpreter = if u.spec.interpreter == "python3" {
        plan.python.clone()
    } else {
        shlex::split(&u.spec.interpreter).unwrap_or_else(|| vec![u.spec.interpreter.clone()])
    };
    Request {
        program: u.program.clone(),
        file_name: format!("snippet.{}", ext(&u.lang)),
        interpreter,
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
