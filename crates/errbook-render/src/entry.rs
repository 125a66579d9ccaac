//! The entry page, answer first: the message (copyable), the one line that says which fix worked
//! here, the workarounds the runs support, the others, what failed here and the dead ends (each
//! with its code and what its runs found), then root cause, versions (with what the runs cover),
//! the other sections, the articles that discuss it, related entries and the metadata. The
//! catalog's own figures are shown as its claims; errbook's runs as results.

use super::ids;
use super::markdown::{self, Place};
use super::runs::{self, and_list, Chip};
use super::snippet;
use super::versions;
use super::{Page, PageCtx, Renderer};
use crate::view::evidence::Outcome;
use crate::view::{EntryView, FixView, SnippetView, Verification};
use errbook_core::error::Result;
use errbook_core::model::Snippet;
use errbook_core::urls;
use errbook_link::{Link, Origin};
use errbook_records::{Reading, Role, Verdict};
use serde::Serialize;

#[derive(Serialize)]
struct Meta {
    label: &'static str,
    value: String,
    href: Option<String>,
}

#[derive(Serialize)]
struct Fix {
    number: usize,
    /// The `value` its item of the workarounds' `<ol>` needs: none where the list's own count
    /// (one more than the item before) gives its number.
    value: Option<usize>,
    /// Its fragment on the page (`workaround-2`).
    anchor: String,
    summary: String,
    rate: u8,
    detail: String,
    reason: String,
    code: String,
    /// What its runs found, in the reader's words; None without runnable code.
    verdict: Option<Chip>,
    /// Which list of the page it goes in: "works" (its runs support it), "failed" (its runs
    /// failed), "other" (not run, or environments disagree).
    #[serde(skip)]
    group: &'static str,
    examples: Vec<Example>,
}

#[derive(Serialize)]
struct Example {
    href: String,
    title: String,
    label: String,
    origin: String,
    why: String,
}

/// A section beyond the fixed ones (`## Notes`).
#[derive(Serialize)]
struct Section {
    title: String,
    id: String,
    html: String,
}

#[derive(Serialize)]
struct Discussion {
    href: String,
    title: String,
    excerpt: String,
    origin: String,
}

/// Another entry, for the Related lists of entry and article pages.
#[derive(Serialize)]
pub(crate) struct Related {
    pub href: String,
    pub message: String,
    pub id: String,
    pub why: String,
}

pub(crate) fn page(r: &Renderer<'_>, v: &EntryView<'_>) -> Result<Page> {
    let e = v.entry;
    let path = urls::entry(&e.id);
    let ctx = r.page_ctx(path.clone());
    let place = Place {
        catalog: r.catalog,
        page: &path,
        offline: r.offline,
    };
    let md = |text: &str| {
        markdown::render(text, &place, |_, info, t| {
            let s = find_snippet(&v.snippets, info, t);
            snippet::render(&ctx, s, info, t)
        })
        .html
    };
    let c = context(&ctx, v, &md);
    Ok(Page {
        title: e.message.clone(),
        description: snippet::truncate(e.root_cause.trim(), super::DESCRIPTION),
        path,
        template: "entry.html",
        source: Some(e.source.clone()),
        ctx: c,
    })
}

