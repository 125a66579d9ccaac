//! One SSH host, through the system's OpenSSH client: the command line (the user's own ssh
//! configuration decides host keys, users, proxies; errbook adds only batch mode and keep-alives,
//! so that a password prompt never hangs a session and a dropped host is noticed within a
//! minute), errbook's binary copied over once per build, and the worker started there.

use super::super::cmdline;
use super::super::options::SshHost;
use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// How to reach one host.
#[derive(Debug, Clone)]
pub(super) struct Conn {
    /// The ssh command and its own arguments (`verify.ssh.command`).
    pub ssh: Vec<String>,
    pub target: SshHost,
}

/// What a failed ssh command said, for messages.
fn said(o: &std::process::Output) -> String {
    let e = String::from_utf8_lossy(&o.stderr);
    let e = e.trim();
    match o.status.code() {
        Some(255) if !e.is_empty() => e.to_string(),
        Some(c) if !e.is_empty() => format!("exit {c}: {e}"),
        Some(c) => format!("exit {c}"),
        None => "killed".to_string(),
    }
}

/// `word` quoted for a POSIX shell.
pub(super) fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

impl Conn {
    /// `ssh ... -- host 'sh -c <script>'`: the script runs under sh whatever the login shell is.
    pub(super) fn command(&self, script: &str) -> Command {
        let (exe, own) = self
            .ssh
            .split_first()
            .map_or(("ssh", &[][..]), |(e, a)| (e.as_str(), a));
        let mut cmd = Command::new(exe);
        cmd.args(own).args(["-T", "-o", "BatchMode=yes"]).args([
            "-o",
            "ServerAliveInterval=15",
            "-o",
            "ServerAliveCountMax=4",
        ]);
        if let Some(p) = self.target.port {
            cmd.args(["-p", &p.to_string()]);
        }
        cmd.arg("--")
            .arg(self.target.destination())
            .arg(format!("sh -c {}", quote(script)));
        cmd
    }

    /// Copy `binary` to `<dir>/<key>/errbook` on the host unless it is there; its path there.
    pub(super) fn install(&self, binary: &Path, key: &str, dir: &str) -> Result<String, String> {
        let folder = format!("{}/{key}", dir.trim_end_matches('/'));
        let exe = format!("{folder}/errbook");
        let check = cmdline::output(
            self.command(&format!("test -x {}", quote(&exe)))
                .stdin(Stdio::null()),
        )
        .map_err(|e| format!("cannot run ssh: {e}"))?;
        match check.status.code() {
            Some(0) => return Ok(exe),
            Some(1) => {}
            _ => return Err(format!("cannot reach it: {}", said(&check))),
        }
        // A part file of this shell's own ($$), renamed when whole: a reader never runs half.
        let part = format!("{}.part.$$", quote(&exe));
        let script = format!(
            "set -e; mkdir -p {f}; cat > {part}; chmod 755 {part}; mv -f {part} {e}",
            f = quote(&folder),
            e = quote(&exe)
        );
        let file = std::fs::File::open(binary)
            .map_err(|e| format!("cannot read {}: {e}", binary.display()))?;
        let copy = cmdline::output(self.command(&script).stdin(file))
            .map_err(|e| format!("cannot run ssh: {e}"))?;
        match copy.status.success() {
            true => Ok(exe),
            false => Err(format!("copying errbook there failed: {}", said(&copy))),
        }
    }

    /// The worker at `exe`, fed `plan` (one line) on stdin, which stays open: closing it ends
    /// the worker's runs.
    pub(super) fn worker(&self, exe: &str, plan: &str) -> std::io::Result<Child> {
        let mut cmd = self.command(&format!("exec {} verify-worker", quote(exe)));
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        tracing::debug!("running {}", cmdline::line(&cmd));
        let mut child = cmd.spawn()?;
        if let Some(stdin) = child.stdin.as_mut() {
            stdin.write_all(plan.as_bytes())?;
            stdin.write_all(b"\n")?;
            stdin.flush()?;
        }
        Ok(child)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_adds_only_batch_mode_and_keepalives() {
        let conn = Conn {
            ssh: vec!["ssh".into(), "-F".into(), "cfg".into()],
            target: "ssh://me@gpu1:2222".parse().unwrap(),
        };
        let cmd = conn.command("echo 'hi'");
        let args: Vec<String> = cmd
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            args.join(" "),
            "-F cfg -T -o BatchMode=yes -o ServerAliveInterval=15 -o ServerAliveCountMax=4 -p 2222 -- me@gpu1 sh -c 'echo '\\''hi'\\'''"
        );
        assert_eq!(quote("a b"), "'a b'");
    }
}
