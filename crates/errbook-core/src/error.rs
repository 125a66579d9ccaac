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
    #[error("{path}: invalid configuration: {message}")]
    Config { path: PathBuf, message: String },
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
    #[error("{0}")]
    Other(String),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

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
