//! Core: what every layer speaks. The typed model, the configuration, diagnostics (made here as
//! data, rendered here as text), the library's error, every URL rule, the rules for IDs, atomic
//! file writes and the output file type. Core imports nothing of errbook.

pub mod config;
pub mod diag;
pub mod error;
pub mod fs;
pub mod ids;
pub mod model;
pub mod output;
pub mod urls;

pub use config::{Config, SearchConfig};
pub use diag::{Code, Diagnostic, Diagnostics, Severity};
pub use error::{Error, Result};
pub use model::{
    Article, Catalog, Claim, DeadEnd, Entry, PageKind, PageRef, RunSpec, Snippet, Workaround,
};
