//! Between the editor's terms and errbook's: file URIs and paths under the root, LSP positions
//! (lines and UTF-16 units) and byte offsets, errbook's diagnostics as LSP's.

use errbook_core::diag::{Diagnostic, Severity};
use lsp_types::{DiagnosticSeverity, NumberOrString, Position, Range, Uri};
use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, CONTROLS};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// What a path segment may not hold unescaped in a `file:` URI.
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// The `file:` URI of the absolute path `abs`.
pub(crate) fn uri_of(abs: &Path) -> Option<Uri> {
    let s = abs.to_string_lossy();
    Uri::from_str(&format!("file://{}", utf8_percent_encode(&s, PATH))).ok()
}

/// The absolute path a `file:` URI names.
pub(crate) fn path_of(uri: &Uri) -> Option<PathBuf> {
    let s = uri.as_str().strip_prefix("file://")?;
    let s = s.split(['?', '#']).next().unwrap_or(s);
    Some(PathBuf::from(
        percent_decode_str(s).decode_utf8().ok()?.as_ref(),
    ))
}

/// Where each line of a text starts, to go between byte offsets and LSP positions.
#[derive(Debug, Clone, Default)]
pub(crate) struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub(crate) fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { starts }
    }

    /// The position of byte `offset` of `text` (clamped to the text, and back to a character
    /// boundary).
    pub(crate) fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts.get(line).copied().unwrap_or(0).min(offset);
        let col: usize = text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, col as u32)
    }

    /// The byte offset of `pos` in `text` (clamped to its line and to the text).
    pub(crate) fn offset(&self, text: &str, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return text.len();
        };
        let end = (self.starts.get(pos.line as usize + 1).copied()).unwrap_or(text.len());
        let line = text.get(start..end).unwrap_or("");
        let mut units = 0usize;
        for (i, c) in line.char_indices() {
            if units >= pos.character as usize || c == '\n' {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }

    pub(crate) fn range(&self, text: &str, start: usize, len: usize) -> Range {
        let end = start.saturating_add(len);
        Range::new(self.position(text, start), self.position(text, end))
    }
}

/// errbook's diagnostic as the editor shows it: the same code, range, message, label and hint.
/// `lines` indexes the diagnostic's text when the caller has one at hand.
pub(crate) fn diagnostic(d: &Diagnostic, lines: Option<&Lines>) -> lsp_types::Diagnostic {
    let range = match (&d.source, lines) {
        (Some(src), Some(lines)) => lines.range(src, d.span.0, d.span.1),
        (Some(src), None) => range_from_line(d, src),
        (None, _) => Range::default(),
    };
    let mut message = d.message.clone();
    if !d.label.is_empty() {
        message.push_str(&format!(" ({})", d.label));
    }
    if let Some(h) = &d.hint {
        message.push_str(&format!("\nhelp: {h}"));
    }
    lsp_types::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.as_str().to_string())),
        source: Some("errbook".into()),
        message,
        data: d.hint.clone().map(serde_json::Value::String),
        ..Default::default()
    }
}

/// A diagnostic's range from its line and column and the text of its span, without indexing
/// the whole file (the files nobody has open are many).
fn range_from_line(d: &Diagnostic, src: &str) -> Range {
    let (line, col) = (d.line.saturating_sub(1) as u32, d.col.saturating_sub(1));
    let start_off = d.span.0.min(src.len());
    let end_off = start_off.saturating_add(d.span.1).min(src.len());
    let line_start = src
        .get(..start_off)
        .and_then(|s| s.rfind('\n'))
        .map_or(0, |i| i + 1);
    let col16: usize = (src.get(line_start..start_off).unwrap_or(""))
        .chars()
        .map(char::len_utf16)
        .sum();
    let col16 = if src.is_char_boundary(start_off) {
        col16
    } else {
        col
    };
    let span = src.get(start_off..end_off).unwrap_or("");
    let end = match span.rfind('\n') {
        Some(i) => Position::new(
            line + span.matches('\n').count() as u32,
            span[i + 1..].chars().map(char::len_utf16).sum::<usize>() as u32,
        ),
        None => Position::new(
            line,
            (col16 + span.chars().map(char::len_utf16).sum::<usize>()) as u32,
        ),
    };
    Range::new(Position::new(line, col16 as u32), end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_survive_any_offset() {
        let text = "ab\nçé𝄞x\n";
        let lines = Lines::new(text);
        assert_eq!(
            lines.position(text, 4),
            Position::new(1, 0).max(lines.position(text, 3))
        );
        let after_clef = text.find('x').unwrap();
        assert_eq!(lines.position(text, after_clef), Position::new(1, 4));
        assert_eq!(lines.offset(text, Position::new(1, 4)), after_clef);
        assert_eq!(lines.offset(text, Position::new(9, 9)), text.len());
        assert_eq!(lines.offset(text, Position::new(0, 99)), 2);
        let _ = lines.position(text, 9999);
    }

    #[test]
    fn uris_and_paths_go_both_ways() {
        let p = Path::new("/tmp/a b/c#d.md");
        let uri = uri_of(p).unwrap();
        assert_eq!(path_of(&uri).unwrap(), p);
    }
}
