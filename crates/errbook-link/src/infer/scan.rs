//! An article's source as article inference reads it, scanned once: its tokens (title line,
//! then body), where its lines and code blocks are, the words in it that look like error codes,
//! where a word is, and whether a passage mentions something in passing.

use crate::text::{self, Tok};
use crate::{Evidence, Place, Signal};
use errbook_core::model::Article;

/// An article's source, scanned once: the tokens of its title line and body, and where its
/// code blocks are.
pub(super) struct Scan<'a> {
    pub(super) src: &'a str,
    /// End of the front matter.
    pub(super) fm_end: usize,
    /// The title's tokens, a separator, then the body's.
    pub(super) toks: Vec<Tok>,
    /// How many of `toks` are the title's.
    pub(super) n_title: usize,
    /// Lines (inclusive) of the article's code blocks.
    code_lines: Vec<(usize, usize)>,
    /// Where each of its line breaks is: a passage's line is found by a binary search, not by
    /// counting the line breaks before it (an article can hold hundreds of passages).
    breaks: Vec<usize>,
}

impl<'a> Scan<'a> {
    pub(super) fn new(a: &Article, src: &'a str) -> Scan<'a> {
        let fm_end = crate::explicit::front_matter_end(src);
        let title_at = src[..fm_end].find("title:").unwrap_or(0);
        let title_end = src[title_at..]
            .find('\n')
            .map(|i| title_at + i)
            .unwrap_or(fm_end);
        let shifted =
            |toks: Vec<Tok>, by: usize| toks.into_iter().map(move |t| Tok { at: t.at + by, ..t });
        let mut toks: Vec<Tok> = shifted(text::tokens(&src[title_at..title_end]), title_at)
            .filter(|t| t.word != "title")
            .collect();
        let n_title = toks.len();
        toks.push(Tok {
            word: "\u{0}".into(),
            at: title_end,
        });
        toks.extend(shifted(text::tokens(&src[fm_end..]), fm_end));
        Scan {
            src,
            fm_end,
            toks,
            n_title,
            code_lines: code_line_ranges(a),
            breaks: line_breaks(src),
        }
    }

    /// The 1-based line of byte `at` (`line_in`).
    pub(super) fn line(&self, at: usize) -> usize {
        line_in(&self.breaks, self.src.len(), at)
    }

    /// Where the passage at byte `at` is (`in_title`: it is part of the title line).
    pub(super) fn place(&self, at: usize, in_title: bool) -> Place {
        if in_title {
            return Place::Title;
        }
        let line = self.line(at);
        if self.code_lines.iter().any(|&(s, e)| line >= s && line <= e) {
            return Place::Code;
        }
        let ls = self.src[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
        if self.src[ls..].starts_with('#') {
            Place::Heading
        } else {
            Place::Prose
        }
    }
}

/// Words around a mention that say the article is about something else ("unlike the
/// `X` error, ...").
const PASSING: &[&str] = &[
    "unlike",
    "not to be confused",
    "as opposed to",
    "different from",
    "differs from",
    "in contrast",
    "rather than",
    "instead of",
    "unrelated",
    "not the same",
    "not related",
    "see also",
    "another error",
    "a different error",
];

pub(super) fn is_passing(excerpt: &str) -> bool {
    let l = excerpt.to_lowercase();
    PASSING.iter().any(|p| l.contains(p))
}

pub(super) fn evidence(signal: Signal, excerpt: String, line: usize, weight: f64) -> Evidence {
    Evidence {
        signal,
        excerpt,
        line: Some(line),
        weight,
    }
}

/// The 1-based line of byte `at` of a text of `len` bytes whose line breaks are at `breaks`:
/// one more than the breaks before it (`text::line_of`, which counts them).
fn line_in(breaks: &[usize], len: usize, at: usize) -> usize {
    let at = at.min(len);
    breaks.partition_point(|&b| b < at) + 1
}

/// The offsets of the line breaks of `src`.
fn line_breaks(src: &str) -> Vec<usize> {
    (src.bytes().enumerate())
        .filter(|&(_, b)| b == b'\n')
        .map(|(i, _)| i)
        .collect()
}

/// Lines (inclusive) of the article's code blocks.
fn code_line_ranges(a: &Article) -> Vec<(usize, usize)> {
    a.snippets
        .iter()
        .map(|s| (s.line, s.line + s.code.lines().count() + 1))
        .collect()
}

/// Words that look like error codes (`CUDA_ERROR_NOT_INITIALIZED`, `E0308`, `ENOENT`) with their
/// offsets, after `from`.
pub(super) fn code_words(src: &str, from: usize) -> Vec<(&str, usize)> {
    static RE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\b(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|E[A-Z]{3,}|[A-Z]{1,3}[0-9]{3,5})\b")
            .expect("static regex")
    });
    let title = src[..from].find("title:").unwrap_or(from);
    RE.find_iter(src)
        .filter(|m| m.start() >= title)
        .map(|m| (m.as_str(), m.start()))
        .collect()
}

/// Where `w` first stands as a word of its own in `src`, after `from`.
pub(super) fn find_word(src: &str, w: &str, from: usize) -> Option<usize> {
    src[from..]
        .match_indices(w)
        .map(|(i, _)| i + from)
        .find(|&i| {
            let b = src[..i].chars().next_back();
            let a = src[i + w.len()..].chars().next();
            !b.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                && !a.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_line_found_by_search_is_the_line_counted() {
        for src in ["", "one", "a\nb", "\n\nx\n", "é\nü✓\n\nlast ✓ line\n✓"] {
            let breaks = super::line_breaks(src);
            for at in 0..src.len() + 3 {
                let want = crate::text::line_of(src, at);
                assert_eq!(
                    super::line_in(&breaks, src.len(), at),
                    want,
                    "{src:?} at {at}"
                );
            }
        }
    }
}
