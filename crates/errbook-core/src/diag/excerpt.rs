//! The part of a file a diagnostic shows: the lines of its span and one line either side, at
//! most `MAX_LINES` of them and at most `WIDTH` characters of each, cut around the span. miette
//! is handed this excerpt, never the whole file: rendering costs what is shown whatever the size
//! of the file, and no line is wide enough for miette's padding to overflow (a span past column
//! 65,535 panicked in its formatter, and took `serve` down with it).

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// Characters of a line shown at most.
const WIDTH: usize = 160;
/// Characters shown before the span's start when a line is cut.
const LEAD: usize = 40;
/// Lines shown at most (a longer span is cut after its first lines).
const MAX_LINES: usize = 8;

/// Bytes searched at most for a line's start or end: enough for `WIDTH` characters of any size.
const SCAN: usize = WIDTH * 4;

/// The shown lines, and where in them the span and the first line are.
#[derive(Debug)]
pub(super) struct Excerpt {
    name: String,
    text: String,
    /// The span within `text`.
    pub span: SourceSpan,
    /// 0-based line number of the excerpt's first line in the file.
    first_line: usize,
    lines: usize,
}

/// One shown line: the byte range of the file it shows, and whether it was cut at either end.
struct Shown {
    from: usize,
    to: usize,
    head: bool,
    tail: bool,
}

impl Excerpt {
    /// The excerpt of `src` around the byte span `(offset, len)`, which starts on 1-based `line`.
    /// Every search is bounded (`SCAN`), so the cost does not grow with the line or the file.
    pub(super) fn new(name: String, src: &str, offset: usize, len: usize, line: usize) -> Excerpt {
        let floor = |i: usize| super::lines::floor_char_boundary(src, i.min(src.len()));
        let offset = floor(offset);
        let end = floor(offset.saturating_add(len)).max(offset);
        let mut shown = Vec::new();
        // The line before, when its start is near.
        let line_start = line_start_near(src, offset);
        let mut first_line = line.saturating_sub(1);
        if let Some(ls) = line_start.filter(|&ls| ls > 0) {
            if let Some(ps) = line_start_near(src, ls - 1) {
                shown.push(from_start(src, ps));
                first_line = first_line.saturating_sub(1);
            }
        }
        // The span's line: from its start when the span begins within its first `WIDTH`
        // characters, else cut to begin `LEAD` characters before the span.
        let whole = line_start
            .map(|ls| from_start(src, ls))
            .filter(|l| offset <= l.to && (!l.tail || offset < l.to));
        let cur = whole.unwrap_or_else(|| {
            let lo = line_start.unwrap_or_else(|| floor(offset.saturating_sub(SCAN)));
            let lead_from = src[lo..offset]
                .char_indices()
                .rev()
                .take(LEAD)
                .last()
                .map_or(offset, |(i, _)| lo + i);
            let mut cut = from_start(src, lead_from);
            cut.head = line_start.is_none_or(|ls| lead_from > ls);
            cut
        });
        shown.push(cur);
        // The lines after, while the span goes on, and one more.
        while shown.len() < MAX_LINES {
            let Some(last) = shown.last() else { break };
            let after_span = last.from > end;
            let Some(next) = next_line_start(src, last.to) else {
                break;
            };
            if after_span {
                break;
            }
            shown.push(from_start(src, next));
        }
        Self::assemble(name, src, &shown, first_line, offset, end)
    }

    /// The shown lines as one text, and the span mapped into it (clipped to what is shown).
    fn assemble(
        name: String,
        src: &str,
        shown: &[Shown],
        first_line: usize,
        offset: usize,
        end: usize,
    ) -> Excerpt {
        let mut text = String::new();
        let (mut span_start, mut span_end) = (None, None);
        for (k, l) in shown.iter().enumerate() {
            if k > 0 {
                text.push('\n');
            }
            if l.head {
                text.push('…');
            }
            let base = text.len();
            let map = |o: usize| base + o.clamp(l.from, l.to) - l.from;
            if span_start.is_none() && offset <= l.to && offset >= l.from {
                span_start = Some(map(offset));
            }
            if span_start.is_some() && end >= l.from {
                span_end = Some(map(end));
            }
            text.push_str(&src[l.from..l.to]);
            if l.tail {
                text.push('…');
            }
        }
        let s = span_start.unwrap_or(0);
        let t = span_end.unwrap_or(s).max(s);
        Excerpt {
            name,
            lines: shown.len(),
            text,
            span: SourceSpan::new(s.into(), t - s),
            first_line,
        }
    }
}

