//! Read Python tracebacks out of a run's output: the main process's final exception, the
//! exceptions wrapped inside it (DataLoader's "Original Traceback", `mp.spawn`'s "Process 0
//! terminated with the following error"), and the tracebacks of child processes
//! (`Process Process-1:` / `Process SpawnProcess-2:`), which can die while the parent exits 0.

use crate::records::RaisedError;
use regex::Regex;
use std::collections::VecDeque;
use std::sync::LazyLock;

static EXC_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(?::(?:\s(.*))?)?$")
        .expect("static regex")
});
static CHILD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^Process ([A-Za-z]*Process-[0-9:]+|[A-Za-z]*PoolWorker-[0-9:]+):$")
        .expect("static regex")
});
/// The ruler multiprocessing's `RemoteError` draws around the server's traceback.
static RULER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^-{20,}$").expect("static regex"));
static SPAWN_WRAP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^-- Process \d+ terminated with the following error:$").expect("static regex")
});

const TB_MARK: &str = "Traceback (most recent call last):";
const CHAINED: [&str; 2] = [
    "During handling of the above exception, another exception occurred:",
    "The above exception was the direct cause of the following exception:",
];
/// Longest traceback text kept per exception.
const TB_CAP: usize = 4000;

/// What the output says was raised.
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct Raised {
    /// The main process's last exception (the one that ended it), if it printed one.
    pub final_error: Option<RaisedError>,
    /// Exceptions wrapped inside the final one, outermost first.
    pub wrapped: Vec<RaisedError>,
    /// Child processes' final exceptions, in output order.
    pub children: Vec<RaisedError>,
}

#[derive(Debug, Clone, PartialEq)]
enum Origin {
    Main,
    Wrapped,
    Child(String),
}

fn indent(l: &str) -> usize {
    l.len() - l.trim_start().len()
}

/// `lines[i]` as an exception line that ends a traceback: unindented, `Name: message` (or an
/// exception-like name alone), right after an indented frame line or right after another
/// exception line (two children's frames interleaved, then both their exception lines).
fn orphan_exception(lines: &[&str], i: usize) -> Option<RaisedError> {
    let line = lines[i].trim_end();
    if line.is_empty() || indent(line) > 0 {
        return None;
    }
    let prev = lines[..i].iter().rev().find(|l| !l.trim().is_empty())?;
    if indent(prev) == 0 && !looks_like_exception(prev.trim_end()) {
        return None;
    }
    let c = EXC_LINE.captures(line)?;
    let name = &c[1];
    let looks = line.contains(':')
        || ["Error", "Exception", "Exit", "Interrupt"]
            .iter()
            .any(|s| name.ends_with(s));
    looks.then(|| RaisedError {
        exception: name.to_string(),
        message: c
            .get(2)
            .map(|m| m.as_str().trim().to_string())
            .unwrap_or_default(),
        origin: String::new(),
        traceback: String::new(),
    })
}

/// An unindented `Name: message` line whose name is an exception's.
fn looks_like_exception(line: &str) -> bool {
    EXC_LINE.captures(line).is_some_and(|c| {
        ["Error", "Exception", "Exit", "Interrupt"]
            .iter()
            .any(|s| c[1].ends_with(s))
    })
}

/// Parse `text` (stdout and stderr interleaved).
pub(super) fn parse(text: &str) -> Raised {
    let lines: Vec<&str> = text.lines().collect();
    let mut r = Reading::default();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].trim_start().ends_with(TB_MARK) {
            r.outside(&lines, i);
            i += 1;
            continue;
        }
        let (origin, prev) = r.origin(&lines, i);
        let (err, next) = match read_block(&lines, i, &origin) {
            Block::Eof => break,
            Block::NoException(next) => {
                i = next;
                continue;
            }
            Block::Raised(err, next) => (err, next),
        };
        i = next;
        r.add(origin, err, CHAINED.contains(&prev));
    }
    r.finish()
}

impl Origin {
    /// As `RaisedError::origin` writes it.
    fn name(&self) -> String {
        match self {
            Origin::Main => "main".into(),
            Origin::Wrapped => "wrapped".into(),
            Origin::Child(n) => n.clone(),
        }
    }
}

/// The traceback blocks read so far, in output order, and the children waiting for theirs:
/// children dying at once interleave their output, so headers (`Process X:`) can come before
/// all the tracebacks.
#[derive(Default)]
struct Reading {
    blocks: Vec<(Origin, RaisedError)>,
    pending: VecDeque<String>,
}

