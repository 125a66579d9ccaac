//! Load: walk `content/` and read every Markdown file, checking that it is usable text.
//!
//! The result is a list of `SourceFile`s in a deterministic order; files that cannot be read as
//! UTF-8 or are empty become diagnostics here, so the parser only ever sees real text.

use errbook_core::diag::{Code, Diagnostic, Diagnostics};
use errbook_core::error::{IoContext, Result};
use errbook_core::model::PageKind;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One content file read into memory.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub kind: PageKind,
    /// Relative to the site root, with `/` separators (`content/errors/pytorch/x.md`).
    pub path: PathBuf,
    pub text: Arc<str>,
}

pub use errbook_core::ids::{ARTICLES_DIR, ERRORS_DIR};

/// All `.md` files under content/errors and content/articles, sorted by path.
pub fn content_paths(root: &Path) -> Result<Vec<(PageKind, PathBuf)>> {
    let mut out = Vec::new();
    for (dir, kind) in [
        (ERRORS_DIR, PageKind::Entry),
        (ARTICLES_DIR, PageKind::Article),
    ] {
        let base = root.join(dir);
        if !base.is_dir() {
            continue;
        }
        for item in walkdir::WalkDir::new(&base).sort_by_file_name() {
            let item = item.map_err(|e| {
                let path = e
                    .path()
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| base.clone());
                errbook_core::error::Error::Io {
                    path,
                    source: e
                        .into_io_error()
                        .unwrap_or_else(|| std::io::Error::other("walk failed")),
                }
            })?;
            if item.file_type().is_file() && item.path().extension().is_some_and(|e| e == "md") {
                let rel = item.path().strip_prefix(root).unwrap_or(item.path());
                out.push((kind, rel.to_path_buf()));
            }
        }
    }
    Ok(out)
}

/// Read one file; an unreadable, empty or non-UTF-8 file is a diagnostic, not an error.
pub fn read_one(root: &Path, kind: PageKind, rel: &Path) -> Result<Result<SourceFile, Diagnostic>> {
    let abs = root.join(rel);
    let bytes = std::fs::read(&abs).at(&abs)?;
    Ok(match check_text(rel, bytes) {
        Ok(text) => Ok(SourceFile {
            kind,
            path: rel.to_path_buf(),
            text,
        }),
        Err(d) => Err(*d),
    })
}

/// Bytes to text, or the diagnostic that says why not (boxed: a diagnostic is several times
/// the size of the text's pointer, and the error is the rare case).
pub fn check_text(rel: &Path, bytes: Vec<u8>) -> Result<Arc<str>, Box<Diagnostic>> {
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    match String::from_utf8(bytes) {
        Ok(s) if s.trim().is_empty() => Err(Box::new(Diagnostic::file(
            Code::Empty,
            rel,
            "the file is empty",
        )
        .hint("start an entry with `# <error message>` or an article with front matter; `errbook new` writes a template"))),
        Ok(s) => Ok(Arc::from(s.replace("\r\n", "\n"))),
        Err(e) => {
            let good = e.utf8_error().valid_up_to();
            let raw = e.as_bytes();
            let byte = raw[good];
            // Show the line as a lossy decoding (U+FFFD for the bad bytes), so the user sees
            // where the bad byte sits; the prefix is valid, so `good` is also its offset there.
            let lossy: Arc<str> = Arc::from(String::from_utf8_lossy(raw).replace("\r\n", "\n"));
            let prefix_crlf = raw[..good].windows(2).filter(|w| w == b"\r\n").count();
            Err(Box::new(Diagnostic::at(
                Code::Encoding,
                rel,
                &lossy,
                good - prefix_crlf,
                '\u{FFFD}'.len_utf8(),
                format!("the file is not valid UTF-8 (byte 0x{byte:02X} at offset {good})"),
            )
            .label("not UTF-8")
            .hint("save the file as UTF-8 (for Latin-1 text: `iconv -f latin1 -t utf-8`)")))
        }
    }
}

/// Load every content file; problems go to `diags`.
pub fn load_all(root: &Path, diags: &mut Diagnostics) -> Result<Vec<SourceFile>> {
    use rayon::prelude::*;
    let paths = content_paths(root)?;
    let results: Vec<Result<Result<SourceFile, Diagnostic>>> = paths
        .par_iter()
        .map(|(kind, rel)| read_one(root, *kind, rel))
        .collect();
    let mut files = Vec::with_capacity(results.len());
    for r in results {
        match r? {
            Ok(f) => files.push(f),
            Err(d) => diags.push(d),
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_is_located() {
        let d = check_text(Path::new("a.md"), b"ok\nab\xFFc".to_vec()).unwrap_err();
        assert_eq!((d.line, d.col), (2, 3));
        assert!(d.message.contains("not valid UTF-8"));
    }

    #[test]
    fn empty_and_blank_files_are_errors() {
        assert!(check_text(Path::new("a.md"), b"".to_vec()).is_err());
        assert!(check_text(Path::new("a.md"), b" \n\n".to_vec()).is_err());
    }
}
