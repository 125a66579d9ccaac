//! A scanned block as top-level statements ("units"): what each binds at module level, the
//! names it uses at once (module-level code) and later (function bodies, called afterwards), its
//! locals; the modules it imports; and why it is a fragment rather than a program. Names are
//! scoped as Python does it closely enough to say which names a block leaves undefined; a local
//! of one function counts for every function of its unit (errs toward "defined").

use super::scan::{Line, Scan, Tok};
use super::words::{is_builtin, is_keyword};
use std::collections::HashSet;

/// What a top-level statement is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `def`, `class`, `import`, or a simple statement (assignment, call).
    Simple,
    /// `for`, `while`, `if`, `with`, `try`, `match`: its bindings depend on how it runs.
    Compound,
}

/// One top-level statement with its body.
#[derive(Debug, Clone)]
pub(crate) struct Unit {
    /// 1-based lines of the block it spans.
    pub first: usize,
    pub last: usize,
    pub kind: Kind,
    pub binds: Vec<String>,
    pub now: Vec<(String, usize)>,
    pub later: Vec<(String, usize)>,
    pub locals: HashSet<String>,
}

/// A block of Python read as a program.
#[derive(Debug, Default)]
pub(crate) struct Program {
    pub units: Vec<Unit>,
    /// `from x import *`: which names it defines is unknown.
    pub star: bool,
    /// Top-level modules imported, in order, once each.
    pub imports: Vec<String>,
    /// Why this is a piece of a program, not one, with the line.
    pub fragment: Option<(usize, String)>,
    /// A line that is `...` alone, standing for code the text leaves out.
    pub ellipsis: Option<usize>,
    /// Lines where `if __name__ == "__main__":` starts, if any.
    pub main_guard: bool,
}

const COMPOUND: &[&str] = &[
    "if", "elif", "else", "for", "while", "with", "try", "except", "finally", "def", "class",
];

/// Read the scanned block `s` as a program.
pub(crate) fn program(s: &Scan<'_>) -> Program {
    let mut p = Program::default();
    let Some(base) = s.lines.first().map(|l| l.indent) else {
        return p;
    };
    if base > 0 {
        p.fragment = Some((
            s.lines[0].first,
            "it starts indented, inside a larger program".into(),
        ));
    }
    // Indents of the def/class bodies we are in, within the current unit.
    let mut scopes: Vec<usize> = Vec::new();
    let mut prev: Option<&Line> = None;
    for l in &s.lines {
        if l.indent < base && p.fragment.is_none() {
            p.fragment = Some((l.first, "it dedents below its first line".into()));
        }
        let decorated = prev.is_some_and(|q| q.indent == l.indent && first_op(q) == Some("@"));
        if l.indent <= base && !decorated {
            p.units.push(Unit {
                first: l.first,
                last: l.last,
                kind: Kind::Simple,
                binds: Vec::new(),
                now: Vec::new(),
                later: Vec::new(),
                locals: HashSet::new(),
            });
            scopes.clear();
        }
        while scopes.last().is_some_and(|&i| l.indent <= i) {
            scopes.pop();
        }
        if l.toks == [Tok::Op("...")] {
            let stub = prev.is_some_and(|q| l.indent > q.indent && header_of(q).is_some());
            if !stub && p.ellipsis.is_none() {
                p.ellipsis = Some(l.first);
            }
        }
        let Some(u) = p.units.last_mut() else {
            continue;
        };
        u.last = u.last.max(l.last);
        let top = l.indent <= base && !decorated;
        let mut ctx = Ctx {
            u,
            in_func: !scopes.is_empty(),
            star: &mut p.star,
            imports: &mut p.imports,
            fragment: &mut p.fragment,
        };
        if let Some(h) = ctx.line(l) {
            if top && h != "def" && h != "class" {
                ctx.u.kind = Kind::Compound;
            }
            if h == "def" || h == "class" {
                scopes.push(l.indent);
            }
        }
        if top && is_main_guard(l) {
            p.main_guard = true;
        }
        prev = Some(l);
    }
    p
}

/// Tokens `a..b` of `l` as a line of their own (empty where out of range).
fn part<'a>(l: &Line<'a>, a: usize, b: usize) -> Line<'a> {
    let b = b.min(l.toks.len());
    let a = a.min(b);
    Line {
        indent: l.indent,
        first: l.at.get(a).copied().unwrap_or(l.first),
        last: l.last,
        toks: l.toks[a..b].to_vec(),
        at: l.at[a..b].to_vec(),
    }
}

fn tail<'a, 'b>(t: &'b [Tok<'a>], k: usize) -> &'b [Tok<'a>] {
    &t[k.min(t.len())..]
}

