//! Bad input: every case under tests/fixtures/bad/ run through `errbook check`, asserting what the
//! user sees (the `path:line:col` header, the message, the offending line in the snippet, the
//! hint) and the exit status. Also: the seed catalog checks clean, and no input makes errbook panic.

mod articles;
mod entries;
mod files;
mod front_matter;
mod whole;

use assert_cmd::Command;

use std::path::{Path, PathBuf};

pub(crate) fn fixture(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/bad")
        .join(case)
}

/// `errbook check --root DIR`: (exit code, stderr).
pub(crate) fn check(root: &Path) -> (i32, String) {
    let out = Command::cargo_bin("errbook")
        .unwrap()
        .arg("check")
        .arg("--root")
        .arg(root)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Whitespace runs to one space, so hints wrapped by the terminal renderer still match.
pub(crate) fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What one bad case must show.
pub(crate) struct Expect<'a> {
    /// `path:line:col`, the path relative to the site root.
    pub(crate) at: &'a str,
    pub(crate) code: &'a str,
    pub(crate) message: &'a str,
    /// The offending source line as the snippet shows it (None for a file with no text).
    pub(crate) line: Option<&'a str>,
    pub(crate) hint: &'a str,
}

pub(crate) fn expect(case: &str, e: Expect) {
    let (status, err) = check(&fixture(case));
    assert_eq!(status, 1, "{case}: exit status\n{err}");
    let header = format!("error[{}]: {}: {}\n", e.code, e.at, e.message);
    assert!(
        err.contains(&header),
        "{case}: expected header\n  {header}in\n{err}"
    );
    // Exactly one diagnostic: the case is reported once, without follow-on noise.
    assert_eq!(
        err.matches("error[").count(),
        1,
        "{case}: one diagnostic expected\n{err}"
    );
    // Printed once: on the header line, not again under it.
    assert_eq!(
        err.matches(e.message).count(),
        1,
        "{case}: the message once\n{err}"
    );
    if let Some(line) = e.line {
        // The snippet shows the line with its number in the gutter: ` 27 │ 2. Upgrade ...`.
        let lineno = e.at.split(':').nth(1).unwrap();
        let shown = format!("{lineno} │ {line}\n");
        assert!(
            err.contains(&shown),
            "{case}: expected source line\n  {shown}in\n{err}"
        );
    }
    let help = err
        .find("help: ")
        .map(|i| squash(&err[i..]))
        .unwrap_or_default();
    assert!(
        help.contains(&squash(e.hint)),
        "{case}: expected hint\n  {}\nin\n{err}",
        e.hint
    );
    assert!(
        err.contains("check: 1 error, 0 warnings in "),
        "{case}: summary line\n{err}"
    );
}
