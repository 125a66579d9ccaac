//! Verify: run the catalog's runnable snippets on a GPU host and record what happened.
//! `session` drives it: take care of the records (`upkeep`: errbook 0.1's moved to their names,
//! prune, reread) -> extract and plan (`plan`: continuation chains as one program, `hash`; skip
//! what this host cannot run, leave what is recorded for this environment) -> run (`execute`:
//! estimate each run's GPU memory (`estimate`), pack runs onto GPUs (`schedule`, host from
//! `gpu`), measure what they hold (`gpumem`), `runner::local`: process group, time limit, capped
//! output) -> read the result (`traceback`, `compare`) -> record (`record`, written by
//! `records::store`) -> `report`. `options` says what to do, `progress` tells the caller what
//! happens, `summary` what it did; nothing here prints.
//!
//! The build reads records through `records::RecordSet` to show verdicts beside snippets.

mod compare;
mod estimate;
mod execute;
mod gpu;
mod gpumem;
mod options;
mod plan;
mod progress;
mod record;
mod report;
mod runner;
mod schedule;
mod session;
mod summary;
mod traceback;
mod upkeep;

pub use estimate::MemCap;
pub use options::{GpuSelection, Options, Runner, DEFAULT_LOG_BYTES};
pub use plan::{Action, Plan, Unit, UP_TO_DATE};
pub use progress::{Event, Progress};
pub use session::run;
pub use summary::{Done, Exit, Summary, SKIPPED};