fn first_op<'a>(l: &Line<'a>) -> Option<&'a str> {
    match l.toks.first() {
        Some(Tok::Op(o)) => Some(o),
        _ => None,
    }
}

/// The compound keyword a line starts with (`async` left out), if it is a header.
fn header_of<'a>(l: &Line<'a>) -> Option<&'a str> {
    let mut t = l.toks.iter();
    let mut first = t.next()?;
    if *first == Tok::Name("async") {
        first = t.next()?;
    }
    match first {
        Tok::Name(w) if COMPOUND.contains(w) => Some(w),
        Tok::Name(w @ ("match" | "case")) if l.toks.last() == Some(&Tok::Op(":")) => Some(w),
        _ => None,
    }
}

fn is_main_guard(l: &Line<'_>) -> bool {
    l.toks.first() == Some(&Tok::Name("if")) && l.toks.contains(&Tok::Name("__name__"))
}

struct Ctx<'p> {
    u: &'p mut Unit,
    in_func: bool,
    star: &'p mut bool,
    imports: &'p mut Vec<String>,
    fragment: &'p mut Option<(usize, String)>,
}

impl Ctx<'_> {
    fn bind(&mut self, n: &str, local: bool) {
        if local || self.in_func {
            self.u.locals.insert(n.to_string());
        } else if !self.u.binds.iter().any(|b| b == n) {
            self.u.binds.push(n.to_string());
        }
    }
    fn use_name(&mut self, n: &str, line: usize) {
        let list = if self.in_func {
            &mut self.u.later
        } else {
            &mut self.u.now
        };
        list.push((n.to_string(), line));
    }

    /// Read one logical line; returns the compound keyword when it is a header.
    fn line(&mut self, l: &Line<'_>) -> Option<&'static str> {
        let mut head: Option<&'static str> = None;
        let mut start = 0;
        let toks = &l.toks;
        // Statements separated by `;` at depth 0.
        let mut depth = 0i32;
        let mut lambdas = 0;
        let mut i = 0;
        while i <= toks.len() {
            let end_here = i == toks.len() || (depth == 0 && toks[i] == Tok::Op(";"));
            if !end_here {
                match &toks[i] {
                    Tok::Op("(" | "[" | "{") => depth += 1,
                    Tok::Op(")" | "]" | "}") => depth -= 1,
                    Tok::Name("lambda") if depth == 0 => lambdas += 1,
                    Tok::Op(":") if depth == 0 && i > start => {
                        let sub = part(l, start, i);
                        if lambdas > 0 {
                            lambdas -= 1;
                        } else if let Some(h) = header_of(&sub) {
                            let h: &'static str = COMPOUND
                                .iter()
                                .chain(&["match", "case"])
                                .find(|c| **c == h)
                                .copied()
                                .unwrap_or("if");
                            head = head.or(Some(h));
                            self.header(h, &sub);
                            if h == "def" || h == "class" {
                                // An inline body of a def is the function's.
                                let was = self.in_func;
                                self.in_func = true;
                                self.simple(&part(l, i + 1, toks.len()));
                                self.in_func = was;
                                return head;
                            }
                            start = i + 1;
                        }
                    }
                    _ => {}
                }
                i += 1;
                continue;
            }
            if start < i {
                self.simple(&part(l, start, i));
            }
            start = i + 1;
            i += 1;
        }
        head
    }

    /// A compound statement's header (without its `:`).
    fn header(&mut self, h: &str, l: &Line<'_>) {
        let t = &l.toks;
        let skip = usize::from(t.first() == Some(&Tok::Name("async")));
        match h {
            "def" | "class" => {
                if let Some(Tok::Name(n)) = t.get(skip + 1) {
                    self.bind(n, false);
                }
                let params = if h == "def" {
                    params(tail(t, skip + 2))
                } else {
                    HashSet::new()
                };
                for p in &params {
                    self.u.locals.insert(p.to_string());
                }
                self.uses(&part(l, skip + 2, t.len()), &params);
            }
            "for" => {
                let k = t
                    .iter()
                    .position(|x| *x == Tok::Name("in"))
                    .unwrap_or(t.len());
                for n in bare_names(t.get(skip + 1..k).unwrap_or(&[])) {
                    self.bind(n, false);
                }
                self.uses(&part(l, k, t.len()), &HashSet::new());
            }
            "match" | "case" => {}
            _ => self.simple(&part(l, skip + 1, t.len())),
        }
    }

    /// A simple statement: imports, assignments, expressions.
    fn simple(&mut self, l: &Line<'_>) {
        let t = &l.toks;
        let line = l.first;
        match t.first() {
            Some(Tok::Name("import")) => {
                for (module, bound) in import_list(&t[1..]) {
                    self.import(module);
                    self.bind(bound, false);
                }
                return;
            }
            Some(Tok::Name("from")) => {
                let k = t
                    .iter()
                    .position(|x| *x == Tok::Name("import"))
                    .unwrap_or(t.len());
                if let Some(Tok::Name(m)) = t.get(1) {
                    self.import(m);
                }
                for (name, bound) in import_list(&t[(k + 1).min(t.len())..]) {
                    if name == "*" {
                        *self.star = true;
                    } else {
                        self.bind(bound, false);
                    }
                }
                return;
            }
            Some(Tok::Name("global" | "nonlocal")) => {
                for n in bare_names(&t[1..]) {
                    if !self.u.binds.iter().any(|b| b == n) {
                        self.u.binds.push(n.to_string());
                    }
                }
                return;
            }
            Some(Tok::Name(w @ ("return" | "yield")))
                if !self.in_func && self.fragment.is_none() =>
            {
                *self.fragment = Some((line, format!("`{w}` stands outside a function")));
            }
            _ => {}
        }
        // Assignment targets bind; the rest of the statement uses. A bare annotation (`x: int`)
        // binds nothing.
        let mut assigned: HashSet<&str> = HashSet::new();
        if let Some((c, aug)) = assignment(t) {
            // `x: int = 1`: the target is before the annotation's colon.
            let lhs_end = t[..c].iter().position(|x| *x == Tok::Op(":")).unwrap_or(c);
            for n in bare_names(&t[..lhs_end]) {
                self.bind(n, false);
                if !aug {
                    assigned.insert(n);
                }
            }
        }
        self.uses(l, &assigned);
    }

    fn import(&mut self, module: &str) {
        if !module.is_empty() && !self.imports.iter().any(|m| m == module) {
            self.imports.push(module.to_string());
        }
    }

    /// Every name `l` uses: not a keyword, not an attribute, not a keyword argument's name, not
    /// bound within the statement (comprehension and lambda variables, `as` and `:=` targets),
    /// not in `skip`.
    fn uses(&mut self, l: &Line<'_>, skip: &HashSet<&str>) {
        let t = &l.toks;
        let mut local: HashSet<&str> = HashSet::new();
        let mut depth = 0;
        for (i, x) in t.iter().enumerate() {
            match x {
                Tok::Op("(" | "[" | "{") => depth += 1,
                Tok::Op(")" | "]" | "}") => depth -= 1,
                Tok::Name("for") if depth > 0 => {
                    let k = t[i..]
                        .iter()
                        .position(|x| *x == Tok::Name("in"))
                        .map_or(t.len(), |k| i + k);
                    local.extend(bare_names(&t[i + 1..k]));
                }
                Tok::Name("lambda") => {
                    let k = t[i..]
                        .iter()
                        .position(|x| *x == Tok::Op(":"))
                        .map_or(t.len(), |k| i + k);
                    local.extend(params_flat(&t[i + 1..k]));
                }
                Tok::Name("as") => {
                    for n in bare_names(&t[i + 1..(i + 2).min(t.len())]) {
                        self.bind(n, false);
                    }
                }
                Tok::Op(":=") => {
                    if let Some(Tok::Name(n)) = i.checked_sub(1).and_then(|k| t.get(k)) {
                        self.bind(n, false);
                    }
                }
                _ => {}
            }
        }
        let mut depth = 0;
        for (i, x) in t.iter().enumerate() {
            match x {
                Tok::Op("(" | "[" | "{") => depth += 1,
                Tok::Op(")" | "]" | "}") => depth -= 1,
                Tok::Name(n) => {
                    let after_dot = i > 0 && t[i - 1] == Tok::Op(".");
                    let kwarg = depth > 0
                        && t.get(i + 1) == Some(&Tok::Op("="))
                        && i > 0
                        && matches!(t[i - 1], Tok::Op("(" | ","));
                    let as_target = i > 0 && t[i - 1] == Tok::Name("as");
                    if is_keyword(n)
                        || after_dot
                        || kwarg
                        || as_target
                        || local.contains(n)
                        || skip.contains(n)
                    {
                        continue;
                    }
                    if *n == "self" && !self.in_func && self.fragment.is_none() {
                        *self.fragment = Some((
                            l.at[i],
                            "it uses `self` outside a class (a method's body)".into(),
                        ));
                    }
                    self.use_name(n, l.at[i]);
                }
                _ => {}
            }
        }
    }
}

