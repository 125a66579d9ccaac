//! One module per command; each exposes `run(...) -> Result<ExitCode>`.

pub(crate) mod build;
pub(crate) mod check;
pub(crate) mod new;
pub(crate) mod search;
pub(crate) mod serve;
pub(crate) mod verify;
