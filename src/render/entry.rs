//! The entry page: the message (copyable), its metadata, root cause, version table, workarounds
//! ranked by success rate with their code and verdicts, dead ends, the articles that discuss it,
//! the code examples elsewhere that apply or fall into it, and related entries.

use super::markdown::{self, Place};
use super::snippet::{self, verdict_label};
use super::{Page, PageCtx, Renderer};
use crate::core::model::PageRef;
use crate::core::model::{Entry, PageKind, Snippet};
use crate::link::{Link, Node};
use crate::records::{Status, Verdict};
use crate::Result;
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
    summary: String,
    rate: u8,
    detail: String,
    reason: String,
    code: String,
    verdict: Option<VerdictView>,
    examples: Vec<Example>,
}

#[derive(Serialize, Clone)]
pub struct VerdictView {
    pub word: String,
    pub class: String,
    pub detail: String,
}

#[derive(Serialize)]
pub struct Example {
    pub href: String,
    pub title: String,
    pub label: String,
    pub origin: String,
    pub why: String,
}

#[derive(Serialize)]
struct Discussion {
    href: String,
    title: String,
    excerpt: String,
    origin: String,
}

#[derive(Serialize)]
pub struct Related {
    pub href: String,
    pub message: String,
    pub id: String,
    pub why: String,
}

pub fn page(r: &Renderer<'_>, e: &Entry) -> Result<Page> {
    let path = crate::core::urls::entry(&e.id);
    let page_ref = PageRef {
        kind: PageKind::Entry,
        id: e.id.clone(),
    };
    let ctx = r.page_ctx(path.clone(), Some(page_ref), &e.snippets);
    let place = Place {
        catalog: &r.analysis.catalog,
        page: &path,
        offline: r.offline,
    };
    let code_of = |idx: &[usize]| -> String {
        idx.iter()
            .filter_map(|&i| e.snippets.get(i))
            .map(|s| snippet::render(&ctx, Some(s), &s.info, &s.code))
            .collect()
    };
    let md = |text: &str| {
        markdown::render(text, &place, |_, info, t| {
            let s = find_snippet(&e.snippets, info, t);
            snippet::render(&ctx, s, info, t)
        })
    };

    let mut meta = vec![Meta {
        label: "ID",
        value: e.id.clone(),
        href: None,
    }];
    meta.push(Meta {
        label: "Domain",
        value: e.domain.clone(),
        href: Some(ctx.href(&crate::core::urls::domain(&e.domain))),
    });
    if !e.category.is_empty() {
        meta.push(Meta {
            label: "Category",
            value: e.category.clone(),
            href: Some(ctx.href(&crate::core::urls::category(&e.category))),
        });
    }
    if let Some(c) = &e.error_code {
        meta.push(Meta {
            label: "Error code",
            value: c.clone(),
            href: Some(ctx.href(&crate::core::urls::code(c))),
        });
    }
    if let Some(x) = &e.exception {
        meta.push(Meta {
            label: "Exception",
            value: x.clone(),
            href: None,
        });
    }

    let graph = &r.analysis.graph;
    let mut workarounds: Vec<Fix> = e
        .workarounds
        .iter()
        .map(|w| Fix {
            number: w.number,
            summary: markdown::plain(&w.summary),
            rate: w.success_rate,
            detail: md(&w.detail).html,
            reason: String::new(),
            code: code_of(&w.snippets),
            verdict: verdict_of(&ctx, &e.snippets, &w.snippets),
            examples: examples(&ctx, graph.snippets_for_workaround(&e.id, w.number), &e.id),
        })
        .collect();
    workarounds.sort_by(|a, b| b.rate.cmp(&a.rate).then(a.number.cmp(&b.number)));
    let dead_ends: Vec<Fix> = e
        .dead_ends
        .iter()
        .map(|d| Fix {
            number: d.number,
            summary: markdown::plain(&d.summary),
            rate: d.fail_rate,
            detail: String::new(),
            reason: markdown::plain(&d.reason),
            code: code_of(&d.snippets),
            verdict: verdict_of(&ctx, &e.snippets, &d.snippets),
            examples: examples(&ctx, graph.snippets_for_dead_end(&e.id, d.number), &e.id),
        })
        .collect();
    let sections: Vec<(String, String, String)> = e
        .extra_sections
        .iter()
        .map(|s| {
            (
                s.title.clone(),
                markdown::anchor(&s.title),
                md(&s.body).html,
            )
        })
        .collect();

    let discussed: Vec<Discussion> = graph
        .articles_for_entry(&e.id)
        .filter_map(|l| {
            let Node::Article { id } = &l.from else {
                return None;
            };
            let a = r.analysis.catalog.article(id)?;
            Some(Discussion {
                href: ctx.href(&crate::core::urls::article(&a.id)),
                title: a.title.clone(),
                excerpt: l
                    .evidence
                    .first()
                    .map(|ev| snippet::truncate(&ev.excerpt, 240))
                    .unwrap_or_default(),
                origin: origin_word(l),
            })
        })
        .collect();
    let related = related(&ctx, &e.id);
    let verification = verification_note(&ctx, e);

    let mut c = tera::Context::new();
    c.insert("message", &e.message);
    c.insert("meta", &meta);
    c.insert("verification", &e.verification);
    c.insert("verification_note", &verification);
    c.insert("fix_rate", &e.fix_rate);
    c.insert("root_cause", &md(&e.root_cause).html);
    c.insert("versions", &e.versions);
    c.insert("workarounds", &workarounds);
    c.insert("dead_ends", &dead_ends);
    c.insert("sections", &sections);
    c.insert("discussed", &discussed);
    c.insert("related", &related);
    c.insert("aliases", &e.aliases);
    c.insert("tags", &e.tags);
    c.insert("api", &ctx.href(&crate::core::urls::entry_json(&e.id)));
    Ok(Page {
        title: e.message.clone(),
        description: snippet::truncate(e.root_cause.trim(), 200),
        path,
        template: "entry.html",
        source: Some(e.source.clone()),
        ctx: c,
    })
}

