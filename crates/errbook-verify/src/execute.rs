//! Run jobs on this host: packed onto its GPUs by memory (`schedule`, under the session's cap),
//! their GPU memory sampled (`gpumem`), each contained by the host's `Sandbox`
//! (`runner::local`), reported as `Update`s. A run that ran out of GPU memory while it shared its
//! GPU is no finding: it runs again on a GPU of its own. The local backend and errbook's worker on
//! a remote host (SSH, Slurm) both run their jobs here, so every runner runs a snippet the same
//! way.

use super::gpu::Host;
use super::gpumem::{self, Sampler};
use super::job::{Finished, Job, Ran, Update};
use super::runner::sandbox::Sandbox;
use super::runner::{local, Output};
use super::{schedule, traceback};
use errbook_core::config::MemCap;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// This host as runs see it.
#[derive(Debug)]
pub(crate) struct Here {
    pub host: Host,
    pub sandbox: Sandbox,
    /// Runs at a time.
    pub jobs: usize,
    /// How much of each GPU the runs on it may plan to use together.
    pub cap: MemCap,
}

/// The CPU count, the default number of runs at a time.
pub(crate) fn cpus() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
}

/// Run `jobs` here; `runner` names this host in the records (`local`, `ssh://gpu1`). A job that
/// needs more GPUs than the host has fails with that reason; once `cancel` is set, jobs not yet
/// started end as cancelled and those running are killed.
pub(crate) fn run(
    here: &Here,
    jobs: Vec<Job>,
    runner: &str,
    cancel: &AtomicBool,
    sink: &mut dyn FnMut(Update),
) {
    let have = here.host.gpus.len() as u32;
    let (fit, too_big): (Vec<Job>, Vec<Job>) = jobs.into_iter().partition(|j| j.gpus <= have);
    for j in too_big {
        let why = format!("needs {} GPUs, {runner} has {have}", j.gpus);
        let f = finished(here, &j, runner, &[], None, Ran::Failed(why));
        sink(Update::Finished(Box::new(f)));
    }
    let packed: Vec<schedule::Job> = (fit.iter())
        .map(|j| schedule::Job {
            gpus: j.gpus,
            mem_mib: j.mem_mib,
            expect_s: j.expect_s,
        })
        .collect();
    let gpus: Vec<(u32, u64)> = (here.host.gpus.iter())
        .map(|g| (g.index, here.cap.on(g.memory_mib)))
        .collect();
    let sampler = fit.iter().any(|j| j.gpus > 0).then(Sampler::start);
    let attempts = AtomicUsize::new(0);
    let sink = RefCell::new(sink);
    schedule::run_all(
        &packed,
        &gpus,
        here.jobs,
        |k, gpus| {
            // Each attempt is named in its processes' environments, for the GPU memory sampler.
            let id = format!(
                "{}-{}",
                std::process::id(),
                attempts.fetch_add(1, Ordering::Relaxed)
            );
            (id.clone(), attempt(here, &fit[k], gpus, &id, cancel))
        },
        |k, gpus| {
            (sink.borrow_mut())(Update::Started {
                id: fit[k].id,
                place: runner.to_string(),
                gpus: gpus.to_vec(),
            })
        },
        |k, gpus, shared, (attempt, ran)| {
            if shared && matches!(&ran, Ran::Output(out) if out_of_memory(out)) {
                (sink.borrow_mut())(Update::Again { id: fit[k].id });
                return true;
            }
            let peak = sampler.as_ref().and_then(|s| s.peak(&attempt));
            let f = finished(here, &fit[k], runner, gpus, peak, ran);
            (sink.borrow_mut())(Update::Finished(Box::new(f)));
            false
        },
    );
}

/// One attempt at `job` on `gpus`, named `id`.
fn attempt(here: &Here, job: &Job, gpus: &[u32], id: &str, cancel: &AtomicBool) -> Ran {
    if cancel.load(Ordering::Relaxed) {
        return Ran::Cancelled;
    }
    let _run = tracing::debug_span!("run", job = %job.name, attempt = id, gpus = ?gpus).entered();
    let mut req = job.request.clone();
    req.gpus = gpus.to_vec();
    req.env.push((gpumem::RUN_VAR.to_string(), id.to_string()));
    let ran = match local::run(&req, &here.sandbox, cancel) {
        Ok(out) => Ran::Output(out),
        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Ran::Cancelled,
        Err(e) => Ran::Failed(e.to_string()),
    };
    tracing::debug!("the run ended: {}", ran.brief());
    ran
}

/// Whether the run failed for want of GPU memory.
fn out_of_memory(out: &Output) -> bool {
    let r = traceback::parse(&out.text());
    let all = r.final_error.iter().chain(&r.wrapped).chain(&r.children);
    all.map(|e| format!("{} {}", e.exception, e.message).to_lowercase())
        .any(|t| t.contains("out of memory") || t.contains("outofmemoryerror"))
}

fn finished(
    here: &Here,
    job: &Job,
    runner: &str,
    gpus: &[u32],
    peak_mib: Option<u64>,
    ran: Ran,
) -> Finished {
    Finished {
        id: job.id,
        runner: runner.to_string(),
        gpus: gpus.to_vec(),
        env: here.host.env_for(gpus),
        peak_mib,
        ran,
    }
}