impl Reading {
    /// Line `i` is outside a traceback: a child's header, or the exception line of a waiting
    /// child whose marker line went into another child's interleaved output.
    fn outside(&mut self, lines: &[&str], i: usize) {
        if let Some(c) = CHILD.captures(lines[i].trim()) {
            self.pending.push_back(c[1].to_string());
        } else if let Some(e) = orphan_exception(lines, i).filter(|_| !self.pending.is_empty()) {
            let name = self.pending.pop_front().unwrap_or_default();
            let err = RaisedError {
                origin: name.clone(),
                ..e
            };
            self.blocks.push((Origin::Child(name), err));
        }
    }

    /// Who printed the traceback whose marker is line `i`, and the last non-blank line before
    /// it (trimmed).
    fn origin<'a>(&self, lines: &[&'a str], i: usize) -> (Origin, &'a str) {
        let mut before = lines[..i]
            .iter()
            .rev()
            .map(|&l| l.trim())
            .filter(|l| !l.is_empty());
        let prev = before.next().unwrap_or("");
        // A manager's RemoteError prints the server's traceback between two rulers.
        let remote = RULER.is_match(prev)
            && before
                .next()
                .and_then(|l| EXC_LINE.captures(l))
                .is_some_and(|c| c[1].ends_with("RemoteError"));
        let origin = if lines[i].trim_start().starts_with("Original ")
            || SPAWN_WRAP.is_match(prev)
            || remote
        {
            Origin::Wrapped
        } else if CHAINED.contains(&prev) {
            // Continues the chain of the block before; it replaces it as that chain's last.
            self.blocks
                .last()
                .map(|(o, _)| o.clone())
                .unwrap_or(Origin::Main)
        } else if let Some(name) = self.pending.front() {
            // A child announced itself and has not printed its traceback yet.
            Origin::Child(name.clone())
        } else {
            Origin::Main
        };
        (origin, prev)
    }

    /// A block was read; `chained`: it continues (and replaces) the block before.
    fn add(&mut self, origin: Origin, err: RaisedError, chained: bool) {
        if matches!(origin, Origin::Child(_)) && !chained {
            self.pending.pop_front();
        }
        match self.blocks.last_mut() {
            Some(last) if chained => *last = (origin, err),
            _ => self.blocks.push((origin, err)),
        }
    }

    /// The main process's final exception is its last top-level block; what follows it as
    /// Wrapped blocks is inside its message.
    fn finish(self) -> Raised {
        let mut out = Raised::default();
        let last_main = self.blocks.iter().rposition(|(o, _)| *o == Origin::Main);
        for (k, (o, e)) in self.blocks.into_iter().enumerate() {
            match o {
                Origin::Child(_) => out.children.push(e),
                Origin::Main if Some(k) == last_main => out.final_error = Some(e),
                Origin::Wrapped if last_main.is_some_and(|m| k > m) => out.wrapped.push(e),
                // A wrapped block inside a child's message, or an earlier main block (printed
                // and caught): keep wrapped ones with the children they belong to, drop the rest.
                Origin::Wrapped | Origin::Main => {}
            }
        }
        out
    }
}

/// What reading a traceback from its marker line gave.
enum Block {
    /// The output ended inside the frames.
    Eof,
    /// The frames end at this line, which is no exception line: read on from there.
    NoException(usize),
    /// The exception, and the line after it and its message.
    Raised(RaisedError, usize),
}

/// Read the traceback whose marker is line `start`: its frames (lines indented deeper than the
/// marker, or blank), the exception line, the message's continuation lines.
fn read_block(lines: &[&str], start: usize, origin: &Origin) -> Block {
    let base = indent(lines[start]);
    let mut i = start + 1;
    while i < lines.len() && (lines[i].trim().is_empty() || indent(lines[i]) > base) {
        i += 1;
    }
    if i >= lines.len() {
        return Block::Eof;
    }
    let line = lines[i];
    let exc_line = line.get(base.min(line.len())..).unwrap_or(line);
    let Some(c) = EXC_LINE.captures(exc_line.trim_end()) else {
        return Block::NoException(i);
    };
    // A child's output interleaves with others': keep its first line only.
    let limit = if matches!(origin, Origin::Child(_)) {
        0
    } else {
        20
    };
    let (more, next) = continuation(lines, i + 1, limit);
    let message = format!("{}{more}", c.get(2).map_or("", |m| m.as_str()));
    let err = RaisedError {
        exception: c[1].to_string(),
        message: message.trim().to_string(),
        origin: origin.name(),
        traceback: capped(lines[start..=i].join("\n")),
    };
    Block::Raised(err, next)
}

