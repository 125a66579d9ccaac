//! The text around each fenced block of a page: the nearest heading or bold label above it, the
//! prose just before it and just after it, each with its line. Front matter is skipped; lines
//! are the file's.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// A piece of prose with the 1-based line it starts on.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Piece {
    pub line: usize,
    pub text: String,
}

/// What surrounds one fenced block.
#[derive(Debug, Clone, Default)]
pub(crate) struct Around {
    /// 1-based line of the opening fence.
    pub line: usize,
    pub label: Option<Piece>,
    /// Paragraphs between the label (or the previous block) and the block, nearest last.
    pub before: Vec<Piece>,
    /// Paragraphs after the block, up to the next block or label.
    pub after: Vec<Piece>,
    /// How many of `before`, from the first, follow the previous block directly (they are its
    /// `after` too, and speak of it first).
    pub after_block: usize,
}

/// Longest text read of one piece: claims are made in its first sentences.
const PIECE_CAP: usize = 1200;
/// Paragraphs read on each side.
const SIDE: usize = 2;

/// Where the body starts: after a YAML front matter, if there is one.
fn body_start(text: &str) -> usize {
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return 0;
    };
    match rest.find("\n---") {
        Some(i) => {
            let after = 4 + i + 4;
            text[after.min(text.len())..]
                .find('\n')
                .map_or(text.len(), |j| after + j + 1)
        }
        None => 0,
    }
}

/// Each fenced or indented block of `text` with its surroundings, in document order.
pub(crate) fn around(text: &str) -> Vec<Around> {
    let mut out = as_written(text);
    drop_next_intros(&mut out);
    out
}

/// Each block with the prose on each side as the text sets it out.
fn as_written(text: &str) -> Vec<Around> {
    let from = body_start(text).min(text.len());
    let body = &text[from..];
    let mut starts: Vec<usize> = vec![0];
    starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    let line_of = |off: usize| starts.partition_point(|&s| s <= from + off);
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let mut out: Vec<Around> = Vec::new();
    let mut label: Option<Piece> = None;
    let mut prose: Vec<Piece> = Vec::new();
    // Text being read: (text, line, only bold so far, is a heading).
    let mut reading: Option<(String, usize, bool, bool)> = None;
    let mut strong = 0;
    let mut in_code = false;
    // Whether prose now goes to the last block's `after`.
    let mut after_open = false;
    for (ev, r) in Parser::new_ext(body, opts).into_offset_iter() {
        match ev {
            Event::Start(Tag::CodeBlock(_)) => {
                in_code = true;
                flush(&mut reading, &mut label, &mut prose, &mut out, after_open);
                let before = std::mem::take(&mut prose);
                let after_block = follows(out.last(), &before);
                out.push(Around {
                    line: line_of(r.start),
                    label: label.clone(),
                    before,
                    after: Vec::new(),
                    after_block,
                });
                after_open = true;
            }
            Event::End(TagEnd::CodeBlock) => in_code = false,
            Event::Start(Tag::Heading { level, .. }) => {
                flush(&mut reading, &mut label, &mut prose, &mut out, after_open);
                if level != HeadingLevel::H1 {
                    reading = Some((String::new(), line_of(r.start), true, true));
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((t, line, _, _)) = reading.take() {
                    label = Some(Piece {
                        line,
                        text: t.trim().to_string(),
                    });
                    prose.clear();
                    after_open = false;
                }
            }
            Event::Start(tag @ (Tag::Paragraph | Tag::Item)) => {
                flush(&mut reading, &mut label, &mut prose, &mut out, after_open);
                // The next item of a list is about something else than a block in the last.
                if matches!(tag, Tag::Item) {
                    after_open = false;
                }
                reading = Some((String::new(), line_of(r.start), true, false));
            }
            Event::End(TagEnd::Paragraph | TagEnd::Item)
                if flush(&mut reading, &mut label, &mut prose, &mut out, after_open) =>
            {
                after_open = false;
            }
            Event::Start(Tag::Strong) => strong += 1,
            Event::End(TagEnd::Strong) => strong -= 1,
            Event::Text(t) | Event::Code(t) if !in_code => {
                if let Some((s, _, only_bold, _)) = reading.as_mut() {
                    if s.len() < PIECE_CAP {
                        s.push_str(&t);
                    }
                    if strong == 0 && !t.trim().is_empty() {
                        *only_bold = false;
                    }
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some((s, ..)) = reading.as_mut() {
                    s.push(' ');
                }
            }
            _ => {}
        }
    }
    flush(&mut reading, &mut label, &mut prose, &mut out, after_open);
    out
}

/// Of two paragraphs after a block, the second, where the next block follows it directly,
/// introduces that block: it is not read as said of this one.
fn drop_next_intros(out: &mut [Around]) {
    for k in 1..out.len() {
        let Some(intro) = out[k].before.last().map(|p| p.line) else {
            continue;
        };
        let prev = &mut out[k - 1].after;
        if prev.len() >= 2 && prev.last().is_some_and(|p| p.line == intro) {
            prev.pop();
        }
    }
}

/// How many of `before`, from the first, are also the previous block's `after`.
fn follows(prev: Option<&Around>, before: &[Piece]) -> usize {
    prev.map_or(0, |prev| {
        before
            .iter()
            .take_while(|p| prev.after.iter().any(|a| a.line == p.line))
            .count()
    })
}

/// End the piece being read: a bold-only paragraph becomes the label, any other the prose
/// after the last block (while that is open) and before the next. Returns whether it was a
/// label (which closes the last block's `after`).
fn flush(
    reading: &mut Option<(String, usize, bool, bool)>,
    label: &mut Option<Piece>,
    prose: &mut Vec<Piece>,
    out: &mut [Around],
    after_open: bool,
) -> bool {
    let Some((t, line, only_bold, heading)) = reading.take() else {
        return false;
    };
    let text = t.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() || heading {
        return false;
    }
    if only_bold {
        *label = Some(Piece {
            line,
            text: text.trim_end_matches(':').trim().to_string(),
        });
        prose.clear();
        return true;
    }
    let piece = Piece { line, text };
    if after_open {
        if let Some(last) = out.last_mut().filter(|a| a.after.len() < SIDE) {
            last.after.push(piece.clone());
        }
    }
    prose.push(piece);
    if prose.len() > SIDE {
        prose.remove(0);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_prose_around_blocks() {
        let t = "---\ntitle: x\n---\nIntro.\n\n**Example 1: The Problematic Approach**\n\nHere:\n\n```python\nx = 1\n```\n\nThis example is flawed.\n\n**Example 2: Fixed**\n\n```python\ny = 2\n```\n";
        let a = around(t);
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].line, 10);
        assert_eq!(
            a[0].label.as_ref().unwrap().text,
            "Example 1: The Problematic Approach"
        );
        assert_eq!(a[0].before[0].text, "Here:");
        assert_eq!(
            a[0].after[0],
            Piece {
                line: 14,
                text: "This example is flawed.".into()
            }
        );
        assert_eq!(a[1].label.as_ref().unwrap().line, 16);
        assert!(a[1].before.is_empty());
        let t = "```python\nx = 1\n```\n\nThis fails.\n\nThe fix:\n\n```python\ny = 2\n```\n";
        let a = around(t);
        assert_eq!(a[1].before.len(), 2);
        assert_eq!(a[1].after_block, 2, "both follow the first block");
        assert_eq!(a[0].after.len(), 1, "the second introduces the next block");
    }
}
