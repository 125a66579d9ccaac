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

impl Excerpt {
    /// The excerpt of `src` around the byte span `(offset, len)`, which starts on 1-based `line`.
    pub(super) fn new(name: String, src: &str, offset: usize, len: usize, line: usize) -> Excerpt {
        let offset = super::lines::floor_char_boundary(src, offset.min(src.len()));
        let end = super::lines::floor_char_boundary(src, (offset + len).min(src.len()));
        let line_start = src[..offset].rfind('\n').map_or(0, |i| i + 1);
        // One line before the span, if there is one.
        let (from, first_line) = match line_start.checked_sub(1) {
            Some(nl) => (
                src[..nl].rfind('\n').map_or(0, |i| i + 1),
                line.saturating_sub(2),
            ),
            None => (0, line.saturating_sub(1)),
        };
        let lead_col = src[line_start..offset].chars().count().saturating_sub(LEAD);
        let mut e = Excerpt {
            name,
            text: String::new(),
            span: SourceSpan::new(0.into(), 0),
            first_line,
            lines: 0,
        };
        let (mut span_start, mut span_end) = (None, None);
        let mut at = from;
        // The lines before, of and after the span, each cut to the same columns.
        while at <= src.len() && e.lines < MAX_LINES {
            let stop = src[at..].find('\n').map_or(src.len(), |i| at + i);
            let line_text = &src[at..stop];
            let (shown, map) = cut(line_text, lead_col);
            let base = e.text.len();
            if (at..=stop).contains(&offset) && span_start.is_none() {
                span_start = Some(base + map(offset - at));
            }
            if (at..=stop).contains(&end) && span_start.is_some() {
                span_end = Some(base + map(end - at));
            }
            e.text.push_str(&shown);
            e.lines += 1;
            // The line after the span is the last one shown.
            if stop >= src.len() || at > end {
                break;
            }
            e.text.push('\n');
            at = stop + 1;
        }
        let s = span_start.unwrap_or(0);
        let t = span_end.unwrap_or(e.text.len()).max(s);
        e.span = SourceSpan::new(s.into(), t - s);
        e
    }
}

/// `line` cut to `WIDTH` characters from column `lead` (with `…` where cut), and a map from a
/// byte offset in `line` to one in the cut text.
fn cut(line: &str, lead: usize) -> (String, impl Fn(usize) -> usize + '_) {
    let chars = line.chars().count();
    if chars <= WIDTH {
        return (
            line.to_string(),
            Box::new(move |o: usize| o) as Box<dyn Fn(usize) -> usize>,
        );
    }
    let start_col = lead.min(chars.saturating_sub(WIDTH));
    let byte_at = |col: usize| line.char_indices().nth(col).map_or(line.len(), |(i, _)| i);
    let (from, to) = (byte_at(start_col), byte_at(start_col + WIDTH));
    let head = if from > 0 { "…" } else { "" };
    let tail = if to < line.len() { "…" } else { "" };
    let shown = format!("{head}{}{tail}", &line[from..to]);
    let map = move |o: usize| {
        let o = o.clamp(from, to);
        head.len() + (o - from)
    };
    (shown, Box::new(map) as Box<dyn Fn(usize) -> usize>)
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
            let d = crate::core::diag::Diagnostic::at(
                crate::core::diag::Code::Stray,
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
