//! Navigation and refactoring: go to the page (and anchor) a reference names, find every
//! reference to a page, and rename an entry (its ID line, its file, every reference) as one
//! workspace edit the editor applies.

use super::refs::{self, Found};
use super::state::State;
use errbook_core::model::{Page, PageKind};
use errbook_core::urls;
use lsp_types::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub(crate) fn definition(state: &State, p: GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
    let pos = p.text_document_position_params;
    let rel = state.rel(&pos.text_document.uri)?;
    let doc = state.docs.get(&rel)?;
    let found = refs::at(&doc.text, doc.offset(pos.position))?;
    let line = match (&found.anchor, state.page(&found.file)) {
        (Some(a), Some(page)) => anchor_line(page, a).unwrap_or(1),
        _ => 1,
    };
    let at = Position::new(line.saturating_sub(1) as u32, 0);
    Some(GotoDefinitionResponse::Scalar(Location::new(
        state.uri(&found.file)?,
        Range::new(at, at),
    )))
}

/// The 1-based line of `anchor` on `page`, where errbook gives it.
fn anchor_line(page: Page<'_>, anchor: &str) -> Option<usize> {
    if let Page::Entry(e) = page {
        let w = e.workarounds.iter();
        if let Some(w) = w
            .clone()
            .find(|w| urls::workaround_anchor(w.number) == anchor)
        {
            return Some(w.line);
        }
        let d = e.dead_ends.iter();
        if let Some(d) = d
            .clone()
            .find(|d| urls::dead_end_anchor(d.number) == anchor)
        {
            return Some(d.line);
        }
    }
    let s = page.snippets().iter();
    s.clone()
        .find(|s| urls::code_anchor(&s.id) == anchor)
        .map(|s| s.line)
}

/// The page the cursor names: the reference under it, else the file itself.
fn target(state: &State, p: &TextDocumentPositionParams) -> Option<PathBuf> {
    let rel = state.rel(&p.text_document.uri)?;
    let doc = state.docs.get(&rel);
    let found = doc.and_then(|d| refs::at(&d.text, d.offset(p.position)));
    Some(found.map_or(rel, |f| f.file))
}

pub(crate) fn references(state: &State, p: ReferenceParams) -> Option<Vec<Location>> {
    let file = target(state, &p.text_document_position)?;
    let mut out = Vec::new();
    for (rel, text, found) in every_reference_to(state, &file) {
        let lines = super::convert::Lines::new(&text);
        let range = lines.range(&text, found.at.0, found.at.1 - found.at.0);
        out.push(Location::new(state.uri(&rel)?, range));
    }
    Some(out)
}

/// Every reference to the content file `file` in the catalog: the file it is in, that file's
/// text, and where.
fn every_reference_to(state: &State, file: &Path) -> Vec<(PathBuf, Arc<str>, Found)> {
    let id = file
        .strip_prefix("content")
        .ok()
        .and_then(|p| p.to_str())
        .map(|p| p.trim_end_matches(".md").to_string());
    let Some(id) = id else {
        return Vec::new();
    };
    let bare = id
        .split_once('/')
        .map_or(id.as_str(), |(_, i)| i)
        .to_string();
    let mut out = Vec::new();
    for (rel, text) in texts(state) {
        if !text.contains(&bare) {
            continue;
        }
        for found in refs::all_in(&text) {
            if found.file == file {
                out.push((rel.clone(), text.clone(), found));
            }
        }
    }
    out
}

/// Every content file's text: the editor's where it is open, else the last analysis's.
fn texts(state: &State) -> Vec<(PathBuf, Arc<str>)> {
    let mut out: HashMap<PathBuf, Arc<str>> = (state.analysis.files.iter())
        .map(|f| (f.path.clone(), f.text.clone()))
        .collect();
    for rel in state.docs.paths() {
        if let Some(d) = state.docs.get(&rel) {
            out.insert(rel, d.text.clone());
        }
    }
    out.into_iter().collect()
}

pub(crate) fn rename(state: &State, p: RenameParams) -> Result<Option<WorkspaceEdit>, String> {
    let Some(file) = target(state, &p.text_document_position) else {
        return Ok(None);
    };
    let new_id = p.new_name.trim().to_string();
    let Some(Page::Entry(entry)) = state.page(&file) else {
        return Err(
            "errbook renames entries: put the cursor in an entry or on a reference to one".into(),
        );
    };
    errbook_core::ids::validate(PageKind::Entry, &new_id)
        .map_err(|e| format!("{}; {}", e.message, e.hint))?;
    if state.analysis.catalog.entry(&new_id).is_some() {
        return Err(format!("the catalog has an entry `{new_id}` already"));
    }
    let old_id = entry.id.clone();
    let mut edits: HashMap<PathBuf, Vec<TextEdit>> = HashMap::new();
    let own = state
        .text(&file)
        .ok_or("the entry's text is not known yet")?;
    if let Some(at) = id_line(&own, &old_id) {
        let lines = super::convert::Lines::new(&own);
        let range = lines.range(&own, at, old_id.len());
        edits
            .entry(file.clone())
            .or_default()
            .push(TextEdit::new(range, new_id.clone()));
    }
    let new_file = errbook_core::ids::path_of(PageKind::Entry, &new_id);
    for (rel, text, found) in every_reference_to(state, &file) {
        let lines = super::convert::Lines::new(&text);
        let range = lines.range(&text, found.at.0, found.at.1 - found.at.0);
        let with = match found.as_id {
            true => new_id.clone(),
            false => new_file
                .strip_prefix("content")
                .unwrap_or(&new_file)
                .display()
                .to_string(),
        };
        edits
            .entry(rel)
            .or_default()
            .push(TextEdit::new(range, with));
    }
    let mut ops = Vec::new();
    for (rel, edits) in edits {
        let version = state.docs.get(&rel).map(|d| d.version);
        let uri = state.uri(&rel).ok_or("a file's path is not a URI")?;
        ops.push(DocumentChangeOperation::Edit(TextDocumentEdit {
            text_document: OptionalVersionedTextDocumentIdentifier { uri, version },
            edits: edits.into_iter().map(OneOf::Left).collect(),
        }));
    }
    let old_uri = state.uri(&file).ok_or("the entry's path is not a URI")?;
    let new_uri = super::convert::uri_of(&state.root.join(&new_file)).ok_or("bad path")?;
    ops.push(DocumentChangeOperation::Op(ResourceOp::Rename(
        RenameFile {
            old_uri,
            new_uri,
            options: None,
            annotation_id: None,
        },
    )));
    Ok(Some(WorkspaceEdit {
        document_changes: Some(DocumentChanges::Operations(ops)),
        ..Default::default()
    }))
}

/// The byte offset of the ID in an entry's `- **ID:** `id`` line.
fn id_line(text: &str, id: &str) -> Option<usize> {
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("- **ID") {
            return line.find(id).map(|i| start + i);
        }
        start += line.len();
    }
    None
}