/// The template context of the entry page; `md` renders the entry's Markdown on this page.
fn context(ctx: &PageCtx<'_>, v: &EntryView<'_>, md: &impl Fn(&str) -> String) -> tera::Context {
    let e = v.entry;
    let workarounds: Vec<Fix> = v
        .workarounds
        .iter()
        .map(|f| fix(ctx, v, md, f, urls::workaround_anchor(f.number)))
        .collect();
    let (works, rest): (Vec<Fix>, Vec<Fix>) =
        workarounds.into_iter().partition(|w| w.group == "works");
    let (failed, others): (Vec<Fix>, Vec<Fix>) =
        rest.into_iter().partition(|w| w.group == "failed");
    let [works, others, failed] = [works, others, failed].map(numbered);
    let dead_ends: Vec<Fix> = v
        .dead_ends
        .iter()
        .map(|f| fix(ctx, v, md, f, urls::dead_end_anchor(f.number)))
        .collect();
    let sections: Vec<Section> = e
        .extra_sections
        .iter()
        .map(|s| Section {
            title: s.title.clone(),
            id: ids::anchor(&s.title),
            html: md(&s.body),
        })
        .collect();
    let discussed = discussed(ctx, v);
    let related = related(ctx, &v.related);

    let mut c = tera::Context::new();
    c.insert("message", &e.message);
    c.insert("meta", &meta(ctx, e));
    c.insert("verification", &e.verification);
    c.insert(
        "verification_note",
        &v.verification.as_ref().map(verification_note),
    );
    c.insert("fix_rate", &e.fix_rate);
    c.insert("root_cause", &md(&e.root_cause));
    versions_context(&mut c, v);
    c.insert("answer", &answer(&works, &failed, others.len()));
    c.insert("works", &works);
    c.insert("others", &others);
    c.insert("failed", &failed);
    c.insert("dead_ends", &dead_ends);
    c.insert("sections", &sections);
    c.insert("discussed", &discussed);
    c.insert("related", &related);
    // An alias worded as the message itself is no other wording.
    let aliases: Vec<&String> = (e.aliases.iter())
        .filter(|a| a.trim() != e.message.trim())
        .collect();
    c.insert("aliases", &aliases);
    c.insert("blocks_ran", &super::reading::blocks_ran(&v.snippets));
    c.insert("tags", &e.tags);
    let api = urls::entry_json_in(&e.id, ctx.r.cfg.build.entry_json).map(|u| ctx.href(&u));
    c.insert("api", &api);
    c
}

/// The version table's part of the entry page: the table (without the columns no version
/// fills), one line where every row says the same, and which claimed versions the runs cover.
fn versions_context(c: &mut tera::Context, v: &EntryView<'_>) {
    let e = v.entry;
    c.insert("versions", &e.versions);
    // A column no version fills says nothing: it is left out.
    c.insert(
        "introduced",
        &e.versions.iter().any(|v| v.introduced.is_some()),
    );
    c.insert(
        "deprecated",
        &e.versions.iter().any(|v| v.deprecated.is_some()),
    );
    let same = e
        .versions
        .first()
        .map(|f| &f.status)
        .filter(|s| e.versions.len() > 1 && e.versions.iter().all(|v| &v.status == *s));
    c.insert(
        "versions_line",
        &same.map(|status| versions::one_line(&e.versions, status)),
    );
    c.insert(
        "coverage",
        &versions::coverage(
            &e.versions,
            v.snippets
                .iter()
                .flat_map(|s| s.evidence.machines.iter().map(|m| m.run.record)),
        ),
    );
}

/// A list of workarounds with each item's `value` set where the list's own count (one more
/// than the item before) does not give its number.
fn numbered(mut list: Vec<Fix>) -> Vec<Fix> {
    let mut counted = 1;
    for w in &mut list {
        w.value = (w.number != counted).then_some(w.number);
        counted = w.number + 1;
    }
    list
}

/// A workaround or dead end as the page shows it: its text, code, verdict and examples.
fn fix(
    ctx: &PageCtx<'_>,
    v: &EntryView<'_>,
    md: &impl Fn(&str) -> String,
    f: &FixView<'_>,
    anchor: String,
) -> Fix {
    Fix {
        number: f.number,
        value: None,
        anchor,
        summary: markdown::plain(f.summary),
        rate: f.rate,
        detail: if f.detail.is_empty() {
            String::new()
        } else {
            md(f.detail)
        },
        reason: markdown::plain(f.reason),
        code: f
            .snippets
            .iter()
            .filter_map(|&i| v.snippets.get(i))
            .filter(|s| !repeats(s.snippet, f.summary))
            .map(|s| snippet::render(ctx, Some(s), &s.snippet.info, &s.snippet.code))
            .collect(),
        verdict: runs::chip(&f.evidence, f.has_code),
        group: match f.evidence.outcome {
            Outcome::Agree(Verdict::Confirmed) => "works",
            Outcome::Agree(x) if x.is_finding() => "failed",
            _ => "other",
        },
        examples: f.examples.iter().map(|x| example(ctx, x)).collect(),
    }
}

