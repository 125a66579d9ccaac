//! The title line: the error message, written `# message` (ATX, optionally closed `#`) or as a
//! setext heading (`message` over `=====`). An entry without one cannot be built.

use super::blocks::{Block, BlockKind};
use super::Ctx;
use errbook_core::diag::Code;
use pulldown_cmark::HeadingLevel;
use std::ops::Range;

const TITLE_HINT: &str = "write the message on the first line: `# RuntimeError: ...`";

/// The message and the title block's range; `None` (after an error) when the body does not
/// start with a `# ` title. `first` is the body's first block, `body_at` where the body starts.
pub(super) fn read(
    cx: &mut Ctx,
    first: Option<&Block>,
    body_at: usize,
) -> Option<(String, Range<usize>)> {
    let b = match first {
        Some(b) if b.kind == BlockKind::Heading(HeadingLevel::H1) => b,
        Some(b) => {
            let msg = "an entry must start with its error message as a `# ` title line";
            cx.error(Code::Title, b.range.clone(), msg, TITLE_HINT);
            return None;
        }
        None => {
            let end = cx.src.len();
            let msg = "the entry has no title line";
            cx.error(Code::Title, body_at..end, msg, TITLE_HINT);
            return None;
        }
    };
    let message = message_of(cx.text(b.range.clone()));
    if message.is_empty() {
        cx.error(
            Code::Title,
            b.range.clone(),
            "the title line is empty",
            "the title is the error message, e.g. `# RuntimeError: CUDA error: out of memory`",
        );
    }
    Some((message, b.range.clone()))
}

/// ATX (`# Title #`) or setext (`Title` over `=====`): the message is the text line.
fn message_of(heading: &str) -> String {
    let first = heading.lines().next().unwrap_or("").trim();
    match first.strip_prefix('#') {
        Some(rest) => rest
            .trim_start_matches('#')
            .trim()
            .trim_end_matches('#')
            .trim_end()
            .to_string(),
        None => first.to_string(),
    }
}
