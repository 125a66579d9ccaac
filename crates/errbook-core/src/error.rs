//! The library's error type: failures that are not about the content itself (content problems are
//! `diag::Diagnostic`s). Every fallible library function returns `crate::error::Result`.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// book.toml does not parse, names an unknown key or gives a key a value it does not take:
    /// `diag` locates it (line, column, the line shown, a did-you-mean).
    #[error("{}:{}:{}: invalid configuration: {message}", path.display(), diag.line, diag.col)]
    Config {
        path: PathBuf,
        message: String,
        diag: Box<crate::diag::Diagnostic>,
    },
    #[error("{path}: cannot build into this folder: {why}")]
    OutputDir { path: PathBuf, why: String },
    #[error("template error: {0}")]
    Template(String),
    #[error("the content has {errors} error(s); nothing was written")]
    Content {
        errors: usize,
        /// Every diagnostic of the failed run, for the caller to print.
        diags: crate::diag::Diagnostics,
    },
    /// No `book.toml` where a command needs the site's root.
    #[error("not an errbook catalog: no book.toml in {}", root.display())]
    NoSite { root: PathBuf },
    /// A file `errbook <command>` would write is already there; it writes no file over another.
    #[error("{} already exists; errbook {command} writes no file over another", path.display())]
    Exists {
        path: PathBuf,
        command: &'static str,
    },
    /// Data that could not be written as JSON or XML (`what`: the form, or the file).
    #[error("{what}: {source}")]
    Encode {
        what: String,
        #[source]
        source: BoxError,
    },
    /// What errbook needs of the system and could not have: a thread pool, the HTTP server's
    /// runtime or socket, a file watcher, the terminal's input.
    #[error("{what}: {source}")]
    System {
        what: String,
        #[source]
        source: BoxError,
    },
    /// A verification session that could not run: errbook-verify's own failure (the sandbox, a
    /// remote host, Slurm, a worker's plan, a command-line value).
    #[error("{0}")]
    Verify(#[source] BoxError),
    /// A failure met once and given again to each caller that needs the same result (the files
    /// made once for a whole snapshot, the code's stylesheet).
    #[error(transparent)]
    Shared(std::sync::Arc<Error>),
    /// errbook broke a rule of its own (a page asked for that it does not have, a thread that
    /// panicked): a bug, to be reported.
    #[error("{0}")]
    Bug(String),
}

/// The source of a failure from a library core does not depend on (serde_json, tokio, notify,
/// rayon...).
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// `Error::NoSite` for `root`, shown as an absolute path (`.` says nothing).
    pub fn no_site(root: &std::path::Path) -> Error {
        Error::NoSite {
            root: std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf()),
        }
    }

    /// `Error::System`: `what` could not be had, because of `source`.
    pub fn system(what: impl Into<String>, source: impl Into<BoxError>) -> Error {
        Error::System {
            what: what.into(),
            source: source.into(),
        }
    }

    /// `Error::Encode`: `what` (a form, a file) could not be written, because of `source`.
    pub fn encode(what: impl Into<String>, source: impl Into<BoxError>) -> Error {
        Error::Encode {
            what: what.into(),
            source: source.into(),
        }
    }
}

/// Attach a path to an `io::Error`.
pub trait IoContext<T> {
    fn at(self, path: impl Into<PathBuf>) -> Result<T>;
}

impl<T> IoContext<T> for std::io::Result<T> {
    fn at(self, path: impl Into<PathBuf>) -> Result<T> {
        self.map_err(|source| Error::Io {
            path: path.into(),
            source,
        })
    }
}
