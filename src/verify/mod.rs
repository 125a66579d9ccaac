//! Verify: run the catalog's runnable snippets on a GPU host and record what happened.
//! `session` drives it: extract and plan (`plan`: continuation chains as one program, `hash`,
//! skip what is recorded) -> pack onto GPUs (`schedule`, host from `gpu`) -> run
//! (`runner::local`: process group, time limit, capped output) -> read the result
//! (`traceback`, `compare`) -> record (`record`, written by `records::store`) -> `report`.
//! `options` says what to do, `progress` tells the caller what happens, `summary` what it did;
//! nothing here prints.
//!
//! The build reads records through `records::RecordSet` to show verdicts beside snippets.

mod backends;
mod compare;
mod drive;
mod execute;
mod gpu;
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
mod wire;
pub mod worker;

pub use options::{
    GpuSelection, Options, Runner, SandboxChoice, SlurmChoice, SshHost, DEFAULT_LOG_BYTES,
};
pub use plan::{Action, Plan, Unit, UP_TO_DATE};
pub use progress::{Event, Progress};
pub use runner::sandbox::{SandboxKind, DEFAULT_TASKS};
pub use session::run;
pub use summary::{Done, Exit, Summary};
