//! Normalise: a paste (a message, a log, a traceback, a bug report) -> the readings of the error
//! it reports, best first, each as a template (`template`). The paste's structure says which
//! error is primary: a DataLoader worker's crash banner ("Unexpected bus error encountered in
//! worker") over the main process's traceback after it; in a chain ("During handling of the
//! above exception", "The above exception was the direct cause"), the exception raised first;
//! inside wrappers ("Caught RuntimeError in DataLoader worker process 0", `mp.spawn`'s
//! "terminated with the following error"), the original; otherwise the one the traceback ends
//! in. A report in prose gives its embedded exceptions, then its error-like quotes and lines.
//! Later readings are alternatives the ranking tries when the first finds nothing confident.
//! Entries are read the same way at index time (their first reading).
//!
//! themes/default/static/search-rank.js holds the same steps; tests/it/search_parity.rs runs both.

use crate::clean::clean_lines;
use crate::template::template;
use regex::Regex;
use std::sync::LazyLock;

/// One reading of a paste: the error it reports.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Detected {
    /// The exception type (last dotted component: `OutOfMemoryError`), if the reading has one.
    pub exception: Option<String>,
    /// The message template: `Exception: text`, with placeholders `<n>`, `<path>`, `<hex>`,
    /// `<size>`, `<url>` for what varies between runs.
    pub template: String,
}

/// At most this many readings of one paste.
pub(crate) const MAX_READINGS: usize = 4;

fn re(s: &str) -> Regex {
    Regex::new(s).expect("static regex")
}

const EXC: &str = r"((?:[A-Za-z_][A-Za-z0-9_]*\.)*([A-Za-z][A-Za-z0-9_]*(?:Error|Exception|Interrupt|Exit|Warning|Failure)))";

