//! errbook: a static site generator for error catalogs.
//!
//! The layers, each importing only from those above it in this list (ARCHITECTURE.md):
//! `core` (model, config, diagnostics, errors, URLs, IDs) -> `records` (verification records)
//! -> `load` -> `parse` -> `link` -> `view` -> `render` | `search` -> `write` -> `site` ->
//! `verify` | `serve` | `scaffold`. The binary's `cmd/` parses arguments and prints.

pub mod core;
pub mod link;
pub mod load;
pub mod parse;
pub mod records;
pub mod render;
pub mod scaffold;
pub mod search;
pub mod serve;
pub mod site;
pub mod verify;
pub mod view;
pub mod write;

pub use crate::core::config::Config;
pub use crate::core::error::{Error, Result};
