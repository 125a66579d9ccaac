//! `errbook verify-worker`, the errbook that runs jobs on a remote host: it reads a `WorkPlan`,
//! makes this host's sandbox (failing closed, as locally), detects the host, runs the jobs with
//! `execute` and writes `Message`s. Over SSH (`stream`) the plan comes on stdin and messages go
//! to stdout as they happen, each job's end the moment it is known, so a connection that drops
//! loses no finished run; when stdin closes (the session ended or was cancelled) every run is
//! killed. Under Slurm (`item`) one array task runs one job of a plan file and writes its end
//! to a file of its own, atomically; before that, one job (`probe`) says what a node has.

use super::error::VerifyError;
use super::execute::{self, Here};
use super::gpu;
use super::job::Update;
use super::options::GpuSelection;
use super::runner::bwrap::BwrapError;
use super::runner::sandbox::Sandbox;
use super::wire::{Message, WorkPlan};
use errbook_core::error::{IoContext, Result};
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Make this host ready for `plan`: its sandbox and its `Host` message.
fn prepare(plan: &WorkPlan) -> std::result::Result<(Here, Message), BwrapError> {
    let sandbox = Sandbox::prepare(&plan.sandbox)?;
    let host = gpu::detect(&plan.python, plan.gpus.only());
    let jobs = plan.jobs.unwrap_or_else(execute::cpus);
    let hello = Message::Host {
        host: host.clone(),
        jobs,
        sandbox: sandbox.describe(false),
        warnings: sandbox.warnings(),
    };
    Ok((
        Here {
            host,
            sandbox,
            jobs,
            cap: plan.cap,
        },
        hello,
    ))
}

/// The message of an update, if it is one a worker sends.
fn message(u: Update) -> Option<Message> {
    match u {
        Update::Started { id, gpus, .. } => Some(Message::Started { id, gpus }),
        Update::Finished(f) => Some(Message::Finished {
            id: f.id,
            gpus: f.gpus,
            env: f.env,
            peak_mib: f.peak_mib,
            ran: f.ran,
        }),
        Update::Again { id } => Some(Message::Again { id }),
        _ => None,
    }
}

/// The SSH worker: the plan on `input`'s first line, messages to `output`.
pub fn stream(input: impl BufRead + Send + 'static, output: &mut dyn Write) -> Result<()> {
    let mut input = input;
    let mut first = String::new();
    input
        .read_line(&mut first)
        .map_err(|source| VerifyError::Session {
            what: "reading the plan",
            source,
        })?;
    let plan: WorkPlan = serde_json::from_str(&first).map_err(|source| VerifyError::Plan {
        what: "not a work plan (is this errbook the same version?)".into(),
        source,
    })?;
    let (here, hello) = match prepare(&plan) {
        Ok(p) => p,
        Err(e) => {
            let fatal = Message::Fatal {
                message: e.to_string(),
            };
            let _ = output.write_all(fatal.line().as_bytes());
            return Err(VerifyError::Sandbox(e).into());
        }
    };
    let send = |output: &mut dyn Write, m: &Message| {
        output
            .write_all(m.line().as_bytes())
            .and_then(|_| output.flush())
    };
    send(output, &hello).map_err(|source| VerifyError::Session {
        what: "writing to the session",
        source,
    })?;
    if plan.items.is_empty() {
        return Ok(());
    }
    // The session closes our stdin when it ends or is cancelled: then nothing may go on.
    let cancel = Arc::new(AtomicBool::new(false));
    let watch = cancel.clone();
    std::thread::spawn(move || {
        let mut rest = Vec::new();
        let _ = std::io::Read::read_to_end(&mut input, &mut rest);
        watch.store(true, Ordering::Relaxed);
    });
    let name = here.host.env.host.clone();
    execute::run(&here, plan.items, &name, &cancel, &mut |u| {
        if let Some(m) = message(u) {
            if send(output, &m).is_err() {
                cancel.store(true, Ordering::Relaxed);
            }
        }
    });
    Ok(())
}

/// The Slurm worker: the job at position `item` of the plan file `plan` (the array task's
/// index), its messages written to `<out>/<item>.json` when it ends. The GPUs are those Slurm
/// gave the task.
pub fn item(plan: &Path, item: usize, out: &Path) -> Result<()> {
    let text = std::fs::read_to_string(plan).at(plan)?;
    let mut plan = read_plan(plan, &text)?;
    let Some(job) = plan.items.get(item).cloned() else {
        return Err(VerifyError::NoJob(item).into());
    };
    plan.gpus = slurm_gpus(
        job.gpus,
        std::env::var("CUDA_VISIBLE_DEVICES").ok().as_deref(),
    );
    let target = out.join(format!("{item}.json"));
    let (here, hello) = match prepare(&plan) {
        Ok(p) => p,
        Err(e) => {
            let fatal = Message::Fatal {
                message: e.to_string(),
            };
            errbook_core::fs::write_atomic(&target, fatal.line().as_bytes())?;
            return Err(VerifyError::Sandbox(e).into());
        }
    };
    let mut lines = hello.line();
    let cancel = AtomicBool::new(false);
    let name = here.host.env.host.clone();
    execute::run(&here, vec![job], &name, &cancel, &mut |u| {
        if let Some(m @ Message::Finished { .. }) = message(u) {
            lines.push_str(&m.line());
        }
    });
    errbook_core::fs::write_atomic(&target, lines.as_bytes())
}

/// The Slurm probe: this node's `Host` message (its sandbox made, its GPUs those Slurm gave the
/// job), or why it cannot run anything, written to the file `out`.
pub fn probe(plan: &Path, out: &Path) -> Result<()> {
    let text = std::fs::read_to_string(plan).at(plan)?;
    let mut plan = read_plan(plan, &text)?;
    let visible = std::env::var("CUDA_VISIBLE_DEVICES").ok();
    plan.gpus = slurm_gpus(u32::from(visible.is_some()), visible.as_deref());
    let said = match prepare(&plan) {
        Ok((_, hello)) => hello,
        Err(e) => Message::Fatal {
            message: e.to_string(),
        },
    };
    errbook_core::fs::write_atomic(out, said.line().as_bytes())
}

/// The plan file `path`, whose text is `text`.
fn read_plan(path: &Path, text: &str) -> Result<WorkPlan> {
    serde_json::from_str(text).map_err(|source| {
        VerifyError::Plan {
            what: format!("{}: not a work plan", path.display()),
            source,
        }
        .into()
    })
}

/// The GPUs a Slurm task may use: none when it asked for none, else those Slurm made visible.
fn slurm_gpus(needs: u32, visible: Option<&str>) -> GpuSelection {
    if needs == 0 {
        return GpuSelection::None;
    }
    match visible.map(|v| v.parse::<GpuSelection>()) {
        Some(Ok(sel)) => sel,
        _ => GpuSelection::All,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slurm_task_uses_the_gpus_slurm_gave_it() {
        assert_eq!(slurm_gpus(0, Some("0,1")), GpuSelection::None);
        assert_eq!(slurm_gpus(2, Some("2,3")), GpuSelection::List(vec![2, 3]));
        assert_eq!(slurm_gpus(1, Some("GPU-3b1e")), GpuSelection::All);
        assert_eq!(slurm_gpus(1, None), GpuSelection::All);
    }
}
