//! Code actions: apply a diagnostic's "did you mean" (a broken reference, an unknown anchor or
//! attribute), add a section an entry lacks, and write errbook's reading of a code block as
//! attributes on its fence (`errbook claims --write`, one block at a time).

use super::docs::Doc;
use super::state::State;
use errbook_core::model::Snippet;
use errbook_records::RecordSet;
use errbook_render::view::Resolver;
use lsp_types::*;
use std::collections::HashMap;
use std::path::Path;

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
    out.extend(write_readings(state, &rel, doc, p.range));
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

/// For each code block the range touches (its fence line or its code) whose claim errbook read
/// from the text: the action that declares it, writing onto the opening fence what
/// `errbook claims --write` writes. Blocks declared, with no claim or that cannot run have none.
fn write_readings(state: &State, rel: &Path, doc: &Doc, range: Range) -> Vec<CodeActionOrCommand> {
    let Some(page) = state.page(rel) else {
        return Vec::new();
    };
    let none = RecordSet::default();
    let records = state.records.as_deref().unwrap_or(&none);
    let analysis = &state.analysis;
    let resolver = Resolver::new(&analysis.catalog, &analysis.graph, records);
    let (first, last) = (range.start.line as usize + 1, range.end.line as usize + 1);
    (page.snippets().iter())
        .filter(|s| s.line <= last && first <= s.line + s.code.lines().count() + 1)
        .filter_map(|s| {
            // The check infers no links: a block that expects the error of an entry its
            // article does not name gets no action, rather than one that writes less than
            // `errbook claims --write`.
            let attrs = errbook_site::attributes_to_write(&resolver, page, s, false)?;
            write_reading(doc, s, &attrs)
        })
        .collect()
}

/// The action that writes `attrs` onto `s`'s fence line in `doc`: an edit of that line only.
fn write_reading(doc: &Doc, s: &Snippet, attrs: &str) -> Option<CodeActionOrCommand> {
    let line = u32::try_from(s.line.checked_sub(1)?).ok()?;
    let start = doc.offset(Position::new(line, 0));
    let written = doc.text.get(start..)?.split('\n').next()?;
    let body = written.trim_end_matches('\r');
    // The analysis may be older than the text: write only onto the fence it read.
    if body.trim_start().trim_start_matches(['`', '~']).trim() != s.info.trim() {
        return None;
    }
    let with = errbook_claims::fence_with_attributes(body, attrs)?;
    let range = doc.lines.range(&doc.text, start, body.len());
    let title = format!("Write errbook's reading as attributes: {attrs}");
    let mut action = fix(title, &doc.uri, range, with, &Diagnostic::default());
    if let CodeActionOrCommand::CodeAction(a) = &mut action {
        a.kind = Some(CodeActionKind::REFACTOR_REWRITE);
        a.diagnostics = None;
        a.is_preferred = None;
    }
    Some(action)
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
