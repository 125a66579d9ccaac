//! Completion: page references after `@/` (and their anchors after `#`), entry IDs in front
//! matter (`errors:`, `related:`), a code block's run attributes and their values (`expect=`
//! the exceptions the catalog names, `after=` the page's block ids, `gpus=`), and an entry's
//! metadata keys and the values the catalog already uses.

use super::refs;
use super::state::State;
use errbook_core::model::Page;
use errbook_core::urls;
use lsp_types::*;
use std::collections::BTreeSet;

/// At most this many items in one answer (the editor filters them as the user types).
const MAX_ITEMS: usize = 5000;

pub(crate) fn complete(state: &State, p: CompletionParams) -> Option<CompletionResponse> {
    let pos = p.text_document_position;
    let rel = state.rel(&pos.text_document.uri)?;
    let doc = state.docs.get(&rel)?;
    let offset = doc.offset(pos.position);
    let (line_start, before) = doc.line_before(offset);
    let after = |chars: &str| before.rfind(|c| chars.contains(c)).map_or(0, |i| i + 1);
    let (words, word_from) = if let Some(at) = before
        .rfind("@/")
        .filter(|&i| !before[i..].contains([' ', ')']))
    {
        let from = match before[at..].rfind('#') {
            Some(h) => at + h + 1,
            None => at + 2,
        };
        (references(state, &before[at + 2..]), from)
    } else if let Some(key) = refs::front_key(&doc.text, line_start) {
        let words = match key {
            "errors" | "related" => entry_ids(state),
            _ => Vec::new(),
        };
        (words, after(" \"'[,"))
    } else if before.trim_start().starts_with("```") || before.trim_start().starts_with("~~~") {
        let from = after(" =").max(after("`~"));
        (attributes(state, &rel, before), from)
    } else if before.trim_start().starts_with("- **") && rel.starts_with("content/errors") {
        let from = match before.find(":**") {
            Some(i) => i + 3 + before[i + 3..].len() - before[i + 3..].trim_start().len(),
            None => before.find("**").map_or(0, |i| i + 2),
        };
        (metadata(state, before), from)
    } else {
        (Vec::new(), before.len())
    };
    let start = doc.lines.position(&doc.text, line_start + word_from);
    let range = Range::new(start, pos.position);
    let items: Vec<CompletionItem> = (words.into_iter().take(MAX_ITEMS))
        .map(|(label, kind, detail)| CompletionItem {
            text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
                range,
                label.clone(),
            ))),
            filter_text: Some(label.clone()),
            label,
            kind: Some(kind),
            detail,
            ..Default::default()
        })
        .collect();
    Some(CompletionResponse::List(CompletionList {
        is_incomplete: false,
        items,
    }))
}

type Word = (String, CompletionItemKind, Option<String>);

/// After `@/`: every page's path; after `#`, the anchors of the page named.
fn references(state: &State, typed: &str) -> Vec<Word> {
    let cat = &state.analysis.catalog;
    if let Some((path, _)) = typed.split_once('#') {
        let file = std::path::PathBuf::from("content").join(path);
        let Some(page) = state.page(&file) else {
            return Vec::new();
        };
        return anchors(page)
            .into_iter()
            .map(|(a, what)| (a, CompletionItemKind::REFERENCE, Some(what)))
            .collect();
    }
    let entries = cat.entries.iter().map(|e| {
        let label = format!("errors/{}.md", e.id);
        (label, CompletionItemKind::FILE, Some(e.message.clone()))
    });
    let articles = cat.articles.iter().map(|a| {
        let label = format!("articles/{}.md", a.id);
        (label, CompletionItemKind::FILE, Some(a.title.clone()))
    });
    entries.chain(articles).collect()
}

/// The anchors errbook gives a page: its workarounds, dead ends and code blocks.
pub(crate) fn anchors(page: Page<'_>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Page::Entry(e) = page {
        for w in &e.workarounds {
            out.push((urls::workaround_anchor(w.number), w.summary.clone()));
        }
        for d in &e.dead_ends {
            out.push((urls::dead_end_anchor(d.number), d.summary.clone()));
        }
    }
    for s in page.snippets() {
        out.push((urls::code_anchor(&s.id), format!("code block `{}`", s.id)));
    }
    out
}

fn entry_ids(state: &State) -> Vec<Word> {
    (state.analysis.catalog.entries.iter())
        .map(|e| {
            let message = Some(e.message.clone());
            (e.id.clone(), CompletionItemKind::REFERENCE, message)
        })
        .collect()
}

/// In a code fence's info string: the attribute keys, or the values of the one being written.
fn attributes(state: &State, rel: &std::path::Path, before: &str) -> Vec<Word> {
    let word = before.rsplit(' ').next().unwrap_or("");
    let Some((key, _)) = word.split_once('=') else {
        return (errbook_parse::snippet::KEYS.iter())
            .map(|k| {
                let label = match *k {
                    "run" | "norun" | "network" => k.to_string(),
                    k => format!("{k}="),
                };
                (label, CompletionItemKind::PROPERTY, None)
            })
            .collect();
    };
    let values: Vec<String> = match key {
        "expect" => {
            let cat = &state.analysis.catalog;
            let used: BTreeSet<&str> = (cat.entries.iter())
                .filter_map(|e| e.exception.as_deref())
                .collect();
            used.into_iter().map(String::from).collect()
        }
        "after" => match state.page(rel) {
            Some(page) => page.snippets().iter().map(|s| s.id.clone()).collect(),
            None => Vec::new(),
        },
        "gpus" => ["0", "1", "2", "4", "8"].map(String::from).to_vec(),
        _ => Vec::new(),
    };
    (values.into_iter())
        .map(|v| (v, CompletionItemKind::VALUE, None))
        .collect()
}

/// On an entry's metadata bullet: the keys, or the values the catalog uses for the key.
fn metadata(state: &State, before: &str) -> Vec<Word> {
    let (keys, _) = errbook_parse::entry::vocabulary();
    let rest = before.trim_start().trim_start_matches("- **");
    let Some((key, _)) = rest.split_once(":**") else {
        return (keys.into_iter())
            .map(|k| (format!("{k}:**"), CompletionItemKind::PROPERTY, None))
            .collect();
    };
    let cat = &state.analysis.catalog;
    let used: BTreeSet<&str> = match key {
        "Domain" => cat.entries.iter().map(|e| e.domain.as_str()).collect(),
        "Category" => cat.entries.iter().map(|e| e.category.as_str()).collect(),
        "Verification" => cat
            .entries
            .iter()
            .map(|e| e.verification.as_str())
            .collect(),
        _ => BTreeSet::new(),
    };
    (used.into_iter())
        .filter(|v| !v.is_empty())
        .map(|v| (v.to_string(), CompletionItemKind::VALUE, None))
        .collect()
}
