//! Code actions: apply a diagnostic's "did you mean" (a broken reference, an unknown anchor or
//! attribute), and add a section an entry lacks.

use super::state::State;
use lsp_types::*;
use std::collections::HashMap;

pub(crate) fn actions(state: &State, p: CodeActionParams) -> Option<Vec<CodeActionOrCommand>> {
    let uri = p.text_document.uri;
    let rel = state.rel(&uri)?;
    let doc = state.docs.get(&rel)?;
    let mut out = Vec::new();
    for d in &p.context.diagnostics {
        let Some(serde_json::Value::String(hint)) = &d.data else {
            continue;
        };
        let Some(near) = did_you_mean(hint) else {
            continue;
        };
        let mut range = d.range;
        let mut with = near.to_string();
        if let Some(frag) = near.strip_prefix('#') {
            // An anchor: only what follows the `#` in the link is replaced.
            let (s, e) = (doc.offset(range.start), doc.offset(range.end));
            let written = doc.text.get(s..e).unwrap_or("");
            if let Some(h) = written.find('#') {
                range.start = doc.lines.position(&doc.text, s + h + 1);
                with = frag.to_string();
            }
        }
        out.push(fix(format!("replace with `{near}`"), &uri, range, with, d));
    }
    if rel.starts_with("content/errors") {
        let (_, sections) = errbook_parse::entry::vocabulary();
        for s in sections.into_iter().take(4) {
            if doc.text.lines().any(|l| l.trim_end() == format!("## {s}")) {
                continue;
            }
            let end = doc.lines.position(&doc.text, doc.text.len());
            let sep = if doc.text.ends_with('\n') {
                "\n"
            } else {
                "\n\n"
            };
            let with = format!("{sep}## {s}\n\n");
            let title = format!("add the section `## {s}`");
            let mut action = fix(
                title,
                &uri,
                Range::new(end, end),
                with,
                &Diagnostic::default(),
            );
            if let CodeActionOrCommand::CodeAction(a) = &mut action {
                a.kind = Some(CodeActionKind::REFACTOR);
                a.diagnostics = None;
            }
            out.push(action);
        }
    }
    Some(out)
}

/// The suggestion of a hint `did you mean `x`?`.
fn did_you_mean(hint: &str) -> Option<&str> {
    let rest = hint.strip_prefix("did you mean `")?;
    let end = rest.find('`')?;
    Some(&rest[..end])
}

#[allow(clippy::mutable_key_type)] // lsp-types' `changes` is keyed by `Uri`, which caches.
fn fix(
    title: String,
    uri: &Uri,
    range: Range,
    with: String,
    d: &Diagnostic,
) -> CodeActionOrCommand {
    let mut changes = HashMap::new();
    changes.insert(uri.clone(), vec![TextEdit::new(range, with)]);
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![d.clone()]),
        edit: Some(WorkspaceEdit {
            changes: Some(changes),
            ..Default::default()
        }),
        is_preferred: Some(true),
        ..Default::default()
    })
}
