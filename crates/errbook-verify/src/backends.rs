//! The backend a session runs on, from its options: this machine (`Local`, defined here: the
//! host detected, its sandbox made and checked), SSH hosts (`ssh`) or a Slurm cluster (`slurm`).
//! Each is prepared before the plan, so that a missing bubblewrap or an unreachable host stops
//! the session before anything is written.

use super::error::VerifyError;
use super::execute::{self, Here};
use super::gpu::{self, Host};
use super::job::{Backend, Job, Update};
use super::options::{Options, Runner};
use super::progress::{Event, Progress};
use super::runner::sandbox::{check_names, Sandbox, SandboxSpec};
use super::wire::WorkPlan;
use super::{slurm, ssh};
use errbook_core::config::{Config, MemCap};
use errbook_core::error::Result;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// The backend `opts` ask for. A dry run makes no sandbox (nothing runs).
pub(crate) fn prepare(
    root: &Path,
    cfg: &Config,
    opts: &Options,
    cap: MemCap,
    progress: &mut dyn Progress,
) -> Result<Box<dyn Backend>> {
    let python = shlex::split(&cfg.verify.python).unwrap_or_else(|| vec!["python3".into()]);
    check_names(&opts.kept_names(&cfg.verify))?;
    let template = WorkPlan {
        sandbox: opts.sandbox.spec(&cfg.verify),
        gpus: opts.gpus.clone(),
        cap,
        python,
        jobs: opts.jobs,
        items: Vec::new(),
    };
    Ok(match &opts.runner {
        Runner::Local => Box::new(Local::prepare(&template, opts.dry_run)?),
        Runner::Ssh(hosts) => Box::new(ssh::Ssh::prepare(hosts, &cfg.verify.ssh, template)?),
        Runner::Slurm => {
            let mut said = |note: &str| progress.event(Event::Note(note));
            Box::new(slurm::Slurm::prepare(
                root,
                (cfg, opts),
                template,
                &mut said,
            )?)
        }
    })
}

/// This machine.
#[derive(Debug)]
pub(crate) struct Local {
    host: Host,
    jobs: usize,
    /// `None` in a dry run.
    here: Option<Here>,
    warnings: Vec<String>,
}

impl Local {
    fn prepare(plan: &WorkPlan, dry_run: bool) -> Result<Local> {
        let host = gpu::detect(&plan.python, plan.gpus.only());
        let jobs = plan.jobs.unwrap_or_else(execute::cpus);
        let sandbox = match dry_run {
            true => None,
            false => Some(prepare_sandbox(&plan.sandbox)?),
        };
        let warnings = sandbox.as_ref().map(Sandbox::warnings).unwrap_or_default();
        let here = sandbox.map(|sandbox| Here {
            host: host.clone(),
            sandbox,
            jobs,
            cap: plan.cap,
        });
        Ok(Local {
            host,
            jobs,
            here,
            warnings,
        })
    }
}

fn prepare_sandbox(spec: &SandboxSpec) -> Result<Sandbox> {
    Sandbox::prepare(spec).map_err(|e| VerifyError::Sandbox(e).into())
}

impl Backend for Local {
    fn host(&self) -> &Host {
        &self.host
    }
    fn here(&self) -> bool {
        true
    }
    fn jobs(&self) -> usize {
        self.jobs
    }
    fn describe(&self) -> String {
        "local".to_string()
    }
    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }
    fn run(&mut self, jobs: Vec<Job>, cancel: &AtomicBool, sink: &mut dyn FnMut(Update)) {
        if let Some(here) = &self.here {
            execute::run(here, jobs, "local", cancel, sink);
        }
    }
}
