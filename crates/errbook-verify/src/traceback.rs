//! Read Python tracebacks out of a run's output: the main process's final exception, the
//! exceptions wrapped inside it (DataLoader's "Original Traceback", `mp.spawn`'s "Process 0
//! terminated with the following error"), and the tracebacks of child processes: those that
//! announce themselves (`Process Process-1:` / `Process SpawnProcess-2:`), which can die while
//! the parent exits 0, and those that die before they can (a spawned child failing while it
//! re-imports the main module, whose traceback starts in `multiprocessing/spawn.py` with no
//! header line).

use errbook_records::RaisedError;
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

pub(super) use errbook_records::judge::Raised;

#[derive(Debug, Clone, PartialEq)]
enum Origin {
    Main,
    Wrapped,
    Child(String),
    /// A child that failed while `multiprocessing` started it (no `Process X:` line).
    Spawned,
}

/// Whether the traceback whose marker is line `start` is a child's that `multiprocessing`
/// started (spawn or forkserver): its frames run through `spawn.py`'s `spawn_main`/`_main` or
/// `forkserver.py`'s `_serve_one` before anything of the program.
fn spawned_child(lines: &[&str], start: usize) -> bool {
    let base = indent(lines[start]);
    let frames = lines[start + 1..]
        .iter()
        .take_while(|l| l.trim().is_empty() || indent(l) > base)
        .filter(|l| l.trim_start().starts_with("File \""))
        .take(4);
    for f in frames {
        let spawn = (f.contains("spawn.py\", line")
            && (f.ends_with("in spawn_main") || f.ends_with("in _main")))
            || (f.contains("forkserver.py\", line") && f.ends_with("in _serve_one"));
        if spawn {
            return true;
        }
        // Anything else first but `python -c`'s stub is the program's own code.
        if !f.trim_start().starts_with("File \"<string>\", line 1") {
            return false;
        }
    }
    false
}

fn indent(l: &str) -> usize {
    l.len() - l.trim_start().len()
}

/// `lines[i]` as an exception line that ends a traceback: unindented, `Name: message` (or an
/// exception-like name alone), right after an indented frame line, another exception line (two
/// children's frames interleaved, then both their exception lines) or another child's header
/// (that child announced itself between this one's frames and its exception line).
fn orphan_exception(lines: &[&str], i: usize) -> Option<RaisedError> {
    let line = lines[i].trim_end();
    if line.is_empty() || indent(line) > 0 {
        return None;
    }
    let prev = lines[..i].iter().rev().find(|l| !l.trim().is_empty())?;
    if indent(prev) == 0 && !looks_like_exception(prev.trim_end()) && !CHILD.is_match(prev.trim()) {
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
            Origin::Spawned => "spawned".into(),
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
        } else if spawned_child(lines, i) {
            Origin::Spawned
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
                Origin::Child(_) | Origin::Spawned => out.children.push(e),
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
    // A child's output interleaves with others': keep its first line only, unless the message
    // starts on the next line (`raise RuntimeError('''...`), as multiprocessing's own do.
    let first = c.get(2).map_or("", |m| m.as_str());
    let child = matches!(origin, Origin::Child(_) | Origin::Spawned);
    let limit = if child && !first.trim().is_empty() {
        0
    } else {
        20
    };
    let (more, next) = continuation(lines, i + 1, limit);
    let message = if first.trim().is_empty() {
        let kept: Vec<&str> = more
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        kept.join("\n")
    } else {
        format!("{first}{more}")
    };
    let err = RaisedError {
        exception: c[1].to_string(),
        message: message.trim().to_string(),
        origin: origin.name(),
        traceback: capped(lines[start..=i].join("\n")),
    };
    Block::Raised(err, next)
}

/// Up to `limit` continuation lines of a message from line `i` (each after a newline), up to a
/// blank line or the start of something else (a warning printed at exit among them); and the
/// line where reading stopped.
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
            || errbook_records::message::is_warning_line(lines[i])
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
mod tests;
