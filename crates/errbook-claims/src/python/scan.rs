//! A tokenizer-level scan of Python source: logical lines (brackets and backslashes joined),
//! their indent and tokens, the comments with their lines, and the first reason the text is not
//! Python (an unterminated string, an unbalanced bracket). Linear in the input; never panics.

/// One token of a logical line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok<'a> {
    Name(&'a str),
    Op(&'a str),
    Str,
    Num,
}

/// A logical line: its tokens and where it lies (1-based lines of the block).
#[derive(Debug, Clone)]
pub(crate) struct Line<'a> {
    pub indent: usize,
    pub first: usize,
    pub last: usize,
    pub toks: Vec<Tok<'a>>,
    /// The line of each token.
    pub at: Vec<usize>,
}

/// A block of Python, scanned.
#[derive(Debug, Default)]
pub(crate) struct Scan<'a> {
    pub lines: Vec<Line<'a>>,
    /// `# ...` comments: line and text (without the `#`).
    pub comments: Vec<(usize, &'a str)>,
    /// Why the text is not Python, with the line.
    pub broken: Option<(usize, String)>,
}

const OPS3: &[&str] = &["**=", "//=", ">>=", "<<=", "..."];
const OPS2: &[&str] = &[
    "->", ":=", "==", "!=", "<=", ">=", "**", "//", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
    "@=", "<<", ">>",
];

fn is_name_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}
fn is_name_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Where the string starting at `i` (at its prefix or quote) ends, and whether it is an f-string;
/// None when it is not a string start.
fn string_at(b: &[u8], i: usize) -> Option<(usize, bool)> {
    let mut j = i;
    let mut f = false;
    while j < b.len() && j - i < 2 && b"rRbBuUfF".contains(&b[j]) {
        f |= b[j] == b'f' || b[j] == b'F';
        j += 1;
    }
    if j >= b.len() || (b[j] != b'\'' && b[j] != b'"') {
        return None;
    }
    Some((j, f))
}

/// Scan `code` as Python.
pub(crate) fn scan(code: &str) -> Scan<'_> {
    let b = code.as_bytes();
    let mut out = Scan::default();
    let mut stack: Vec<u8> = Vec::new();
    let mut line = 1usize;
    let mut cur: Option<Line> = None;
    let mut at_line_start = true;
    let mut i = 0usize;
    let mut indent = 0usize;
    let broken = |out: &mut Scan, line: usize, why: String| {
        if out.broken.is_none() {
            out.broken = Some((line, why));
        }
    };
    while i < b.len() {
        let c = b[i];
        if at_line_start && stack.is_empty() {
            // Measure the indent of a physical line that may start a logical one.
            indent = 0;
            while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                indent += if b[i] == b'\t' { 8 - indent % 8 } else { 1 };
                i += 1;
            }
            at_line_start = false;
            continue;
        }
        match c {
            b'\n' => {
                line += 1;
                if stack.is_empty() {
                    if let Some(l) = cur.take() {
                        out.lines.push(l);
                    }
                    at_line_start = true;
                }
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'\x0c' => i += 1,
            b'\\' if b.get(i + 1) == Some(&b'\n') => {
                line += 1;
                i += 2;
            }
            b'#' => {
                let end = code[i..].find('\n').map_or(b.len(), |e| i + e);
                out.comments.push((line, &code[i + 1..end]));
                i = end;
            }
            _ => {
                let l = cur.get_or_insert_with(|| Line {
                    indent,
                    first: line,
                    last: line,
                    toks: Vec::new(),
                    at: Vec::new(),
                });
                match token(code, i, line, &mut stack, l) {
                    Ok((next, lines)) => {
                        i = next;
                        line += lines;
                    }
                    Err(why) => {
                        broken(&mut out, line, why);
                        return out;
                    }
                }
            }
        }
    }
    if !stack.is_empty() {
        broken(&mut out, line, "a bracket is never closed".into());
    }
    if let Some(l) = cur.take() {
        out.lines.push(l);
    }
    out
}

