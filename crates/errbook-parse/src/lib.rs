//! Parse: turn loaded source files into the typed `Catalog` (front matter, entry structure,
//! article bodies, snippets), in parallel, collecting diagnostics. What needs every file (two
//! files with one ID) is checked here, and so are the diagnostics shared with other layers
//! (`duplicate_id`) and between entries and articles (`bad_id`). Parse never reads files.

pub(crate) mod article;
pub mod compact;
pub mod entry;
pub(crate) mod frontmatter;
pub mod links;
pub mod load;
pub mod placeholders;
pub mod snippet;
pub(crate) mod yaml;

use crate::load::SourceFile;
use errbook_core::diag::{Code, Diagnostic, Diagnostics};
use errbook_core::model::{Article, Catalog, Entry, PageKind};
use rayon::prelude::*;
use regex::Regex;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};

/// One file's parse result, shared: the catalog holds the same page (`Catalog::entries`), so a
/// workspace that keeps a file's parse and makes the catalog again copies a pointer.
#[derive(Clone)]
pub enum Parsed {
    Entry(Arc<Entry>),
    Article(Arc<Article>),
    Failed,
}

/// The page a content file is, from its path alone (for a file that did not parse).
pub(crate) fn page_of_path(f: &SourceFile) -> Option<errbook_core::model::PageRef> {
    let id = match f.kind {
        PageKind::Entry => errbook_core::ids::entry_id_of(&f.path)?,
        PageKind::Article => f.path.file_stem()?.to_string_lossy().into_owned(),
    };
    Some(errbook_core::model::PageRef { kind: f.kind, id })
}

/// Parse one file on its own.
pub fn parse_file(f: &SourceFile, default_timeout: u64) -> (Parsed, Diagnostics) {
    if f.kind == PageKind::Entry {
        let (e, d) = parse_entry(f, default_timeout);
        return (e.map_or(Parsed::Failed, |e| Parsed::Entry(Arc::new(e))), d);
    }
    let mut d = Diagnostics::default();
    let a = article::parse(&f.path, &f.text, default_timeout, &mut d).map(|mut a| {
        errbook_claims::read_page(&f.text, &a.title, &mut a.snippets, default_timeout);
        a.content_links = links::content_links(&f.text);
        compact::article(&mut a);
        Parsed::Article(Arc::new(a))
    });
    d.extend(placeholders::find(&f.path, &f.text));
    (a.unwrap_or(Parsed::Failed), d)
}

/// `parse_file` for an entry's file, the entry as it is.
pub fn parse_entry(f: &SourceFile, default_timeout: u64) -> (Option<Entry>, Diagnostics) {
    let mut d = Diagnostics::default();
    let e = entry::parse(&f.path, &f.text, default_timeout, &mut d).map(|mut e| {
        errbook_claims::read_page(&f.text, &e.message, &mut e.snippets, default_timeout);
        e.content_links = links::content_links(&f.text);
        compact::entry(&mut e);
        e
    });
    d.extend(placeholders::find(&f.path, &f.text));
    (e, d)
}

/// Parse every file; duplicate IDs are reported here, where all files are known.
pub fn parse_all(files: &[SourceFile], default_timeout: u64, diags: &mut Diagnostics) -> Catalog {
    let results: Vec<Done> = files
        .par_iter()
        .map(|f| Done::of(f, parse_file(f, default_timeout)))
        .collect();
    let text_of = |p: &Path| files.iter().find(|f| f.path == p).cloned();
    catalog_of(results, &text_of, diags)
}

/// One file parsed, with what the catalog needs of the file afterwards (not its text).
pub struct Done {
    parsed: Parsed,
    diags: Diagnostics,
    /// The page the file is by its path, for a file that did not parse.
    unparsed: Option<errbook_core::model::PageRef>,
}

impl Done {
    /// `f`'s parse result.
    pub fn of(f: &SourceFile, (parsed, diags): (Parsed, Diagnostics)) -> Done {
        let unparsed = match parsed {
            Parsed::Failed => page_of_path(f),
            _ => None,
        };
        Done {
            parsed,
            diags,
            unparsed,
        }
    }

    /// The entry this file is, with its diagnostics; else the result as it is.
    pub fn entry(self) -> std::result::Result<(Arc<Entry>, Diagnostics), Done> {
        match self.parsed {
            Parsed::Entry(e) => Ok((e, self.diags)),
            parsed => Err(Done { parsed, ..self }),
        }
    }
}

