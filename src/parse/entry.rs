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

use super::frontmatter;
use super::snippet::{self, RawBlock};
use crate::core::diag::{did_you_mean, Code, Diagnostic, Diagnostics};
use crate::core::model::{DeadEnd, Entry, Section, VersionRow, Workaround};
use pulldown_cmark::{Event, HeadingLevel, Parser, Tag};
use regex::Regex;
use std::ops::Range;
use std::path::Path;
use std::sync::{Arc, LazyLock};

pub const META_KEYS: &[&str] = &[
    "ID",
    "Domain",
    "Category",
    "Error Code",
    "Verification",
    "Fix Rate",
];
pub const SECTIONS: &[&str] = &[
    "Root Cause",
    "Version Compatibility",
    "Workarounds",
    "Dead Ends",
];
/// Free-form sections an entry may add (a minimal reproduction, notes).
pub const EXTRA_SECTIONS: &[&str] = &["Reproduction", "Notes", "See Also"];
pub const FRONT_KEYS: &[&str] = &["aliases", "tags", "related", "links"];
const VERSION_HEADER: [&str; 4] = ["Version", "Status", "Introduced", "Deprecated"];

static META_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\*\*([^*]+?):\*\*\s*(.*)$|^\*\*([^*]+?)\*\*:\s*(.*)$").expect("static regex")
});
static LOOSE_META_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[*_]*\s*([A-Za-z][A-Za-z ]*?)\s*[*_]*\s*:\s*[*_]*\s*(.*)$").expect("static regex")
});
static MARKER_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(?:\d+[.)]|[-*+])\s+").expect("static regex"));
static SUCCESS_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\(\s*(-?\d+(?:\.\d+)?)\s*%\s*success\s*\)").expect("static regex")
});
static FAIL_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\(\s*(-?\d+(?:\.\d+)?)\s*%\s*fail(?:s|ure)?\s*\)").expect("static regex")
});
static PERCENT_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(-?\d+(?:\.\d+)?)\s*%\s*$").expect("static regex"));

/// A top-level Markdown block with its direct list items.
#[derive(Debug)]
struct Block {
    kind: BlockKind,
    range: Range<usize>,
    items: Vec<Range<usize>>,
}

#[derive(Debug, PartialEq)]
enum BlockKind {
    Heading(HeadingLevel),
    List { ordered: bool },
    Table,
    Code,
    Other,
}

struct Ctx<'a> {
    path: &'a Path,
    src: &'a Arc<str>,
    diags: &'a mut Diagnostics,
}

impl Ctx<'_> {
    fn error(
        &mut self,
        code: Code,
        range: Range<usize>,
        msg: impl Into<String>,
    ) -> &mut Diagnostic {
        let len = first_line_len(self.src, range.clone());
        self.diags.push(Diagnostic::at(
            code,
            self.path,
            self.src,
            range.start,
            len,
            msg,
        ));
        self.diags.items.last_mut().expect("just pushed")
    }
}

fn first_line_len(src: &str, r: Range<usize>) -> usize {
    let s = &src[r.start..r.end.min(src.len())];
    s.find('\n').unwrap_or(s.len())
}

