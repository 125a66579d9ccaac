//! Diagnostics in two steps. At each change the edited file is parsed again at once (the
//! parse stage, `errbook_parse::parse_file`) and its own diagnostics are published with the
//! cross-file ones it had; a moment later the worker runs the whole check on the workspace
//! (`Workspace::check`: parse, link stage, records, links within the site) and every file whose
//! diagnostics changed is published again.

use super::convert::{diagnostic, Lines};
use super::state::State;
use errbook_core::diag::Code;
use errbook_core::model::PageKind;
use errbook_parse::load::SourceFile;
use errbook_site::Analysis;
use lsp_types::{NumberOrString, PublishDiagnosticsParams};
use std::collections::{BTreeMap, HashMap};
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
/// none now.
pub(crate) fn full(state: &mut State, analysis: &Analysis) -> Vec<PublishDiagnosticsParams> {
    let mut by_file: BTreeMap<PathBuf, Vec<&errbook_core::diag::Diagnostic>> = BTreeMap::new();
    for d in &analysis.diags.items {
        by_file.entry(d.path.clone()).or_default().push(d);
    }
    let mut now: HashMap<PathBuf, Vec<lsp_types::Diagnostic>> = HashMap::new();
    for (path, diags) in by_file {
        let doc = state.docs.get(&path);
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
        let converted = diags
            .iter()
            .map(|d| diagnostic(d, fresh.as_ref()))
            .collect();
        now.insert(path, converted);
    }
    for p in state.docs.paths() {
        now.entry(p).or_default();
    }
    let mut out = Vec::new();
    let gone: Vec<PathBuf> = (state.published.keys())
        .filter(|p| !now.contains_key(*p))
        .cloned()
        .collect();
    for p in gone {
        if state.published.remove(&p).is_some_and(|d| !d.is_empty()) {
            out.push((p, Vec::new()));
        }
    }
    for (p, diags) in now {
        if state.published.get(&p) != Some(&diags) || state.docs.get(&p).is_some() {
            state.published.insert(p.clone(), diags.clone());
            out.push((p, diags));
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