/// A line that names an exception: `pkg.mod.NameError: message` or a bare `NameError`.
static EXC_LINE: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"^{EXC}\s*(?::\s*(.*))?$")));
/// An exception named inside a line of prose, after other words or an opening quote.
static EXC_INLINE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r#"(^|[^A-Za-z0-9.])[*_]*(["'`“‘「(]?){EXC}:\s*(\S.*)$"#
    ))
});
static WRAPPER_MSG: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^caught [A-Za-z0-9_]+ in (?:dataloader worker process|replica)|terminated with the following error",
    )
});
/// A DataLoader worker's signal handler, printed before the main process's traceback.
static BANNER: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)unexpected [a-z ]{3,30} encountered in worker"));
/// Lines that separate the exceptions of a chain.
static CHAIN: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^(?:During handling of the above exception|The above exception was the direct cause)")
});
/// Lines that end a multi-line exception message.
static STOP: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:Traceback \(most recent call last\)|Original Traceback|During handling of the above|The above exception was|File |Exception raised from|frame #|-- Process [0-9]+)",
    )
});
/// Advice PyTorch appends to many CUDA errors: the same on every entry, so no signal.
static BOILERPLATE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:CUDA kernel errors might be asynchronously|For debugging consider passing|Compile with .TORCH_USE_CUDA_DSA|To enable traceback see|Set TORCH_SHOW_CPP_STACKTRACES|Search for .cuda[A-Za-z]+. in|\^+$|~*\^+~*$)",
    )
});
static FRAME: LazyLock<Regex> = LazyLock::new(|| re(r#"^\s*File "[^"]*", line [0-9]+"#));
/// The line after a C++ exception's message (c10::Error, libtorch).
static RAISED_FROM: LazyLock<Regex> = LazyLock::new(|| re(r"^Exception raised from "));
/// Words that make a line or a quote read as an error report.
static ERRORISH: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:^|[^a-z])(?:errors?|errno|fail|failed|failure|fatal|exception|abort(?:ed)?|assert(?:ion)?|cannot|can't|could ?not|unable|not found|no such|invalid|illegal|unhandled|time[ds]? ?out|killed|denied|refused|mismatch|expected|unexpected(?:ly)?|not implemented|not compiled|too old|out of memory|segmentation fault|core dumped|undefined symbol|not supported|no kernel)(?:[^a-z]|$)|[A-Z0-9]+_(?:ERROR|FAILED|FAILURE)|[A-Za-z]+_STATUS_[A-Z_]+",
    )
});
/// Quoted text in a line of prose.
static QUOTED: LazyLock<Regex> =
    LazyLock::new(|| re(r#""([^"]+)"|“([^”]+)”|`([^`]+)`|'([^']+)'|‘([^’]+)’"#));

/// The readings of a paste, best first: never empty (the whole text, if nothing else).
pub fn readings(text: &str) -> Vec<Detected> {
    let lines = clean_lines(text);
    let mut out: Vec<Detected> = Vec::new();
    if let Some(b) = lines.iter().find(|l| BANNER.is_match(l)) {
        push(&mut out, None, b);
    }
    raised_from(&lines, &mut out);
    structured(&lines, &mut out);
    if out.is_empty() {
        embedded(&lines, &mut out);
        introduced(&lines, &mut out);
        error_like(&lines, &mut out);
    }
    if out.is_empty() {
        push(&mut out, None, &without_frames(&lines).join(" "));
    }
    out.truncate(MAX_READINGS);
    out
}

/// The first reading: what an entry's message is indexed as.
pub fn normalise(text: &str) -> Detected {
    readings(text).into_iter().next().unwrap_or_default()
}

/// Add a reading unless it is empty or already there. Readings past `MAX_READINGS` would be
/// cut: none is made (a paste of a thousand exceptions costs what one of four does).
fn push(out: &mut Vec<Detected>, exception: Option<&str>, message: &str) {
    if out.len() >= MAX_READINGS {
        return;
    }
    let t = template(message);
    let template = match exception {
        Some(e) if t.is_empty() => e.to_string(),
        Some(e) => format!("{e}: {t}"),
        None => t,
    };
    if template.is_empty() || out.iter().any(|d| d.template == template) {
        return;
    }
    out.push(Detected {
        exception: exception.map(str::to_string),
        template,
    });
}

struct Candidate {
    exception: String,
    /// The exception line's own message.
    first: String,
    /// With the lines that continue it.
    message: String,
    wrapper: bool,
    /// Index of its line.
    line: usize,
}

/// Readings from the exception lines: the primary one with and without its continuation
/// lines, then the others, last raised first.
fn structured(lines: &[String], out: &mut Vec<Detected>) {
    let cands = candidates(lines);
    let Some(primary) = primary(lines, &cands) else {
        return;
    };
    let mut order: Vec<usize> = vec![primary];
    order.extend((0..cands.len()).rev().filter(|&k| k != primary));
    for k in order {
        let c = &cands[k];
        push(out, Some(&c.exception), &c.message);
        if c.first != c.message {
            push(out, Some(&c.exception), &c.first);
        }
    }
}

/// Which candidate the structure says is the error: the first raised of a chain, else the
/// last that is not a wrapper of another (a wrapper if that is all).
fn primary(lines: &[String], cands: &[Candidate]) -> Option<usize> {
    if let Some(sep) = lines.iter().position(|l| CHAIN.is_match(l)) {
        let before = cands.iter().rposition(|c| c.line < sep && !c.wrapper);
        if before.is_some() {
            return before;
        }
    }
    cands
        .iter()
        .rposition(|c| !c.wrapper)
        .or(cands.len().checked_sub(1))
}

/// Every line that names an exception, with the lines that continue its message.
fn candidates(lines: &[String]) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        match EXC_LINE.captures(&lines[i]) {
            Some(c) => {
                let (cand, next) = candidate(&c, &lines[i + 1..], i);
                out.push(cand);
                i += 1 + next;
            }
            None => i += 1,
        }
    }
    out
}

/// The exception named by `c` (an `EXC_LINE` match on line `at`), its message continued by up
/// to four of the lines `after` it; and how many of those lines it took up, boilerplate
/// included.
fn candidate(c: &regex::Captures<'_>, after: &[String], at: usize) -> (Candidate, usize) {
    let full = c.get(1).map_or("", |m| m.as_str());
    let short = c.get(2).map_or("", |m| m.as_str()).to_string();
    let first = c.get(3).map_or("", |m| m.as_str()).trim().to_string();
    let mut message = first.clone();
    let mut j = 0;
    let mut taken = 0;
    while j < after.len() && taken < 4 {
        let l = &after[j];
        if l.is_empty() || STOP.is_match(l) || EXC_LINE.is_match(l) || CHAIN.is_match(l) {
            break;
        }
        if !BOILERPLATE.is_match(l) {
            message.push(' ');
            message.push_str(l);
            taken += 1;
        }
        j += 1;
    }
    let wrapper = WRAPPER_MSG.is_match(&message)
        || matches!(
            short.as_str(),
            "ProcessRaisedException" | "ChildFailedError" | "ProcessExitedException"
        )
        || full.ends_with("DistBackendError") && message.is_empty();
    let cand = Candidate {
        exception: short,
        first,
        message: message.trim().to_string(),
        wrapper,
        line: at,
    };
    (cand, j)
}

