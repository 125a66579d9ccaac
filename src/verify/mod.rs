//! Verify: run the catalog's runnable snippets on a GPU host and record what happened.
//! extract (snippets and their continuation chains) -> plan (hash, skip recorded, pack onto GPUs)
//! -> run (local runner: process group, time limit, capped output) -> record (one file per hash).
//!
//! The build reads records through `records::RecordSet` to show verdicts beside snippets.

pub mod records;