/// Read the token at `i` (on `line`) into `l`: where the next starts and the newlines it spans,
/// or why the text is not Python.
fn token<'a>(
    code: &'a str,
    i: usize,
    line: usize,
    stack: &mut Vec<u8>,
    l: &mut Line<'a>,
) -> Result<(usize, usize), String> {
    let b = code.as_bytes();
    if let Some((q, f)) = string_at(b, i) {
        let (end, lines, names) = read_string(code, q, f);
        let end = end.ok_or("a string is never closed")?;
        l.toks.push(Tok::Str);
        l.at.push(line);
        // Names inside an f-string's braces are uses.
        for n in names {
            l.toks.extend([Tok::Op("("), Tok::Name(n), Tok::Op(")")]);
            l.at.extend([line; 3]);
        }
        l.last = line + lines;
        return Ok((end, lines));
    }
    let ch = code[i..].chars().next().unwrap_or(' ');
    let (tok, end) = if is_name_start(ch) {
        let end = code[i..]
            .char_indices()
            .find(|(_, c)| !is_name_char(*c))
            .map_or(b.len(), |(k, _)| i + k);
        (Tok::Name(&code[i..end]), end)
    } else if ch.is_ascii_digit() || (ch == '.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
        let mut j = i + 1;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'.' || b[j] == b'_') {
            j += 1;
        }
        (Tok::Num, j)
    } else {
        let rest = &code[i..];
        let op = OPS3
            .iter()
            .chain(OPS2)
            .find(|o| rest.starts_with(**o))
            .copied()
            .unwrap_or(&rest[..ch.len_utf8()]);
        match op {
            "(" | "[" | "{" => stack.push(op.as_bytes()[0]),
            ")" | "]" | "}" => {
                let want = match op {
                    ")" => b'(',
                    "]" => b'[',
                    _ => b'{',
                };
                if stack.pop() != Some(want) {
                    return Err(format!("`{op}` closes nothing"));
                }
            }
            _ => {}
        }
        (Tok::Op(op), i + op.len())
    };
    l.toks.push(tok);
    l.at.push(line);
    l.last = line;
    Ok((end, 0))
}

/// Read the string whose opening quote is at `q`: its end (None when it never closes), the
/// newlines it spans, and for an f-string the names its braces use.
fn read_string(code: &str, q: usize, f: bool) -> (Option<usize>, usize, Vec<&str>) {
    let b = code.as_bytes();
    let quote = b[q];
    let triple = b.get(q + 1) == Some(&quote) && b.get(q + 2) == Some(&quote);
    let mut i = q + if triple { 3 } else { 1 };
    let mut lines = 0;
    let mut names = Vec::new();
    let mut depth = 0usize;
    while i < b.len() {
        let c = b[i];
        // A backslash pairs with the next character, in a raw string too (`r'\\'`).
        if c == b'\\' {
            if b.get(i + 1) == Some(&b'\n') {
                lines += 1;
            }
            i += 2;
            continue;
        }
        if c == b'\n' {
            if !triple {
                return (None, lines, names);
            }
            lines += 1;
        }
        if f && c == b'{' {
            if depth == 0 && b.get(i + 1) == Some(&b'{') {
                i += 2;
                continue;
            }
            depth += 1;
        } else if f && c == b'}' && depth > 0 {
            depth -= 1;
        } else if f && depth > 0 && is_name_start(c as char) {
            let end = code[i..]
                .char_indices()
                .find(|(_, c)| !is_name_char(*c))
                .map_or(b.len(), |(k, _)| i + k);
            let after_dot = i > 0 && b[i - 1] == b'.';
            if !after_dot {
                names.push(&code[i..end]);
            }
            i = end;
            continue;
        }
        if c == quote && depth == 0 {
            if !triple {
                return (Some(i + 1), lines, names);
            }
            if b.get(i + 1) == Some(&quote) && b.get(i + 2) == Some(&quote) {
                return (Some(i + 3), lines, names);
            }
        }
        i += 1;
    }
    (None, lines, names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logical_lines_join_brackets_and_keep_comments() {
        let s = scan("x = f(1,\n      2)  # two\nif x:\n    y = f\"{x.a} {z}\"\n");
        assert!(s.broken.is_none());
        assert_eq!(s.lines.len(), 3);
        assert_eq!((s.lines[0].first, s.lines[0].last), (1, 2));
        assert_eq!(s.lines[2].indent, 4);
        assert!(s.lines[2].toks.contains(&Tok::Name("z")));
        assert!(!s.lines[2].toks.contains(&Tok::Name("a")));
        assert_eq!(s.comments, vec![(2, " two")]);
    }

    #[test]
    fn broken_text_says_where() {
        assert_eq!(
            scan("x = (1,\n").broken.unwrap().1,
            "a bracket is never closed"
        );
        assert_eq!(scan("s = 'abc\n").broken.unwrap().0, 1);
        assert!(scan("x = ]").broken.is_some());
        for t in ["\"\"\"", "f'{", "'\\", "r'\\'", "\u{e9}\u{301}(", "\t\t x"] {
            let _ = scan(t);
        }
    }
}