/// Parse one entry file. Returns `None` when errors leave nothing sensible to build.
pub fn parse(
    path: &Path,
    src: &Arc<str>,
    default_timeout: u64,
    diags: &mut Diagnostics,
) -> Option<Entry> {
    let errors_before = diags.error_count();
    let split = frontmatter::split(path, src, diags)?;
    let mut cx = Ctx { path, src, diags };

    let (aliases, tags, related, links) = match &split.front {
        Some(fm) => {
            fm.check_unknown(FRONT_KEYS, cx.diags);
            (
                fm.str_list("aliases", cx.diags),
                fm.str_list("tags", cx.diags),
                fm.str_list("related", cx.diags),
                fm.links(cx.diags),
            )
        }
        None => Default::default(),
    };

    let blocks = top_blocks(src, split.body_offset);
    let mut it = blocks.iter().peekable();

    // Title line.
    let message = match it.next() {
        Some(b) if b.kind == BlockKind::Heading(HeadingLevel::H1) => {
            // ATX (`# Title #`) or setext (`Title` over `=====`): the message is the text line.
            let text = &src[b.range.clone()];
            let first = text.lines().next().unwrap_or("").trim();
            match first.strip_prefix('#') {
                Some(rest) => rest
                    .trim_start_matches('#')
                    .trim()
                    .trim_end_matches('#')
                    .trim_end()
                    .to_string(),
                None => first.to_string(),
            }
        }
        Some(b) => {
            cx.error(
                Code::Title,
                b.range.clone(),
                "an entry must start with its error message as a `# ` title line",
            )
            .hint = Some("write the message on the first line: `# RuntimeError: ...`".into());
            return None;
        }
        None => {
            let end = src.len();
            cx.error(
                Code::Title,
                split.body_offset..end,
                "the entry has no title line",
            )
            .hint = Some("write the message on the first line: `# RuntimeError: ...`".into());
            return None;
        }
    };
    if message.is_empty() {
        cx.error(
            Code::Title,
            blocks[0].range.clone(),
            "the title line is empty",
        )
        .hint = Some(
            "the title is the error message, e.g. `# RuntimeError: CUDA error: out of memory`"
                .into(),
        );
    }

    // Metadata bullets: everything before the first `##`.
    let mut meta: Vec<(String, String, Range<usize>)> = Vec::new();
    while let Some(b) = it.peek() {
        if matches!(b.kind, BlockKind::Heading(_)) {
            break;
        }
        let b = it.next().expect("peeked");
        if let BlockKind::List { .. } = b.kind {
            for item in &b.items {
                read_meta_item(&mut cx, item.clone(), &mut meta);
            }
        } else {
            cx.error(
                Code::Stray,
                b.range.clone(),
                "text between the title and the first section cannot be placed",
            )
            .hint = Some(
                "only `- **Key:** value` bullets go here; put prose under `## Root Cause`".into(),
            );
        }
    }
    let first_heading_at = it.peek().map(|b| b.range.start).unwrap_or(src.len());

    let get = |k: &str| {
        meta.iter()
            .find(|(key, _, _)| key == k)
            .map(|(_, v, r)| (v.clone(), r.clone()))
    };
    let implied = crate::core::ids::entry_id_of(path);
    let id = match get("ID") {
        Some((v, r)) => {
            if let Some(imp) = &implied {
                if &v != imp {
                    cx.error(
                        Code::IdPath,
                        r,
                        format!("the ID `{v}` does not match the file path, which implies `{imp}`"),
                    )
                    .hint = Some(format!(
                        "set the ID to `{imp}`, or move the file to content/errors/{v}.md"
                    ));
                }
            }
            v
        }
        None => {
            let at = blocks.first().map(|b| b.range.clone()).unwrap_or(0..0);
            cx.error(Code::MissingKey, at, "the entry has no `- **ID:**` bullet")
                .hint = Some(format!(
                "add the bullet - **ID:** `{}` under the title",
                implied.clone().unwrap_or("domain/slug".into())
            ));
            implied.clone().unwrap_or_default()
        }
    };
    let (domain, slug) = match implied.as_deref() {
        Some(imp) => {
            let (d, s) = imp.split_once('/').unwrap_or((imp, ""));
            (d.to_string(), s.to_string())
        }
        None => {
            // Not at content/errors/<domain>/<slug>.md: the path decides the URL, so say where
            // the file belongs.
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let hint = match id.split_once('/') {
                Some((d, s)) if !d.is_empty() && !s.is_empty() && !s.contains('/') => {
                    format!("move the file to content/errors/{id}.md")
                }
                _ => {
                    format!("move the file into a domain folder: content/errors/<domain>/{stem}.md")
                }
            };
            cx.error(
                Code::IdPath,
                blocks[0].range.clone(),
                "an entry file must be at content/errors/<domain>/<slug>.md",
            )
            .hint = Some(hint);
            match id.split_once('/') {
                Some((d, s)) => (d.to_string(), s.to_string()),
                None => (String::new(), id.clone()),
            }
        }
    };
    match get("Domain") {
        Some((d, r)) if d != domain => {
            cx.error(
                Code::IdPath,
                r,
                format!("Domain `{d}` does not match the ID's domain `{domain}`"),
            )
            .hint = Some(format!("write `- **Domain:** {domain}`"));
        }
        Some(_) => {}
        None => {
            cx.error(
                Code::MissingKey,
                blocks[0].range.clone(),
                "the entry has no `- **Domain:**` bullet",
            )
            .hint = Some(format!(
                "add `- **Domain:** {}`",
                if domain.is_empty() {
                    "<domain>"
                } else {
                    &domain
                }
            ));
        }
    }
    let category = match get("Category") {
        Some((c, _)) => c,
        None => {
            cx.error(
                Code::MissingKey,
                blocks[0].range.clone(),
                "the entry has no `- **Category:**` bullet",
            )
            .hint = Some("add `- **Category:** config_error` (or another category)".into());
            String::new()
        }
    };
    let fix_rate = get("Fix Rate").and_then(|(v, r)| match PERCENT_RE.captures(&v) {
        Some(c) => percent(&mut cx, &c[1], r, "Fix Rate"),
        None => {
            cx.error(
                Code::Percent,
                r,
                format!("Fix Rate `{v}` is not a percentage"),
            )
            .hint = Some("write it as `NN%`, between 0% and 100%".into());
            None
        }
    });

    // Sections.
    let snippets_raw = snippet::collect_blocks(src, split.body_offset, src.len());
    let mut entry = Entry {
        id,
        domain,
        slug,
        source: path.to_path_buf(),
        exception: super::exception_of(&message),
        message,
        category,
        error_code: get("Error Code").map(|(v, _)| v),
        verification: get("Verification").map(|(v, _)| v).unwrap_or_default(),
        fix_rate,
        root_cause: String::new(),
        versions: Vec::new(),
        workarounds: Vec::new(),
        dead_ends: Vec::new(),
        extra_sections: Vec::new(),
        aliases,
        tags,
        related,
        links,
        snippets: Vec::new(),
    };
    let mut seen: Vec<(String, Range<usize>)> = Vec::new();
    // Required sections an unknown heading was probably meant to be (`## Workaroundz`): their
    // absence is the same mistake, reported once.
    let mut suggested: Vec<&str> = Vec::new();
    let mut sections: Vec<(String, Range<usize>, Vec<&Block>)> = Vec::new();
    for b in it {
        match b.kind {
            BlockKind::Heading(HeadingLevel::H2) => {
                let title = src[b.range.clone()]
                    .trim()
                    .trim_start_matches('#')
                    .trim()
                    .to_string();
                sections.push((title, b.range.clone(), Vec::new()));
            }
            BlockKind::Heading(_) if sections.is_empty() => unreachable_heading(&mut cx, b),
            _ => match sections.last_mut() {
                Some(s) => s.2.push(b),
                None => unreachable_heading(&mut cx, b),
            },
        }
    }
    let _ = first_heading_at;
    for (title, hr, body) in sections {
        if let Some((_, prev)) = seen.iter().find(|(t, _)| t.eq_ignore_ascii_case(&title)) {
            let (pl, _) = crate::core::diag::line_col(src, prev.start);
            cx.error(
                Code::Section,
                hr.clone(),
                format!("section `{title}` appears twice"),
            )
            .hint = Some(format!("merge it with the one on line {pl}"));
            continue;
        }
        seen.push((title.clone(), hr.clone()));
        let body_range = body
            .first()
            .map(|f| f.range.start..body.last().expect("non-empty").range.end)
            .unwrap_or(hr.end..hr.end);
        match title.as_str() {
            "Root Cause" => entry.root_cause = src[body_range].trim().to_string(),
            "Version Compatibility" => entry.versions = read_versions(&mut cx, &body),
            "Workarounds" => {
                entry.workarounds = read_workarounds(
                    &mut cx,
                    &body,
                    &snippets_raw,
                    default_timeout,
                    &mut entry.snippets,
                )
            }
            "Dead Ends" => {
                entry.dead_ends = read_dead_ends(
                    &mut cx,
                    &body,
                    &snippets_raw,
                    default_timeout,
                    &mut entry.snippets,
                )
            }
            t if EXTRA_SECTIONS.iter().any(|e| e.eq_ignore_ascii_case(t)) => {
                let snippets = adopt_snippets(
                    &mut cx,
                    body_range.clone(),
                    &snippets_raw,
                    default_timeout,
                    &mut entry.snippets,
                );
                let (line, _) = crate::core::diag::line_col(src, hr.start);
                entry.extra_sections.push(Section {
                    title: title.clone(),
                    body: src[body_range].trim().to_string(),
                    snippets,
                    line,
                });
            }
            other => {
                let all: Vec<&str> = SECTIONS.iter().chain(EXTRA_SECTIONS).copied().collect();
                let near = did_you_mean(other, all.iter().copied());
                if let Some(n) = near.first() {
                    suggested.push(n);
                }
                let hint = match near.first() {
                    Some(n) => format!("did you mean `## {n}`? an entry has: {}", all.join(", ")),
                    None => format!("an entry has these sections: {}", all.join(", ")),
                };
                cx.error(Code::Section, hr, format!("unknown section `{other}`"))
                    .hint = Some(hint);
            }
        }
    }
    for required in ["Root Cause", "Workarounds"] {
        if !seen.iter().any(|(t, _)| t == required) && !suggested.contains(&required) {
            let at = blocks[0].range.clone();
            cx.error(
                Code::Section,
                at,
                format!("the entry has no `## {required}` section"),
            )
            .hint = Some(format!("add `## {required}` after the metadata bullets"));
        }
    }
    // Blocks outside every section's items (e.g. code between workarounds) were placed above;
    // order snippets by position so indices follow the page.
    entry.snippets.sort_by_key(|s| s.line);
    renumber(&mut entry);
    snippet::check_chain(&entry.snippets, path, src, cx.diags);

    (cx.diags.error_count() == errors_before).then_some(entry)
}