/// Where the last assignment of a statement is (`=` at depth 0, or an augmented `+=`), and
/// whether it is augmented (its target is used too).
fn assignment(t: &[Tok<'_>]) -> Option<(usize, bool)> {
    let mut depth = 0;
    let mut cut = None;
    for (i, x) in t.iter().enumerate() {
        match x {
            Tok::Op("(" | "[" | "{") => depth += 1,
            Tok::Op(")" | "]" | "}") => depth -= 1,
            Tok::Op("=") if depth == 0 => cut = Some((i, false)),
            Tok::Op(o)
                if depth == 0
                    && o.len() >= 2
                    && o.ends_with('=')
                    && !matches!(*o, "==" | "!=" | "<=" | ">=" | ":=") =>
            {
                cut = Some((i, true));
            }
            _ => {}
        }
    }
    cut
}

/// Names bound by a target list: names not an attribute's, subscript's or call's.
fn bare_names<'a>(t: &[Tok<'a>]) -> Vec<&'a str> {
    let mut out = Vec::new();
    for (i, x) in t.iter().enumerate() {
        if let Tok::Name(n) = x {
            let after_dot = i > 0 && t[i - 1] == Tok::Op(".");
            let followed = matches!(t.get(i + 1), Some(Tok::Op("." | "[" | "(")));
            if !after_dot && !followed && !is_keyword(n) {
                out.push(*n);
            }
        }
    }
    out
}

