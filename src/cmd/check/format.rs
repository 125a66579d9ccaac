//! `check --format`: diagnostics for machines. `json` is one object on stdout (every
//! diagnostic with its code, severity, location, message, label and hint, and the counts);
//! `github` is one workflow command per diagnostic (`::error file=...,line=...::...`), which
//! GitHub Actions shows as annotations on a pull request's files.

use errbook_core::{Diagnostic, Diagnostics, Severity};

/// How `check` prints its diagnostics.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// Like a compiler: the line, a label and a hint (stderr).
    Human,
    /// One JSON object on stdout.
    Json,
    /// GitHub Actions workflow commands on stdout.
    Github,
}

/// The counts `check` reports with its diagnostics.
pub(crate) struct Counts {
    pub(crate) files: usize,
    pub(crate) entries: usize,
    pub(crate) articles: usize,
}

fn severity(d: &Diagnostic) -> &'static str {
    match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// The JSON document of a check.
pub(crate) fn json(diags: &Diagnostics, counts: &Counts, failed: bool) -> String {
    let items: Vec<serde_json::Value> = diags
        .items
        .iter()
        .map(|d| {
            serde_json::json!({
                "severity": severity(d),
                "code": d.code.as_str(),
                "path": d.path.to_string_lossy().replace('\\', "/"),
                "line": d.line,
                "column": d.col,
                "message": d.message,
                "label": (!d.label.is_empty()).then_some(&d.label),
                "hint": d.hint,
            })
        })
        .collect();
    let v = serde_json::json!({
        "ok": !failed,
        "errors": diags.error_count(),
        "warnings": diags.warning_count(),
        "files": counts.files,
        "entries": counts.entries,
        "articles": counts.articles,
        "diagnostics": items,
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// One GitHub Actions workflow command per diagnostic.
pub(crate) fn github(diags: &Diagnostics) -> String {
    let mut out = String::new();
    for d in &diags.items {
        let mut text = d.message.clone();
        if let Some(h) = &d.hint {
            text.push_str("\nhelp: ");
            text.push_str(h);
        }
        out.push_str(&format!(
            "::{} file={},line={},col={},title={}::{}\n",
            severity(d),
            property(&d.path.to_string_lossy().replace('\\', "/")),
            d.line,
            d.col,
            property(d.code.as_str()),
            data(&text),
        ));
    }
    out
}

/// Escaping of a workflow command's message (GitHub's `escapeData`).
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escaping of a workflow command's property (GitHub's `escapeProperty`).
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use errbook_core::Code;
    use std::path::Path;

    #[test]
    fn github_annotations_escape_what_github_reads() {
        let src: std::sync::Arc<str> = std::sync::Arc::from("a\nb: c, d\n");
        let mut d = Diagnostics::default();
        d.push(
            Diagnostic::at(
                Code::Title,
                Path::new("c/x,y:z.md"),
                &src,
                2,
                4,
                "50% bad\nmore",
            )
            .hint("fix it"),
        );
        let out = github(&d);
        assert_eq!(
            out,
            "::error file=c/x%2Cy%3Az.md,line=2,col=1,title=E-title::50%25 bad%0Amore%0Ahelp: fix it\n"
        );
    }
}
