//! Tokenise: text -> index terms. Lowercase ASCII words; compounds (`re-initialize`,
//! `CUDA_ERROR_NOT_INITIALIZED`) give the joined word and its parts; placeholders, stop words,
//! one-letter words and bare numbers are dropped; a light suffix stemmer folds `forked`/`fork`,
//! `workers`/`worker`, `initialized`/`initialize`. search-rank.js does the same, step for step.

use regex::Regex;
use std::sync::LazyLock;

static PLACEHOLDER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"<(?:n|path|hex|size|str|url)>").expect("static regex"));

/// Sorted: `keep` looks words up by binary search.
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
    stem_of(w).to_string()
}

/// `stem`, as the part of `w` it keeps (a stem is always a prefix of its word).
fn stem_of(w: &str) -> &str {
    if w.len() < 4 || w.bytes().any(|b| b.is_ascii_digit()) {
        return w;
    }
    for suf in SUFFIXES {
        if w.ends_with(suf) && w.len() - suf.len() >= 3 && !(*suf == "s" && w.ends_with("ss")) {
            return &w[..w.len() - suf.len()];
        }
    }
    w
}

fn keep(w: &str) -> bool {
    w.len() >= 2 && !w.bytes().all(|b| b.is_ascii_digit()) && STOP.binary_search(&w).is_err()
}

/// The terms of a text, in order, with repeats (term frequency counts at index time).
pub(super) fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    each(text, |t| out.push(t.to_string()));
    out
}

/// Call `f` with each term of `text`, in order, with repeats: `tokens` without making a
/// string of each.
pub(super) fn each(text: &str, mut f: impl FnMut(&str)) {
    let lower = if text.contains('<') {
        PLACEHOLDER.replace_all(text, " ").to_ascii_lowercase()
    } else {
        text.to_ascii_lowercase()
    };
    let mut joined = String::new();
    for w in words(&lower) {
        if w.contains(['-', '_']) {
            joined.clear();
            joined.extend(w.split('-'));
            if keep(&joined) {
                f(stem_of(&joined));
            }
            for p in w.split(['-', '_']) {
                if keep(p) {
                    f(stem_of(p));
                }
            }
        } else if keep(w) {
            f(stem_of(w));
        }
    }
}

/// The words of `s` as the regular expression `[a-z0-9]+(?:[-_][a-z0-9]+)*` finds them (the
/// leftmost, longest; search-rank.js uses that expression), by a scan of its bytes.
fn words(s: &str) -> impl Iterator<Item = &str> {
    let b = s.as_bytes();
    let word = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() && !word(b[i]) {
            i += 1;
        }
        if i >= b.len() {
            return None;
        }
        let start = i;
        loop {
            while i < b.len() && word(b[i]) {
                i += 1;
            }
            if i + 1 < b.len() && matches!(b[i], b'-' | b'_') && word(b[i + 1]) {
                i += 1;
            } else {
                break;
            }
        }
        // Both ends are next to ASCII bytes, so this is always a slice of whole characters.
        s.get(start..i)
    })
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

    proptest::proptest! {
        #[test]
        fn the_scan_finds_what_the_expression_finds(s in "[a-zA-Z0-9_ .<>é-]{0,40}") {
            let re = Regex::new(r"[a-z0-9]+(?:[-_][a-z0-9]+)*").unwrap();
            let lower = s.to_ascii_lowercase();
            let want: Vec<&str> = re.find_iter(&lower).map(|m| m.as_str()).collect();
            proptest::prop_assert_eq!(words(&lower).collect::<Vec<_>>(), want);
        }
    }

    #[test]
    fn stop_words_are_sorted_for_the_binary_search() {
        assert!(STOP.windows(2).all(|w| w[0] < w[1]), "{STOP:?}");
        assert!(!keep("the") && !keep("your") && !keep("a") && keep("cuda"));
    }

    #[test]
    fn the_scan_cuts_words_at_lone_separators() {
        let w: Vec<&str> = words("a--b _c_ d-e_f- -g 12-").collect();
        assert_eq!(w, ["a", "b", "c", "d-e_f", "g", "12"]);
    }
}