/// The catalog of the files' parse results, in path order; `text_of` gives a file again (its
/// text, for the diagnostic of a duplicate ID).
pub fn catalog_of(
    results: Vec<Done>,
    text_of: &dyn Fn(&Path) -> Option<SourceFile>,
    diags: &mut Diagnostics,
) -> Catalog {
    let mut others = Vec::new();
    let entries = (results.into_iter())
        .filter_map(|done| match done.entry() {
            Ok((e, d)) => {
                diags.extend(d.items);
                Some(e)
            }
            Err(other) => {
                others.push(other);
                None
            }
        })
        .collect();
    catalog_with(entries, others, text_of, diags)
}

/// `catalog_of` with the entries apart: the entries, as they are (a list a million long is
/// not copied), and every other file's result (articles, files that did not parse).
pub fn catalog_with(
    entries: Vec<Arc<Entry>>,
    others: Vec<Done>,
    text_of: &dyn Fn(&Path) -> Option<SourceFile>,
    diags: &mut Diagnostics,
) -> Catalog {
    let mut cat = Catalog {
        entries,
        ..Catalog::default()
    };
    for done in others {
        diags.extend(done.diags.items);
        match done.parsed {
            Parsed::Entry(e) => cat.entries.push(e),
            Parsed::Article(a) => cat.articles.push(a),
            Parsed::Failed => cat.unparsed.extend(done.unparsed),
        }
    }
    cat.sort();
    check_duplicates(&mut cat, text_of, diags);
    cat
}

/// Two files claiming one ID: the later (by path) is an error pointing at the first, and only
/// the first is kept.
fn check_duplicates(
    cat: &mut Catalog,
    text_of: &dyn Fn(&Path) -> Option<SourceFile>,
    diags: &mut Diagnostics,
) {
    let mut report = |id: &str, first: &Path, second: &Path| {
        if let Some(f) = text_of(second) {
            diags.push(duplicate_id(&f, id, first));
        }
    };
    drop_repeats(&mut cat.entries, |e| (&e.id, &e.source), &mut report);
    drop_repeats(&mut cat.articles, |a| (&a.id, &a.source), &mut report);
}

/// Keep the first of each run of items with one ID (`items` is sorted by ID, then path); report
/// each other one as `(id, first's path, its path)`. In place: a second list would hold every
/// entry again.
fn drop_repeats<T>(
    items: &mut Vec<T>,
    key: fn(&T) -> (&String, &PathBuf),
    report: &mut impl FnMut(&str, &Path, &Path),
) {
    // `dedup_by` hands the later item first and the kept one before it second.
    items.dedup_by(|later, kept| {
        let ((id, path), (first_id, first)) = (key(later), key(kept));
        let repeat = id == first_id;
        if repeat {
            report(id, first, path);
        }
        repeat
    });
}

/// The error for `file` when an earlier file, `first`, already has its ID `id`: located at the
/// file's ID (`- **ID:**` of an entry, `id:` of an article). A duplicate ID is reported
/// with it.
pub(crate) fn duplicate_id(file: &SourceFile, id: &str, first: &Path) -> Diagnostic {
    let (needle, kind) = match file.kind {
        PageKind::Entry => ("**ID:**", "entry"),
        PageKind::Article => ("id:", "article"),
    };
    let at = file.text.find(needle).unwrap_or(0);
    Diagnostic::at(
        Code::DuplicateId,
        &file.path,
        &file.text,
        at,
        needle.len(),
        format!(
            "the {kind} ID `{id}` is already used by {}",
            first.display()
        ),
    )
    .hint("give each file its own ID (the ID follows the file path)")
}

/// The message and hint of an `E-id-chars` diagnostic when `id` breaks the ID rules: the rules'
/// own words (`core::ids`), said of a file rather than of `errbook new`.
pub(crate) fn bad_id(kind: PageKind, id: &str) -> Option<(String, String)> {
    let bad = errbook_core::ids::validate(kind, id).err()?;
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
pub(crate) fn exception_of(message: &str) -> Option<String> {
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

    #[test]
    fn repeats_keep_the_first_path_and_report_each_other() {
        let item = |id: &str, path: &str| (id.to_string(), PathBuf::from(path));
        let mut items = vec![
            item("a", "x/a.md"),
            item("a", "y/a.md"),
            item("b", "b.md"),
            item("b", "x/b.md"),
            item("b", "y/b.md"),
            item("c", "c.md"),
        ];
        let mut seen = Vec::new();
        drop_repeats(
            &mut items,
            |(id, path)| (id, path),
            &mut |id, first, path| {
                seen.push(format!("{id} {} {}", first.display(), path.display()))
            },
        );
        assert_eq!(
            items,
            [item("a", "x/a.md"), item("b", "b.md"), item("c", "c.md")]
        );
        assert_eq!(seen, ["a x/a.md y/a.md", "b b.md x/b.md", "b b.md y/b.md"]);
    }
}
