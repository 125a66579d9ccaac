//! Scaffolding: a new catalog (`errbook init`, in `init`) and new content files from templates
//! (`errbook new`), that `check` accepts as they are, ready to edit. Never overwrites a file.

mod init;

pub use init::{init, Init};

use errbook_core::error::{IoContext, Result};
use errbook_core::ids::{self, BadId};
use errbook_core::model::PageKind;
use std::io::Write;
use std::path::{Path, PathBuf};

const ERROR_TEMPLATE: &str = include_str!("error.md");
const ARTICLE_TEMPLATE: &str = include_str!("article.md");

/// What `new_page` did.
#[derive(Debug)]
pub enum NewPage {
    /// Written at this path, relative to the root.
    Written(PathBuf),
    /// A file is already there (relative to the root); nothing was written.
    Exists(PathBuf),
    /// The ID cannot be used.
    BadId(BadId),
}

/// The template filled in for `id`; articles get `today` as their date.
pub(crate) fn template(kind: PageKind, id: &str, today: chrono::NaiveDate) -> String {
    match kind {
        PageKind::Entry => {
            let domain = id.split('/').next().unwrap_or(id);
            ERROR_TEMPLATE
                .replace("{id}", id)
                .replace("{domain}", domain)
        }
        PageKind::Article => {
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

/// Write a new page of `kind` for `id` under `root` from its template.
pub fn new_page(
    root: &Path,
    kind: PageKind,
    id: &str,
    today: chrono::NaiveDate,
) -> Result<NewPage> {
    if let Err(b) = ids::validate(kind, id) {
        return Ok(NewPage::BadId(b));
    }
    let rel = ids::path_of(kind, id);
    let abs = root.join(&rel);
    if abs.exists() {
        return Ok(NewPage::Exists(rel));
    }
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
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Ok(NewPage::Exists(rel)),
        Err(e) => return Err(e).at(&abs),
    };
    f.write_all(template(kind, id, today).as_bytes()).at(&abs)?;
    Ok(NewPage::Written(rel))
}

#[cfg(test)]
mod tests {
    use super::*;
    use errbook_core::diag::Diagnostics;
    use errbook_parse::load::SourceFile;
    use std::sync::Arc;

    /// The template parses without errors; its only warnings are its placeholders.
    fn parses_clean(kind: PageKind, rel: PathBuf, text: String) {
        let f = SourceFile {
            kind,
            path: rel,
            text: Arc::from(text),
        };
        let mut d = Diagnostics::default();
        let (p, diags) = errbook_parse::parse_file(&f, 300);
        d.extend(diags.items);
        d.items
            .retain(|x| x.code != errbook_core::diag::Code::Placeholder);
        let rendered: Vec<String> = d.items.iter().map(|x| x.render(false)).collect();
        assert!(d.items.is_empty(), "{}", rendered.join("\n"));
        assert!(!matches!(p, errbook_parse::Parsed::Failed));
    }

    #[test]
    fn every_placeholder_phrase_is_a_templates_and_warned_about() {
        let day = chrono::NaiveDate::from_ymd_opt(2026, 1, 2).unwrap();
        let texts = [
            template(PageKind::Entry, "a/b", day),
            template(PageKind::Article, "c", day),
        ];
        for p in errbook_parse::placeholders::PHRASES {
            assert!(
                texts.iter().any(|t| t.contains(p)),
                "no template holds {p:?}"
            );
        }
        let src: Arc<str> = Arc::from(texts[0].as_str());
        let found = errbook_parse::placeholders::find(std::path::Path::new("x.md"), &src);
        assert!(found.len() >= 4, "{found:?}");
    }

    #[test]
    fn templates_parse_clean() {
        let day = chrono::NaiveDate::from_ymd_opt(2026, 1, 2).unwrap();
        let id = "cuda/out-of-memory";
        let e = template(PageKind::Entry, id, day);
        parses_clean(PageKind::Entry, ids::path_of(PageKind::Entry, id), e);
        let a = template(PageKind::Article, "why-oom", day);
        assert!(a.contains("date: \"2026-01-02\""), "{a}");
        assert!(a.contains("title: \"Why oom\""), "{a}");
        parses_clean(
            PageKind::Article,
            ids::path_of(PageKind::Article, "why-oom"),
            a,
        );
    }
}