fn unreachable_heading(cx: &mut Ctx, b: &Block) {
    let what = match b.kind {
        BlockKind::Heading(HeadingLevel::H1) => "a second `# ` title",
        BlockKind::Heading(_) => "a heading outside any `## ` section",
        _ => "text outside any section",
    };
    cx.error(
        Code::Stray,
        b.range.clone(),
        format!("{what} cannot be placed"),
    )
    .hint = Some("an entry has one `# ` title, then metadata bullets, then `## ` sections".into());
}

/// Split the body into top-level blocks, each with its direct list items.
fn top_blocks(src: &str, from: usize) -> Vec<Block> {
    let body = &src[from..];
    let mut out: Vec<Block> = Vec::new();
    let mut depth = 0usize;
    for (ev, r) in Parser::new_ext(body, snippet::markdown_options()).into_offset_iter() {
        let r = from + r.start..from + r.end;
        match ev {
            Event::Start(tag) => {
                if depth == 0 {
                    let kind = match &tag {
                        Tag::Heading { level, .. } => BlockKind::Heading(*level),
                        Tag::List(first) => BlockKind::List {
                            ordered: first.is_some(),
                        },
                        Tag::Table(_) => BlockKind::Table,
                        Tag::CodeBlock(_) => BlockKind::Code,
                        _ => BlockKind::Other,
                    };
                    out.push(Block {
                        kind,
                        range: r.clone(),
                        items: Vec::new(),
                    });
                } else if depth == 1 && matches!(tag, Tag::Item) {
                    if let Some(b) = out.last_mut() {
                        b.items.push(r.clone());
                    }
                }
                depth += 1;
            }
            Event::End(_) => depth = depth.saturating_sub(1),
            Event::Rule | Event::Html(_) | Event::Text(_) if depth == 0 => {
                out.push(Block {
                    kind: BlockKind::Other,
                    range: r,
                    items: Vec::new(),
                });
            }
            _ => {}
        }
    }
    out
}

