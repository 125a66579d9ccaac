//! `check`: the analysis with every diagnostic, and its view of the records: a warning for each
//! runnable snippet with no record or a stale one, each record that matches no snippet any
//! more, and each unreadable record file.

use super::Analysis;
use crate::core::config::Config;
use crate::core::diag::{Code, Diagnostic};
use crate::records::{RecordSet, Status};
use std::collections::HashMap;
use std::path::Path;

/// Analyse the catalog at `root` and add the record diagnostics; nothing is written.
pub fn check(root: &Path, cfg: &Config) -> crate::core::error::Result<Analysis> {
    let mut analysis = super::analyse(root, cfg, true)?;
    let set = RecordSet::load(root, cfg)?;
    let found = records(&analysis, &set);
    analysis.diags.extend(found);
    Ok(analysis)
}

/// `check --links FILE`: the links of one file with their evidence, and the candidates left out.
pub fn explain_links(analysis: &Analysis, file: &Path) -> String {
    crate::link::explain::explain(&analysis.catalog, &analysis.graph, file)
}

/// The record diagnostics of `analysis` against `set`.
pub(super) fn records(analysis: &Analysis, set: &RecordSet) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let sources: HashMap<&Path, &std::sync::Arc<str>> = analysis
        .files
        .iter()
        .map(|f| (f.path.as_path(), &f.text))
        .collect();
    let hint = "run `errbook verify` on a GPU host and commit verify/";
    for page in analysis.catalog.pages() {
        let path = page.source();
        let Some(src) = sources.get(path) else {
            continue;
        };
        let (page_ref, snippets) = (page.reference(), page.snippets());
        for s in snippets.iter().filter(|s| s.run.is_some()) {
            let d = match set.status(&page_ref, snippets, s) {
                Status::Fresh(_) => continue,
                Status::Stale(r) => Diagnostic::at_line(
                    Code::VerifyStale,
                    path,
                    src,
                    s.line,
                    format!(
                        "code block `{}` changed since it was verified ({} on {})",
                        s.id,
                        r.verdict.as_str(),
                        r.date.get(..10).unwrap_or(&r.date)
                    ),
                ),
                Status::Missing => Diagnostic::at_line(
                    Code::VerifyMissing,
                    path,
                    src,
                    s.line,
                    format!("runnable code block `{}` has no verification record", s.id),
                ),
            };
            out.push(d.hint(hint));
        }
    }
    // Stale records whose position is still used are reported above, at the snippet.
    for i in set.orphans(&analysis.catalog) {
        let r = &set.records[i];
        let still_shown = analysis
            .catalog
            .snippets_of(&r.page)
            .iter()
            .any(|s| s.run.is_some() && s.id == r.snippet);
        // A page that did not parse still has its blocks: its records are not orphans.
        let unparsed = analysis.catalog.unparsed.contains(&r.page);
        if !still_shown && !unparsed {
            let kind = r.page.kind.word();
            out.push(
                Diagnostic::file(
                    Code::VerifyOrphan,
                    &set.paths[i],
                    format!(
                        "record for `{}` of {kind} `{}` matches no runnable code block",
                        r.snippet, r.page.id
                    ),
                )
                .hint("remove it with `errbook verify --prune`"),
            );
        }
    }
    for (p, e) in &set.unreadable {
        out.push(
            Diagnostic::file(
                Code::VerifyRecord,
                p,
                format!("not a verification record: {e}"),
            )
            .hint("records are written by `errbook verify`; delete the file or rerun"),
        );
    }
    out
}
