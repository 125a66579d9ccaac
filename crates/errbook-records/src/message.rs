//! What an exception's message is, and what is not: a message read from a run's output can run
//! on into lines that Python's `warnings` module printed after it as the interpreter shut down
//! (`multiprocessing`'s resource tracker: `.../resource_tracker.py:254: UserWarning:
//! resource_tracker: There appear to be 6 leaked semaphore objects to clean up at shutdown`, then
//! the source line under it). Such a line is no part of the exception: the message stops before
//! it. The traceback reader stops there as it records a run, and records made before it did are
//! cut here as they are read.

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