/// The text of an item without its list marker, and the offset where that text starts.
fn item_text<'a>(src: &'a str, r: &Range<usize>) -> (&'a str, usize) {
    let raw = &src[r.clone()];
    let skip = MARKER_RE.find(raw).map(|m| m.end()).unwrap_or(0);
    (&raw[skip..], r.start + skip)
}

fn read_meta_item(cx: &mut Ctx, r: Range<usize>, meta: &mut Vec<(String, String, Range<usize>)>) {
    let (text, at) = item_text(cx.src, &r);
    let line = text.lines().next().unwrap_or("").trim();
    let Some(c) = META_RE.captures(line) else {
        // `- Category: x` or `- *Category*: x`: a known key written without the bold. Say how to
        // write it, and count the key as given so it is not also reported missing.
        let loose = LOOSE_META_RE.captures(line).and_then(|c| {
            let k = c[1].trim();
            META_KEYS
                .iter()
                .find(|m| m.eq_ignore_ascii_case(k))
                .map(|m| (*m, c[2].trim().trim_matches('`').trim().to_string()))
        });
        match loose {
            Some((key, val)) => {
                cx.error(
                    Code::Meta,
                    r.clone(),
                    format!("the `{key}` bullet must have its key in bold"),
                )
                .hint = Some(format!("write `- **{key}:** {val}`"));
                if !meta.iter().any(|(k, _, _)| k == key) {
                    meta.push((key.to_string(), val, r));
                }
            }
            None => {
                cx.error(
                    Code::Meta,
                    r,
                    "a metadata bullet must read `- **Key:** value`",
                )
                .hint = Some(format!("known keys: {}", META_KEYS.join(", ")));
            }
        }
        return;
    };
    let key = c
        .get(1)
        .or(c.get(3))
        .map(|m| m.as_str().trim())
        .unwrap_or("");
    let val = c
        .get(2)
        .or(c.get(4))
        .map(|m| m.as_str().trim())
        .unwrap_or("");
    let val = val.trim_matches('`').trim().to_string();
    let span = at..r.end;
    if !META_KEYS.contains(&key) {
        let near = did_you_mean(key, META_KEYS.iter().copied());
        let hint = match near.first() {
            Some(n) => format!("did you mean `{n}`? known keys: {}", META_KEYS.join(", ")),
            None => format!(
                "known keys: {}; put other data in front matter (aliases, tags, related)",
                META_KEYS.join(", ")
            ),
        };
        cx.error(Code::Meta, span, format!("unknown metadata key `{key}`"))
            .hint = Some(hint);
        return;
    }
    if meta.iter().any(|(k, _, _)| k == key) {
        cx.error(Code::Meta, span, format!("`{key}` is given twice"))
            .hint = Some("keep one bullet per key".into());
        return;
    }
    if val.is_empty() {
        cx.error(Code::Meta, span, format!("`{key}` has no value"))
            .hint = Some(format!("write `- **{key}:** value`"));
        return;
    }
    let vstart = cx.src[at..r.end].find(&val).map(|i| at + i).unwrap_or(at);
    meta.push((key.to_string(), val.clone(), vstart..vstart + val.len()));
}

