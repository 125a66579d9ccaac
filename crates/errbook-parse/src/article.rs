//! Parse a Q&A article: YAML front matter (title, date, id required; errors, tags, links
//! optional) and a Markdown body whose fenced blocks become snippets.

use super::frontmatter::{self, FrontMatter};
use super::snippet;
use errbook_core::diag::{Code, Diagnostic, Diagnostics};
use errbook_core::model::{Article, PageKind};
use std::path::Path;
use std::sync::Arc;

pub(crate) const FRONT_KEYS: &[&str] = &[
    "title",
    "date",
    "id",
    "errors",
    "tags",
    "links",
    "description",
    "draft",
];

pub(crate) fn parse(
    path: &Path,
    src: &Arc<str>,
    default_timeout: u64,
    diags: &mut Diagnostics,
) -> Option<Article> {
    let errors_before = diags.error_count();
    let split = frontmatter::split(path, src, diags)?;
    let Some(fm) = split.front.as_ref() else {
        diags.push(
            Diagnostic::at(
                Code::FrontMatter,
                path,
                src,
                0,
                0,
                "an article must start with YAML front matter",
            )
            .hint(
                "begin the file with\n---\ntitle: \"...\"\ndate: \"YYYY-MM-DD\"\nid: \"...\"\n---",
            ),
        );
        return None;
    };
    fm.check_unknown(FRONT_KEYS, diags);
    let title = fm.required_str("title", diags);
    let date = fm.required_str("date", diags);
    let id = fm.required_str("id", diags);
    let errors = fm.str_list("errors", diags);
    let tags = fm.str_list("tags", diags);
    let links = fm.links(diags);
    let draft = fm.flag("draft", diags);

    if let Some(d) = &date {
        check_date(fm, d, diags);
    }
    if let Some(id) = &id {
        check_id(fm, id, diags);
    }

    let body = src.get(split.body_offset..).unwrap_or("");
    let (body_line, _) = errbook_core::diag::line_col(src, split.body_offset);
    let raw = snippet::collect_blocks(src, split.body_offset, src.len());
    let snippets: Vec<_> = raw
        .iter()
        .enumerate()
        .map(|(i, b)| snippet::to_snippet(i, b, path, src, default_timeout, diags))
        .collect();
    snippet::check_chain(&snippets, path, src, diags);

    if diags.error_count() > errors_before {
        return None;
    }
    Some(Article {
        id: id?,
        source: path.to_path_buf(),
        title: title?,
        date: date?,
        errors,
        tags,
        links,
        draft,
        body: body.to_string(),
        body_line,
        snippets,
        content_links: Vec::new(),
    })
}

/// `date:` must be YYYY-MM-DD.
fn check_date(fm: &FrontMatter, date: &str, diags: &mut Diagnostics) {
    if chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").is_ok() {
        return;
    }
    diags.push(
        fm.err("date", Code::Date, format!("`date: {date}` is not a date"))
            .hint("write the date as YYYY-MM-DD, e.g. `date: \"2025-01-30\"`"),
    );
}

/// `id:` must follow the ID rules (it becomes a URL and a file name), then match the file name.
fn check_id(fm: &FrontMatter, id: &str, diags: &mut Diagnostics) {
    let stem = fm
        .path()
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some((message, hint)) = super::bad_id(PageKind::Article, id) {
        let hint = if id == stem {
            format!("{hint}, and rename the file to match")
        } else {
            hint
        };
        diags.push(fm.err("id", Code::IdChars, message).hint(hint));
        return;
    }
    if id != stem {
        diags.push(
            fm.err(
                "id",
                Code::IdPath,
                format!("the id `{id}` does not match the file name `{stem}.md`"),
            )
            .hint(format!(
                "rename the file to content/articles/{id}.md, or set `id: \"{stem}\"`"
            )),
        );
    }
}
