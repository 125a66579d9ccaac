//! Records on disk. A folder per snippet and hash, a file per environment:
//!
//! ```text
//! <records_dir>/<entries|articles>/<page id>/<snippet id>.<hash prefix>/<environment key>.json
//! verify/entries/pytorch/dataset-worker-fork-cuda/workaround-1.bafe55e320c292a8/
//!     1xH200_driver580.159.04_cuda13.0_py3.12.3_torch2.11.0+cu130.json
//! ```
//!
//! so two machines' runs of one snippet are two files that merge without conflict, and a
//! reviewer sees from the names which environments a snippet ran in. Names are made and read
//! back here only.

use super::record::Record;
use errbook_core::error::{Error, Result};
use errbook_core::model::PageKind;
use std::path::{Path, PathBuf};

/// Hex digits of the hash kept in a record's folder name.
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

/// The folder of a page's records, relative to the records folder.
fn page_dir(rec: &Record) -> PathBuf {
    let mut p = PathBuf::from(match rec.page.kind {
        PageKind::Entry => "entries",
        PageKind::Article => "articles",
    });
    for part in rec.page.id.split('/') {
        p.push(safe(part));
    }
    p
}

/// `<snippet>.<hash prefix>`: the folder of one snippet's runs at one hash.
fn snippet_dir_name(rec: &Record) -> String {
    let hash = rec.hash.get(..HASH_PREFIX).unwrap_or(&rec.hash);
    format!("{}.{hash}", safe(&rec.snippet))
}

/// The record's file, relative to the records folder.
fn rel_path(rec: &Record) -> PathBuf {
    page_dir(rec)
        .join(snippet_dir_name(rec))
        .join(format!("{}.json", rec.env.key()))
}

/// The snippet part of a snippet's folder name, `<snippet>.<hash prefix>`: `snippet-3` of
/// `snippet-3.0123456789abcdef`; None for any other name.
fn snippet_of_name(name: &str) -> Option<&str> {
    let (snippet, hash) = name.rsplit_once('.')?;
    let is_hash = hash.len() == HASH_PREFIX && hash.chars().all(|c| c.is_ascii_hexdigit());
    (is_hash && !snippet.is_empty()).then_some(snippet)
}

/// What `write` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Written {
    /// The record is on disk at this path (`dir` joined with its name).
    At(PathBuf),
    /// Not written: this path holds evidence of the same run in the same environment, and the
    /// new record is not evidence (an environment error, a limit) and does not replace it.
    KeptEvidence(PathBuf),
}

/// Write `rec` under `dir` (the records folder; pretty JSON, trailing newline). A record that is
/// not evidence never replaces one that is. A record that is evidence removes the records of
/// older versions of the same snippet in the same environment (other environments keep theirs
/// until they run it again).
pub fn write(dir: &Path, rec: &Record) -> Result<Written> {
    let path = dir.join(rel_path(rec));
    if !rec.verdict.is_evidence() && holds_evidence(&path) {
        return Ok(Written::KeptEvidence(path));
    }
    errbook_core::fs::write_atomic(&path, text(rec)?.as_bytes())?;
    if rec.verdict.is_evidence() {
        supersede(dir, rec);
    }
    Ok(Written::At(path))
}

/// A record as its file holds it: pretty JSON and a trailing newline.
fn text(rec: &Record) -> Result<String> {
    let mut text = serde_json::to_string_pretty(rec).map_err(|e| Error::encode("record", e))?;
    text.push('\n');
    Ok(text)
}

/// Replace the record at `path` with `rec`, a record of the same run (its name is the same):
/// a finding read again from its log.
pub fn rewrite(path: &Path, rec: &Record) -> Result<()> {
    errbook_core::fs::write_atomic(path, text(rec)?.as_bytes())
}

/// Whether the record at `path` exists and is evidence (an unreadable file is not).
fn holds_evidence(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<Record>(&t).ok())
        .is_some_and(|r| r.verdict.is_evidence())
}

/// Remove the records of `rec`'s snippet and environment at other hashes, and their folders
/// when that leaves them empty. Files that are not records of the snippet are left alone.
fn supersede(dir: &Path, rec: &Record) {
    let page = dir.join(page_dir(rec));
    let (mine, me) = (safe(&rec.snippet), snippet_dir_name(rec));
    let file = format!("{}.json", rec.env.key());
    let Ok(rd) = std::fs::read_dir(&page) else {
        return;
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let is_other_version = e.path().is_dir() && name != me;
        if is_other_version && snippet_of_name(&name) == Some(mine.as_str()) {
            let _ = std::fs::remove_file(e.path().join(&file));
            let _ = std::fs::remove_dir(e.path()); // only when empty
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_back_without_slicing() {
        assert_eq!(
            snippet_of_name("snippet-3.0123456789abcdef"),
            Some("snippet-3")
        );
        assert_eq!(snippet_of_name("a.b.0123456789abcdef"), Some("a.b"));
        // Names that are not a snippet's folder: never a panic, never a match.
        for name in [
            "snippet-3.0123456789abcdef.json",
            "snippet-3",
            "x.0123456789abcdeg",
            "x.0123456789abcde",
            ".0123456789abcdef",
            "snippet.json.tmp",
            "é.json",
            "",
        ] {
            assert_eq!(snippet_of_name(name), None, "{name}");
        }
    }
}
