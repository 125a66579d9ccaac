//! Document symbols: the outline of an entry (its title, `##` sections, workarounds and dead
//! ends) or an article (its headings), with each code block under the heading it sits in.

use super::state::State;
use errbook_core::model::Page;
use lsp_types::*;

pub(crate) fn symbols(state: &State, p: DocumentSymbolParams) -> Option<DocumentSymbolResponse> {
    let rel = state.rel(&p.text_document.uri)?;
    let doc = state.docs.get(&rel)?;
    let mut flat: Vec<(usize, u8, String, SymbolKind)> = Vec::new();
    let mut fenced = false;
    for (i, line) in doc.text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let level = t.bytes().take_while(|&b| b == b'#').count();
        if (1..=4).contains(&level) && t.as_bytes().get(level) == Some(&b' ') {
            let kind = if level == 1 {
                SymbolKind::FILE
            } else {
                SymbolKind::NAMESPACE
            };
            flat.push((i + 1, level as u8, t[level..].trim().to_string(), kind));
        }
    }
    if let Some(page) = state.page(&rel) {
        if let Page::Entry(e) = page {
            for w in &e.workarounds {
                let name = format!("workaround {}: {}", w.number, w.summary);
                flat.push((w.line, 9, name, SymbolKind::EVENT));
            }
            for d in &e.dead_ends {
                let name = format!("dead end {}: {}", d.number, d.summary);
                flat.push((d.line, 9, name, SymbolKind::EVENT));
            }
        }
        for s in page.snippets() {
            flat.push((s.line, 10, format!("code `{}`", s.id), SymbolKind::FUNCTION));
        }
    }
    flat.sort_by_key(|(line, level, ..)| (*line, *level));
    let lines = doc.text.lines().count().max(1);
    let mut out: Vec<DocumentSymbol> = Vec::new();
    let mut section: Option<usize> = None;
    for (line, level, name, kind) in flat {
        let at = Position::new(line.saturating_sub(1).min(lines - 1) as u32, 0);
        #[allow(deprecated)] // `deprecated` is a field LSP still carries.
        let sym = DocumentSymbol {
            name: if name.is_empty() {
                "(untitled)".into()
            } else {
                name
            },
            detail: None,
            kind,
            tags: None,
            deprecated: None,
            range: Range::new(at, at),
            selection_range: Range::new(at, at),
            children: None,
        };
        match (level, section) {
            (1 | 2, _) => {
                out.push(sym);
                section = (level == 2).then_some(out.len() - 1);
            }
            (_, Some(i)) => out[i].children.get_or_insert_with(Vec::new).push(sym),
            (_, None) => out.push(sym),
        }
    }
    Some(DocumentSymbolResponse::Nested(out))
}