/// A 0-100 percentage, or a located diagnostic.
fn percent(cx: &mut Ctx, num: &str, at: Range<usize>, what: &str) -> Option<u8> {
    match num.parse::<f64>() {
        Ok(v) if (0.0..=100.0).contains(&v) => Some(v.round() as u8),
        _ => {
            cx.error(
                Code::Percent,
                at,
                format!("{what} {num}% is not between 0% and 100%"),
            )
            .hint = Some("a rate is a percentage of reports: 0 to 100".into());
            None
        }
    }
}

fn read_versions(cx: &mut Ctx, body: &[&Block]) -> Vec<VersionRow> {
    let mut rows = Vec::new();
    for b in body {
        if b.kind != BlockKind::Table {
            cx.error(
                Code::Table,
                b.range.clone(),
                "only a table goes under `## Version Compatibility`",
            )
            .hint = Some("write `| Version | Status | Introduced | Deprecated |` rows".into());
            continue;
        }
        let text = &cx.src[b.range.clone()];
        let mut off = b.range.start;
        let mut header_seen = false;
        for (i, line) in text.split_inclusive('\n').enumerate() {
            let lr = off..off + line.trim_end().len();
            off += line.len();
            let cells = split_row(line);
            if i == 1 {
                continue; // the delimiter row; pulldown-cmark already checked it
            }
            if !header_seen {
                header_seen = true;
                let ok = cells.len() == 4
                    && cells
                        .iter()
                        .zip(VERSION_HEADER)
                        .all(|(c, h)| c.eq_ignore_ascii_case(h));
                if !ok {
                    cx.error(
                        Code::Table,
                        lr,
                        format!("the version table's header is `{}`", cells.join(" | ")),
                    )
                    .hint = Some(
                        "the header must be `| Version | Status | Introduced | Deprecated |`"
                            .into(),
                    );
                    return rows;
                }
                continue;
            }
            if line.trim().is_empty() {
                continue;
            }
            if cells.len() != 4 {
                cx.error(
                    Code::Table,
                    lr,
                    format!(
                        "this row has {} cells; the table has 4 columns",
                        cells.len()
                    ),
                )
                .hint = Some(
                    "write `| Version | Status | Introduced | Deprecated |`, `—` for an empty cell"
                        .into(),
                );
                continue;
            }
            if cells[0].is_empty() || cells[1].is_empty() {
                cx.error(
                    Code::Table,
                    lr,
                    "a version row needs a version and a status",
                )
                .hint = Some(
                    "fill the first two cells, e.g. `| PyTorch 2.0.0 | active | — | — |`".into(),
                );
                continue;
            }
            let opt = |s: &str| {
                let s = s.trim();
                (!(s.is_empty() || s == "—" || s == "-" || s == "–")).then(|| s.to_string())
            };
            rows.push(VersionRow {
                version: cells[0].clone(),
                status: cells[1].clone(),
                introduced: opt(&cells[2]),
                deprecated: opt(&cells[3]),
            });
        }
    }
    rows
}