/// Up to `limit` continuation lines of a message from line `i` (each after a newline), up to a
/// blank line or the start of something else; and the line where reading stopped.
fn continuation(lines: &[&str], mut i: usize, limit: usize) -> (String, usize) {
    let mut more = String::new();
    let mut n = 0;
    while i < lines.len() && n < limit {
        let lt = lines[i].trim();
        if lt.is_empty()
            || RULER.is_match(lt)
            || lt.ends_with(TB_MARK)
            || CHAINED.contains(&lt)
            || CHILD.is_match(lt)
            || SPAWN_WRAP.is_match(lt)
        {
            break;
        }
        more.push('\n');
        more.push_str(lines[i]);
        n += 1;
        i += 1;
    }
    (more, i)
}

/// A traceback's text, its last `TB_CAP` bytes kept.
fn capped(tb: String) -> String {
    if tb.len() <= TB_CAP {
        return tb;
    }
    let mut cut = tb.len() - TB_CAP;
    while !tb.is_char_boundary(cut) {
        cut += 1;
    }
    format!("\u{2026}{}", &tb[cut..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_indent_before_a_multibyte_line_is_no_panic() {
        // The marker's indent (3 bytes of U+3000) ends inside the next line's second `é`.
        let r = parse("\u{3000}Traceback (most recent call last):\néébad: x\n");
        assert_eq!(r, Raised::default());
    }

    #[test]
    fn children_dying_at_once_print_headers_before_tracebacks() {
        let text = "\
Process Process-1:
Process Process-2:
Traceback (most recent call last):
  File \"/usr/lib/python3.12/multiprocessing/process.py\", line 314, in _bootstrap
    self.run()
AttributeError: 'function' object has no attribute 'Empty'
Traceback (most recent call last):
  File \"/usr/lib/python3.12/multiprocessing/process.py\", line 314, in _bootstrap
    self.run()
AttributeError: 'function' object has no attribute 'Empty'
done
";
        let r = parse(text);
        assert_eq!(r.final_error, None);
        let names: Vec<_> = r.children.iter().map(|c| c.origin.as_str()).collect();
        assert_eq!(names, ["Process-1", "Process-2"]);
        assert!(r.children.iter().all(|c| c.exception == "AttributeError"));
    }

    #[test]
    fn a_traceback_marker_swallowed_by_interleaving() {
        // Recorded on CPython 3.11: four workers raising at once.
        let f = "  File \"/usr/lib/python3.11/multiprocessing/process.py\", line 314, in _bootstrap\n    self.run()\n";
        let text = format!(
            "Process Process-3:\nProcess Process-2:\nTraceback (most recent call last):\n{f}ZeroDivisionError: worker 1 gave up\n\
             Process Process-4:\nTraceback (most recent call last):\nTraceback (most recent call last):\n{f}ZeroDivisionError: worker 2 gave up\n\
             {f}ZeroDivisionError: worker 3 gave up\nProcess Process-1:\nTraceback (most recent call last):\n{f}ZeroDivisionError: worker 0 gave up\nparent done\n"
        );
        let r = parse(&text);
        assert_eq!(r.final_error, None);
        let mut names: Vec<_> = r.children.iter().map(|c| c.origin.as_str()).collect();
        names.sort();
        assert_eq!(names, ["Process-1", "Process-2", "Process-3", "Process-4"]);
        let mut msgs: Vec<_> = r.children.iter().map(|c| c.message.as_str()).collect();
        msgs.sort();
        assert_eq!(
            msgs,
            [
                "worker 0 gave up",
                "worker 1 gave up",
                "worker 2 gave up",
                "worker 3 gave up"
            ]
        );
    }

    #[test]
    fn two_childrens_frames_interleaved_then_both_exception_lines() {
        // Recorded on CPython 3.11 (a CI run): two markers, both children's frames, then both
        // exception lines one after the other.
        let f = "  File \"/usr/lib/python3.11/multiprocessing/process.py\", line 314, in _bootstrap\n    self.run()\n";
        let text = format!(
            "Process Process-4:\nProcess Process-3:\nTraceback (most recent call last):\nTraceback (most recent call last):\n{f}{f}\
             ZeroDivisionError: worker 3 gave up\nZeroDivisionError: worker 2 gave up\n\
             Process Process-2:\nProcess Process-1:\nTraceback (most recent call last):\nTraceback (most recent call last):\n{f}\
             ZeroDivisionError: worker 1 gave up\n{f}ZeroDivisionError: worker 0 gave up\nparent done\n"
        );
        let r = parse(&text);
        assert_eq!(r.final_error, None);
        let mut names: Vec<_> = r.children.iter().map(|c| c.origin.as_str()).collect();
        names.sort();
        assert_eq!(names, ["Process-1", "Process-2", "Process-3", "Process-4"]);
        let mut msgs: Vec<_> = r.children.iter().map(|c| c.message.as_str()).collect();
        msgs.sort();
        let want: Vec<String> = (0..4).map(|i| format!("worker {i} gave up")).collect();
        assert_eq!(msgs, want);
    }

    #[test]
    fn a_managers_remote_error_wraps_the_servers_exception() {
        let text = "\
Traceback (most recent call last):
  File \"/tmp/errbook-run-x/snippet.py\", line 23, in <module>
    shared_array = manager.Array('d', num_processes)
  File \"/usr/lib/python3.12/multiprocessing/managers.py\", line 93, in dispatch
    raise convert_to_error(kind, result)
multiprocessing.managers.RemoteError: 
---------------------------------------------------------------------------
Traceback (most recent call last):
  File \"/usr/lib/python3.12/multiprocessing/managers.py\", line 1027, in Array
    return array.array(typecode, sequence)
TypeError: 'int' object is not iterable
---------------------------------------------------------------------------
";
        let r = parse(text);
        let f = r.final_error.unwrap();
        assert_eq!(f.exception, "multiprocessing.managers.RemoteError");
        assert_eq!(f.message, "");
        assert_eq!(r.wrapped.len(), 1);
        assert_eq!(r.wrapped[0].exception, "TypeError");
        assert_eq!(r.wrapped[0].message, "'int' object is not iterable");
    }

    #[test]
    fn dataloader_wrapper_gives_the_original() {
        let text = "\
Traceback (most recent call last):
  File \"/tmp/x/snippet.py\", line 12, in <module>
    for batch in loader:
  File \"/usr/lib/python3/site-packages/torch/utils/data/dataloader.py\", line 1480, in _next_data
    return self._process_data(data)
RuntimeError: Caught RuntimeError in DataLoader worker process 0.
Original Traceback (most recent call last):
  File \"/usr/lib/python3/site-packages/torch/utils/data/_utils/worker.py\", line 349, in _worker_loop
    data = fetcher.fetch(index)
  File \"/tmp/x/snippet.py\", line 9, in __getitem__
    return torch.full((4,), float(i), device=self.device)
RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method

";
        let r = parse(text);
        let f = r.final_error.unwrap();
        assert_eq!(f.exception, "RuntimeError");
        assert_eq!(
            f.message,
            "Caught RuntimeError in DataLoader worker process 0."
        );
        assert_eq!(r.wrapped.len(), 1);
        assert!(r.wrapped[0]
            .message
            .starts_with("Cannot re-initialize CUDA"));
        assert!(r.children.is_empty());
    }

    #[test]
    fn child_traceback_while_parent_prints_on() {
        let text = "\
Process Process-2:
Traceback (most recent call last):
  File \"/usr/lib/python3.12/multiprocessing/process.py\", line 314, in _bootstrap
    self.run()
AttributeError: 'function' object has no attribute 'Empty'
Results aggregated from queue: {0: [1.0]}
";
        let r = parse(text);
        assert!(r.final_error.is_none());
        assert_eq!(r.children.len(), 1);
        assert_eq!(r.children[0].origin, "Process-2");
        assert_eq!(r.children[0].exception, "AttributeError");
        assert_eq!(
            r.children[0].message,
            "'function' object has no attribute 'Empty'"
        );
    }

    #[test]
    fn chained_exceptions_keep_the_last_and_spawn_wrapper_is_unwrapped() {
        let text = "\
Traceback (most recent call last):
  File \"a.py\", line 1, in <module>
KeyError: 'x'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File \"a.py\", line 3, in <module>
torch.multiprocessing.spawn.ProcessRaisedException: 

-- Process 0 terminated with the following error:
Traceback (most recent call last):
  File \"spawn.py\", line 90, in _wrap
    fn(i, *args)
ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable MASTER_ADDR expected, but not set
";
        let r = parse(text);
        let f = r.final_error.unwrap();
        assert_eq!(
            f.exception,
            "torch.multiprocessing.spawn.ProcessRaisedException"
        );
        assert_eq!(r.wrapped[0].exception, "ValueError");
        assert!(r.wrapped[0].message.contains("MASTER_ADDR"));
    }
}
