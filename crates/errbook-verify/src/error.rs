//! Verify's own failures (`VerifyError`): a command-line value that does not parse, a sandbox this
//! host cannot make, SSH hosts that cannot take runs, Slurm that cannot be used, a worker's plan
//! that cannot be read. Each becomes core's `Error::Verify`, itself its source.

use super::runner::bwrap::BwrapError;
use errbook_core::error::Error;

#[derive(Debug, thiserror::Error)]
pub(crate) enum VerifyError {
    /// A command-line value that does not parse (`--runner`, `--gpus`).
    #[error("{flag}: {message}")]
    Arg { flag: &'static str, message: String },
    /// This host cannot make the sandbox every run needs.
    #[error(transparent)]
    Sandbox(#[from] BwrapError),
    /// `--keep-env` or `verify.keep_env` names something that is not a variable.
    #[error("--keep-env / verify.keep_env: `{0}` is not a variable name; name each variable a run needs (patterns such as `NCCL_*` would pass variables nobody named)")]
    KeepEnv(String),
    /// The errbook binary to copy to hosts cannot be found.
    #[error("cannot find this errbook: {0}")]
    ThisBinary(#[source] std::io::Error),
    /// `verify.ssh.command` does not split into words.
    #[error("verify.ssh.command: cannot split `{0}`")]
    SshCommand(String),
    /// No SSH host can take runs: each one's reason.
    #[error("no SSH host can take runs: {}", .0.join("; "))]
    NoHost(Vec<String>),
    /// `sbatch` is not here.
    #[error("--runner slurm: `sbatch` is not on PATH; run errbook where Slurm's commands are (a login node)")]
    NoSbatch,
    /// The probe job says a node cannot run snippets (or it could not be asked).
    #[error("--runner slurm: a node cannot run snippets: {0}")]
    Node(String),
    /// A worker's plan that is not one (`what`: where it came from).
    #[error("{what}: {source}")]
    Plan {
        what: String,
        #[source]
        source: serde_json::Error,
    },
    /// A Slurm task's index past its plan's jobs.
    #[error("the plan has no job at {0}")]
    NoJob(usize),
    /// A worker's connection to its session broke (`what`: reading or writing).
    #[error("{what}: {source}")]
    Session {
        what: &'static str,
        #[source]
        source: std::io::Error,
    },
}

impl From<VerifyError> for Error {
    fn from(e: VerifyError) -> Error {
        Error::Verify(Box::new(e))
    }
}
