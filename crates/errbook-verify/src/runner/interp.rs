//! The interpreter as the sandbox must see it. Home folders are hidden in a sandbox, and Python
//! often lives in one (pyenv, conda, a venv, `pip install --user`): the interpreter command is
//! resolved once, outside, to the executable Python names itself (`sys.executable`, past
//! pyenv's shell-script shims), with the folders it needs (prefixes, the user's site-packages),
//! which the sandbox binds back read-only. Other interpreters are found on `PATH`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// An interpreter command, resolved.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Resolved {
    /// The command to run (the executable, then the arguments the user gave).
    pub argv: Vec<String>,
    /// Folders the run must be able to read, wherever they are.
    pub reveal: Vec<PathBuf>,
}

const PROBE: &str = "import sys, site\nprint(sys.executable)\nfor p in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, site.getusersitepackages()}:\n    print(p)\n";

/// Resolve `argv` (`python3 -X dev`, `bash`); `None` when it cannot be started at all (the run
/// then fails the way it would have, with the interpreter's own error).
pub(crate) fn resolve(argv: &[String], path: Option<&std::ffi::OsStr>) -> Option<Resolved> {
    let (exe, args) = argv.split_first()?;
    let found = which(exe, path)?;
    let mut reveal = vec![found.parent()?.to_path_buf()];
    if let Ok(real) = found.canonicalize() {
        reveal.extend(real.parent().map(Path::to_path_buf));
    }
    let mut resolved = Resolved {
        argv: std::iter::once(found.to_string_lossy().into_owned())
            .chain(args.iter().cloned())
            .collect(),
        reveal,
    };
    let is_python = Path::new(exe)
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("python"));
    if is_python {
        if let Some(lines) = probe(&found, args) {
            let mut lines = lines.into_iter();
            if let Some(executable) = lines.next().filter(|e| !e.is_empty()) {
                resolved.argv[0] = executable.clone();
                resolved
                    .reveal
                    .extend(Path::new(&executable).parent().map(Path::to_path_buf));
                if let Ok(real) = Path::new(&executable).canonicalize() {
                    resolved.reveal.extend(real.parent().map(Path::to_path_buf));
                }
            }
            resolved.reveal.extend(lines.map(PathBuf::from));
        }
    }
    resolved.reveal.sort();
    resolved.reveal.dedup();
    Some(resolved)
}

fn probe(exe: &Path, args: &[String]) -> Option<Vec<String>> {
    let o = Command::new(exe)
        .args(args)
        .args(["-c", PROBE])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    o.status.success().then(|| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty())
            .collect()
    })
}

/// `name` as `execvp` would find it on `path`.
pub(crate) fn which(name: &str, path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if name.contains('/') {
        let p = PathBuf::from(name);
        return executable(&p).then(|| std::path::absolute(&p).unwrap_or(p));
    }
    std::env::split_paths(path?)
        .map(|d| d.join(name))
        .find(|p| p.is_absolute() && executable(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_python_is_resolved_to_its_executable_and_prefixes() {
        let path = std::env::var_os("PATH");
        let r = resolve(
            &["python3".into(), "-X".into(), "dev".into()],
            path.as_deref(),
        )
        .expect("python3 on PATH");
        assert!(Path::new(&r.argv[0]).is_absolute(), "{r:?}");
        assert_eq!(&r.argv[1..], ["-X", "dev"]);
        let exe_dir = Path::new(&r.argv[0]).parent().unwrap();
        assert!(r.reveal.iter().any(|p| p == exe_dir), "{r:?}");
        assert!(resolve(&["no-such-interpreter".into()], path.as_deref()).is_none());
        assert!(which("sh", path.as_deref()).is_some());
    }
}
