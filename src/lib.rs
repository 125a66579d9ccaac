//! errbook: a static site generator for error catalogs.
//!
//! The layers, each importing only from those above it in this list (ARCHITECTURE.md):
//! `core` (model, config, diagnostics, errors, URLs, IDs) -> `records` (verification records)
//! -> `load` -> `parse` -> `link` -> `view` -> `render` | `search` -> `write` -> `site` ->
//! `verify` | `serve` | `scaffold`. The binary's `cmd/` parses arguments and prints.
//!
//! The library's face: `site` (build, check, search), `verify`, `serve`,
//! `scaffold`, `search` (the index the site ships and its ranking, which the browser mirrors),
//! and the vocabulary below. Everything else is inside.

mod core;
mod link;
mod load;
mod parse;
mod records;
mod render;
pub mod scaffold;
pub mod search;
pub mod serve;
pub mod site;
pub mod verify;
mod view;
mod write;

pub use crate::core::config::{Config, SearchConfig};
pub use crate::core::diag::{Code, Diagnostic, Diagnostics, Severity};
pub use crate::core::error::{Error, Result};
pub use crate::core::model::{
    Article, Catalog, Claim, DeadEnd, Entry, PageKind, PageRef, RunSpec, Snippet, Workaround,
};
pub use crate::core::timings;
pub use crate::load::{content_paths, SourceFile};
pub use crate::parse::{parse_file, Parsed};
pub use crate::records::{Environment, RaisedError, Record, Verdict};
