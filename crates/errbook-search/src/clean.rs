//! Clean: the lines of a paste as the program printed them. ANSI colours, per-line prefixes
//! (timestamps, log levels, `[rank0]:` and `[default0]:` tags, glog and c10 headers, Ray's
//! `(pid=N)`, a log viewer's line numbers) and Markdown decorations (`**`, `>`, backticks around
//! a whole line) are dropped; when several ranks' output is interleaved, each rank's lines are
//! put back together, in the order the ranks first appear. A paste is hostile input too: it is
//! first bounded (`bound`), so that no paste, however long or strange, costs the reader more
//! than a short one does.
//!
//! themes/default/static/search-rank.js holds the same steps (`cleanLines`).

use regex::Regex;
use std::sync::LazyLock;

fn re(s: &str) -> Regex {
    Regex::new(s).expect("static regex")
}

static ANSI: LazyLock<Regex> = LazyLock::new(|| re(r"\x1b\[[0-9;]*[A-Za-z]"));

/// A rank tag: `[rank3]:`, `[default0]:`, `[Rank 3]`; group 1 or 2 is the rank.
static RANK: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(?:\[(?:rank|default)\s*([0-9]+)\]:|\[\s*[Rr]ank\s*([0-9]+)\s*\])\s*"));

/// One prefix at the start of a line; stripped repeatedly.
static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r"^(?:",
        r"\[?rank\s*[0-9]+\]?\s*:\s*", // [rank0]: (PyTorch 2.x), rank0:
        r"|\[default[0-9]+\]:\s*",     // [default0]: (torchrun --tee)
        r"|\[\s*[Rr]ank\s*[0-9]+\s*\]:?\s*", // [Rank 1]
        r"|\[PG [^\]]*\]\s*",          // [PG ID 0 PG GUID 0(default_pg) Rank 1]
        r"|\[?[0-9]{4}-[0-9][0-9]-[0-9][0-9][T _][0-9][0-9]:[0-9][0-9]:[0-9][0-9](?:[.,][0-9]+)?(?:Z|[+-][0-9][0-9]:?[0-9][0-9])?\]?\s*(?:[-|:]\s*)?", // ISO timestamp
        r"|\[?[0-9][0-9]/[0-9][0-9]/[0-9]{4}[- ][0-9][0-9]:[0-9][0-9]:[0-9][0-9]\]?\s*", // [02/05/2026-06:58:48]
        r"|\[?[0-9][0-9]:[0-9][0-9]:[0-9][0-9](?:[.,][0-9]+)?\]?\s*(?:[-|:]\s*)?", // time of day
        r"|\[?[A-Z][a-z]{2} [A-Z][a-z]{2} +[0-9]{1,2} [0-9][0-9]:[0-9][0-9]:[0-9][0-9] [0-9]{4}\]\s*", // dmesg -T
        r"|[A-Z][a-z]{2} +[0-9]{1,2} [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\s+", // syslog / CI: Oct 16 02:07:00
        r"|[EWIF][0-9]{4} [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9]+\s+[0-9]+\s+[A-Za-z0-9_./-]+:[0-9]+\]\s*", // glog
        r"|[EWIF] [A-Za-z0-9_./-]+\.(?:cc|cpp|h|py):[0-9]+\]\s*", // TensorFlow: E tensorflow/x.cc:366]
        r"|\[[EWIF][0-9]*\s[^\]]*\]\s*", // c10: [W socket.cpp:601], [E321 02:07:08.408 X.cpp:607]
        r"|\[[0-9]+\]\s+",               // a log viewer's line number: [1762]
        r"|.*[0-9.]+(?:it/s|s/it)\]\s*", // a progress bar (tqdm) the line was printed after
        r"|\[(?:[A-Z][A-Za-z0-9_.-]{0,15}|[EWIF])\]:?\s*", // [TRT-LLM] [E] [BUG]
        r"|\[?(?:ERROR|WARNING|WARN|INFO|DEBUG|CRITICAL|FATAL)(?-u:\b)\]?\s*(?::[A-Za-z0-9_.]*:|[:|-])?\s*", // log level, ERROR:root:
        r"|\(pid=[0-9]+(?:,\s*ip=[0-9.]+)?\)\s*", // Ray: (pid=123)
        r"|what\(\):\s*",                         // C++ terminate: what():
        r"|[0-9]+:\s+",                           // torchrun line tags: 0:
        r"|(?:>|\*\*|__|```|`|\$|#)\s*",          // Markdown: quote, bold, code; a shell prompt
        r")"
    ))
});

/// Markdown decorations and stray quotes at the end of a line.
static SUFFIX: LazyLock<Regex> = LazyLock::new(|| re(r"(?:\*\*|__|```|`)\s*$"));

/// A paste holds at most this many characters (code points): beyond it, the first
/// `PASTE_HEAD` and the last `MAX_PASTE - PASTE_HEAD` are read (an error is printed at a
/// traceback's end; a crash banner may come first).
pub(crate) const MAX_PASTE: usize = 20_000;
pub(crate) const PASTE_HEAD: usize = 4_000;
/// A word (a run of characters between white space) is read up to this many characters: real
/// pastes' longest words are paths and URLs of about a hundred and fifty, and a bound on words
/// is what keeps every pattern of the reader linear in the paste in the browser too.
pub(crate) const MAX_WORD: usize = 256;