fn split_row(line: &str) -> Vec<String> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    t.split('|').map(|c| c.trim().to_string()).collect()
}

/// Bold summary at the start of an item: (summary, byte range of the whole `**...**`).
fn bold_summary(text: &str) -> Option<(String, usize)> {
    let rest = text.strip_prefix("**")?;
    let end = rest.find("**")?;
    Some((rest[..end].trim().to_string(), end + 4))
}

/// The first paragraph of an item (up to a blank line or a fence).
fn first_paragraph(text: &str) -> &str {
    let mut end = text.len();
    let mut off = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if off > 0 && (t.is_empty() || t.starts_with("```") || t.starts_with("~~~")) {
            end = off;
            break;
        }
        off += line.len();
    }
    &text[..end]
}

fn read_workarounds(
    cx: &mut Ctx,
    body: &[&Block],
    raw: &[RawBlock],
    timeout: u64,
    snippets: &mut Vec<crate::core::model::Snippet>,
) -> Vec<Workaround> {
    let mut out = Vec::new();
    for b in body {
        let BlockKind::List { .. } = b.kind else {
            cx.error(
                Code::Stray,
                b.range.clone(),
                "only a numbered list of workarounds goes under `## Workarounds`",
            )
            .hint = Some("write `1. **Summary** (NN% success)`, code indented under it".into());
            continue;
        };
        for r in &b.items {
            let (text, at) = item_text(cx.src, r);
            let para = first_paragraph(text);
            let number = out.len() + 1;
            let Some((summary, sum_end)) = bold_summary(para).filter(|(s, _)| !s.is_empty()) else {
                cx.error(
                    Code::Workaround,
                    r.clone(),
                    "this workaround has no bold summary",
                )
                .hint = Some(
                    "start the item with the summary in bold: `1. **Do this** (90% success)`"
                        .into(),
                );
                continue;
            };
            let after = &para[sum_end..];
            let Some(c) = SUCCESS_RE.captures(after) else {
                cx.error(
                    Code::Workaround,
                    r.clone(),
                    "this workaround has no success rate",
                )
                .hint = Some("end the summary line with `(NN% success)`".into());
                continue;
            };
            let m = c.get(0).expect("match");
            let rate_at = at + sum_end + m.start();
            let Some(rate) = percent(cx, &c[1], rate_at..rate_at + m.len(), "success rate") else {
                continue;
            };
            let detail = format!("{}{}", &after[..m.start()], &after[m.end()..])
                .trim()
                .to_string();
            let rest = text[para.len()..].to_string();
            let idx = adopt_snippets(cx, r.clone(), raw, timeout, snippets);
            let detail = join_detail(&detail, &strip_code(&rest));
            let (line, _) = crate::core::diag::line_col(cx.src, r.start);
            out.push(Workaround {
                number,
                summary,
                success_rate: rate,
                detail,
                snippets: idx,
                line,
            });
        }
    }
    out
}

