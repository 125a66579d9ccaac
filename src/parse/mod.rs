//! Parse: turn loaded source files into the typed `Catalog` (front matter, entry structure,
//! article bodies, snippets), in parallel, collecting diagnostics.

pub mod article;
pub mod entry;
pub mod frontmatter;
pub mod snippet;

use crate::core::diag::{Code, Diagnostic, Diagnostics};
use crate::core::model::PageKind;
use crate::core::model::{Article, Catalog, Entry};
use crate::load::SourceFile;
use rayon::prelude::*;
use regex::Regex;
use std::sync::LazyLock;

/// One file's parse result.
pub enum Parsed {
    Entry(Entry),
    Article(Article),
    Failed,
}

/// Parse one file on its own (used by the full build and by incremental rebuilds).
pub fn parse_file(f: &SourceFile, default_timeout: u64) -> (Parsed, Diagnostics) {
    let mut d = Diagnostics::default();
    let p = match f.kind {
        PageKind::Entry => {
            entry::parse(&f.path, &f.text, default_timeout, &mut d).map(Parsed::Entry)
        }
        PageKind::Article => {
            article::parse(&f.path, &f.text, default_timeout, &mut d).map(Parsed::Article)
        }
    };
    (p.unwrap_or(Parsed::Failed), d)
}

/// Parse every file; duplicate IDs are reported here, where all files are known.
pub fn parse_all(files: &[SourceFile], default_timeout: u64, diags: &mut Diagnostics) -> Catalog {
    let results: Vec<(Parsed, Diagnostics)> = files
        .par_iter()
        .map(|f| parse_file(f, default_timeout))
        .collect();
    let mut cat = Catalog::default();
    for (p, d) in results {
        diags.extend(d.items);
        match p {
            Parsed::Entry(e) => cat.entries.push(e),
            Parsed::Article(a) => cat.articles.push(a),
            Parsed::Failed => {}
        }
    }
    cat.sort();
    check_duplicates(&mut cat, files, diags);
    cat
}

/// Two files claiming one ID: the later (by path) is an error pointing at the first.
fn check_duplicates(cat: &mut Catalog, files: &[SourceFile], diags: &mut Diagnostics) {
    let src_of = |p: &std::path::Path| files.iter().find(|f| f.path == p).map(|f| f.text.clone());
    let mut report = |id: &str, first: &std::path::Path, second: &std::path::Path, kind: &str| {
        if let Some(src) = src_of(second) {
            let needle = match kind {
                "entry" => "**ID:**",
                _ => "id:",
            };
            let at = src.find(needle).unwrap_or(0);
            diags.push(
                Diagnostic::at(
                    Code::DuplicateId,
                    second,
                    &src,
                    at,
                    needle.len(),
                    format!(
                        "the {kind} ID `{id}` is already used by {}",
                        first.display()
                    ),
                )
                .hint("give each file its own ID (the ID follows the file path)"),
            );
        }
    };
    let mut keep_e: Vec<Entry> = Vec::with_capacity(cat.entries.len());
    for e in std::mem::take(&mut cat.entries) {
        match keep_e.last() {
            Some(prev) if prev.id == e.id => {
                report(&e.id, &prev.source.clone(), &e.source, "entry")
            }
            _ => keep_e.push(e),
        }
    }
    cat.entries = keep_e;
    let mut keep_a: Vec<Article> = Vec::with_capacity(cat.articles.len());
    for a in std::mem::take(&mut cat.articles) {
        match keep_a.last() {
            Some(prev) if prev.id == a.id => {
                report(&a.id, &prev.source.clone(), &a.source, "article")
            }
            _ => keep_a.push(a),
        }
    }
    cat.articles = keep_a;
}

/// The message and hint of an `E-id-chars` diagnostic when `id` breaks the ID rules: the rules'
/// own words (`core::ids`), said of a file rather than of `errbook new`.
pub(crate) fn bad_id(kind: PageKind, id: &str) -> Option<(String, String)> {
    let bad = crate::core::ids::validate(kind, id).err()?;
    let hint = match id.strip_suffix(".md") {
        Some(stem) => format!("write the ID without `.md`: `{stem}`"),
        None => bad.hint,
    };
    Some((bad.message, hint))
}

static EXC_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z_][A-Za-z0-9_]*(?:Error|Exception|Warning|Interrupt|Exit|Fault))\s*(?::|$)")
        .expect("static regex")
});

/// The exception type a message starts with: `RuntimeError` in `RuntimeError: CUDA error`,
/// `torch.cuda.OutOfMemoryError` in `torch.cuda.OutOfMemoryError: ...`.
pub fn exception_of(message: &str) -> Option<String> {
    EXC_RE.captures(message).map(|c| c[1].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exception_types() {
        assert_eq!(
            exception_of("RuntimeError: x").as_deref(),
            Some("RuntimeError")
        );
        assert_eq!(
            exception_of("torch.cuda.OutOfMemoryError: CUDA out of memory").as_deref(),
            Some("torch.cuda.OutOfMemoryError")
        );
        assert_eq!(exception_of("CUDA error: device-side assert"), None);
        assert_eq!(
            exception_of("KeyboardInterrupt").as_deref(),
            Some("KeyboardInterrupt")
        );
    }
}
