//! One module per command; each exposes `run(...) -> Result<ExitCode>`.

pub mod build;
pub mod check;
pub mod new;
pub mod search;
pub mod serve;
pub mod verify;