/// White space as the paste's bounds see it: the same few ASCII characters in both languages.
fn space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0C')
}

/// `text` within `MAX_PASTE` characters, its head and tail joined by a line break, and no word
/// longer than `MAX_WORD` characters.
pub(crate) fn bound(text: &str) -> String {
    let n = text.chars().count();
    let kept: String = if n > MAX_PASTE {
        let head = text.chars().take(PASTE_HEAD);
        let tail = text.chars().skip(n - (MAX_PASTE - PASTE_HEAD));
        head.chain(std::iter::once('\n')).chain(tail).collect()
    } else {
        text.to_string()
    };
    let mut out = String::with_capacity(kept.len());
    let mut run = 0usize;
    for c in kept.chars() {
        run = if space(c) { 0 } else { run + 1 };
        if run <= MAX_WORD {
            out.push(c);
        }
    }
    out
}

/// Strip ANSI colours, prefixes and decorations from one line.
pub(crate) fn clean_line(line: &str) -> String {
    let mut s = ANSI.replace_all(line, "").trim().to_string();
    loop {
        let next = match PREFIX.find(&s) {
            Some(m) if m.end() > 0 => s[m.end()..].trim_start().to_string(),
            _ => break,
        };
        if next == s {
            break;
        }
        s = next;
    }
    SUFFIX.replace(&s, "").trim_end().to_string()
}

/// The rank a line is tagged with, if any.
fn rank_of(line: &str) -> Option<u32> {
    let c = RANK.captures(line.trim_start())?;
    c.get(1).or(c.get(2))?.as_str().parse().ok()
}

/// The lines of `text`, bounded (`bound`), as Rust's `str::lines` splits them, cleaned; lines
/// of several ranks regrouped by rank. An untagged line stays with the rank of the line before it.
pub(crate) fn clean_lines(text: &str) -> Vec<String> {
    let text = bound(text);
    let raw: Vec<&str> = text.lines().collect();
    let mut order: Vec<u32> = Vec::new();
    let mut tags: Vec<Option<u32>> = Vec::with_capacity(raw.len());
    let mut current: Option<u32> = None;
    for l in &raw {
        if let Some(r) = rank_of(l) {
            current = Some(r);
            if !order.contains(&r) {
                order.push(r);
            }
        }
        tags.push(current);
    }
    let mut idx: Vec<usize> = (0..raw.len()).collect();
    if order.len() > 1 {
        // Stable: each rank's lines keep their order; ranks in order of first appearance.
        let group =
            |i: usize| tags[i].map_or(0, |r| order.iter().position(|&x| x == r).unwrap_or(0));
        idx.sort_by_key(|&i| group(i));
    }
    idx.into_iter().map(|i| clean_line(raw[i])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_of_many_loggers() {
        for (line, want) in [
            ("[rank0]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught", "Watchdog caught"),
            ("[80746] [rank0]:[E321 02:07:08.40 ProcessGroupNCCL.cpp:1664] [PG 1 Rank 0] Exception", "Exception"),
            ("2019-02-11 16:42:08.131786: E tensorflow/stream_executor/cuda/cuda_blas.cc:366] failed to create", "failed to create"),
            ("[02/05/2026-06:58:48] [TRT-LLM] [E] Encountered an error", "Encountered an error"),
            ("2020-08-03T10:20:25 | mmf.trainers.core.training_loop: Starting", "mmf.trainers.core.training_loop: Starting"),
            ("**RuntimeError: CUDA error: device-side assert triggered**", "RuntimeError: CUDA error: device-side assert triggered"),
            ("> NVIDIA-SMI has failed", "NVIDIA-SMI has failed"),
            ("`RuntimeError: x`", "RuntimeError: x"),
            ("\x1b[31mERROR:root:ValueError: bad\x1b[0m", "ValueError: bad"),
        ] {
            assert_eq!(clean_line(line), want, "{line}");
        }
    }

    #[test]
    fn a_paste_is_bounded_in_length_and_word_length() {
        // Short pastes pass as they are.
        let short = "RuntimeError: CUDA error: out of memory\n  File \"a.py\"";
        assert_eq!(bound(short), short);
        // A word is read up to MAX_WORD characters (code points, not bytes), then the next
        // word starts afresh.
        let long = format!("{} x", "é".repeat(MAX_WORD + 10));
        assert_eq!(bound(&long), format!("{} x", "é".repeat(MAX_WORD)));
        // A long paste keeps its head and its tail, where a traceback ends.
        let text = format!(
            "ERROR: Unexpected bus error encountered in worker.\n{}\nRuntimeError: last line",
            "frame\n".repeat(MAX_PASTE)
        );
        let b = bound(&text);
        assert_eq!(b.chars().count(), MAX_PASTE + 1);
        assert!(b.starts_with("ERROR: Unexpected bus error"));
        assert!(b.ends_with("RuntimeError: last line"));
        assert_eq!(
            clean_lines(&text).last().unwrap(),
            "RuntimeError: last line"
        );
    }

    #[test]
    fn interleaved_ranks_are_regrouped() {
        let text = "[rank1]: Traceback (most recent call last):\n[rank0]: Traceback (most recent call last):\n[rank1]: ValueError: one\n[rank0]: KeyError: two\n";
        assert_eq!(
            clean_lines(text),
            [
                "Traceback (most recent call last):",
                "ValueError: one",
                "Traceback (most recent call last):",
                "KeyError: two"
            ]
        );
    }
}