/// Whether a code block only repeats the summary above it (a fence of the summary's own words,
/// as generated catalogs write): it is not shown a second time. Runnable code always shows.
fn repeats(s: &Snippet, summary: &str) -> bool {
    let words = |t: &str| -> String {
        let t: String = t.chars().filter(|c| !"*`_".contains(*c)).collect();
        t.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    s.run.is_none() && !summary.trim().is_empty() && words(&s.code) == words(summary)
}

/// The line that says which fix worked here, in words: the first workaround its runs support
/// and where it ran; or that none did, or that none has run.
fn answer(works: &[Fix], failed: &[Fix], others: usize) -> Option<String> {
    if let Some(w) = works.first() {
        let on = w
            .verdict
            .as_ref()
            .map(|c| c.on.as_str())
            .unwrap_or_default();
        let more = match works.len() {
            1 => String::new(),
            n => format!(" ({} more below)", n - 1),
        };
        return Some(format!(
            "Worked here: workaround {} ran as described {on}{more}.",
            w.number
        ));
    }
    if !failed.is_empty() {
        let n = failed.len();
        return Some(format!(
            "No workaround worked here: {n} failed when run{}.",
            if others > 0 {
                format!("; {others} not settled by a run")
            } else {
                String::new()
            }
        ));
    }
    None
}

/// The articles that discuss the entry, with the excerpt that links them.
fn discussed(ctx: &PageCtx<'_>, v: &EntryView<'_>) -> Vec<Discussion> {
    v.discussed
        .iter()
        .map(|(a, l)| Discussion {
            href: ctx.href(&urls::article(&a.id)),
            title: super::markdown::plain(&a.title),
            excerpt: l
                .evidence
                .first()
                .map(|ev| snippet::truncate(&ev.excerpt, 240))
                .unwrap_or_default(),
            origin: origin_word(l),
        })
        .collect()
}

/// ID, domain, category, error code and exception, linked to their index pages.
fn meta(ctx: &PageCtx<'_>, e: &errbook_core::model::Entry) -> Vec<Meta> {
    use errbook_core::urls;
    let mut meta = vec![Meta {
        label: "ID",
        value: e.id.clone(),
        href: None,
    }];
    meta.push(Meta {
        label: "Domain",
        value: e.domain.clone(),
        href: Some(ctx.href(&urls::domain(&e.domain))),
    });
    if !e.category.is_empty() {
        meta.push(Meta {
            label: "Category",
            value: e.category.clone(),
            href: Some(ctx.href(&urls::category(&e.category))),
        });
    }
    if let Some(c) = &e.error_code {
        meta.push(Meta {
            label: "Error code",
            value: c.clone(),
            href: Some(ctx.href(&urls::code(c))),
        });
    }
    if let Some(x) = &e.exception {
        meta.push(Meta {
            label: "Exception",
            value: x.clone(),
            href: None,
        });
    }
    meta
}

/// The view of the block a Markdown code block came from (same info string and shown code).
pub(crate) fn find_snippet<'v, 'a>(
    views: &'v [SnippetView<'a>],
    info: &str,
    text: &str,
) -> Option<&'v SnippetView<'a>> {
    views.iter().find(|v| is_block_of(v.snippet, info, text))
}

/// Whether a Markdown code block (info string, text with hidden lines) is `s`.
fn is_block_of(s: &Snippet, info: &str, text: &str) -> bool {
    s.info == info && {
        let shown: String = text
            .split_inclusive('\n')
            .filter(|l| !l.starts_with(errbook_parse::snippet::HIDDEN_PREFIX))
            .collect();
        shown == s.shown()
    }
}

