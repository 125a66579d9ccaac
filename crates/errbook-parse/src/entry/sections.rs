//! The `## ` sections of an entry: group the blocks after the metadata under their headings, send
//! each known section to its reader, keep the free-form ones (Reproduction, Notes, See Also),
//! and report unknown, repeated and missing sections.

use super::blocks::{Block, BlockKind};
use super::{fixes, versions, Ctx};
use errbook_core::diag::{did_you_mean, Code};
use errbook_core::model::{Entry, Section};
use pulldown_cmark::HeadingLevel;
use std::collections::HashMap;
use std::ops::Range;

pub(super) const SECTIONS: &[&str] = &[
    "Root Cause",
    "Version Compatibility",
    "Workarounds",
    "Dead Ends",
];
/// Free-form sections an entry may add (a minimal reproduction, notes).
pub(super) const EXTRA_SECTIONS: &[&str] = &["Reproduction", "Notes", "See Also"];
/// Sections every entry must have.
const REQUIRED: [&str; 2] = ["Root Cause", "Workarounds"];

/// A `## ` heading and the blocks under it.
struct Group<'b> {
    title: String,
    heading: Range<usize>,
    body: Vec<&'b Block>,
}

/// The sections a reading has met so far.
#[derive(Default)]
struct Seen {
    titles: Vec<(String, Range<usize>)>,
    /// Each title met, in ASCII lowercase, to the heading that gave it (a repeat is found in
    /// constant time: a scan of the titles made 16,000 sections take seconds).
    by_title: HashMap<String, Range<usize>>,
    /// Required sections an unknown heading was probably meant to be (`## Workaroundz`): their
    /// absence is the same mistake, reported once.
    suggested: Vec<&'static str>,
}

/// Read every section after the metadata into `entry`; `title` locates missing sections.
/// `stray` is the text between the metadata and the first section: with `## Root Cause`
/// missing, its first block is that section's prose without its heading, one fault reported
/// once; the rest is stray text.
pub(super) fn read<'b>(
    cx: &mut Ctx,
    blocks: impl Iterator<Item = &'b Block>,
    entry: &mut Entry,
    title: &Range<usize>,
    stray: &[Range<usize>],
) {
    let mut seen = Seen::default();
    for g in group(cx, blocks) {
        if let Some(prev) = seen.by_title.get(&g.title.to_ascii_lowercase()) {
            let pl = cx.line(prev.start);
            cx.error(
                Code::Section,
                g.heading.clone(),
                format!("section `{}` appears twice", g.title),
                format!("merge it with the one on line {pl}"),
            );
            continue;
        }
        seen.titles.push((g.title.clone(), g.heading.clone()));
        seen.by_title
            .insert(g.title.to_ascii_lowercase(), g.heading.clone());
        read_one(cx, g, entry, &mut seen);
    }
    let mut stray = stray.iter();
    for required in REQUIRED {
        let given = seen.titles.iter().any(|(t, _)| t == required);
        if given || seen.suggested.contains(&required) {
            continue;
        }
        let headless = match required {
            "Root Cause" => stray.next(),
            _ => None,
        };
        match headless {
            Some(prose) => cx.error(
                Code::Section,
                prose.clone(),
                "the entry has no `## Root Cause` heading above this text",
                "add a `## Root Cause` line before it: prose after the metadata is the root cause",
            ),
            None => cx.error(
                Code::Section,
                title.clone(),
                format!("the entry has no `## {required}` section"),
                format!("add `## {required}` after the metadata bullets"),
            ),
        }
    }
    for b in stray {
        cx.error(
            Code::Stray,
            b.clone(),
            "text between the title and the first section cannot be placed",
            "only `- **Key:** value` bullets go here; put prose under `## Root Cause`",
        );
    }
}

/// The blocks under each `## ` heading; a block before the first one, or a heading of another
/// level, cannot be placed.
fn group<'b>(cx: &mut Ctx, blocks: impl Iterator<Item = &'b Block>) -> Vec<Group<'b>> {
    let mut sections: Vec<Group> = Vec::new();
    for b in blocks {
        match b.kind {
            BlockKind::Heading(HeadingLevel::H2) => sections.push(Group {
                title: cx
                    .text(b.range.clone())
                    .trim()
                    .trim_start_matches('#')
                    .trim()
                    .to_string(),
                heading: b.range.clone(),
                body: Vec::new(),
            }),
            BlockKind::Heading(_) if sections.is_empty() => unreachable_heading(cx, b),
            _ => match sections.last_mut() {
                Some(s) => s.body.push(b),
                None => unreachable_heading(cx, b),
            },
        }
    }
    sections
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
        "an entry has one `# ` title, then metadata bullets, then `## ` sections",
    );
}

/// One section, by its title.
fn read_one(cx: &mut Ctx, g: Group, entry: &mut Entry, seen: &mut Seen) {
    let body_range = match (g.body.first(), g.body.last()) {
        (Some(f), Some(l)) => f.range.start..l.range.end,
        _ => g.heading.end..g.heading.end,
    };
    match g.title.as_str() {
        "Root Cause" => entry.root_cause = cx.text(body_range).trim().to_string(),
        "Version Compatibility" => entry.versions = versions::read(cx, &g.body),
        "Workarounds" => entry.workarounds = fixes::workarounds(cx, &g.body),
        "Dead Ends" => entry.dead_ends = fixes::dead_ends(cx, &g.body),
        t if EXTRA_SECTIONS.iter().any(|e| e.eq_ignore_ascii_case(t)) => {
            let snippets = cx.adopt(body_range.clone());
            entry.extra_sections.push(Section {
                body: cx.text(body_range).trim().to_string(),
                snippets,
                line: cx.line(g.heading.start),
                title: g.title,
            });
        }
        other => {
            let all: Vec<&'static str> = SECTIONS.iter().chain(EXTRA_SECTIONS).copied().collect();
            let near = did_you_mean(other, all.iter().copied());
            let hint = match near.first() {
                Some(n) => {
                    seen.suggested.push(n);
                    format!("did you mean `## {n}`? an entry has: {}", all.join(", "))
                }
                None => format!("an entry has these sections: {}", all.join(", ")),
            };
            cx.error(
                Code::Section,
                g.heading,
                format!("unknown section `{other}`"),
                hint,
            );
        }
    }
}