fn read_dead_ends(
    cx: &mut Ctx,
    body: &[&Block],
    raw: &[RawBlock],
    timeout: u64,
    snippets: &mut Vec<crate::core::model::Snippet>,
) -> Vec<DeadEnd> {
    let mut out = Vec::new();
    for b in body {
        let BlockKind::List { .. } = b.kind else {
            cx.error(
                Code::Stray,
                b.range.clone(),
                "only a list of dead ends goes under `## Dead Ends`",
            )
            .hint = Some("write `- **What was tried** — why it fails (NN% fail)`".into());
            continue;
        };
        for r in &b.items {
            let (text, at) = item_text(cx.src, r);
            let para = first_paragraph(text);
            let Some((summary, sum_end)) = bold_summary(para).filter(|(s, _)| !s.is_empty()) else {
                cx.error(
                    Code::DeadEnd,
                    r.clone(),
                    "this dead end has no bold summary",
                )
                .hint = Some("write `- **What was tried** — why it fails (NN% fail)`".into());
                continue;
            };
            let after = &para[sum_end..];
            let Some(c) = FAIL_RE.captures(after) else {
                cx.error(
                    Code::DeadEnd,
                    r.clone(),
                    "this dead end has no failure rate",
                )
                .hint = Some("end the line with `(NN% fail)`".into());
                continue;
            };
            let m = c.get(0).expect("match");
            let rate_at = at + sum_end + m.start();
            let Some(rate) = percent(cx, &c[1], rate_at..rate_at + m.len(), "failure rate") else {
                continue;
            };
            let reason = format!("{}{}", &after[..m.start()], &after[m.end()..]);
            let reason = reason
                .trim()
                .trim_start_matches(['—', '–', '-', ':'])
                .trim()
                .to_string();
            let idx = adopt_snippets(cx, r.clone(), raw, timeout, snippets);
            let (line, _) = crate::core::diag::line_col(cx.src, r.start);
            out.push(DeadEnd {
                number: out.len() + 1,
                summary,
                reason,
                fail_rate: rate,
                snippets: idx,
                line,
            });
        }
    }
    out
}

/// Turn the raw code blocks inside `range` into snippets of the entry; returns their indices.
fn adopt_snippets(
    cx: &mut Ctx,
    range: Range<usize>,
    raw: &[RawBlock],
    timeout: u64,
    snippets: &mut Vec<crate::core::model::Snippet>,
) -> Vec<usize> {
    let mut idx = Vec::new();
    for b in raw
        .iter()
        .filter(|b| b.range.start >= range.start && b.range.end <= range.end)
    {
        let i = snippets.len();
        snippets.push(snippet::to_snippet(
            i, b, cx.path, cx.src, timeout, cx.diags,
        ));
        idx.push(i);
    }
    idx
}

/// Keep snippet indices valid after sorting by line.
fn renumber(e: &mut Entry) {
    let order: Vec<usize> = e.snippets.iter().map(|s| s.index).collect();
    let remap = |old: usize| order.iter().position(|&o| o == old).unwrap_or(old);
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

fn strip_code(text: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            in_code = !in_code;
            continue;
        }
        if !in_code {
            out.push_str(line.trim());
            out.push('\n');
        }
    }
    out.trim().to_string()
}

fn join_detail(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}\n\n{b}"),
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
}
