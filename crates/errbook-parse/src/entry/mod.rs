//! Parse a structured error entry exactly as the catalog writes it:
//!
//! ```text
//! # <error message>
//! - **ID:** `domain/slug`   (and Domain, Category, Error Code, Verification, Fix Rate)
//! ## Root Cause / ## Version Compatibility / ## Workarounds / ## Dead Ends
//! ```
//!
//! pulldown-cmark finds the blocks and their byte ranges; each piece is then read with the
//! layout's own rules. Whatever cannot be placed is a located diagnostic, never dropped.
//!
//! This file orchestrates one entry (front matter, title, metadata, sections, then the snippets
//! in page order) and holds the context its readers share; each submodule reads one piece.

mod blocks;
mod fields;
mod fixes;
mod meta;
mod sections;

/// The words of the entry layout, for the editor's completion: the metadata keys in the order
/// they are written, and the `## ` sections, required first.
pub fn vocabulary() -> (Vec<&'static str>, Vec<&'static str>) {
    let keys = meta::MetaKey::ALL.iter().map(|k| k.name()).collect();
    let sections = (sections::SECTIONS.iter().chain(sections::EXTRA_SECTIONS)).copied();
    (keys, sections.collect())
}
mod title;
mod versions;

use super::frontmatter::{self, FrontMatter};
use super::snippet::{self, RawBlock};
use errbook_core::diag::{Code, Diagnostic, Diagnostics};
use errbook_core::model::{Entry, LinkOverrides, Snippet};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

pub(crate) const FRONT_KEYS: &[&str] = &["aliases", "tags", "related", "links", "draft"];

/// What the readers of one entry share: where diagnostics go, and the entry's code blocks.
struct Ctx<'a> {
    path: &'a Path,
    src: &'a Arc<str>,
    diags: &'a mut Diagnostics,
    /// Every fenced block of the body, found once.
    raw: Vec<RawBlock>,
    default_timeout: u64,
    /// The snippets adopted so far, in the order they were read.
    snippets: Vec<Snippet>,
}

impl<'a> Ctx<'a> {
    /// An error at `range` (its first line is labelled), with a hint.
    fn error(
        &mut self,
        code: Code,
        range: Range<usize>,
        msg: impl Into<String>,
        hint: impl Into<String>,
    ) {
        let len = blocks::first_line_len(self.src, range.clone());
        let d = Diagnostic::at(code, self.path, self.src, range.start, len, msg);
        self.diags.push(d.hint(hint));
    }

    /// The text at `range` (empty if the range is not in the file).
    fn text(&self, range: Range<usize>) -> &'a str {
        self.src.get(range).unwrap_or("")
    }

    /// The 1-based line of a byte offset.
    fn line(&self, at: usize) -> usize {
        errbook_core::diag::line_col_in(self.src, at).0
    }

    /// A 0-100 percentage, or a located diagnostic.
    fn percent(&mut self, num: &str, at: Range<usize>, what: &str) -> Option<u8> {
        match num.parse::<f64>() {
            Ok(v) if (0.0..=100.0).contains(&v) => Some(v.round() as u8),
            _ => {
                self.error(
                    Code::Percent,
                    at,
                    format!("{what} {num}% is not between 0% and 100%"),
                    "a rate is a percentage of reports: 0 to 100",
                );
                None
            }
        }
    }

    /// Turn the code blocks inside `range` into snippets of the entry; returns their indices.
    fn adopt(&mut self, range: Range<usize>) -> Vec<usize> {
        let mut idx = Vec::new();
        // `raw` is in file order: find the first block in range by bisection, not by a scan of
        // every block for every section and workaround (quadratic on entries with many).
        let first = self.raw.partition_point(|b| b.range.start < range.start);
        for b in self.raw[first..]
            .iter()
            .take_while(|b| b.range.start < range.end)
            .filter(|b| b.range.end <= range.end)
        {
            let i = self.snippets.len();
            self.snippets.push(snippet::to_snippet(
                i,
                b,
                self.path,
                self.src,
                self.default_timeout,
                self.diags,
            ));
            idx.push(i);
        }
        idx
    }
}

/// The front matter keys an entry may have.
#[derive(Default)]
struct Front {
    aliases: Vec<String>,
    tags: Vec<String>,
    related: Vec<String>,
    links: LinkOverrides,
    draft: bool,
}

fn read_front(fm: Option<&FrontMatter>, diags: &mut Diagnostics) -> Front {
    let Some(fm) = fm else {
        return Front::default();
    };
    fm.check_unknown(FRONT_KEYS, diags);
    Front {
        aliases: fm.str_list("aliases", diags),
        tags: fm.str_list("tags", diags),
        related: fm.str_list("related", diags),
        links: fm.links(diags),
        draft: fm.flag("draft", diags),
    }
}

