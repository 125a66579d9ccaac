//! Run jobs on this host: packed onto its GPUs (`schedule`), each contained by the host's
//! `Sandbox` (`runner::local`), reported as `Update`s. The local backend and errbook's worker on
//! a remote host (SSH, Slurm) both run their jobs here, so every runner runs a snippet the same
//! way.

use super::gpu::Host;
use super::job::{Finished, Job, Ran, Update};
use super::runner::local;
use super::runner::sandbox::Sandbox;
use super::schedule;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};

/// This host as runs see it.
#[derive(Debug)]
pub(crate) struct Here {
    pub host: Host,
    pub sandbox: Sandbox,
    /// Runs at a time.
    pub jobs: usize,
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
        sink(Update::Finished(Box::new(finished(
            here,
            &j,
            runner,
            &[],
            Ran::Failed(why),
        ))));
    }
    let needs: Vec<u32> = fit.iter().map(|j| j.gpus).collect();
    let sink = RefCell::new(sink);
    schedule::run_all(
        &needs,
        &here.host.gpu_ids(),
        here.jobs,
        |k, gpus| {
            if cancel.load(Ordering::Relaxed) {
                return Ran::Cancelled;
            }
            let mut req = fit[k].request.clone();
            req.gpus = gpus.to_vec();
            match local::run(&req, &here.sandbox, cancel) {
                Ok(out) => Ran::Output(out),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Ran::Cancelled,
                Err(e) => Ran::Failed(format!("could not start the run: {e}")),
            }
        },
        |k, gpus| {
            (sink.borrow_mut())(Update::Started {
                id: fit[k].id,
                place: runner.to_string(),
                gpus: gpus.to_vec(),
            })
        },
        |k, gpus, ran| {
            let f = finished(here, &fit[k], runner, gpus, ran);
            (sink.borrow_mut())(Update::Finished(Box::new(f)))
        },
    );
}

fn finished(here: &Here, job: &Job, runner: &str, gpus: &[u32], ran: Ran) -> Finished {
    Finished {
        id: job.id,
        runner: runner.to_string(),
        gpus: gpus.to_vec(),
        env: here.host.env_for(gpus),
        ran,
    }
}