/// A def's parameters: names at depth 1 of its parentheses after `(`, `,`, `*`, `**`.
fn params<'a>(t: &[Tok<'a>]) -> HashSet<&'a str> {
    let mut out = HashSet::new();
    let mut depth = 0;
    for (i, x) in t.iter().enumerate() {
        match x {
            Tok::Op("(" | "[" | "{") => depth += 1,
            Tok::Op(")" | "]" | "}") => depth -= 1,
            Tok::Name(n)
                if depth == 1 && i > 0 && matches!(t[i - 1], Tok::Op("(" | "," | "*" | "**")) =>
            {
                out.insert(*n);
            }
            _ => {}
        }
    }
    out
}

/// A lambda's parameters (no parentheses).
fn params_flat<'a>(t: &[Tok<'a>]) -> Vec<&'a str> {
    let mut out = Vec::new();
    for (i, x) in t.iter().enumerate() {
        if let Tok::Name(n) = x {
            if i == 0 || matches!(t[i - 1], Tok::Op("," | "*" | "**")) {
                out.push(*n);
            }
        }
    }
    out
}

/// `a.b as c, d` (after `import`): each module's first part (or the imported name) and the name
/// it binds.
fn import_list<'a>(t: &[Tok<'a>]) -> Vec<(&'a str, &'a str)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        match &t[i] {
            Tok::Name(n) if *n != "as" => {
                let first = *n;
                let mut j = i + 1;
                while t.get(j) == Some(&Tok::Op(".")) && matches!(t.get(j + 1), Some(Tok::Name(_)))
                {
                    j += 2;
                }
                let mut bound = first;
                if t.get(j) == Some(&Tok::Name("as")) {
                    if let Some(Tok::Name(b)) = t.get(j + 1) {
                        bound = b;
                        j += 2;
                    }
                }
                out.push((first, bound));
                i = j;
            }
            Tok::Op("*") => {
                out.push(("*", "*"));
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

impl Program {
    /// The names the block uses that it never defines before they are needed, each once with
    /// the line of its first use; builtins left out.
    pub(crate) fn free(&self) -> Vec<(String, usize)> {
        let all: HashSet<&str> = self
            .units
            .iter()
            .flat_map(|u| u.binds.iter().map(String::as_str))
            .collect();
        let mut before: HashSet<&str> = HashSet::new();
        let mut out: Vec<(String, usize)> = Vec::new();
        for u in &self.units {
            before.extend(u.binds.iter().map(String::as_str));
            let now = u.now.iter().filter(|(n, _)| !before.contains(n.as_str()));
            let later = u
                .later
                .iter()
                .filter(|(n, _)| !all.contains(n.as_str()) && !u.locals.contains(n));
            for (n, line) in now.chain(later) {
                if !is_builtin(n) && !out.iter().any(|(o, _)| o == n) {
                    out.push((n.clone(), *line));
                }
            }
        }
        out
    }

    /// The names unit `i` needs from elsewhere (builtins and its own bindings left out).
    pub(crate) fn needs_of(&self, i: usize) -> Vec<String> {
        let u = &self.units[i];
        let mut out: Vec<String> = Vec::new();
        let later = u.later.iter().filter(|(n, _)| !u.locals.contains(n));
        for (n, _) in u.now.iter().chain(later) {
            if !is_builtin(n) && !u.binds.contains(n) && !out.contains(n) {
                out.push(n.clone());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