/// The snippet a Markdown code block came from (same info string and shown code).
pub fn find_snippet<'s>(snippets: &'s [Snippet], info: &str, text: &str) -> Option<&'s Snippet> {
    snippets.iter().find(|s| {
        s.info == info && {
            let shown: String = text
                .split_inclusive('\n')
                .filter(|l| !l.starts_with(crate::parse::snippet::HIDDEN_PREFIX))
                .collect();
            shown == s.display
        }
    })
}

/// The combined verdict of a workaround's or dead end's runnable code.
fn verdict_of(ctx: &PageCtx<'_>, all: &[Snippet], idx: &[usize]) -> Option<VerdictView> {
    let page = ctx.page_ref.as_ref()?;
    let mut worst: Option<VerdictView> = None;
    for s in idx
        .iter()
        .filter_map(|&i| all.get(i))
        .filter(|s| s.run.is_some())
    {
        let v = match ctx.r.records.status(page, all, s) {
            Status::Fresh(rec) => {
                let (w, c) = verdict_label(rec.verdict);
                VerdictView {
                    word: format!("run: {w}"),
                    class: c.into(),
                    detail: format!("{} on {}", rec.env_summary(), rec.date),
                }
            }
            Status::Stale(rec) => VerdictView {
                word: "changed since its last run".into(),
                class: "muted".into(),
                detail: format!("last run {}", rec.date),
            },
            Status::Missing => VerdictView {
                word: "not verified yet".into(),
                class: "muted".into(),
                detail: String::new(),
            },
        };
        let bad = |v: &VerdictView| v.class == "bad";
        if worst
            .as_ref()
            .is_none_or(|w| !bad(w) && (bad(&v) || w.class == "ok"))
        {
            worst = Some(v);
        }
    }
    worst
}

