//! errbook: a static site generator for error catalogs.
//!
//! The pipeline, one module per stage:
//! `load` (walk and read content) -> `parse` (front matter, entry structure, snippets) ->
//! `link` (explicit references checked, the rest inferred) -> `render` (Tera, pulldown-cmark,
//! syntect, in parallel) -> `index` (search) -> `write` (atomically). `site` runs them in order.
//! `verify` is a separate path: extract snippets -> plan -> run -> record.

pub mod config;
pub mod diag;
pub mod error;
pub mod load;
pub mod model;
pub mod parse;
pub mod rebuild;
pub mod render;
pub mod write;

pub use error::{Error, Result};
pub mod cmd;
pub mod index;
pub mod link;
pub mod serve;
pub mod site;
pub mod synth;
pub mod timings;
pub mod urls;
pub mod verify;
