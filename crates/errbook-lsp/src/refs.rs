//! What the cursor is on: a content reference written `@/errors/<id>.md#anchor` or
//! `@/articles/<id>.md`, or an entry ID in front matter (`errors:`, `related:`); and the page it
//! names, found by its file as the catalog read it (`content/` + the path after `@/`).

use std::path::PathBuf;

/// A reference found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    /// The content file it names, under the root (`content/errors/a/b.md`).
    pub(crate) file: PathBuf,
    pub(crate) anchor: Option<String>,
    /// Byte range in the text of what names the page (the path after `@/`, or the ID).
    pub(crate) at: (usize, usize),
    /// Written as an entry ID in front matter (else as an `@/` path).
    pub(crate) as_id: bool,
}

/// Where a written reference ends.
fn ends(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            ')' | '(' | '"' | '\'' | '<' | '>' | ']' | '[' | ',' | '`'
        )
}

/// The reference at byte `offset` of `text`, if there is one.
pub(crate) fn at(text: &str, offset: usize) -> Option<Found> {
    all_in_line(text, offset)
        .into_iter()
        .find(|f| f.at.0 <= offset && offset <= f.at.1 + anchor_len(f))
}

fn anchor_len(f: &Found) -> usize {
    f.anchor.as_ref().map_or(0, |a| a.len() + 1)
}

/// The references of the line around `offset`.
fn all_in_line(text: &str, offset: usize) -> Vec<Found> {
    let offset = offset.min(text.len());
    let start = text[..floor(text, offset)].rfind('\n').map_or(0, |i| i + 1);
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line = &text[start..end];
    let mut out = paths_in(line, start);
    if let Some(key) = front_key(text, start) {
        if key == "errors" || key == "related" {
            out.extend(ids_in(line, start));
        }
    }
    out
}

fn floor(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Every reference written in `text`.
pub(crate) fn all_in(text: &str) -> Vec<Found> {
    let fm_end = front_matter(text).map_or(0, |(_, e)| e);
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let l = line.trim_end_matches('\n');
        out.extend(paths_in(l, start));
        if start < fm_end && matches!(front_key(text, start), Some("errors" | "related")) {
            out.extend(ids_in(l, start));
        }
        start += line.len();
    }
    out
}

/// Every `@/...` of `line` (which starts at byte `base` of its text).
pub(crate) fn paths_in(line: &str, base: usize) -> Vec<Found> {
    let mut out = Vec::new();
    for (i, _) in line.match_indices("@/") {
        let rest = &line[i + 2..];
        let len = rest.find(ends).unwrap_or(rest.len());
        let token = &rest[..len];
        let (path, anchor) = match token.split_once('#') {
            Some((p, a)) => (p, Some(a.to_string())),
            None => (token, None),
        };
        let start = base + i + 2;
        out.push(Found {
            file: PathBuf::from("content").join(path),
            anchor,
            at: (start, start + path.len()),
            as_id: false,
        });
    }
    out
}

/// The entry IDs written in a front matter `line` (quoted or not, in a list or alone).
fn ids_in(line: &str, base: usize) -> Vec<Found> {
    let value_from = match line.trim_start().starts_with('-') {
        true => line.find('-').map_or(0, |i| i + 1),
        false => line.find(':').map_or(0, |i| i + 1),
    };
    let mut out = Vec::new();
    let mut i = value_from;
    let bytes = line.as_bytes();
    while i < line.len() {
        if ends(bytes[i] as char) {
            i += 1;
            continue;
        }
        let len = line[i..].find(ends).unwrap_or(line.len() - i);
        let id = &line[i..i + len];
        if id.contains('/') {
            out.push(Found {
                file: errbook_core::ids::path_of(errbook_core::model::PageKind::Entry, id),
                anchor: None,
                at: (base + i, base + i + len),
                as_id: true,
            });
        }
        i += len.max(1);
    }
    out
}

/// The byte range of the front matter's body (between its `---` lines), if the text has one.
pub(crate) fn front_matter(text: &str) -> Option<(usize, usize)> {
    let body = text.strip_prefix("---\n")?;
    let end = body.find("\n---").map(|i| i + 4)?;
    Some((4, end + 1))
}

/// The front matter key the line at `line_start` is under (its own, or a list's above it).
pub(crate) fn front_key(text: &str, line_start: usize) -> Option<&str> {
    let (from, to) = front_matter(text)?;
    if line_start < from || line_start >= to {
        return None;
    }
    let line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |i| line_start + i);
    for l in text.get(from..line_end)?.lines().rev() {
        if l.starts_with(' ') || l.starts_with('-') || l.trim().is_empty() {
            continue;
        }
        return l.split(':').next().map(str::trim);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_found_under_the_cursor() {
        let text = "---\nerrors: [\"a/b\", c/d]\n---\nsee [x](@/errors/a/b.md#workaround-1).\n";
        let f = at(text, text.find("c/d").unwrap() + 1).unwrap();
        assert_eq!(f.file, PathBuf::from("content/errors/c/d.md"));
        assert!(f.as_id);
        let at_link = text.find("@/").unwrap() + 4;
        let f = at(text, at_link).unwrap();
        assert_eq!(f.file, PathBuf::from("content/errors/a/b.md"));
        assert_eq!(f.anchor.as_deref(), Some("workaround-1"));
        assert_eq!(at(text, 1), None);
        for i in 0..=text.len() + 3 {
            let _ = at(text, i);
        }
    }
}
