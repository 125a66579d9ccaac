//! `errbook check`: run load, parse and link, print every diagnostic compiler-style to stderr and
//! a summary line, write nothing. Exit 1 when there are errors (warnings do not fail), 0 otherwise.

use errbook::Config;
use errbook::Result;
use errbook::{Code, Diagnostics};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub(crate) fn run(root: &Path, links_of: &[PathBuf]) -> Result<ExitCode> {
    if !root.join("book.toml").is_file() {
        return Err(errbook::Error::Other(format!(
            "no book.toml in {}: run errbook in the site root, or pass `--root DIR`",
            root.display()
        )));
    }
    // A book.toml that does not parse is a problem in the site's own files: report it like the
    // content's problems (exit 1), not as a failure of errbook (exit 2).
    let cfg = match Config::load(root) {
        Ok(c) => c,
        Err(e @ errbook::Error::Config { .. }) => {
            eprintln!("error[E-config]: {e}");
            eprintln!("check: 1 error in book.toml; the content was not checked");
            return Ok(ExitCode::from(1));
        }
        Err(e) => return Err(e),
    };
    let state = errbook::site::check(root, &cfg)?;
    super::print_diagnostics(&state.diags);
    for f in links_of {
        print!("{}", errbook::site::explain_links(&state, f));
    }
    eprintln!(
        "{}",
        summary(
            &state.diags,
            state.files.len(),
            state.catalog.entries.len(),
            state.catalog.articles.len()
        )
    );
    Ok(ExitCode::from(status(&state.diags)))
}

/// 1 when any diagnostic is an error; warnings alone do not fail.
pub(crate) fn status(diags: &Diagnostics) -> u8 {
    u8::from(diags.has_errors())
}

/// `check: 2 errors, 1 warning in 5 files (3 entries and 1 article parsed)`, or
/// `check: ok, ...`. `files` counts the files read as text.
pub(crate) fn summary(
    diags: &Diagnostics,
    files: usize,
    entries: usize,
    articles: usize,
) -> String {
    let (e, w) = (diags.error_count(), diags.warning_count());
    // Files that could not be read as text (not UTF-8, empty) were checked too.
    let unreadable = diags
        .items
        .iter()
        .filter(|d| matches!(d.code, Code::Encoding | Code::Empty))
        .count();
    let what = format!(
        "{} ({} and {} parsed)",
        plural(files + unreadable, "file", "files"),
        plural(entries, "entry", "entries"),
        plural(articles, "article", "articles")
    );
    if e > 0 {
        format!(
            "check: {}, {} in {what}",
            plural(e, "error", "errors"),
            plural(w, "warning", "warnings")
        )
    } else {
        format!("check: ok, {} in {what}", plural(w, "warning", "warnings"))
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_do_not_fail() {
        use errbook::Diagnostic;
        let src: std::sync::Arc<str> = std::sync::Arc::from("x\n");
        let p = Path::new("a.md");
        let mut d = Diagnostics::default();
        d.push(Diagnostic::at(Code::VerifyStale, p, &src, 0, 1, "w"));
        assert_eq!(status(&d), 0);
        assert!(summary(&d, 1, 1, 0).starts_with("check: ok, 1 warning in 1 file"));
        d.push(Diagnostic::at(Code::Title, p, &src, 0, 1, "e"));
        assert_eq!(status(&d), 1);
        assert!(summary(&d, 1, 0, 0).starts_with("check: 1 error, 1 warning in 1 file"));
    }

    #[test]
    fn summary_counts_and_plurals() {
        let d = Diagnostics::default();
        assert_eq!(
            summary(&d, 4, 1, 3),
            "check: ok, 0 warnings in 4 files (1 entry and 3 articles parsed)"
        );
    }
}
