//! The top-level Markdown blocks of an entry's body with their byte ranges (pulldown-cmark finds
//! them), the direct items of each list, and the small readers of an item's text that the
//! metadata and the workaround and dead-end lists share. Nothing here reports a diagnostic.

use crate::snippet;
use pulldown_cmark::{Event, HeadingLevel, Parser, Tag};
use regex::Regex;
use std::ops::Range;
use std::sync::LazyLock;

static MARKER_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(?:\d+[.)]|[-*+])\s+").expect("static regex"));

/// A top-level Markdown block with its direct list items.
#[derive(Debug)]
pub(super) struct Block {
    pub kind: BlockKind,
    pub range: Range<usize>,
    pub items: Vec<Range<usize>>,
}

#[derive(Debug, PartialEq)]
pub(super) enum BlockKind {
    Heading(HeadingLevel),
    List { ordered: bool },
    Table,
    Code,
    Other,
}

impl BlockKind {
    fn of(tag: &Tag) -> BlockKind {
        match tag {
            Tag::Heading { level, .. } => BlockKind::Heading(*level),
            Tag::List(first) => BlockKind::List {
                ordered: first.is_some(),
            },
            Tag::Table(_) => BlockKind::Table,
            Tag::CodeBlock(_) => BlockKind::Code,
            _ => BlockKind::Other,
        }
    }
}

/// Split the body (`src[from..]`) into top-level blocks, each with its direct list items.
pub(super) fn top_blocks(src: &str, from: usize) -> Vec<Block> {
    let body = src.get(from..).unwrap_or("");
    let mut out: Vec<Block> = Vec::new();
    let mut depth = 0usize;
    for (ev, r) in Parser::new_ext(body, snippet::markdown_options()).into_offset_iter() {
        let r = from + r.start..from + r.end;
        match ev {
            Event::Start(tag) => {
                if depth == 0 {
                    out.push(Block {
                        kind: BlockKind::of(&tag),
                        range: r.clone(),
                        items: Vec::new(),
                    });
                } else if depth == 1 && matches!(tag, Tag::Item) {
                    if let Some(b) = out.last_mut() {
                        b.items.push(r.clone());
                    }
                }
                depth += 1;
            }
            Event::End(_) => depth = depth.saturating_sub(1),
            Event::Rule | Event::Html(_) | Event::Text(_) if depth == 0 => {
                out.push(Block {
                    kind: BlockKind::Other,
                    range: r,
                    items: Vec::new(),
                });
            }
            _ => {}
        }
    }
    out
}

/// The text of an item without its list marker, and the offset where that text starts.
pub(super) fn item_text<'a>(src: &'a str, r: &Range<usize>) -> (&'a str, usize) {
    let raw = src.get(r.clone()).unwrap_or("");
    let skip = MARKER_RE.find(raw).map(|m| m.end()).unwrap_or(0);
    (raw.get(skip..).unwrap_or(""), r.start + skip)
}

/// Bold summary at the start of an item: (summary, byte length of the whole `**...**`).
pub(super) fn bold_summary(text: &str) -> Option<(String, usize)> {
    let rest = text.strip_prefix("**")?;
    let end = rest.find("**")?;
    Some((rest[..end].trim().to_string(), end + 4))
}

/// The first paragraph of an item (up to a blank line or a fence).
pub(super) fn first_paragraph(text: &str) -> &str {
    let mut end = text.len();
    let mut off = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if off > 0 && (t.is_empty() || t.starts_with("```") || t.starts_with("~~~")) {
            end = off;
            break;
        }
        off += line.len();
    }
    &text[..end]
}

/// The length of the first line of `src[r]`, for a diagnostic's label.
pub(super) fn first_line_len(src: &str, r: Range<usize>) -> usize {
    let s = src.get(r.start..r.end.min(src.len())).unwrap_or("");
    s.find('\n').unwrap_or(s.len())
}
