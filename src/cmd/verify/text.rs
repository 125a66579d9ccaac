//! Text from snippets and their runs made safe for a terminal: escape sequences (colours, but
//! also ones that retitle the window, write to the clipboard or move the cursor to hide a line)
//! and every other control character are left out before `errbook verify` prints it.

use std::borrow::Cow;

/// `s` without escape sequences and control characters; tabs and newlines stay.
pub(crate) fn clean(s: &str) -> Cow<'_, str> {
    let safe = |c: char| c == '\n' || c == '\t' || !c.is_control();
    if s.chars().all(safe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => skip_sequence(&mut chars),
            // C1 CSI and OSC, the one-character forms of `ESC [` and `ESC ]`.
            '\u{9b}' => skip_csi(&mut chars),
            '\u{9d}' => skip_string(&mut chars),
            c if safe(c) => out.push(c),
            _ => {}
        }
    }
    Cow::Owned(out)
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// After ESC: a CSI (`[`...final byte), a string (`]`, `P`, `X`, `^`, `_` ... ST or BEL), or
/// one more character.
fn skip_sequence(chars: &mut Chars) {
    match chars.next() {
        Some('[') => skip_csi(chars),
        Some(']' | 'P' | 'X' | '^' | '_') => skip_string(chars),
        _ => {}
    }
}

/// Parameters and intermediates, up to the final byte (`@` to `~`).
fn skip_csi(chars: &mut Chars) {
    for c in chars.by_ref() {
        if ('@'..='~').contains(&c) {
            break;
        }
    }
}

/// Up to BEL or ST (`ESC \`, or C1's 0x9c).
fn skip_string(chars: &mut Chars) {
    while let Some(c) = chars.next() {
        match c {
            '\u{7}' | '\u{9c}' => break,
            '\u{1b}' if chars.peek() == Some(&'\\') => {
                chars.next();
                break;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_never_reach_the_terminal() {
        assert!(matches!(clean("plain text\n\tok"), Cow::Borrowed(_)));
        assert_eq!(clean("\u{1b}[31mred\u{1b}[0m"), "red");
        assert_eq!(clean("a\u{1b}]0;pwned title\u{7}b"), "ab");
        assert_eq!(
            clean("a\u{1b}]52;c;ZXZpbA==\u{1b}\\b"),
            "ab",
            "clipboard write"
        );
        assert_eq!(clean("x\u{1b}[2K\ry"), "xy", "erase line, carriage return");
        assert_eq!(clean("a\u{9b}31mb\u{8}c"), "abc");
        assert_eq!(clean("end\u{1b}"), "end");
    }
}
