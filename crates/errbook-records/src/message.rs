//! What an exception's message is, and what is not: a message read from a run's output can run
//! on into lines that Python's `warnings` module printed after it as the interpreter shut down
//! (`multiprocessing`'s resource tracker: `.../resource_tracker.py:254: UserWarning:
//! resource_tracker: There appear to be 6 leaked semaphore objects to clean up at shutdown`, then
//! the source line under it). Such a line is no part of the exception: the message stops before
//! it. The traceback reader stops there as it records a run, and records made before it did are
//! cut here as they are read. And the words of an entry's message that every run raising it
//! prints (`constant_words`), which a claim that a block raises it matches.

/// `message` without the warnings printed after it: everything from its first line (after the
/// first) that is a warning, as `warnings` formats one (`path:line: SomeWarning: text`).
pub fn without_warnings(message: &str) -> &str {
    let mut at = 0;
    for (k, line) in message.split_inclusive('\n').enumerate() {
        if k > 0 && is_warning_line(line) {
            return message[..at].trim_end();
        }
        at += line.len();
    }
    message
}

/// Whether `line` is a warning as Python's `warnings.formatwarning` writes it:
/// `<path>:<line>: <Category>: <text>`, unindented, the category's name ending in `Warning`.
pub fn is_warning_line(line: &str) -> bool {
    let l = line.trim_end();
    if l.starts_with(char::is_whitespace) {
        return false;
    }
    l.match_indices(": ").any(|(i, _)| {
        let Some((path, number)) = l[..i].rsplit_once(':') else {
            return false;
        };
        let numbered = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit());
        let rest = &l[i + 2..];
        let category = rest.split(':').next().unwrap_or("");
        let named = category.ends_with("Warning")
            && category
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
        !path.is_empty() && numbered && named && rest[category.len()..].starts_with(':')
    })
}

/// Fewest words `constant_words` gives: fewer say too little to tell one error from another.
const MIN_WORDS: usize = 3;
/// Most words it gives.
const MAX_WORDS: usize = 24;

/// The words of an error message (written without its exception type) that every run raising
/// it prints as they are: of its first sentence, the longest run of words none of which varies
/// from run to run (a number, a device `cuda:0`, a name in quotes or brackets, a placeholder),
/// at least `MIN_WORDS` of them, their last punctuation dropped. What a claim matches the raised
/// message by (`judge::entry_claim`).
pub fn constant_words(message: &str) -> Option<String> {
    let first = message.lines().next().unwrap_or("");
    let sentence = [". ", "! ", "? "]
        .iter()
        .filter_map(|end| first.find(end))
        .min()
        .map_or(first, |at| &first[..at]);
    let varies = |w: &str| {
        w.chars().any(|c| {
            c.is_ascii_digit()
                || matches!(
                    c,
                    '\'' | '"' | '`' | '<' | '>' | '{' | '}' | '[' | ']' | '(' | ')'
                )
                || !c.is_ascii() && !c.is_alphabetic()
        })
    };
    let mut best: &[&str] = &[];
    let words: Vec<&str> = sentence.split_whitespace().collect();
    for run in words.split(|w| varies(w)) {
        if run.len() > best.len() {
            best = run;
        }
    }
    if best.len() < MIN_WORDS {
        return None;
    }
    let text = best[..best.len().min(MAX_WORDS)].join(" ");
    Some(
        text.trim_end_matches(['.', ',', ';', ':', '!', '?'])
            .to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The final message of workaround-1 of content/errors/pytorch/dataset-worker-fork-cuda.md
    /// as its H100 record in verify/ keeps it (recorded 2026-12-07).
    const RECORDED: &str = "DataLoader worker (pid(s) 21) exited unexpectedly\n/usr/lib/python3.12/multiprocessing/resource_tracker.py:254: UserWarning: resource_tracker: There appear to be 6 leaked semaphore objects to clean up at shutdown\n  warnings.warn('resource_tracker: There appear to be %d '";

    #[test]
    fn a_warning_printed_at_exit_is_no_part_of_the_message() {
        assert_eq!(
            without_warnings(RECORDED),
            "DataLoader worker (pid(s) 21) exited unexpectedly"
        );
        let shm = "boom\n/usr/lib/python3.12/multiprocessing/resource_tracker.py:279: UserWarning: resource_tracker: There appear to be 3 leaked shared_memory objects to clean up at shutdown\n  warnings.warn(";
        assert_eq!(without_warnings(shm), "boom");
        let dotted = "x\nsnippet.py:3: torch.jit.TracerWarning: y";
        assert_eq!(without_warnings(dotted), "x");
    }

    #[test]
    fn an_entry_s_message_is_matched_by_the_words_every_run_prints() {
        let words = |m: &str| constant_words(m);
        assert_eq!(
            words("Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method."),
            Some("Cannot re-initialize CUDA in forked subprocess".into())
        );
        assert_eq!(
            words("Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"),
            Some("Expected all tensors to be on the same device, but found at least two devices".into())
        );
        assert_eq!(
            words("mat1 and mat2 shapes cannot be multiplied (64x128 and 256x10)"),
            Some("shapes cannot be multiplied".into())
        );
        assert_eq!(
            words("CUDA out of memory. Tried to allocate {size}"),
            Some("CUDA out of memory".into())
        );
        assert_eq!(words("division by zero"), Some("division by zero".into()));
        // Too few words that hold still: nothing to match by.
        assert_eq!(words("'int' object is {x}"), None);
        assert_eq!(words("KeyError 'x'"), None);
        assert_eq!(words(""), None);
    }

    #[test]
    fn a_message_that_only_looks_like_one_is_kept() {
        for m in [
            // Lines of a message of its own: no line number, no warning category, indented.
            "Caught RuntimeError in DataLoader worker process 0.",
            "An attempt has been made to start a new process before the\ncurrent process has finished its bootstrapping phase.",
            "bad value\nsee: UserWarning: not a path",
            "bad value\nfile.py:x: UserWarning: no number",
            "bad value\n  file.py:3: UserWarning: indented",
            "bad value\nfile.py:3: NotAWarningError: y",
            // The first line is the message, whatever it says.
            "file.py:3: UserWarning: y",
        ] {
            assert_eq!(without_warnings(m), m);
        }
        assert!(is_warning_line(
            "/usr/lib/python3.12/multiprocessing/resource_tracker.py:254: UserWarning: resource_tracker: x"
        ));
        assert!(is_warning_line("<stdin>:1: DeprecationWarning: old\n"));
    }
}
