//! Lines and columns of byte offsets. A file with thousands of problems gets thousands of
//! diagnostics, each located; counting lines from the start of the file for each one made
//! `check` quadratic in the number of problems. For a source shared as an
//! `Arc<str>`, each thread keeps an index of the line starts of the last large source it
//! located in, so each lookup is a binary search, and the column is counted on from the last
//! one when it is on the same line.

use std::cell::RefCell;
use std::sync::Arc;

/// Below this many bytes, counting from the start is as cheap as keeping an index.
const INDEX_FROM: usize = 16 * 1024;

/// The line starts of one source, and the last column counted in it.
struct Index {
    src: Arc<str>,
    starts: Vec<usize>,
    /// (offset, line start, column) of the last lookup.
    last: (usize, usize, usize),
}

thread_local! {
    static INDEX: RefCell<Option<Index>> = const { RefCell::new(None) };
}

/// 1-based (line, column) of a byte offset; the column counts characters.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let before = &text[..offset];
    let line = bytecount_newlines(before.as_bytes()) + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let col = text[line_start..offset].chars().count() + 1;
    (line, col)
}

/// `line_col` for a shared source, through the thread's index of it.
pub fn line_col_in(src: &Arc<str>, offset: usize) -> (usize, usize) {
    if src.len() < INDEX_FROM {
        return line_col(src, offset);
    }
    let offset = floor_char_boundary(src, offset.min(src.len()));
    with_index(src, |ix| {
        let line = ix.starts.partition_point(|&s| s <= offset);
        let start = ix.starts[line - 1];
        let (last_off, last_start, last_col) = ix.last;
        let col = if last_start == start && last_off <= offset {
            last_col + src[last_off..offset].chars().count()
        } else {
            src[start..offset].chars().count() + 1
        };
        ix.last = (offset, start, col);
        (line, col)
    })
}

/// `line_bounds` for a shared source, through the thread's index of it.
pub fn line_bounds_in(src: &Arc<str>, line: usize) -> (usize, usize) {
    if src.len() < INDEX_FROM {
        return line_bounds(src, line);
    }
    let start = with_index(src, |ix| ix.starts.get(line.max(1) - 1).copied());
    match start {
        Some(s) => end_of_line(src, s),
        None => (src.len(), src.len()),
    }
}

fn with_index<T>(src: &Arc<str>, f: impl FnOnce(&mut Index) -> T) -> T {
    INDEX.with(|cell| {
        let mut slot = cell.borrow_mut();
        let stale = slot.as_ref().is_none_or(|ix| !Arc::ptr_eq(&ix.src, src));
        if stale {
            let mut starts = vec![0];
            starts.extend(memchr_all(src.as_bytes()).map(|i| i + 1));
            *slot = Some(Index {
                src: src.clone(),
                starts,
                last: (0, 0, 1),
            });
        }
        match slot.as_mut() {
            Some(ix) => f(ix),
            None => unreachable!("the index was just made"),
        }
    })
}

fn memchr_all(b: &[u8]) -> impl Iterator<Item = usize> + '_ {
    b.iter()
        .enumerate()
        .filter(|(_, &c)| c == b'\n')
        .map(|(i, _)| i)
}

fn bytecount_newlines(b: &[u8]) -> usize {
    b.iter().filter(|&&c| c == b'\n').count()
}

/// Byte range of a 1-based line, without its newline.
pub(super) fn line_bounds(text: &str, line: usize) -> (usize, usize) {
    let mut start = 0;
    for _ in 1..line.max(1) {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return (text.len(), text.len()),
        }
    }
    end_of_line(text, start)
}

/// The line starting at `start`: (start, end without its newline and carriage return).
fn end_of_line(text: &str, start: usize) -> (usize, usize) {
    let end = text[start..]
        .find('\n')
        .map(|i| start + i)
        .unwrap_or(text.len());
    let end = if end > start && text.as_bytes()[end - 1] == b'\r' {
        end - 1
    } else {
        end
    };
    (start, end)
}

pub(super) fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_chars() {
        let t = "ab\ncdé f\n";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 3), (2, 1));
        // 'f' is after "cdé " : byte offset 3 + 5 = 8
        assert_eq!(line_col(t, 8), (2, 5));
    }

    #[test]
    fn line_bounds_finds_lines() {
        let t = "one\ntwo\r\nthree";
        assert_eq!(&t[line_bounds(t, 2).0..line_bounds(t, 2).1], "two");
        assert_eq!(&t[line_bounds(t, 3).0..line_bounds(t, 3).1], "three");
    }

    #[test]
    fn the_index_gives_what_counting_gives() {
        let mut text = String::new();
        for i in 0..3000 {
            text.push_str(&format!("line {i} é\n"));
            if i % 7 == 0 {
                text.push_str(&"x".repeat(40));
            }
        }
        let src: Arc<str> = Arc::from(text.as_str());
        assert!(src.len() >= INDEX_FROM);
        // In order, backwards and in the middle of a character: the same answers.
        let offsets: Vec<usize> = (0..src.len())
            .step_by(97)
            .chain((0..src.len()).rev().step_by(1013))
            .collect();
        for o in offsets {
            assert_eq!(line_col_in(&src, o), line_col(&src, o), "offset {o}");
        }
        for line in [1, 2, 500, 3000, 3001, 99999] {
            assert_eq!(
                line_bounds_in(&src, line),
                line_bounds(&src, line),
                "line {line}"
            );
        }
        // Another source of the same length is not confused with it.
        let other: Arc<str> = Arc::from(text.replace('\n', " ").as_str());
        assert_eq!(line_col_in(&other, 5000).0, 1);
    }
}
