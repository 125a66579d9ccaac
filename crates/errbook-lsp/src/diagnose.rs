//! Diagnostics in two steps. At each change the edited file is parsed again at once (the
//! parse stage, `errbook_parse::parse_file`) and its own diagnostics are published with the
//! cross-file ones it had; a moment later the worker runs the whole check on the workspace
//! (`Workspace::check`: parse, link stage, records, links within the site) and every file whose
//! diagnostics changed is published again.

use super::convert::{diagnostic, Lines};
use super::state::State;
use errbook_core::diag::{Code, Diagnostic};
use errbook_core::model::PageKind;
use errbook_parse::load::SourceFile;
use errbook_site::Analysis;
use lsp_types::{NumberOrString, PublishDiagnosticsParams};
use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The codes only the stages after parse give (the whole catalog's), kept from the last check
/// while a file is parsed again alone.
const CROSS_FILE: &[Code] = &[
    Code::Link,
    Code::SelfRelated,
    Code::DuplicateId,
    Code::VerifyMissing,
    Code::VerifyStale,
    Code::VerifyOrphan,
    Code::VerifyRecord,
];

fn is_cross_file(d: &lsp_types::Diagnostic) -> bool {
    let Some(NumberOrString::String(code)) = &d.code else {
        return false;
    };
    CROSS_FILE.iter().any(|c| c.as_str() == code)
}

/// The open document `rel` parsed alone: its own diagnostics and the cross-file ones of the
/// last check, to publish now.
pub(crate) fn quick(state: &mut State, rel: &Path) -> Option<PublishDiagnosticsParams> {
    let doc = state.docs.get(rel)?;
    let kind = match rel.starts_with(errbook_parse::load::ERRORS_DIR) {
        true => PageKind::Entry,
        false => PageKind::Article,
    };
    let file = SourceFile {
        kind,
        path: rel.to_path_buf(),
        text: doc.text.clone(),
    };
    let mut out: Vec<lsp_types::Diagnostic> = Vec::new();
    if !doc.text.trim().is_empty() {
        let (_, diags) = errbook_parse::parse_file(&file, 600);
        out.extend(diags.items.iter().map(|d| diagnostic(d, Some(&doc.lines))));
    }
    let kept = state.published.get(rel).into_iter().flatten();
    out.extend(kept.filter(|d| is_cross_file(d)).cloned());
    let params = PublishDiagnosticsParams::new(doc.uri.clone(), out.clone(), Some(doc.version));
    state.published.insert(rel.to_path_buf(), out);
    Some(params)
}

/// What to publish after a check: the open documents (their diagnostics as of this check), then
/// every other file whose diagnostics changed, an empty list for a file that had some and has
/// none now. A file nobody has open whose diagnostics are those of the last check, on the same
/// text, keeps what was published for it unconverted: at each keystroke, thousands of files have
/// diagnostics and one changed.
pub(crate) fn full(state: &mut State, analysis: &Analysis) -> Vec<PublishDiagnosticsParams> {
    let before = by_file(&state.analysis.diags.items);
    let now = by_file(&analysis.diags.items);
    let mut out = Vec::new();
    let gone: Vec<PathBuf> = (state.published.keys())
        .filter(|p| !now.contains_key(p.as_os_str()) && state.docs.get(p).is_none())
        .cloned()
        .collect();
    for p in gone {
        if state.published.remove(&p).is_some_and(|d| !d.is_empty()) {
            out.push((p, Vec::new()));
        }
    }
    for (path, diags) in &now {
        let path = Path::new(path);
        let doc = state.docs.get(path);
        // What the last check gave was published (`published` holds every file it named).
        let kept = doc.is_none() && before.get(path.as_os_str()).is_some_and(|o| same(o, diags));
        if kept {
            continue;
        }
        let lines = match doc {
            Some(d) if diags.iter().all(|x| x.source.as_deref() == Some(&*d.text)) => {
                Some(&d.lines)
            }
            Some(_) => None,
            None => None,
        };
        let fresh = lines.cloned().or_else(|| {
            let src = diags.first()?.source.as_ref()?;
            (diags.len() > 4).then(|| Lines::new(src))
        });
        let converted: Vec<_> = diags
            .iter()
            .map(|d| diagnostic(d, fresh.as_ref()))
            .collect();
        if state.published.get(path) != Some(&converted) || doc.is_some() {
            state
                .published
                .insert(path.to_path_buf(), converted.clone());
            out.push((path.to_path_buf(), converted));
        }
    }
    for p in state.docs.paths() {
        if !now.contains_key(p.as_os_str()) {
            state.published.insert(p.clone(), Vec::new());
            out.push((p, Vec::new()));
        }
    }
    out.sort_by_key(|(p, _)| state.docs.get(p).is_none());
    (out.into_iter())
        .filter_map(|(p, diags)| {
            let version = state.docs.get(&p).map(|d| d.version);
            Some(PublishDiagnosticsParams::new(
                state.uri(&p)?,
                diags,
                version,
            ))
        })
        .collect()
}

/// `diags` by file (its path's bytes: a check's paths are written one way), a run of one
/// file's at a time (a check's are sorted by file).
fn by_file(diags: &[Diagnostic]) -> HashMap<&OsStr, Vec<&Diagnostic>> {
    let mut out: HashMap<&OsStr, Vec<&Diagnostic>> = HashMap::new();
    for run in diags.chunk_by(|a, b| a.path.as_os_str() == b.path.as_os_str()) {
        out.entry(run[0].path.as_os_str()).or_default().extend(run);
    }
    out
}

/// Whether two checks gave a file the same diagnostics on the same text (one `Arc`, as the
/// workspace keeps a file it did not read again): what the editor was sent for `a` holds for `b`.
fn same(a: &[&Diagnostic], b: &[&Diagnostic]) -> bool {
    let one = |x: &Diagnostic, y: &Diagnostic| {
        let text = match (&x.source, &y.source) {
            (Some(s), Some(t)) => std::sync::Arc::ptr_eq(s, t),
            (None, None) => true,
            _ => false,
        };
        text && (x.code, x.severity, x.span, x.line, x.col)
            == (y.code, y.severity, y.span, y.line, y.col)
            && (&x.message, &x.label, &x.hint) == (&y.message, &y.label, &y.hint)
    };
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| one(x, y))
}
