//! Core: what every layer speaks. The typed model, the configuration, diagnostics (made here as
//! data, rendered here as text), the library's error, every URL rule, the rules for IDs, atomic
//! file writes, stage timings and the output file type. Core imports nothing of errbook.

pub(crate) mod config;
pub(crate) mod diag;
pub(crate) mod error;
pub(crate) mod fs;
pub(crate) mod ids;
pub(crate) mod model;
pub(crate) mod output;
pub mod timings;
pub(crate) mod urls;
