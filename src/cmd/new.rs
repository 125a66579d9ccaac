//! `errbook new error DOMAIN/SLUG` and `errbook new article ID`: write a new content file from a
//! template (src/cmd/new/*.md) that `check` accepts as it is, ready to edit. Never overwrites.
//! Exit 0 when written, 1 when the file exists, 2 for an invalid ID.

use crate::error::IoContext;
use crate::Result;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const ERROR_TEMPLATE: &str = include_str!("new/error.md");
const ARTICLE_TEMPLATE: &str = include_str!("new/article.md");

/// Why an ID cannot be used, and what to write instead.
#[derive(Debug, PartialEq, Eq)]
pub struct BadId {
    pub message: String,
    pub hint: String,
}

/// One part of an ID (a domain, a slug, an article id): it becomes a URL path segment and a file
/// name, so lowercase ASCII letters, digits, `-` and `_`, starting with a letter or digit.
fn valid_part(p: &str) -> bool {
    let mut chars = p.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// Check an ID for `kind` ("error" or "article"); the hint suggests a usable one.
pub fn validate_id(kind: &str, id: &str) -> std::result::Result<(), BadId> {
    let bad = |message: String, hint: String| Err(BadId { message, hint });
    if let Some(stem) = id.strip_suffix(".md") {
        let stem = stem
            .trim_start_matches("content/errors/")
            .trim_start_matches("content/articles/");
        return bad(
            format!("`{id}` is a file name, not an ID"),
            format!("give the ID without `.md`: `errbook new {kind} {stem}`"),
        );
    }
    let fix = |s: &str| crate::urls::slug(s);
    match kind {
        "error" => {
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
        _ => {
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

/// The file an ID lives in, relative to the site root.
pub fn path_of(kind: &str, id: &str) -> PathBuf {
    match kind {
        "error" => Path::new(crate::load::ERRORS_DIR).join(format!("{id}.md")),
        _ => Path::new(crate::load::ARTICLES_DIR).join(format!("{id}.md")),
    }
}

/// The template filled in for `id`; articles get `today` as their date.
pub fn render(kind: &str, id: &str, today: chrono::NaiveDate) -> String {
    match kind {
        "error" => {
            let domain = id.split('/').next().unwrap_or(id);
            ERROR_TEMPLATE
                .replace("{id}", id)
                .replace("{domain}", domain)
        }
        _ => {
            let words = id.replace(['-', '_'], " ");
            let mut title = words.trim().to_string();
            if let Some(first) = title.get(..1) {
                title = first.to_uppercase() + &title[1..];
            }
            ARTICLE_TEMPLATE
                .replace("{title}", &title.replace('"', "'"))
                .replace("{date}", &today.format("%Y-%m-%d").to_string())
                .replace("{id}", id)
        }
    }
}

pub fn run(root: &Path, kind: &str, id: &str) -> Result<ExitCode> {
    if !root.join("book.toml").is_file() {
        return Err(crate::Error::Other(format!(
            "no book.toml in {}: run errbook in the site root, or pass `--root DIR`",
            root.display()
        )));
    }
    if let Err(b) = validate_id(kind, id) {
        // A usage error, like clap's: exit 2.
        eprintln!("error: {}\n  help: {}", b.message, b.hint);
        return Ok(ExitCode::from(2));
    }
    let rel = path_of(kind, id);
    let abs = root.join(&rel);
    let shown = if root == Path::new(".") {
        rel.clone()
    } else {
        abs.clone()
    };
    if abs.exists() {
        eprintln!(
            "error: {} already exists; errbook new does not overwrite files\n  help: edit that file, or choose another ID",
            shown.display()
        );
        return Ok(ExitCode::from(1));
    }
    let text = render(kind, id, chrono::Local::now().date_naive());
    if let Some(dir) = abs.parent() {
        std::fs::create_dir_all(dir).at(dir)?;
    }
    // create_new: if the file appeared since the check above, fail instead of overwriting it.
    let mut f = match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&abs)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            eprintln!(
                "error: {} already exists; errbook new does not overwrite files",
                shown.display()
            );
            return Ok(ExitCode::from(1));
        }
        Err(e) => return Err(e).at(&abs),
    };
    f.write_all(text.as_bytes()).at(&abs)?;
    println!("{}", shown.display());
    eprintln!("`errbook serve` shows it as you edit; `errbook check` lists what is wrong");
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Diagnostics;
    use crate::load::{ContentKind, SourceFile};
    use std::sync::Arc;

    fn parses_clean(kind: ContentKind, rel: PathBuf, text: String) {
        let f = SourceFile {
            kind,
            path: rel,
            text: Arc::from(text),
            mtime: None,
        };
        let mut d = Diagnostics::default();
        let (p, diags) = crate::parse::parse_file(&f, 300);
        d.extend(diags.items);
        let rendered: Vec<String> = d.items.iter().map(|x| x.render(false)).collect();
        assert!(d.items.is_empty(), "{}", rendered.join("\n"));
        assert!(!matches!(p, crate::parse::Parsed::Failed));
    }

    #[test]
    fn templates_parse_clean() {
        let day = chrono::NaiveDate::from_ymd_opt(2026, 1, 2).unwrap();
        parses_clean(
            ContentKind::Entry,
            path_of("error", "cuda/out-of-memory"),
            render("error", "cuda/out-of-memory", day),
        );
        let a = render("article", "why-oom", day);
        assert!(a.contains("date: \"2026-01-02\""), "{a}");
        assert!(a.contains("title: \"Why oom\""), "{a}");
        parses_clean(ContentKind::Article, path_of("article", "why-oom"), a);
    }

    #[test]
    fn ids_are_validated_with_a_suggestion() {
        assert!(validate_id("error", "pytorch/dataset-worker_fork2").is_ok());
        assert!(validate_id("article", "why-does-x-").is_ok());
        let b = validate_id("error", "PyTorch/Out Of Memory").unwrap_err();
        assert_eq!(
            b.hint,
            "use lowercase letters, digits, `-` and `_`: `pytorch/out-of-memory`"
        );
        let b = validate_id("error", "oom").unwrap_err();
        assert_eq!(b.hint, "an error ID is `domain/slug`, e.g. `pytorch/oom`");
        assert!(validate_id("error", "a/b/c").is_err());
        assert!(validate_id("error", "a/").is_err());
        assert!(validate_id("article", "a/b").is_err());
        assert!(validate_id("article", "").is_err());
        let b = validate_id("error", "content/errors/cuda/oom.md").unwrap_err();
        assert_eq!(
            b.hint,
            "give the ID without `.md`: `errbook new error cuda/oom`"
        );
    }
}
