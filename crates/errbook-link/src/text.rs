//! Text normalisation for matching: error messages become *templates* (lowercase words, numbers,
//! paths and quotes abstracted away) so that the small differences real messages have (device
//! ids, sizes, file paths, quote style, a trailing period) do not stop a match. Also where a
//! match is (its line) and the passage around it, for evidence.

/// One normalised token and the byte offset of its first character in the text it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tok {
    pub word: String,
    pub at: usize,
}

/// Placeholder for a number (sizes, device ids, addresses, line numbers).
pub(crate) const NUM: &str = "<n>";
/// Placeholder for a file path.
pub(crate) const PATH: &str = "<path>";

/// Tokens of `text` for template matching.
///
/// - words are runs of letters, digits and `_`, lowercased; a `-` or `'` between two letters
///   joins (`re-initialize` = `reinitialize`, `don't` = `dont`);
/// - a token starting with a digit (`0`, `2.00`, `0x7f3a`) is `<n>`;
/// - a whitespace-separated chunk holding `/` or `\` between word characters (a path) is `<path>`;
/// - everything else (quotes, backticks, punctuation) separates tokens.
pub(crate) fn tokens(text: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < text.len() {
        // Whitespace-separated chunk.
        let start = i;
        let mut end = i;
        while end < text.len() && !bytes[end].is_ascii_whitespace() {
            end += 1;
        }
        if end == start {
            i += 1;
            continue;
        }
        let chunk = &text[start..end];
        if is_path(chunk) {
            let lead = chunk
                .char_indices()
                .find(|(_, c)| c.is_alphanumeric() || *c == '/' || *c == '.' || *c == '~')
                .map(|(k, _)| k)
                .unwrap_or(0);
            out.push(Tok {
                word: PATH.to_string(),
                at: start + lead,
            });
        } else {
            words(chunk, start, &mut out);
        }
        i = end;
    }
    // Units after a number vary with the number (`2.00 GiB`, `512.00 MiB`).
    for k in 1..out.len() {
        if out[k - 1].word == NUM && UNITS.contains(&out[k].word.as_str()) {
            out[k].word = NUM.to_string();
        }
    }
    out.dedup_by(|b, a| a.word == NUM && b.word == NUM && b.at > a.at);
    out
}

/// Units that follow numbers in messages.
const UNITS: &[&str] = &[
    "b",
    "kb",
    "kib",
    "mb",
    "mib",
    "gb",
    "gib",
    "tb",
    "tib",
    "ms",
    "s",
    "sec",
    "seconds",
    "milliseconds",
    "bytes",
    "mhz",
    "ghz",
    "w",
];

fn is_path(chunk: &str) -> bool {
    let c = chunk.trim_matches(|c: char| !c.is_alphanumeric() && c != '/' && c != '\\');
    if c.len() < 3 || c.contains("://") {
        return false;
    }
    let b = c.as_bytes();
    (1..b.len().saturating_sub(1)).any(|k| {
        (b[k] == b'/' || b[k] == b'\\')
            && (b[k + 1].is_ascii_alphanumeric() || b[k + 1] == b'_' || b[k + 1] == b'.')
    }) || c.starts_with('/') && c.len() > 1
}

fn words(chunk: &str, base: usize, out: &mut Vec<Tok>) {
    let chars: Vec<(usize, char)> = chunk.char_indices().collect();
    let mut k = 0;
    while k < chars.len() {
        let (off, c) = chars[k];
        if !(c.is_alphanumeric() || c == '_') {
            k += 1;
            continue;
        }
        let mut w = String::new();
        let numeric = c.is_ascii_digit();
        while k < chars.len() {
            let c = chars[k].1;
            if c.is_alphanumeric() || c == '_' {
                w.extend(c.to_lowercase());
                k += 1;
            } else if (c == '-' || c == '\'' || c == '\u{2019}' || (numeric && c == '.'))
                && k + 1 < chars.len()
                && chars[k + 1].1.is_alphanumeric()
                && k > 0
                && chars[k - 1].1.is_alphanumeric()
            {
                k += 1;
            } else {
                break;
            }
        }
        out.push(Tok {
            word: if numeric { NUM.to_string() } else { w },
            at: base + off,
        });
    }
}

/// The words of a template, for display and set comparisons.
pub(crate) fn words_of(text: &str) -> Vec<String> {
    tokens(text).into_iter().map(|t| t.word).collect()
}

/// A message without the exception type it starts with (`RuntimeError: CUDA error` ->
/// `CUDA error`): the exception is a signal of its own, the template is the rest.
pub(crate) fn after_exception<'a>(message: &'a str, exception: Option<&str>) -> &'a str {
    match exception {
        Some(x) => message
            .strip_prefix(x)
            .map(|r| r.trim_start_matches(':').trim_start())
            .unwrap_or(message),
        None => message,
    }
}

/// A 64-bit hash of a token n-gram, the same for the same words within a process: a hash-map
/// key (foldhash, with the seed fixed).
pub(crate) fn gram_hash<S: AsRef<str>>(words: &[S]) -> u64 {
    use std::hash::{BuildHasher, Hash, Hasher};
    let mut h = foldhash::fast::FixedState::default().build_hasher();
    for w in words {
        w.as_ref().hash(&mut h);
    }
    h.finish()
}

/// 1-based line of a byte offset (what article inference finds by a search instead:
/// `infer::scan::line_in`).
#[cfg(test)]
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    let mut o = offset.min(text.len());
    while o > 0 && !text.is_char_boundary(o) {
        o -= 1;
    }
    text[..o].bytes().filter(|&b| b == b'\n').count() + 1
}

/// The sentence (or code line) around byte range `at..end` of `text`, trimmed to about 200
/// characters, for evidence excerpts.
pub(crate) fn excerpt(text: &str, at: usize, end: usize) -> String {
    let at = floor(text, at.min(text.len()));
    let end = floor(text, end.min(text.len()).max(at));
    let line_start = text[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let line_end = text[end..]
        .find('\n')
        .map(|i| end + i)
        .unwrap_or(text.len());
    // Within the line (a paragraph is one line in these files), cut at sentence ends.
    let before = &text[line_start..at];
    let s = before
        .rfind(". ")
        .map(|i| line_start + i + 2)
        .unwrap_or(line_start);
    let after = &text[end..line_end];
    let e = after.find(". ").map(|i| end + i + 1).unwrap_or(line_end);
    let mut x = text[s..e].trim().to_string();
    if x.chars().count() > 220 {
        // Keep the match, cut around it.
        let m0 = at - s;
        let from = floor(&x, m0.saturating_sub(80));
        let to = floor(&x, (end - s + 100).min(x.len()));
        let mut y = String::new();
        if from > 0 {
            y.push('\u{2026}');
        }
        y.push_str(x[from..to].trim());
        if to < x.len() {
            y.push('\u{2026}');
        }
        x = y;
    }
    x
}

fn floor(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_differences_normalise_away() {
        let a = words_of("RuntimeError: CUDA error on cuda:0 at /home/a/x.py, tried 2.00 GiB.");
        let b = words_of("runtimeerror: \"CUDA error\" on `cuda:3` at C:\\x\\y.py, tried 14 GiB");
        assert_eq!(a, b);
        assert_eq!(
            words_of("re-initialize the 'spawn'"),
            words_of("reinitialize the spawn")
        );
    }

    #[test]
    fn excerpt_is_the_sentence() {
        let t = "First one. The error Foo bar happens here. Last.";
        let at = t.find("Foo").unwrap();
        assert_eq!(excerpt(t, at, at + 7), "The error Foo bar happens here.");
    }
}
