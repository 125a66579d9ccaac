//! Serve: the contributor's loop (`run`). Analyse the catalog, serve its site on 127.0.0.1
//! (axum and tower-http on hyper and tokio) with each page made when asked, watch the content,
//! theme and configuration (notify), analyse again on change, and reload open pages.
//!
//! `conn` accepts connections and bounds them (how many, how long idle); `http` answers requests
//! (files, 404, the live-reload endpoints); `files` says where a path leads (the snapshot, a
//! folder's redirect, `static/`); `watch` turns file events into rebuilds; `reload` is the shared
//! state the two talk through; `event` is what the loop tells its caller.

mod conn;
mod event;
mod files;
mod http;
mod reload;
mod run;
mod watch;

pub use event::{Event, Sink};
pub use run::{run, Options};
