//! bubblewrap: finding the binary, checking once per session that it can make a sandbox here
//! (and saying why not: user namespaces off is a clear refusal, never a silent unsandboxed run),
//! and the command line of one sandboxed run.
//!
//! The sandbox: every namespace unshared (network too, unless the snippet declares `network`),
//! all capabilities dropped (as root, a sandbox keeping them could remount the root writable),
//! a new session (no terminal to inject keystrokes into), the root read-only, a fresh /dev with
//! the NVIDIA devices bound in and /dev/shm on tmpfs, a new /proc (its PID namespace dies with
//! the run), /sys visible read-only, /tmp and the home folders on tmpfs, /run (sockets such as
//! Docker's) hidden, the work folder on tmpfs holding the program read-only.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where a run's files are and what it may see, for `args`.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    pub network: bool,
    /// Folders replaced by an empty tmpfs (home folders, /run), /tmp apart.
    pub hidden: Vec<PathBuf>,
    /// The run's HOME, made as an empty folder when a hidden one holds it.
    pub home: Option<PathBuf>,
    /// Device nodes bound in (`/dev/nvidia0`, `/dev/nvidiactl`, `/dev/nvidia-caps`...).
    pub devices: Vec<PathBuf>,
    /// Folders bound back read-only over the hidden ones (the interpreter's).
    pub reveal: Vec<PathBuf>,
    /// The work folder as the run sees it (on the /tmp tmpfs).
    pub work: PathBuf,
    /// The program on the host, and its name in the work folder.
    pub program: PathBuf,
    pub file_name: String,
    /// Where bwrap reports the run's start and end (`--json-status-fd`), so that a sandbox that
    /// could not start is told apart from a program that failed.
    pub status_fd: Option<i32>,
}

/// The flags that make the sandbox, for a run and for the session's check alike.
fn base(network: bool) -> Vec<OsString> {
    let mut a: Vec<OsString> = vec!["--unshare-all".into()];
    if network {
        a.push("--share-net".into());
    }
    for f in [
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--tmpfs",
        "/dev/shm",
        "--proc",
        "/proc",
        "--tmpfs",
        "/tmp",
    ] {
        a.push(f.into());
    }
    a
}

/// bwrap's arguments for the run `argv` (the program's file name is appended).
pub(crate) fn args(l: &Layout, argv: &[String]) -> Vec<OsString> {
    let mut a = base(l.network);
    let mut push = |words: &[&std::ffi::OsStr]| a.extend(words.iter().map(|w| w.to_os_string()));
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    for d in &l.devices {
        push(&[os("--dev-bind"), d.as_os_str(), d.as_os_str()]);
    }
    for h in &l.hidden {
        push(&[os("--tmpfs"), h.as_os_str()]);
    }
    for r in &l.reveal {
        push(&[os("--ro-bind-try"), r.as_os_str(), r.as_os_str()]);
    }
    let file = l.work.join(&l.file_name);
    push(&[os("--ro-bind"), l.program.as_os_str(), file.as_os_str()]);
    if let Some(home) = &l.home {
        push(&[os("--dir"), home.as_os_str()]);
    }
    let fd = l.status_fd.map(|fd| fd.to_string());
    if let Some(fd) = &fd {
        push(&[os("--json-status-fd"), std::ffi::OsStr::new(fd)]);
    }
    push(&[os("--chdir"), l.work.as_os_str(), os("--")]);
    a.extend(argv.iter().map(OsString::from));
    a.push(l.file_name.clone().into());
    a
}

/// Why no sandbox can be made here.
#[derive(Debug, thiserror::Error)]
pub(crate) enum BwrapError {
    #[error("bubblewrap (`bwrap`) is not installed, and every run is sandboxed with it. Install it: `apt-get install bubblewrap` (Debian, Ubuntu), `dnf install bubblewrap` (Fedora, RHEL); or point `verify.bwrap` (`--bwrap PATH`) at a copy; or, knowing that snippets then run unconfined, `--sandbox none`")]
    Missing,
    #[error("--bwrap / verify.bwrap: `{0}` is not an executable file")]
    NotFound(PathBuf),
    #[error("bubblewrap cannot create the namespaces a sandbox needs on this host, so nothing runs (user namespaces are off or restricted: check `sysctl user.max_user_namespaces` (must be above 0), `kernel.unprivileged_userns_clone` (Debian: 1) and `kernel.apparmor_restrict_unprivileged_userns` (Ubuntu 24.04: 0, or an AppArmor profile for bwrap); or run errbook as root). bwrap said: {0}")]
    NoNamespaces(String),
    #[error("bubblewrap failed to make a sandbox here, so nothing runs; it said: {0}")]
    Broken(String),
}

