//! The same pages as an mdBook: book.toml (search on, the default), src/SUMMARY.md with a part
//! for errors (a chapter per domain, the entries under it) and one for articles, and the same
//! Markdown bodies (mdBook has no front matter, so it is left out).

use super::articles::GenArticle;
use super::entries::GenEntry;
use super::writer::Writer;
use super::Result;
use std::collections::BTreeMap;
use std::fmt::Write;

const BOOK: &str = r#"[book]
title = "Synthetic error catalog"
authors = ["errbook synth"]
language = "en"
src = "src"

[output.html]
# Search is on by default; said here so nobody wonders.
[output.html.search]
enable = true
"#;

/// Link text safe inside `[...]` of SUMMARY.md.
fn label(s: &str) -> String {
    let s: String = s.chars().take(100).collect();
    s.replace(['[', ']'], "")
        .replace('<', "&lt;")
        .replace('`', "")
}

pub(crate) fn write(w: &Writer, entries: &[GenEntry], articles: &[GenArticle]) -> Result<()> {
    w.put("book.toml", BOOK)?;
    let mut by_domain: BTreeMap<&str, Vec<&GenEntry>> = BTreeMap::new();
    for e in entries {
        by_domain.entry(e.domain).or_default().push(e);
    }
    let mut summary = String::from("# Summary\n\n[Introduction](README.md)\n\n# Errors\n\n");
    w.put(
        "src/README.md",
        "# Synthetic error catalog\n\nError messages, their root causes, workarounds and dead ends.\n",
    )?;
    for (domain, list) in &by_domain {
        let _ = writeln!(summary, "- [{domain}](errors/{domain}/README.md)");
        let mut index = format!("# {domain}\n\n");
        for e in list {
            let _ = writeln!(
                summary,
                "  - [{}](errors/{domain}/{}.md)",
                label(&e.message),
                e.slug
            );
            let _ = writeln!(index, "- [{}]({}.md)", label(&e.message), e.slug);
            w.put(&format!("src/errors/{domain}/{}.md", e.slug), &e.body)?;
        }
        w.put(&format!("src/errors/{domain}/README.md"), &index)?;
    }
    if !articles.is_empty() {
        summary.push_str("\n# Articles\n\n");
        for a in articles {
            let _ = writeln!(summary, "- [{}](articles/{}.md)", label(&a.title), a.id);
            let body = format!("# {}\n\n{}", a.title, a.body);
            w.put(&format!("src/articles/{}.md", a.id), &body)?;
        }
    }
    w.put("src/SUMMARY.md", &summary)?;
    Ok(())
}
