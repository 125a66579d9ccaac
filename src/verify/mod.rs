//! Verify: run the catalog's runnable snippets on a GPU host and record what happened.
//! `session` drives it: extract and plan (`plan`: continuation chains as one program, `hash`,
//! skip what is recorded) -> pack onto GPUs (`schedule`, host from `gpu`) -> run
//! (`runner::local`: process group, time limit, capped output) -> read the result
//! (`traceback`, `compare`) -> record (`record`, written by `records::store`) -> `report`.
//! `options` says what to do, `progress` tells the caller what happens, `summary` what it did;
//! nothing here prints.
//!
//! The build reads records through `records::RecordSet` to show verdicts beside snippets.

pub mod compare;
pub mod gpu;
pub mod options;
pub mod plan;
pub mod progress;
pub(crate) mod record;
pub(crate) mod report;
pub mod runner;
pub mod schedule;
pub mod session;
pub mod summary;
pub mod traceback;

pub use options::{GpuSelection, Options, Runner, DEFAULT_LOG_BYTES};
pub use plan::{Action, Plan, Unit};
pub use progress::{Event, Progress};
pub use session::run;
pub use summary::{Done, Exit, Summary};
