//! Verify: run the catalog's runnable snippets on a GPU host and record what happened.
//! extract and plan (`plan`: continuation chains as one program, `hash`, skip what is recorded)
//! -> pack onto GPUs (`schedule`, host from `gpu`) -> run (`runner::local`: process group, time
//! limit, capped output) -> read the result (`traceback`, `compare`) -> record (`records`).
//!
//! The build reads records through `records::RecordSet` to show verdicts beside snippets.

pub mod compare;
pub mod gpu;
pub mod plan;
pub mod runner;
pub mod schedule;
pub mod traceback;