/// The entry's Verification line: how many of its workarounds were run and confirmed.
fn verification_note(ctx: &PageCtx<'_>, e: &Entry) -> Option<String> {
    let page = ctx.page_ref.as_ref()?;
    let mut confirmed = 0;
    let mut with_code = 0;
    let mut last: Option<(&str, String)> = None;
    for w in &e.workarounds {
        let runs: Vec<&Snippet> = w
            .snippets
            .iter()
            .filter_map(|&i| e.snippets.get(i))
            .filter(|s| s.run.is_some())
            .collect();
        if runs.is_empty() {
            continue;
        }
        with_code += 1;
        let ok = runs
            .iter()
            .all(|s| match ctx.r.records.status(page, &e.snippets, s) {
                Status::Fresh(rec) if rec.verdict == Verdict::Confirmed => {
                    if last.as_ref().is_none_or(|(d, _)| rec.date.as_str() > *d) {
                        last = Some((rec.date.as_str(), rec.env_summary()));
                    }
                    true
                }
                _ => false,
            });
        confirmed += ok as usize;
    }
    if with_code == 0 {
        return None;
    }
    Some(match last {
        Some((date, env)) => format!(
            "{confirmed} of {} workarounds confirmed by running their code ({}; {env})",
            e.workarounds.len(),
            date.get(..10).unwrap_or(date)
        ),
        None => format!(
            "{with_code} of {} workarounds have runnable code, none confirmed by a run yet",
            e.workarounds.len()
        ),
    })
}

fn origin_word(l: &Link) -> String {
    match l.origin {
        crate::link::Origin::Explicit => "named by the author".into(),
        crate::link::Origin::Confirmed => "confirmed by the author".into(),
        crate::link::Origin::Inferred => format!("inferred, score {:.2}", l.score),
    }
}

/// Code examples on other pages linked to a workaround or dead end.
pub fn examples<'a>(
    ctx: &PageCtx<'_>,
    links: impl Iterator<Item = &'a Link>,
    own: &str,
) -> Vec<Example> {
    let cat = &ctx.r.analysis.catalog;
    links
        .filter_map(|l| {
            let Node::Snippet { page, index } = &l.from else {
                return None;
            };
            let (site, title, snips) = match page.kind {
                PageKind::Article => {
                    let a = cat.article(&page.id)?;
                    (
                        crate::core::urls::article(&a.id),
                        a.title.clone(),
                        &a.snippets,
                    )
                }
                PageKind::Entry => {
                    if page.id == own {
                        return None;
                    }
                    let e = cat.entry(&page.id)?;
                    (
                        crate::core::urls::entry(&e.id),
                        e.message.clone(),
                        &e.snippets,
                    )
                }
            };
            let s = snips.get(*index)?;
            Some(Example {
                href: format!("{}#code-{}", ctx.href(&site), s.id),
                title,
                label: s
                    .label
                    .clone()
                    .unwrap_or_else(|| format!("code block {}", index + 1)),
                origin: origin_word(l),
                why: l
                    .evidence
                    .iter()
                    .map(|e| e.signal.to_string())
                    .collect::<Vec<_>>()
                    .join("; "),
            })
        })
        .collect()
}

/// Related entries, best first.
pub fn related(ctx: &PageCtx<'_>, id: &str) -> Vec<Related> {
    let cat = &ctx.r.analysis.catalog;
    ctx.r
        .analysis
        .graph
        .related(id)
        .filter_map(|(other, l)| {
            let e = cat.entry(other)?;
            Some(Related {
                href: ctx.href(&crate::core::urls::entry(&e.id)),
                message: e.message.clone(),
                id: e.id.clone(),
                why: l
                    .evidence
                    .iter()
                    .map(|e| e.signal.to_string())
                    .collect::<Vec<_>>()
                    .join("; "),
            })
        })
        .collect()
}