/// The bwrap to use: `explicit` (from the configuration: a path, or a name on `path`), else
/// `bwrap` on `path`.
pub(crate) fn find(
    explicit: Option<&Path>,
    path: Option<&std::ffi::OsStr>,
) -> Result<PathBuf, BwrapError> {
    use super::interp::which;
    match explicit {
        Some(p) => which(&p.to_string_lossy(), path).ok_or_else(|| BwrapError::NotFound(p.into())),
        None => which("bwrap", path).ok_or(BwrapError::Missing),
    }
}

/// `bubblewrap 0.8.0`, as the binary says.
pub(crate) fn version(exe: &Path) -> String {
    Command::new(exe)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "bubblewrap".to_string())
}

/// Make one empty sandbox, as runs will, and run `true` in it.
pub(crate) fn check(exe: &Path) -> Result<(), BwrapError> {
    let mut cmd = Command::new(exe);
    cmd.args(base(false))
        .args(["--", "true"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| BwrapError::Broken(format!("{}: {e}", exe.display())))?;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break st,
            Ok(None) if start.elapsed() < Duration::from_secs(20) => {
                std::thread::sleep(Duration::from_millis(5))
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(BwrapError::Broken("it did not finish in 20 s".into()));
            }
        }
    };
    if status.success() {
        return Ok(());
    }
    let mut said = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut said);
    }
    Err(classify(said.trim()))
}

/// bwrap's complaint, as the error a maintainer can act on.
fn classify(said: &str) -> BwrapError {
    let namespaces = [
        "No permissions to create",
        "Creating new namespace failed",
        "setting up uid map",
        "No permissions to creating new namespace",
        "unshare failed",
        "Operation not permitted",
    ];
    let said = said.to_string();
    if namespaces.iter().any(|n| said.contains(n)) {
        BwrapError::NoNamespaces(said)
    } else {
        BwrapError::Broken(said)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_sees_its_program_read_only_in_a_fresh_folder() {
        let l = Layout {
            network: false,
            hidden: vec!["/home".into(), "/run".into()],
            home: Some("/home/me".into()),
            devices: vec!["/dev/nvidia0".into()],
            reveal: vec!["/home/me/.venv".into()],
            work: "/tmp/errbook-run-x".into(),
            program: "/var/tmp/errbook-run-x/snippet.py".into(),
            file_name: "snippet.py".into(),
            status_fd: None,
        };
        let a: Vec<String> = args(&l, &["/usr/bin/python3".into()])
            .into_iter()
            .map(|s| s.into_string().unwrap())
            .collect();
        let s = a.join(" ");
        assert!(
            s.starts_with(
                "--unshare-all --die-with-parent --new-session --cap-drop ALL --ro-bind / /"
            ),
            "{s}"
        );
        assert!(s.contains("--dev-bind /dev/nvidia0 /dev/nvidia0"), "{s}");
        assert!(
            s.contains("--tmpfs /home --tmpfs /run --ro-bind-try /home/me/.venv /home/me/.venv"),
            "{s}"
        );
        assert!(
            s.contains("--ro-bind /var/tmp/errbook-run-x/snippet.py /tmp/errbook-run-x/snippet.py"),
            "{s}"
        );
        assert!(
            s.ends_with("--dir /home/me --chdir /tmp/errbook-run-x -- /usr/bin/python3 snippet.py"),
            "{s}"
        );
        assert!(!s.contains("--share-net"));
        let net = Layout { network: true, ..l };
        let a = args(&net, &["python3".into()]);
        assert_eq!(a[1], "--share-net");
    }

    #[test]
    fn refusals_are_told_apart() {
        let e = classify("bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.");
        assert!(matches!(e, BwrapError::NoNamespaces(_)));
        assert!(e.to_string().contains("user namespaces are off"));
        assert!(matches!(
            classify("bwrap: Can't find source path /x"),
            BwrapError::Broken(_)
        ));
    }
}
