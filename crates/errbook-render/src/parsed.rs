//! Lines of code as syntect parsed them, remembered by each render thread. Parsing a line is a
//! pure function of the line, the parser's state before it and the scopes open before it: the
//! same three give the same tokens and the same state after. Code blocks that differ repeat most
//! of their lines (`import torch`, `pip install`, a call with another number), so a line seen
//! before in the same state costs a lookup instead of syntect's regular expressions. What comes
//! out is exactly what parsing gives; only the work is skipped. Each render thread remembers
//! what it parsed itself: a state may hold a regular expression's captures, which syntect does
//! not let another thread have.
//!
//! The memory is bounded: past `MAX_LINES` remembered lines everything is forgotten and
//! remembering starts again, so a catalog of a million different lines keeps its memory flat.

use super::syntaxes::SYNTAXES;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;
use syntect::easy::ScopeRangeIterator;
use syntect::parsing::{ParseState, Scope, ScopeStack};

/// Lines (in one state each) remembered before the memory is cleared (a few MB).
const MAX_LINES: usize = 20_000;

/// Longer lines are parsed every time (a minified bundle's one line is not worth keeping).
const MAX_LINE_BYTES: usize = 1_000;

/// What parsing one line does: the tokens it yields, in order, as (the scopes open over it, as
/// the caller's `classify` reduced them, its bytes in the line), and the state after the line.
struct Parsed {
    before: (ParseState, ScopeStack),
    after: (ParseState, ScopeStack),
    tokens: Vec<(Option<&'static str>, Range<usize>)>,
}

/// States remembered per line: a line seen in more states is parsed again in the others. (A
/// state that holds a regular expression's captures, as in a heredoc, never equals another:
/// onig compares their buffers' addresses. Such lines miss every time, and stop here.)
const MAX_STATES: usize = 4;

/// The lines remembered.
#[derive(Default)]
struct Seen {
    /// line -> each state it was parsed in (almost always one).
    lines: HashMap<Box<str>, Vec<Rc<Parsed>>>,
    /// How many `Parsed` `lines` holds.
    count: usize,
}

thread_local! {
    /// What this thread remembers.
    static SEEN: RefCell<Seen> = RefCell::new(Seen::default());
}

/// Parse `line` (with highlight's syntaxes, the one set whose contexts states name) from
/// `state` and `stack`, calling `token(class, text)` for every token that is not empty, `class`
/// being `classify` of the scopes open over it; `state` and `stack` become those after the
/// line. `None` when syntect fails on the line (the caller falls back to plain text).
/// `classify` must be the same function on every call (it is: highlight's `class_of`), since
/// its answers are remembered.
pub(super) fn parse_line(
    line: &str,
    state: &mut ParseState,
    stack: &mut ScopeStack,
    classify: fn(&[Scope]) -> Option<&'static str>,
    mut token: impl FnMut(Option<&'static str>, &str),
) -> Option<()> {
    if line.len() > MAX_LINE_BYTES {
        let tokens = parse(line, state, stack, classify)?;
        for (class, range) in tokens {
            token(class, line.get(range)?);
        }
        return Some(());
    }
    let known = SEEN.with_borrow(|seen| {
        let ps = seen.lines.get(line)?;
        (ps.iter())
            .find(|p| p.before.0 == *state && p.before.1 == *stack)
            .cloned()
    });
    if let Some(p) = known {
        for (class, range) in &p.tokens {
            token(*class, line.get(range.clone())?);
        }
        state.clone_from(&p.after.0);
        stack.clone_from(&p.after.1);
        return Some(());
    }
    let before = (state.clone(), stack.clone());
    let tokens = parse(line, state, stack, classify)?;
    for (class, range) in &tokens {
        token(*class, line.get(range.clone())?);
    }
    let p = Rc::new(Parsed {
        before,
        after: (state.clone(), stack.clone()),
        tokens,
    });
    SEEN.with_borrow_mut(|seen| {
        if seen.count >= MAX_LINES {
            *seen = Seen::default();
        }
        match seen.lines.get_mut(line) {
            Some(ps) if ps.len() >= MAX_STATES => return,
            Some(ps) => ps.push(p),
            None => {
                seen.lines.insert(line.into(), vec![p]);
            }
        }
        seen.count += 1;
    });
    Some(())
}

/// One line through syntect: its non-empty tokens with their classes.
fn parse(
    line: &str,
    state: &mut ParseState,
    stack: &mut ScopeStack,
    classify: fn(&[Scope]) -> Option<&'static str>,
) -> Option<Vec<(Option<&'static str>, Range<usize>)>> {
    let ops = state.parse_line(line, &SYNTAXES).ok()?;
    let mut tokens = Vec::new();
    for (range, op) in ScopeRangeIterator::new(&ops, line) {
        stack.apply(op).ok()?;
        if !range.is_empty() {
            tokens.push((classify(stack.as_slice()), range));
        }
    }
    Some(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use syntect::util::LinesWithEndings;

    /// How deep the scopes are over a token: what the memory must give back exactly.
    fn depth(stack: &[Scope]) -> Option<&'static str> {
        ["0", "1", "2", "3", "4", "5"].get(stack.len()).copied()
    }

    /// Every token of `code` with its class, and the state after each line, parsed fresh or
    /// through the memory.
    fn tokens(code: &str, remembered: bool) -> Vec<String> {
        let syntax = SYNTAXES.find_syntax_by_token("python").expect("python");
        let (mut state, mut stack) = (ParseState::new(syntax), ScopeStack::new());
        let mut out = Vec::new();
        for line in LinesWithEndings::from(code) {
            if remembered {
                parse_line(line, &mut state, &mut stack, depth, |c, t| {
                    out.push(format!("{c:?} {t}"))
                })
                .expect("parses");
            } else {
                for (c, r) in parse(line, &mut state, &mut stack, depth).expect("parses") {
                    out.push(format!("{c:?} {}", &line[r]));
                }
            }
            // The state's own `Debug` shows addresses; the scopes open say the same here.
            out.push(format!("{stack:?}"));
        }
        out
    }

    #[test]
    fn a_remembered_line_gives_what_parsing_gives_in_every_state() {
        // `x = 1` at the top, inside a docstring, and inside a call: three states, one line.
        let codes = [
            "x = 1\nprint(x)\n",
            "'''\nx = 1\n'''\nx = 1\n",
            "f(\nx = 1\n)\nx = 1\n",
        ];
        for _ in 0..2 {
            for code in codes {
                assert_eq!(tokens(code, true), tokens(code, false), "{code}");
            }
        }
        SEEN.with_borrow(|s| {
            assert!(s.lines.get("x = 1\n").is_some_and(|ps| ps.len() >= 2));
            assert_eq!(s.count, s.lines.values().map(Vec::len).sum::<usize>());
        });
    }
}