/// The start of the line holding `at`, if it lies within `SCAN` bytes before it.
fn line_start_near(src: &str, at: usize) -> Option<usize> {
    let lo = at.saturating_sub(SCAN);
    match src.as_bytes()[lo..at].iter().rposition(|&b| b == b'\n') {
        Some(i) => Some(lo + i + 1),
        None if lo == 0 => Some(0),
        None => None,
    }
}

/// The start of the line after the one `to` lies on, if its end is within `SCAN` bytes.
fn next_line_start(src: &str, to: usize) -> Option<usize> {
    let hi = (to + SCAN).min(src.len());
    let nl = src.as_bytes()[to..hi].iter().position(|&b| b == b'\n')?;
    let next = to + nl + 1;
    (next < src.len()).then_some(next)
}

/// A line shown from `from`: at most `WIDTH` characters, up to its end.
fn from_start(src: &str, from: usize) -> Shown {
    let rest = &src[from..];
    let mut to = from;
    for (count, (i, c)) in rest.char_indices().enumerate() {
        if c == '\n' || count == WIDTH {
            break;
        }
        to = from + i + c.len_utf8();
    }
    let line_end = to >= src.len() || src.as_bytes()[to] == b'\n';
    // A carriage return before the newline is not shown.
    let to = if line_end && to > from && src.as_bytes()[to - 1] == b'\r' {
        to - 1
    } else {
        to
    };
    Shown {
        from,
        to,
        head: false,
        tail: !line_end,
    }
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        _span: &SourceSpan,
        _context_lines_before: usize,
        _context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            self.text.as_bytes(),
            SourceSpan::new(0.into(), self.text.len()),
            self.first_line,
            0,
            self.lines,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(src: &str, offset: usize, len: usize) -> (String, String) {
        let line = super::super::lines::line_col(src, offset).0;
        let e = Excerpt::new("f".into(), src, offset, len, line);
        let s = e.span.offset();
        (e.text.clone(), e.text[s..s + e.span.len()].to_string())
    }

    #[test]
    fn short_lines_are_shown_whole_with_one_line_around() {
        let src = "one\ntwo\nthree bad four\nfive\nsix\n";
        let at = src.find("bad").unwrap();
        assert_eq!(
            shown(src, at, 3),
            ("two\nthree bad four\nfive".into(), "bad".into())
        );
        assert_eq!(shown(src, 0, 3), ("one\ntwo".into(), "one".into()));
    }

    #[test]
    fn a_line_that_fits_is_shown_from_its_start() {
        let src = format!("{}BAD and more\n", "word ".repeat(25));
        let at = src.find("BAD").unwrap();
        let (text, span) = shown(&src, at, 3);
        assert_eq!((text.as_str(), span.as_str()), (src.trim_end(), "BAD"));
    }

    #[test]
    fn a_long_line_is_cut_around_the_span() {
        let src = format!("x: [{}, : ]]\nnext\n", "a, ".repeat(40_000));
        let at = src.find(": ]").unwrap();
        let (text, span) = shown(&src, at, 1);
        assert!(
            text.lines().all(|l| l.chars().count() <= WIDTH + 2),
            "{text}"
        );
        assert!(text.starts_with('…'), "{text}");
        assert_eq!(span, ":");
    }

    #[test]
    fn a_long_span_is_cut_after_its_first_lines() {
        let src = "a\n".repeat(1000);
        let (text, _) = shown(&src, 2, src.len() - 2);
        assert_eq!(text.lines().count(), MAX_LINES);
    }

    proptest::proptest! {
        /// Any span of any text renders, and the excerpt stays small whatever the file.
        #[test]
        fn any_span_renders_within_bounds(src in "([a-z]{0,300}|é|\t|\r|\n){0,40}", at in 0usize..20_000, len in 0usize..20_000) {
            let src: std::sync::Arc<str> = std::sync::Arc::from(src.as_str());
            let d = crate::diag::Diagnostic::at(
                crate::diag::Code::Stray,
                std::path::Path::new("a.md"),
                &src,
                at,
                len,
                "x",
            );
            let out = d.render(false);
            proptest::prop_assert!(out.lines().count() <= MAX_LINES + 12, "{out}");
            proptest::prop_assert!(out.lines().all(|l| l.chars().count() <= WIDTH + 40), "{out}");
        }
    }
}