/// Exceptions named inside lines of prose: from the name to the end of the line, or to the
/// closing quote when a quote opens right before it.
fn embedded(lines: &[String], out: &mut Vec<Detected>) {
    for l in lines {
        let Some(c) = EXC_INLINE.captures(l) else {
            continue;
        };
        let quote = c.get(2).map_or("", |m| m.as_str());
        let exception = c.get(4).map_or("", |m| m.as_str());
        let mut message = c.get(5).map_or("", |m| m.as_str());
        if let Some(close) = closing(quote) {
            if let Some(end) = message.find(close) {
                message = &message[..end];
            }
        }
        push(out, Some(exception), message);
    }
}

/// The quote that closes `open`.
fn closing(open: &str) -> Option<char> {
    Some(match open {
        "\"" => '"',
        "'" => '\'',
        "`" => '`',
        "“" => '”',
        "‘" => '’',
        "「" => '」',
        "(" => ')',
        _ => return None,
    })
}

/// A C++ exception's message: the lines right before "Exception raised from" (up to three, and
/// up to an exception line; never a frame or the source line under one).
fn raised_from(lines: &[String], out: &mut Vec<Detected>) {
    let Some(at) = lines.iter().position(|l| RAISED_FROM.is_match(l)) else {
        return;
    };
    let mut k = at;
    while k > 0 && (lines[k - 1].is_empty() || BOILERPLATE.is_match(&lines[k - 1])) {
        k -= 1;
    }
    let mut message: Vec<&str> = Vec::new();
    while k > 0 && message.len() < 3 {
        let l = &lines[k - 1];
        let under_frame = k >= 2 && FRAME.is_match(&lines[k - 2]);
        if l.is_empty() || FRAME.is_match(l) || STOP.is_match(l) || under_frame {
            break;
        }
        message.push(l);
        k -= 1;
        if EXC_LINE.is_match(l) {
            break;
        }
    }
    message.reverse();
    push(out, None, &message.join(" "));
}

/// What a line of prose introduces with a colon ("some error happened like this:"): the lines
/// after it, up to a blank line.
fn introduced(lines: &[String], out: &mut Vec<Detected>) {
    for (i, l) in lines.iter().enumerate() {
        if !l.ends_with(':') && !l.ends_with('：') || EXC_LINE.is_match(l) {
            continue;
        }
        let block: Vec<&str> = lines[i + 1..]
            .iter()
            .skip_while(|l| l.is_empty())
            .take_while(|l| !l.is_empty() && !FRAME.is_match(l))
            .take(3)
            .map(String::as_str)
            .collect();
        if !block.is_empty() {
            push(out, None, &block.join(" "));
        }
    }
}

/// Quotes that read as an error (or stand in a line that does), then lines that read as one.
fn error_like(lines: &[String], out: &mut Vec<Detected>) {
    let text: Vec<&str> = without_frames(lines);
    for l in &text {
        let errorish_line = ERRORISH.is_match(l);
        for c in QUOTED.captures_iter(l) {
            let q = (1..=5).find_map(|k| c.get(k)).map_or("", |m| m.as_str());
            let words = q.split_whitespace().count();
            if words >= 2 && ERRORISH.is_match(q) || words >= 3 && errorish_line {
                push(out, None, q);
            }
        }
    }
    for l in &text {
        if ERRORISH.is_match(l) {
            push(out, None, l);
        }
    }
}

/// Every line that is not a stack frame, the source line printed under one, or boilerplate.
fn without_frames(lines: &[String]) -> Vec<&str> {
    let mut kept = Vec::new();
    let mut skip_code = false;
    for l in lines {
        if l.is_empty() || l.starts_with("Traceback (most recent call last)") {
            skip_code = false;
            continue;
        }
        if FRAME.is_match(l) {
            skip_code = true;
            continue;
        }
        if skip_code {
            skip_code = false;
            continue;
        }
        if BOILERPLATE.is_match(l) {
            continue;
        }
        kept.push(l.as_str());
    }
    kept
}

#[cfg(test)]
#[path = "normalise_tests.rs"]
mod tests;
