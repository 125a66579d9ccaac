//! Evidence: why a link was drawn, as data. A `Signal` says what matched, in typed parts (where
//! a passage was found, how much of the message it covers, which code token); its `Display` is
//! the phrase readers see on pages, in `/api/links.json` and in `check --links`, and it
//! serialises as that same phrase. Which signals count for how much is `infer`'s business.

use serde::{Serialize, Serializer};
use std::fmt;

/// Why a link was drawn: what matched, and the passage it matched in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence {
    /// What matched ("message in prose", "error code `E0308` in title", "call `foo()`").
    pub signal: Signal,
    /// The matching passage as it appears in the source (trimmed to a sentence or a line).
    pub excerpt: String,
    /// 1-based line in the source file of `from`, when known.
    pub line: Option<usize>,
    pub weight: f64,
}

/// What kind of match a piece of evidence is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Signal {
    /// An entry's message (or one of its `aliases`) in an article: "message headline in prose",
    /// "alias message in title", "message in prose, mentioned in passing".
    Message {
        extent: Extent,
        alias: bool,
        place: Place,
        /// The words around it say the article is about something else ("unlike ...").
        passing: bool,
    },
    /// An entry's message in what a snippet of the article printed when it ran (a fresh
    /// verification record): "message in the recorded run of `ex2`".
    RecordedMessage { extent: Extent, snippet: String },
    /// An entry's error code, as a word of an article: "error code `E0308` in prose".
    ErrorCode { code: String, place: Place },
    /// An entry's exception type in an article: "exception `RuntimeError`".
    Exception { name: String },
    /// A code-like token a workaround or dead end names, found in a snippet's code:
    /// "call `set_start_method('spawn')`", "setting `num_workers=0` (partly)".
    Token {
        kind: TokenKind,
        /// The token as the workaround or dead end writes it.
        text: String,
        /// Only partly matched (some of a call's arguments).
        partly: bool,
    },
    /// The words and names that set an entry apart from the others (from its message, root
    /// cause, workarounds and dead ends), used by an article that never quotes its message:
    /// "7 of the entry's distinctive terms".
    Topic { shared: usize },
    /// The snippet's recorded run (of this date, `YYYY-MM-DD`) failed with the entry's error.
    RecordedFailure { date: String },
    /// Two entries with the same error code.
    SameErrorCode { code: String },
    /// Two entries whose messages share rare words.
    SimilarWording,
    /// Two entries whose workarounds and dead ends name the same APIs.
    SameApi,
    /// Two entries of the same category.
    SameCategory { category: String },
}

/// Where in an article a passage is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    Title,
    Heading,
    Code,
    Prose,
}

/// How much of an entry's message a passage covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Extent {
    /// Every word.
    Whole,
    /// Its first sentence, the headline people quote.
    Headline,
    /// A run of its words.
    Part,
}

/// The kind of a code-like token (see `link::code::Kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Call,
    Setting,
    Guard,
    Import,
    Name,
    Class,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Place::Title => "title",
            Place::Heading => "heading",
            Place::Code => "code",
            Place::Prose => "prose",
        })
    }
}

impl fmt::Display for Extent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Extent::Whole => "message",
            Extent::Headline => "message headline",
            Extent::Part => "part of the message",
        })
    }
}

impl fmt::Display for TokenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TokenKind::Call => "call",
            TokenKind::Setting => "setting",
            TokenKind::Guard => "guard",
            TokenKind::Import => "import",
            TokenKind::Name => "name",
            TokenKind::Class => "class",
        })
    }
}

impl fmt::Display for Signal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Signal::Message {
                extent,
                alias,
                place,
                passing,
            } => {
                let alias = if *alias { "alias " } else { "" };
                let passing = if *passing {
                    ", mentioned in passing"
                } else {
                    ""
                };
                write!(f, "{alias}{extent} in {place}{passing}")
            }
            Signal::RecordedMessage { extent, snippet } => {
                write!(f, "{extent} in the recorded run of `{snippet}`")
            }
            Signal::ErrorCode { code, place } => write!(f, "error code `{code}` in {place}"),
            Signal::Exception { name } => write!(f, "exception `{name}`"),
            Signal::Token { kind, text, partly } => {
                let partly = if *partly { " (partly)" } else { "" };
                write!(f, "{kind} `{text}`{partly}")
            }
            Signal::Topic { shared } => write!(f, "{shared} of the entry's distinctive terms"),
            Signal::RecordedFailure { date } => {
                write!(f, "its recorded run ({date}) failed with this error")
            }
            Signal::SameErrorCode { code } => write!(f, "same error code `{code}`"),
            Signal::SimilarWording => f.write_str("similar message wording"),
            Signal::SameApi => f.write_str("workarounds name the same API"),
            Signal::SameCategory { category } => write!(f, "same category `{category}`"),
        }
    }
}

/// As the phrase `Display` writes: `/api/links.json` shows readers the same words as the pages.
impl Serialize for Signal {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each signal reads, and serialises, as the words pages showed before it was typed.
    fn reads(signal: Signal, words: &str) {
        assert_eq!(signal.to_string(), words);
        assert_eq!(
            serde_json::to_string(&signal).unwrap(),
            serde_json::to_string(words).unwrap()
        );
    }

    #[test]
    fn article_signals() {
        let message = |extent, alias, place, passing| Signal::Message {
            extent,
            alias,
            place,
            passing,
        };
        reads(
            message(Extent::Whole, false, Place::Prose, false),
            "message in prose",
        );
        reads(
            message(Extent::Headline, true, Place::Title, false),
            "alias message headline in title",
        );
        reads(
            message(Extent::Part, false, Place::Code, true),
            "part of the message in code, mentioned in passing",
        );
        let snippet = "ex2".to_string();
        let extent = Extent::Whole;
        reads(
            Signal::RecordedMessage { extent, snippet },
            "message in the recorded run of `ex2`",
        );
        let code = "CUDA_ERROR_NOT_INITIALIZED".to_string();
        reads(
            Signal::ErrorCode {
                code,
                place: Place::Heading,
            },
            "error code `CUDA_ERROR_NOT_INITIALIZED` in heading",
        );
        let name = "RuntimeError".to_string();
        reads(Signal::Exception { name }, "exception `RuntimeError`");
    }

    #[test]
    fn snippet_and_related_signals() {
        let token = |kind, text: &str, partly| Signal::Token {
            kind,
            text: text.into(),
            partly,
        };
        reads(
            token(TokenKind::Call, "mp.set_start_method('spawn')", true),
            "call `mp.set_start_method('spawn')` (partly)",
        );
        reads(
            token(TokenKind::Name, "worker_init_fn", false),
            "name `worker_init_fn`",
        );
        let date = "2025-03-01".to_string();
        reads(
            Signal::RecordedFailure { date },
            "its recorded run (2025-03-01) failed with this error",
        );
        let code = "E0308".to_string();
        reads(Signal::SameErrorCode { code }, "same error code `E0308`");
        reads(Signal::SimilarWording, "similar message wording");
        reads(Signal::SameApi, "workarounds name the same API");
        reads(
            Signal::Topic { shared: 7 },
            "7 of the entry's distinctive terms",
        );
        let category = "resource_error".to_string();
        reads(
            Signal::SameCategory { category },
            "same category `resource_error`",
        );
    }
}
