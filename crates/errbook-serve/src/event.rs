//! What the serve loop tells its caller (`Event`), and where it goes (`Sink`): the loop and the
//! HTTP server's thread both report through it; only the binary prints.

use errbook_core::diag::Diagnostics;
use errbook_core::error::Error;
use std::path::PathBuf;
use std::sync::Arc;

/// What the serve loop tells its caller.
#[derive(Debug)]
pub enum Event {
    /// The server listens at `url`.
    Listening { url: String },
    /// The catalog was read and analysed: its site has `pages` pages, each made when asked;
    /// the analysis's warnings.
    Built {
        pages: usize,
        millis: u128,
        diags: Diagnostics,
    },
    /// A build failed on the content: the previous site stays served.
    ContentFailed { errors: usize, diags: Diagnostics },
    /// A build failed for another reason.
    Failed(Error),
    /// These files changed; a build follows.
    Changed(Vec<PathBuf>),
    /// The file watcher reported a problem.
    WatchError(String),
    /// The HTTP server stopped.
    HttpStopped(String),
}

/// Where events go; called from the serve loop and from the HTTP server's thread.
pub type Sink = Arc<dyn Fn(Event) + Send + Sync>;
