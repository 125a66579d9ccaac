//! The last line of `errbook check`, and its exit status: errors fail; warnings fail only under
//! `--strict`.

use super::format::Counts;
use errbook_core::{Code, Diagnostics};

/// 1 when any diagnostic is an error (or, when `strict`, any at all).
pub(crate) fn status(diags: &Diagnostics, strict: bool) -> u8 {
    u8::from(diags.has_errors() || (strict && !diags.items.is_empty()))
}

/// `check: 2 errors, 1 warning in 5 files (3 entries and 1 article parsed)`, or
/// `check: ok, ...`. `files` counts the files read as text.
pub(crate) fn summary(diags: &Diagnostics, counts: &Counts) -> String {
    let (files, entries, articles) = (counts.files, counts.entries, counts.articles);
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
    use std::path::Path;

    fn counts(files: usize, entries: usize, articles: usize) -> Counts {
        Counts {
            files,
            entries,
            articles,
        }
    }

    #[test]
    fn warnings_do_not_fail() {
        use errbook_core::Diagnostic;
        let src: std::sync::Arc<str> = std::sync::Arc::from("x\n");
        let p = Path::new("a.md");
        let mut d = Diagnostics::default();
        d.push(Diagnostic::at(Code::VerifyStale, p, &src, 0, 1, "w"));
        assert_eq!(status(&d, false), 0);
        assert_eq!(status(&d, true), 1, "--strict fails on warnings");
        assert!(summary(&d, &counts(1, 1, 0)).starts_with("check: ok, 1 warning in 1 file"));
        d.push(Diagnostic::at(Code::Title, p, &src, 0, 1, "e"));
        assert_eq!(status(&d, false), 1);
        assert!(summary(&d, &counts(1, 0, 0)).starts_with("check: 1 error, 1 warning in 1 file"));
    }

    #[test]
    fn summary_counts_and_plurals() {
        let d = Diagnostics::default();
        assert_eq!(
            summary(&d, &counts(4, 1, 3)),
            "check: ok, 0 warnings in 4 files (1 entry and 3 articles parsed)"
        );
    }
}