/// Parse one entry file. Returns `None` when errors leave nothing sensible to build.
pub(crate) fn parse(
    path: &Path,
    src: &Arc<str>,
    default_timeout: u64,
    diags: &mut Diagnostics,
) -> Option<Entry> {
    let errors_before = diags.error_count();
    let split = frontmatter::split(path, src, diags)?;
    let front = read_front(split.front.as_ref(), diags);
    let mut cx = Ctx {
        path,
        src,
        diags,
        raw: snippet::collect_blocks(src, split.body_offset, src.len()),
        default_timeout,
        snippets: Vec::new(),
    };
    let blocks = blocks::top_blocks(src, split.body_offset);
    let mut it = blocks.iter().peekable();
    let (message, title_at) = title::read(&mut cx, it.next(), split.body_offset)?;
    let meta = meta::read(&mut cx, &mut it);
    let f = fields::read(&mut cx, &meta, &title_at);
    let mut entry = Entry {
        id: f.id,
        domain: f.domain,
        slug: f.slug,
        source: path.to_path_buf(),
        exception: super::exception_of(&message),
        message,
        category: f.category,
        error_code: f.error_code,
        verification: f.verification,
        fix_rate: f.fix_rate,
        root_cause: String::new(),
        versions: Vec::new(),
        workarounds: Vec::new(),
        dead_ends: Vec::new(),
        extra_sections: Vec::new(),
        aliases: front.aliases,
        tags: front.tags,
        related: front.related,
        links: front.links,
        draft: front.draft,
        snippets: Vec::new(),
        content_links: Vec::new(),
    };
    if let Some(fm) = split.front.as_ref() {
        check_aliases(fm, &entry.message, &entry.aliases, cx.diags);
    }
    sections::read(&mut cx, it, &mut entry, &title_at, &meta.stray);
    // Blocks outside every section's items (e.g. code between workarounds) were placed above;
    // order snippets by position so indices follow the page.
    entry.snippets = std::mem::take(&mut cx.snippets);
    entry.snippets.sort_by_key(|s| s.line);
    renumber(&mut entry);
    snippet::check_chain(&entry.snippets, path, src, cx.diags);

    (cx.diags.error_count() == errors_before).then_some(entry)
}

/// A `W-alias` warning for each alias worded as the message or as an alias before it (the
/// case and spacing aside): the search already finds the entry by it, and the page would
/// show it twice.
fn check_aliases(fm: &FrontMatter, message: &str, aliases: &[String], diags: &mut Diagnostics) {
    if aliases.is_empty() {
        return;
    }
    let words = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let mut seen = vec![words(message)];
    for alias in aliases {
        let w = words(alias);
        if let Some(k) = seen.iter().position(|s| *s == w) {
            let what = if k == 0 {
                "the entry's message".to_string()
            } else {
                format!("alias {k}")
            };
            diags.push(
                fm.err(
                    "aliases",
                    Code::Alias,
                    format!("the alias `{alias}` is worded as {what}"),
                )
                .hint("remove it: the search finds the entry by its message and every alias"),
            );
        }
        seen.push(w);
    }
}

/// Keep snippet indices valid after sorting by line.
fn renumber(e: &mut Entry) {
    // Old index to new, as a table: a search per index made entries of many blocks quadratic.
    let mut new_of: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for (new, s) in e.snippets.iter().enumerate() {
        new_of.entry(s.index).or_insert(new);
    }
    let remap = |old: usize| new_of.get(&old).copied().unwrap_or(old);
    for w in &mut e.workarounds {
        w.snippets = w.snippets.iter().map(|&i| remap(i)).collect();
    }
    for d in &mut e.dead_ends {
        d.snippets = d.snippets.iter().map(|&i| remap(i)).collect();
    }
    for s in &mut e.extra_sections {
        s.snippets = s.snippets.iter().map(|&i| remap(i)).collect();
    }
    for (i, s) in e.snippets.iter_mut().enumerate() {
        if s.id == format!("snippet-{}", s.index + 1) {
            s.id = format!("snippet-{}", i + 1);
        }
        s.index = i;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(rel: &str, text: &str) -> (Option<Entry>, Diagnostics) {
        let mut d = Diagnostics::default();
        let e = parse(Path::new(rel), &Arc::from(text), 300, &mut d);
        (e, d)
    }

    const BODY: &str = "\n- **ID:** `demo/x`\n- **Domain:** demo\n- **Category:** c\n\n## Root Cause\n\nWhy.\n\n## Workarounds\n\n1. **Do it** (50% success)\n";

    #[test]
    fn setext_and_closed_atx_titles_give_the_message_line() {
        for title in ["ValueError: x\n=============\n", "# ValueError: x ##\n"] {
            let (e, d) = parse_str("content/errors/demo/x.md", &format!("{title}{BODY}"));
            assert!(d.items.is_empty(), "{:?}", d.items);
            assert_eq!(e.unwrap().message, "ValueError: x");
        }
    }

    #[test]
    fn loose_metadata_key_is_one_error_not_two() {
        let text = format!(
            "# E\n{}",
            BODY.replace("- **Category:** c", "- Category: c")
        );
        let (e, d) = parse_str("content/errors/demo/x.md", &text);
        assert!(e.is_none());
        assert_eq!(d.items.len(), 1, "{:?}", d.items);
        assert_eq!(
            d.items[0].hint.as_deref(),
            Some("write `- **Category:** c`")
        );
    }

    #[test]
    fn a_path_that_breaks_the_id_rules_is_one_error() {
        // The bullet already holds the valid ID: the path is at fault, said once.
        let text = format!("# E\n{}", BODY.replace("demo/x", "demo/x-y"));
        let (e, d) = parse_str("content/errors/demo/X Y.md", &text);
        assert!(e.is_none());
        assert_eq!(d.items.len(), 1, "{:?}", d.items);
        assert_eq!(d.items[0].code, Code::IdChars);
        assert_eq!((d.items[0].line, d.items[0].col), (3, 12));
        assert_eq!(
            d.items[0].hint.as_deref(),
            Some("use lowercase letters, digits, `-` and `_`: `demo/x-y`, and rename the file to match")
        );
        // A file name ending in `.md` twice, and no ID bullet: located at the title.
        let text = format!("# E\n{}", BODY.replace("- **ID:** `demo/x`\n", ""));
        let (_, d) = parse_str("content/errors/demo/x.md.md", &text);
        let codes: Vec<Code> = d.items.iter().map(|d| d.code).collect();
        assert_eq!(codes, [Code::IdChars, Code::MissingKey], "{:?}", d.items);
        assert_eq!(
            d.items[0].hint.as_deref(),
            Some("write the ID without `.md`: `demo/x`, and rename the file to match")
        );
    }
}
