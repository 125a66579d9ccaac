//! A code block as readers see it: highlighted code with a copy button, what the text claims
//! about it, what its verification runs found (`runs`: the chip, the "Verified on" table, each
//! run's facts), and the links the graph draws from it (the workaround it applies, the dead end
//! it falls into), marked with what that part's own runs found.

use super::escape as esc;
use super::runs;
pub(crate) use super::runs::truncate;
use super::PageCtx;
use crate::view::snippet::Part;
use crate::view::SnippetView;
use errbook_core::urls;
use errbook_records::{Judged, Status};

/// The HTML of a code block. `view` is None for a block the parser did not keep.
/// The block's label ("Example 1: ...") is not repeated: the page shows it just above.
pub(crate) fn render(
    ctx: &PageCtx<'_>,
    view: Option<&SnippetView<'_>>,
    info: &str,
    text: &str,
) -> String {
    let snippet = view.map(|v| v.snippet);
    let lang = info.split_whitespace().next().unwrap_or("");
    let lang = if lang.is_empty() {
        ctx.r.cfg.build.default_code_lang.as_str()
    } else {
        lang
    };
    let shown = snippet.map(|s| s.shown()).unwrap_or(text);
    let code = ctx.r.highlights.highlight(shown, lang);
    let mut out = String::with_capacity(code.len() + 512);
    let anchor = snippet
        .map(|s| format!(" id=\"{}\"", esc(&urls::code_anchor(&s.id))))
        .unwrap_or_default();
    let mut around = String::new();
    if let Some(v) = view {
        flags(ctx, v, &mut around);
    }
    let pre = format!(
        "<pre class=\"code\"><code class=\"language-{}\">{code}</code></pre></div>",
        esc(lang)
    );
    let run = view
        .filter(|v| v.snippet.run.is_some())
        .map(run_box)
        .unwrap_or_default();
    if around.is_empty() && run.is_empty() {
        // The code alone: its wrapper (the copy button's place) carries the anchor, and no
        // figure stands around it (a third of the markup around a block, on every block).
        out.push_str(&format!("<div class=\"code-wrap\"{anchor}>{pre}\n"));
        return out;
    }
    out.push_str(&format!("<figure class=\"snippet\"{anchor}>{around}"));
    out.push_str(&format!("<div class=\"code-wrap\">{pre}{run}</figure>\n"));
    out
}

/// Dead-end warnings and "applies workaround" notes from the link graph, each marked with
/// what that part's own runs say (an applied workaround that failed when run is no check mark).
fn flags(ctx: &PageCtx<'_>, v: &SnippetView<'_>, out: &mut String) {
    for f in &v.flags {
        let (e, number) = (f.entry, f.number);
        let href = ctx.href(&urls::entry(&e.id));
        let why = f
            .link
            .evidence
            .first()
            .map(|ev| {
                format!(
                    " <span class=\"evidence\">({})</span>",
                    super::markdown::plain(&ev.signal.to_string())
                )
            })
            .unwrap_or_default();
        let chip = runs::chip(&f.evidence, true);
        let ran = chip
            .as_ref()
            .filter(|c| c.class != "muted")
            .map(|c| {
                format!(
                    " <span class=\"verdict verdict-{}\" title=\"{}\">{} {}</span>",
                    c.class,
                    esc(&c.title),
                    esc(&c.word),
                    esc(&c.on)
                )
            })
            .unwrap_or_default();
        let class = chip.as_ref().map_or("muted", |c| c.class.as_str());
        match f.part {
            Part::DeadEnd(d) => {
                let (summary, rate) = d
                    .map(|d| (d.summary.as_str(), d.fail_rate))
                    .unwrap_or(("", 0));
                // A dead end that actually works where it ran is no warning sign.
                let mark = if class == "bad" { "&#8226;" } else { "&#9888;" };
                out.push_str(&format!(
                    "<p class=\"flag flag-dead-end flag-{class}\" role=\"note\">{mark} Known dead end of <a href=\"{href}#{}\">{}</a>: {} <span class=\"claimed\">(the catalog says {rate}% fail)</span>{ran}{why}</p>",
                    urls::dead_end_anchor(number), esc(&e.message), esc(summary)
                ));
            }
            Part::Workaround(w) => {
                let (summary, rate) = w
                    .map(|w| (w.summary.as_str(), w.success_rate))
                    .unwrap_or(("", 0));
                let mark = match class {
                    "ok" => "&#10003;",
                    "bad" => "&#10007;",
                    _ => "&#8226;",
                };
                out.push_str(&format!(
                    "<p class=\"flag flag-applies flag-{class}\" role=\"note\">{mark} Applies workaround {number} of <a href=\"{href}#{}\">{}</a>: {} <span class=\"claimed\">(the catalog says {rate}% success)</span>{ran}{why}</p>",
                    urls::workaround_anchor(number), esc(&e.message), esc(&truncate(summary, 140))
                ));
            }
        }
    }
}

/// The claim, what the runs found together, the "Verified on" table and each run's facts.
fn run_box(v: &SnippetView<'_>) -> String {
    let Some(run) = &v.snippet.run else {
        return String::new();
    };
    let claim = super::reading::claim_html(v);
    // What it needs may link to the block it continues: outside the summary, which must hold
    // nothing a reader can focus (it is a control itself).
    let needs = needs(run);
    let ev = &v.evidence;
    let Some(chip) = runs::chip(ev, true) else {
        return String::new();
    };
    let badge = format!(
        "<span class=\"verdict verdict-{}\" title=\"{}\">{}</span>{}",
        chip.class,
        esc(&chip.title),
        esc(&chip.word),
        if chip.on.is_empty() {
            String::new()
        } else {
            format!(" <span class=\"verdict-on\">{}</span>", esc(&chip.on))
        }
    );
    let shown: Vec<&Judged> = match &v.status {
        Status::Fresh(all) => all.iter().collect(),
        Status::Stale(r) => vec![r],
        Status::Missing => Vec::new(),
    };
    if shown.is_empty() {
        return format!("<div class=\"run run-missing\">{claim}{needs} {badge}</div>");
    }
    let class = if matches!(v.status, Status::Stale(_)) {
        "stale"
    } else {
        chip.class.as_str()
    };
    // Collapsed: the summary's chip already says what happened. Inside, the table lists every
    // environment once, then each outcome's facts once (not once per machine that had it).
    let mut body = runs::table(ev, &shown);
    for same in runs::by_outcome(ev, &shown) {
        body.push_str(&runs::run_details(ev, &same));
    }
    format!(
        "<details class=\"run run-{class}\"><summary>{claim} {badge}</summary>{}{body}</details>",
        if needs.is_empty() {
            String::new()
        } else {
            format!("<p class=\"run-needs\">{}</p>", needs.trim_start())
        }
    )
}

/// What a run needs, in parentheses after the claim: GPUs, packages, the block it continues.
fn needs(run: &errbook_core::model::RunSpec) -> String {
    let mut needs = Vec::new();
    if run.gpus > 0 {
        needs.push(format!(
            "{} GPU{}",
            run.gpus,
            if run.gpus > 1 { "s" } else { "" }
        ));
    }
    if !run.needs.is_empty() {
        needs.push(format!("needs {}", esc(&run.needs.join(", "))));
    }
    if let Some(a) = &run.after {
        let anchor = esc(&urls::code_anchor(a));
        needs.push(format!("continues <a href=\"#{anchor}\">{}</a>", esc(a)));
    }
    if needs.is_empty() {
        String::new()
    } else {
        format!(" <span class=\"needs\">({})</span>", needs.join(", "))
    }
}
