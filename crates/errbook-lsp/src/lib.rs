//! The language server (`errbook lsp`): the catalog's diagnostics as the contributor types,
//! completion, hover, navigation, renames and code actions, spoken over the Language Server
//! Protocol (lsp-server with lsp-types). Every answer comes from the one pipeline
//! (`errbook_site::Workspace`, fed the editor's unsaved texts); nothing here reads content
//! another way, and nothing is written but through the workspace edits the editor applies.

mod actions;
mod complete;
mod convert;
mod diagnose;
mod docs;
mod hover;
mod navigate;
mod refs;
mod server;
mod state;
mod symbols;
mod worker;

pub use server::{run, run_stdio};