/// The entry's Verification line, from its records: "verified on H100 and H200, 2026-11-24:
/// 2 of 3 workarounds work, 1 failed; 1 dead end actually works here".
fn verification_note(v: &Verification) -> String {
    let mut parts = Vec::new();
    if v.with_code > 0 {
        let verb = if v.works == 1 { "works" } else { "work" };
        let (n, noun) = (v.with_code, v.with_code == 1);
        let noun = if noun { "workaround" } else { "workarounds" };
        // Only workarounds with code can be run: the others are not counted as failing.
        let of = if n == v.workarounds {
            format!("{n} {noun}")
        } else {
            format!("the {n} {noun} with code")
        };
        let mut w = format!("{} of {of} {verb}", v.works);
        if v.failed > 0 {
            w.push_str(&format!(", {} failed", v.failed));
        }
        if v.unverified > 0 {
            w.push_str(&format!(", {} not verified yet", v.unverified));
        }
        parts.push(w);
    }
    // Findings first: a dead end that works is what a reader most needs to know.
    let mut dead: Vec<&(Reading, usize)> = v.dead_ends.iter().collect();
    dead.sort_by_key(|(r, _)| r.class != "bad");
    let said =
        |(r, n): &&(Reading, usize)| format!("{n} {}", if *n == 1 { r.word } else { r.plural });
    match dead.as_slice() {
        [] => {}
        [(r, n)] => parts.push(format!(
            "{n} dead end{} {}",
            if *n == 1 { "" } else { "s" },
            if *n == 1 { r.word } else { r.plural }
        )),
        more => parts.push(format!(
            "dead ends: {}",
            more.iter().map(said).collect::<Vec<_>>().join(", ")
        )),
    }
    if !v.disagree.is_empty() {
        let which: Vec<String> = v
            .disagree
            .iter()
            .map(|(role, n)| match role {
                Role::DeadEnd => format!("dead end {n}"),
                _ => format!("workaround {n}"),
            })
            .collect();
        parts.push(format!("environments disagree on {}", and_list(&which)));
    }
    let on = format!("Verified on {}, {}", and_list(&v.machines), v.date);
    if parts.is_empty() {
        on
    } else {
        format!("{on}: {}", parts.join("; "))
    }
}

pub(crate) fn origin_word(l: &Link) -> String {
    match l.origin {
        Origin::Explicit => "named by the author".into(),
        Origin::Confirmed => "confirmed by the author".into(),
        // The score is the maintainers' (`check --links`, api/links.json), not the reader's.
        Origin::Inferred => "found by matching the code".into(),
    }
}

/// The signals of a link's evidence, for "why" notes, as HTML: escaped, with the code they name
/// (written between backticks in the signal's words) as `<code>`.
fn signals(l: &Link) -> String {
    let v: Vec<String> = l.evidence.iter().map(|e| e.signal.to_string()).collect();
    super::markdown::plain(&v.join("; "))
}

fn example(ctx: &PageCtx<'_>, x: &crate::view::Example<'_>) -> Example {
    let s = x.snippet;
    Example {
        href: format!("{}#{}", ctx.href(&x.page_path), urls::code_anchor(&s.id)),
        title: super::markdown::plain(x.page_title),
        label: s
            .label
            .clone()
            .unwrap_or_else(|| format!("code block {}", s.index + 1)),
        origin: origin_word(x.link),
        why: signals(x.link),
    }
}

/// Related entries as the Related lists show them.
pub(crate) fn related(ctx: &PageCtx<'_>, rel: &[crate::view::Related<'_>]) -> Vec<Related> {
    rel.iter()
        .map(|r| Related {
            href: ctx.href(&urls::entry(&r.entry.id)),
            message: r.entry.message.clone(),
            id: r.entry.id.clone(),
            why: signals(r.link),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verification_line_counts_only_what_ran() {
        let works_here = Reading {
            word: "actually works",
            plural: "actually work",
            class: "bad",
        };
        let v = Verification {
            machines: vec!["H100".into(), "H200".into()],
            date: "2026-11-24".into(),
            workarounds: 4,
            with_code: 3,
            unverified: 1,
            works: 1,
            failed: 1,
            disagree: vec![(Role::Workaround, 2)],
            dead_ends: vec![(works_here, 2)],
        };
        assert_eq!(
            verification_note(&v),
            "Verified on H100 and H200, 2026-11-24: 1 of the 3 workarounds with code works, \
             1 failed, 1 not verified yet; 2 dead ends actually work; environments \
             disagree on workaround 2"
        );
        let none = Verification {
            machines: vec!["H200".into()],
            date: "2026-11-24".into(),
            workarounds: 2,
            ..Default::default()
        };
        assert_eq!(verification_note(&none), "Verified on H200, 2026-11-24");
    }
}
