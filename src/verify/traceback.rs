//! Read Python tracebacks out of a run's output: the main process's final exception, the
//! exceptions wrapped inside it (DataLoader's "Original Traceback", `mp.spawn`'s "Process 0
//! terminated with the following error"), and the tracebacks of child processes
//! (`Process Process-1:` / `Process SpawnProcess-2:`), which can die while the parent exits 0.

use crate::records::RaisedError;
use regex::Regex;
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
pub struct Raised {
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
/// exception-like name alone), right after an indented frame line.
fn orphan_exception(lines: &[&str], i: usize) -> Option<RaisedError> {
    let line = lines[i].trim_end();
    if line.is_empty() || indent(line) > 0 {
        return None;
    }
    let prev = lines[..i].iter().rev().find(|l| !l.trim().is_empty())?;
    if indent(prev) == 0 {
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

/// Parse `text` (stdout and stderr interleaved).
pub fn parse(text: &str) -> Raised {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Raised::default();
    // Blocks in order: (origin, error).
    let mut blocks: Vec<(Origin, RaisedError)> = Vec::new();
    // Children that announced `Process X:` and have not printed their traceback yet: processes
    // dying at once interleave their output, so headers can come before all the tracebacks.
    let mut pending: std::collections::VecDeque<String> = Default::default();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let t = line.trim_start();
        if !t.ends_with(TB_MARK) {
            if let Some(c) = CHILD.captures(t.trim_end()) {
                pending.push_back(c[1].to_string());
            } else if let Some(e) = orphan_exception(&lines, i).filter(|_| !pending.is_empty()) {
                // A waiting child's exception line whose marker line went into another child's
                // interleaved output.
                let name = pending.pop_front().unwrap_or_default();
                blocks.push((
                    Origin::Child(name.clone()),
                    RaisedError { origin: name, ..e },
                ));
            }
            i += 1;
            continue;
        }
        let base = indent(line);
        let mut before = lines[..i]
            .iter()
            .rev()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty());
        let prev = before.next().unwrap_or("");
        // A manager's RemoteError prints the server's traceback between two rulers.
        let remote = RULER.is_match(prev)
            && before
                .next()
                .and_then(|l| EXC_LINE.captures(l))
                .is_some_and(|c| c[1].ends_with("RemoteError"));
        let origin = if t.starts_with("Original ") || SPAWN_WRAP.is_match(prev) || remote {
            Origin::Wrapped
        } else if CHAINED.contains(&prev) {
            // Continues the chain of the block before; it replaces it as that chain's last.
            blocks
                .last()
                .map(|(o, _)| o.clone())
                .unwrap_or(Origin::Main)
        } else if let Some(name) = pending.front() {
            // A child announced itself (`Process X:`) and has not printed its traceback yet:
            // children dying at once print their headers and tracebacks interleaved.
            Origin::Child(name.clone())
        } else {
            Origin::Main
        };
        // Frames: lines indented deeper than the marker (or blank).
        let start = i;
        i += 1;
        while i < lines.len() && (lines[i].trim().is_empty() || indent(lines[i]) > base) {
            i += 1;
        }
        if i >= lines.len() {
            break;
        }
        let exc_line = &lines[i][base.min(lines[i].len())..];
        let Some(c) = EXC_LINE.captures(exc_line.trim_end()) else {
            continue;
        };
        let exception = c[1].to_string();
        let mut message = c.get(2).map(|m| m.as_str().to_string()).unwrap_or_default();
        let tb_end = i;
        i += 1;
        // Continuation lines of the message, up to a blank line or the next marker.
        // A child's output interleaves with others': keep its first line only.
        let mut extra = if matches!(origin, Origin::Child(_)) {
            20
        } else {
            0
        };
        while i < lines.len() && extra < 20 {
            let l = lines[i];
            let lt = l.trim();
            if lt.is_empty()
                || RULER.is_match(lt)
                || lt.ends_with(TB_MARK)
                || CHAINED.contains(&lt)
                || CHILD.is_match(lt)
                || SPAWN_WRAP.is_match(lt)
            {
                break;
            }
            message.push('\n');
            message.push_str(l);
            extra += 1;
            i += 1;
        }
        let mut tb = lines[start..=tb_end].join("\n");
        if tb.len() > TB_CAP {
            let mut cut = tb.len() - TB_CAP;
            while !tb.is_char_boundary(cut) {
                cut += 1;
            }
            tb = format!("\u{2026}{}", &tb[cut..]);
        }
        if matches!(origin, Origin::Child(_)) && !CHAINED.contains(&prev) {
            pending.pop_front();
        }
        let chained = CHAINED.contains(&prev);
        let err = RaisedError {
            exception,
            message: message.trim().to_string(),
            origin: match &origin {
                Origin::Main => "main".into(),
                Origin::Wrapped => "wrapped".into(),
                Origin::Child(n) => n.clone(),
            },
            traceback: tb,
        };
        if chained {
            if let Some(last) = blocks.last_mut() {
                *last = (origin, err);
                continue;
            }
        }
        blocks.push((origin, err));
    }
    // The main process's final exception is its last top-level block; what follows it as
    // Wrapped blocks is inside its message.
    let last_main = blocks.iter().rposition(|(o, _)| *o == Origin::Main);
    for (k, (o, e)) in blocks.into_iter().enumerate() {
        match o {
            Origin::Child(_) => out.children.push(e),
            Origin::Main if Some(k) == last_main => out.final_error = Some(e),
            Origin::Wrapped if last_main.is_some_and(|m| k > m) => out.wrapped.push(e),
            // A wrapped block inside a child's message, or an earlier main block (printed and
            // caught): keep wrapped ones with the children they belong to, drop the rest.
            Origin::Wrapped => {}
            Origin::Main => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
