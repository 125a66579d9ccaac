//! Verify: run the catalog's runnable snippets, each in a sandbox, here, on SSH hosts or on a
//! Slurm cluster, and record what happened. `session` drives it: take care of the records
//! (`upkeep`: prune, reread) -> the backend where runs
//! happen (`backends`: `Local`, `ssh`, `slurm`, behind `job::Backend`) -> extract and plan
//! (`plan`: continuation chains as one program, `hash`; skip what cannot run, leave what is
//! recorded for the environment) -> run (`drive` hands the jobs over, each with its GPU memory
//! estimated by `estimate`; on each host `execute` packs them onto its GPUs with `schedule`,
//! measures what they hold (`gpumem`) and runs each through `runner::local`, contained by
//! `runner::sandbox`) -> read the result (`traceback`;
//! judged by `records::judge`) -> record (`record`, written by `records::store`) -> `report`. Remote hosts run `worker` (`errbook verify-worker`), which
//! speaks `wire`. `options` says what to do, `progress` tells the caller what happens, `summary`
//! what it did; nothing here prints, but the debug output (`tracing`, which the binary prints
//! under `--debug`) is told each command run (`cmdline`) and each run's end.
//!
//! The build reads records through `records::RecordSet` to show verdicts beside snippets.

mod backends;
mod cmdline;
mod drive;
mod error;
mod estimate;
mod execute;
mod gpu;
mod gpumem;
mod job;
mod options;
mod plan;
mod progress;
mod record;
mod report;
mod runner;
mod schedule;
mod session;
mod slurm;
mod ssh;
mod summary;
mod traceback;
mod upkeep;
mod wire;
pub mod worker;

pub use options::{
    GpuSelection, Options, Runner, SandboxChoice, SlurmChoice, SshHost, DEFAULT_LOG_BYTES,
};
pub use plan::{Action, Plan, Unit, UP_TO_DATE};
pub use progress::{Event, Progress};
pub use session::run;
pub use summary::{Done, Exit, Summary, CANCELLED, SKIPPED};
