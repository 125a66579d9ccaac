//! Tokenise: text -> index terms. Lowercase ASCII words; compounds (`re-initialize`,
//! `CUDA_ERROR_NOT_INITIALIZED`) give the joined word and its parts; placeholders, stop words,
//! one-letter words and bare numbers are dropped; a light suffix stemmer folds `forked`/`fork`,
//! `workers`/`worker`, `initialized`/`initialize`. search-rank.js does the same, step for step.

use regex::Regex;
use std::sync::LazyLock;

static PLACEHOLDER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"<(?:n|path|hex|size|str|url)>").expect("static regex"));
static WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[a-z0-9]+(?:[-_][a-z0-9]+)*").expect("static regex"));

const STOP: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "have", "if", "in",
    "into", "is", "it", "its", "of", "on", "or", "so", "that", "the", "this", "to", "was", "were",
    "with", "you", "your",
];

const SUFFIXES: &[&str] = &["ations", "ation", "ings", "ing", "ed", "es", "s", "e"];

/// Words of error messages in general: how a failure is phrased, not which failure it is
/// ("cannot open shared object file: No such file or directory" says little next to the
/// library's name). A catalog too small for its own statistics to show that still weighs them
/// down (the ranking's second pass).
const GENERIC: &[&str] = &[
    "error",
    "exception",
    "fail",
    "failed",
    "failure",
    "fatal",
    "cannot",
    "can",
    "could",
    "not",
    "no",
    "unable",
    "invalid",
    "unexpected",
    "unexpectedly",
    "expected",
    "found",
    "got",
    "get",
    "encountered",
    "occurred",
    "unhandled",
    "unknown",
    "unsupported",
    "supported",
    "missing",
    "such",
    "file",
    "directory",
    "open",
    "object",
    "load",
    "library",
    "call",
    "calling",
    "function",
    "argument",
    "value",
    "type",
    "version",
    "please",
    "try",
    "make",
    "sure",
    "check",
    "use",
    "using",
    "run",
    "running",
    "see",
    "details",
    "more",
    "information",
    "when",
    "while",
    "during",
    "all",
    "any",
    "least",
    "must",
    "should",
    "might",
    "may",
    "need",
    "available",
    "enabled",
    "initialized",
    "default",
    "given",
    "raised",
    "reported",
    "but",
    "does",
    "did",
    "been",
    "being",
    "there",
    "which",
    "what",
    "than",
    "then",
    "only",
    "also",
    "will",
    "would",
    "other",
    "another",
    "same",
    "instead",
    "following",
    "above",
    "below",
    "runtimeerror",
    "valueerror",
    "typeerror",
    "importerror",
    "oserror",
    "assertionerror",
    "indexerror",
    "keyerror",
    "attributeerror",
    "modulenotfounderror",
    "notimplementederror",
    "userwarning",
    "warning",
];

static GENERIC_STEMS: LazyLock<std::collections::HashSet<String>> =
    LazyLock::new(|| GENERIC.iter().map(|w| stem(w)).collect());

/// Whether a term is a word of error messages in general.
pub(super) fn generic(term: &str) -> bool {
    GENERIC_STEMS.contains(term)
}

/// Fold a few English suffixes (only on words of 4+ letters, leaving a stem of 3+).
pub(super) fn stem(w: &str) -> String {
    if w.len() < 4 || w.bytes().any(|b| b.is_ascii_digit()) {
        return w.to_string();
    }
    for suf in SUFFIXES {
        if w.ends_with(suf) && w.len() - suf.len() >= 3 && !(*suf == "s" && w.ends_with("ss")) {
            return w[..w.len() - suf.len()].to_string();
        }
    }
    w.to_string()
}

fn keep(w: &str) -> bool {
    w.len() >= 2 && !w.bytes().all(|b| b.is_ascii_digit()) && !STOP.contains(&w)
}

/// The terms of a text, in order, with repeats (term frequency counts at index time).
pub(super) fn tokens(text: &str) -> Vec<String> {
    let lower = PLACEHOLDER.replace_all(text, " ").to_ascii_lowercase();
    let mut out = Vec::new();
    for m in WORD.find_iter(&lower) {
        let w = m.as_str();
        if w.contains(['-', '_']) {
            let joined = w.replace('-', "");
            if keep(&joined) {
                out.push(stem(&joined));
            }
            for p in w.split(['-', '_']) {
                if keep(p) {
                    out.push(stem(p));
                }
            }
        } else if keep(w) {
            out.push(stem(w));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compounds_stems_and_stop_words() {
        assert_eq!(
            tokens("Cannot re-initialize CUDA in forked subprocess"),
            [
                "cannot",
                "reinitializ",
                "re",
                "initializ",
                "cuda",
                "fork",
                "subprocess"
            ]
        );
        assert_eq!(
            tokens("CUDA_ERROR_NOT_INITIALIZED"),
            [
                "cuda_error_not_initializ",
                "cuda",
                "error",
                "not",
                "initializ"
            ]
        );
        assert_eq!(tokens("<n> workers on <path> 12 x"), ["worker"]);
        assert_eq!(stem("processes"), "process");
        assert_eq!(stem("float16"), "float16");
        assert_eq!(stem("types"), stem("type"));
    }
}
