//! IDs: what makes a valid entry or article ID, where each lives in `content/`, and the ID a
//! content path implies. An ID becomes a URL path segment and a file name, so each part is
//! lowercase ASCII letters, digits, `-` and `_`, starting with a letter or digit. `errbook new`
//! checks IDs here before it writes; the parser derives IDs from paths here.

use super::model::PageKind;
use std::path::{Path, PathBuf};

/// Where entries live: `content/errors/<domain>/<slug>.md`.
pub const ERRORS_DIR: &str = "content/errors";
/// Where articles live: `content/articles/<id>.md`.
pub const ARTICLES_DIR: &str = "content/articles";

/// Why an ID cannot be used, and what to write instead.
#[derive(Debug, PartialEq, Eq)]
pub struct BadId {
    pub message: String,
    pub hint: String,
}

/// One part of an ID (a domain, a slug, an article id).
pub(crate) fn valid_part(p: &str) -> bool {
    let mut chars = p.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// Check an ID for a page of `kind`; the hint suggests a usable one.
pub fn validate(kind: PageKind, id: &str) -> Result<(), BadId> {
    let bad = |message: String, hint: String| Err(BadId { message, hint });
    let word = match kind {
        PageKind::Entry => "error",
        PageKind::Article => "article",
    };
    if let Some(stem) = id.strip_suffix(".md") {
        let stem = stem
            .trim_start_matches("content/errors/")
            .trim_start_matches("content/articles/");
        return bad(
            format!("`{id}` is a file name, not an ID"),
            format!("give the ID without `.md`: `errbook new {word} {stem}`"),
        );
    }
    let fix = super::urls::slug;
    match kind {
        PageKind::Entry => {
            let parts: Vec<&str> = id.split('/').collect();
            if parts.len() != 2 {
                let hint = match parts.as_slice() {
                    [one] => format!("an error ID is `domain/slug`, e.g. `pytorch/{}`", fix(one)),
                    _ => format!(
                        "an error ID has one `/`: `{}/{}`",
                        fix(parts[0]),
                        fix(&parts[1..].join("-"))
                    ),
                };
                return bad(format!("invalid error ID `{id}`"), hint);
            }
            if !parts.iter().all(|p| valid_part(p)) {
                return bad(
                    format!("invalid error ID `{id}`"),
                    format!(
                        "use lowercase letters, digits, `-` and `_`: `{}/{}`",
                        fix(parts[0]),
                        fix(parts[1])
                    ),
                );
            }
            Ok(())
        }
        PageKind::Article => {
            if id.contains('/') {
                return bad(
                    format!("invalid article ID `{id}`"),
                    format!(
                        "an article ID has no `/` (articles live in content/articles/): `{}`",
                        fix(&id.replace('/', "-"))
                    ),
                );
            }
            if !valid_part(id) {
                return bad(
                    format!("invalid article ID `{id}`"),
                    format!("use lowercase letters, digits, `-` and `_`: `{}`", fix(id)),
                );
            }
            Ok(())
        }
    }
}

/// The file a page's ID lives in, relative to the site root.
pub fn path_of(kind: PageKind, id: &str) -> PathBuf {
    match kind {
        PageKind::Entry => Path::new(ERRORS_DIR).join(format!("{id}.md")),
        PageKind::Article => Path::new(ARTICLES_DIR).join(format!("{id}.md")),
    }
}

/// The entry ID a file path implies: `content/errors/<domain>/<slug>.md` -> `domain/slug`.
pub fn entry_id_of(path: &Path) -> Option<String> {
    let rel = path.strip_prefix(ERRORS_DIR).ok()?;
    let s = rel.with_extension("");
    let parts: Vec<String> = s.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    (parts.len() == 2).then(|| parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use PageKind::{Article, Entry};

    #[test]
    fn ids_are_validated_with_a_suggestion() {
        assert!(validate(Entry, "pytorch/dataset-worker_fork2").is_ok());
        assert!(validate(Article, "why-does-x-").is_ok());
        let b = validate(Entry, "PyTorch/Out Of Memory").unwrap_err();
        assert_eq!(
            b.hint,
            "use lowercase letters, digits, `-` and `_`: `pytorch/out-of-memory`"
        );
        let b = validate(Entry, "oom").unwrap_err();
        assert_eq!(b.hint, "an error ID is `domain/slug`, e.g. `pytorch/oom`");
        assert!(validate(Entry, "a/b/c").is_err());
        assert!(validate(Entry, "a/").is_err());
        assert!(validate(Article, "a/b").is_err());
        assert!(validate(Article, "").is_err());
        let b = validate(Entry, "content/errors/cuda/oom.md").unwrap_err();
        assert_eq!(
            b.hint,
            "give the ID without `.md`: `errbook new error cuda/oom`"
        );
    }

    #[test]
    fn paths_imply_entry_ids() {
        let p = Path::new("content/errors/pytorch/x.md");
        assert_eq!(entry_id_of(p).as_deref(), Some("pytorch/x"));
        assert_eq!(entry_id_of(Path::new("content/errors/x.md")), None);
        assert_eq!(path_of(Entry, "pytorch/x"), p);
    }
}
