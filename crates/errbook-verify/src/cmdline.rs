//! The commands verify runs (ssh, Slurm's, the sandbox), as the debug output shows them
//! (`errbook --debug verify`, or `RUST_LOG=errbook_verify=debug`): the program and its arguments
//! as a shell would take them, and how each ended. Never the environment: it holds the values
//! of the variables passed to runs.

use std::process::{Command, ExitStatus, Output};
use std::time::Instant;

/// `cmd`'s program and arguments, each quoted for a POSIX shell where it needs to be.
pub(crate) fn line(cmd: &Command) -> String {
    let words = std::iter::once(cmd.get_program()).chain(cmd.get_args());
    let quoted = words.map(|w| {
        let w = w.to_string_lossy();
        // Only a NUL byte cannot be quoted; Debug's escapes show it.
        shlex::try_quote(&w).map_or_else(|_| format!("{w:?}"), |q| q.into_owned())
    });
    quoted.collect::<Vec<_>>().join(" ")
}

/// `cmd.output()`, told before it starts (a command that hangs is the last one shown) and
/// when it ends, with the first line of what it said on stderr when it failed.
pub(crate) fn output(cmd: &mut Command) -> std::io::Result<Output> {
    let started = told(cmd);
    let out = cmd.output();
    let said = out.as_ref().ok().filter(|o| !o.status.success());
    let said = said.map(|o| String::from_utf8_lossy(&o.stderr).into_owned());
    ended(
        cmd,
        started,
        out.as_ref().map(|o| o.status),
        said.as_deref(),
    );
    out
}

/// `cmd.status()`, told as `output` tells it.
pub(crate) fn status(cmd: &mut Command) -> std::io::Result<ExitStatus> {
    let started = told(cmd);
    let status = cmd.status();
    ended(cmd, started, status.as_ref().copied(), None);
    status
}

fn told(cmd: &Command) -> Instant {
    tracing::debug!("running {}", line(cmd));
    Instant::now()
}

fn ended(
    cmd: &Command,
    started: Instant,
    how: Result<ExitStatus, &std::io::Error>,
    said: Option<&str>,
) {
    let program = cmd.get_program().to_string_lossy();
    let ms = started.elapsed().as_millis() as u64;
    match how {
        Ok(status) => {
            let said = said.and_then(|s| s.lines().find(|l| !l.trim().is_empty()));
            let said = said.map(|s| format!(": {}", s.trim())).unwrap_or_default();
            tracing::debug!(ms, "{program} ended, {status}{said}")
        }
        Err(e) => tracing::debug!(ms, "{program} could not run: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_line_is_quoted_as_a_shell_reads_it_and_leaves_the_environment_out() {
        let mut cmd = Command::new("sbatch");
        cmd.args(["--parsable", "--wrap", "exec 'errbook' verify-worker"])
            .env("HF_TOKEN", "secret");
        assert_eq!(
            line(&cmd),
            r#"sbatch --parsable --wrap "exec 'errbook' verify-worker""#
        );
    }
}
