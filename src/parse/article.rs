//! Parse a Q&A article: YAML front matter (title, date, id required; errors, tags, links
//! optional) and a Markdown body whose fenced blocks become snippets.

use super::frontmatter;
use super::snippet;
use crate::core::diag::{Code, Diagnostic, Diagnostics};
use crate::core::model::Article;
use std::path::Path;
use std::sync::Arc;

pub const FRONT_KEYS: &[&str] = &[
    "title",
    "date",
    "id",
    "errors",
    "tags",
    "links",
    "description",
];

pub fn parse(
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

    if let Some(d) = &date {
        if chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").is_err() {
            let (o, l) = fm.key_span("date");
            diags.push(
                Diagnostic::at(
                    Code::Date,
                    path,
                    src,
                    o,
                    l,
                    format!("`date: {d}` is not a date"),
                )
                .hint("write the date as YYYY-MM-DD, e.g. `date: \"2025-01-30\"`"),
            );
        }
    }
    if let Some(id) = &id {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if *id != stem {
            let (o, l) = fm.key_span("id");
            diags.push(
                Diagnostic::at(
                    Code::IdPath,
                    path,
                    src,
                    o,
                    l,
                    format!("the id `{id}` does not match the file name `{stem}.md`"),
                )
                .hint(format!(
                    "rename the file to content/articles/{id}.md, or set `id: \"{stem}\"`"
                )),
            );
        }
    }

    let body = &src[split.body_offset..];
    let (body_line, _) = crate::core::diag::line_col(src, split.body_offset);
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
        body: body.to_string(),
        body_line,
        snippets,
    })
}
