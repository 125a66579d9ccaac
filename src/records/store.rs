//! Records on disk: `<records_dir>/<entries|articles>/<page id>/<snippet id>.<hash prefix>.json`,
//! one file per snippet hash, so two contributors verifying different snippets never touch the
//! same file. Names are made and read back here only.

use super::record::Record;
use crate::core::error::Result;
use crate::core::model::PageKind;
use std::path::{Path, PathBuf};

/// Hex digits of the hash kept in a record's file name.
const HASH_PREFIX: usize = 16;

/// A path part from free text: ASCII letters, digits, `-` and `_`; anything else becomes `_`.
fn safe(s: &str) -> String {
    let t: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if t.is_empty() {
        "_".into()
    } else {
        t
    }
}

/// The record's file, relative to the records folder.
pub(crate) fn rel_path(rec: &Record) -> PathBuf {
    let mut p = PathBuf::from(match rec.page.kind {
        PageKind::Entry => "entries",
        PageKind::Article => "articles",
    });
    for part in rec.page.id.split('/') {
        p.push(safe(part));
    }
    let hash = rec.hash.get(..HASH_PREFIX).unwrap_or(&rec.hash);
    p.push(format!("{}.{hash}.json", safe(&rec.snippet)));
    p
}

/// The snippet part of a record file name written by `rel_path`: `snippet-3` of
/// `snippet-3.0123456789abcdef.json`; None for any other name.
pub(crate) fn snippet_of_file_name(name: &str) -> Option<&str> {
    let stem = name.strip_suffix(".json")?;
    let (snippet, hash) = stem.rsplit_once('.')?;
    let is_hash = hash.len() == HASH_PREFIX && hash.chars().all(|c| c.is_ascii_hexdigit());
    (is_hash && !snippet.is_empty()).then_some(snippet)
}

/// Write `rec` under `dir` (the records folder; pretty JSON, trailing newline) and, when
/// `supersede`, remove the older records of the same snippet position that it replaces.
/// Returns the path written.
pub(crate) fn write(dir: &Path, rec: &Record, supersede: bool) -> Result<PathBuf> {
    let path = dir.join(rel_path(rec));
    let mut text = serde_json::to_string_pretty(rec)
        .map_err(|e| crate::core::error::Error::Other(e.to_string()))?;
    text.push('\n');
    crate::core::fs::write_atomic(&path, text.as_bytes())?;
    // Older runs of the same snippet position (a changed snippet) are superseded by a real
    // result; a skip leaves them (the site then still shows the last real run as stale).
    if let Some(parent) = path.parent().filter(|_| supersede) {
        let mine = safe(&rec.snippet);
        if let Ok(rd) = std::fs::read_dir(parent) {
            for e in rd.flatten() {
                let p = e.path();
                let name = e.file_name().to_string_lossy().into_owned();
                if p != path && snippet_of_file_name(&name) == Some(mine.as_str()) {
                    let _ = std::fs::remove_file(&p);
                }
            }
        }
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_read_back_without_slicing() {
        assert_eq!(
            snippet_of_file_name("snippet-3.0123456789abcdef.json"),
            Some("snippet-3")
        );
        assert_eq!(
            snippet_of_file_name("a.b.0123456789abcdef.json"),
            Some("a.b")
        );
        // Names that are not records: never a panic, never a match.
        for name in [
            "snippet-3.json",
            ".json",
            "json",
            "x.0123456789abcdeg.json",
            ".0123456789abcdef.json",
            "snippet.json.tmp",
            "é.json",
        ] {
            assert_eq!(snippet_of_file_name(name), None, "{name}");
        }
    }
}
