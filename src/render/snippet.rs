//! A code block as readers see it: highlighted code with a copy button, what the text claims
//! about it, what the last verification run found, and the links the graph draws from it
//! (the workaround it applies, the dead end it falls into).

use super::escape as esc;
use super::PageCtx;
use crate::core::model::Snippet;
use crate::link::{LinkKind, Node};
use crate::records::{Record, Status, Verdict};

/// The HTML of a code block. `snippet` is None for a block the parser did not keep.
/// The block's label ("Example 1: ...") is not repeated: the page shows it just above.
pub fn render(ctx: &PageCtx<'_>, snippet: Option<&Snippet>, info: &str, text: &str) -> String {
    let lang = info.split_whitespace().next().unwrap_or("");
    let lang = if lang.is_empty() {
        ctx.r.cfg.build.default_code_lang.as_str()
    } else {
        lang
    };
    let shown = snippet.map(|s| s.display.as_str()).unwrap_or(text);
    let code = ctx.r.highlights.highlight(shown, lang);
    let mut out = String::with_capacity(code.len() + 512);
    let anchor = snippet
        .map(|s| format!(" id=\"code-{}\"", esc(&s.id)))
        .unwrap_or_default();
    out.push_str(&format!("<figure class=\"snippet\"{anchor}>"));
    if let Some(s) = snippet {
        flags(ctx, s, &mut out);
    }
    out.push_str(&format!(
        "<div class=\"code-wrap\"><button class=\"copy\" type=\"button\" aria-label=\"Copy code\">Copy</button><pre class=\"code\"><code class=\"language-{}\">{code}</code></pre></div>",
        esc(lang)
    ));
    if let Some(s) = snippet {
        if s.run.is_some() {
            out.push_str(&run_box(ctx, s));
        }
    }
    out.push_str("</figure>\n");
    out
}

/// Dead-end warnings and "applies workaround" notes from the link graph.
fn flags(ctx: &PageCtx<'_>, s: &Snippet, out: &mut String) {
    let Some(page) = &ctx.page_ref else { return };
    for l in ctx.r.analysis.graph.links_from_snippet(page, s.index) {
        let (entry, number) = match &l.to {
            Node::Workaround { entry, number } | Node::DeadEnd { entry, number } => {
                (entry, *number)
            }
            _ => continue,
        };
        let Some(e) = ctx.r.analysis.catalog.entry(entry) else {
            continue;
        };
        if ctx.page_ref.as_ref().is_some_and(|p| p.id == e.id) {
            continue; // an entry's own code needs no flag pointing at itself
        }
        let href = ctx.href(&crate::core::urls::entry(&e.id));
        let why = l
            .evidence
            .first()
            .map(|ev| {
                format!(
                    " <span class=\"evidence\">({})</span>",
                    esc(&ev.signal.to_string())
                )
            })
            .unwrap_or_default();
        match l.kind {
            LinkKind::DeadEnd => {
                let d = e.dead_ends.iter().find(|d| d.number == number);
                let (summary, rate) = d
                    .map(|d| (d.summary.as_str(), d.fail_rate))
                    .unwrap_or(("", 0));
                out.push_str(&format!(
                    "<p class=\"flag flag-dead-end\" role=\"note\">&#9888; Known dead end of <a href=\"{href}#dead-end-{number}\">{}</a>: {} ({rate}% fail){why}</p>",
                    esc(&e.message), esc(summary)
                ));
            }
            LinkKind::Applies => {
                let w = e.workarounds.iter().find(|w| w.number == number);
                let (summary, rate) = w
                    .map(|w| (w.summary.as_str(), w.success_rate))
                    .unwrap_or(("", 0));
                out.push_str(&format!(
                    "<p class=\"flag flag-applies\" role=\"note\">&#10003; Applies workaround {number} of <a href=\"{href}#workaround-{number}\">{}</a>: {} ({rate}% success){why}</p>",
                    esc(&e.message), esc(&truncate(summary, 140))
                ));
            }
            _ => {}
        }
    }
}

/// Verdict as a word and a CSS class.
pub fn verdict_label(v: Verdict) -> (&'static str, &'static str) {
    match v {
        Verdict::Confirmed => ("confirmed", "ok"),
        Verdict::Contradicted => ("contradicted", "bad"),
        Verdict::DifferentError => ("different error", "bad"),
        Verdict::TimedOut => ("timed out", "warn"),
        Verdict::Skipped => ("skipped", "muted"),
    }
}

/// The claim and what the run found.
fn run_box(ctx: &PageCtx<'_>, s: &Snippet) -> String {
    let Some(run) = &s.run else {
        return String::new();
    };
    let mut needs = Vec::new();
    if run.gpus > 0 {
        needs.push(format!(
            "{} GPU{}",
            run.gpus,
            if run.gpus > 1 { "s" } else { "" }
        ));
    }
    if let Some(a) = &run.after {
        needs.push(format!("continues <a href=\"#code-{0}\">{0}</a>", esc(a)));
    }
    let needs = if needs.is_empty() {
        String::new()
    } else {
        format!(" <span class=\"needs\">({})</span>", needs.join(", "))
    };
    let claim = format!(
        "<span class=\"claim\">The text claims: <strong>{}</strong></span>{needs}",
        esc(&run.claim.describe())
    );
    let status = match &ctx.page_ref {
        Some(p) => ctx.r.records.status(p, ctx.snippets, s),
        None => Status::Missing,
    };
    match status {
        Status::Fresh(rec) => {
            let (word, class) = verdict_label(rec.verdict);
            // A run that contradicts the text is shown open: readers must not miss it.
            let open = if class == "bad" { " open" } else { "" };
            format!(
                "<details class=\"run run-{class}\"{open}><summary>{claim} <span class=\"verdict verdict-{class}\">Run: {word}</span></summary>{}</details>",
                record_details(rec)
            )
        }
        Status::Stale(rec) => {
            let (word, _) = verdict_label(rec.verdict);
            format!(
                "<details class=\"run run-stale\"><summary>{claim} <span class=\"verdict verdict-muted\">Changed since its last run ({word} on {})</span></summary>{}</details>",
                esc(&rec.date),
                record_details(rec)
            )
        }
        Status::Missing => format!(
            "<div class=\"run run-missing\">{claim} <span class=\"verdict verdict-muted\">Not verified yet</span></div>"
        ),
    }
}

/// What the run found, the error it raised (the innermost cause, and crashed children),
/// duration, environment, date and the log of one record.
pub fn record_details(rec: &Record) -> String {
    let mut out = String::new();
    if !rec.finding.is_empty() {
        out.push_str(&format!("<p class=\"finding\">{}</p>", esc(&rec.finding)));
    }
    out.push_str("<dl class=\"run-facts\">");
    if let Some(reason) = &rec.skip_reason {
        out.push_str(&format!("<dt>Skipped</dt><dd>{}</dd>", esc(reason)));
    }
    if let Some((exc, msg)) = rec.cause() {
        let line = if msg.is_empty() {
            exc
        } else {
            format!("{exc}: {msg}")
        };
        out.push_str(&format!(
            "<dt>Raised</dt><dd><code>{}</code></dd>",
            esc(&truncate(&line, 400))
        ));
    }
    if !rec.children.is_empty() {
        let n = rec.children.len();
        out.push_str(&format!(
            "<dt>Crashed child process{}</dt><dd>",
            if n == 1 { "" } else { "es" }
        ));
        for c in rec.children.iter().take(4) {
            out.push_str(&format!(
                "<code>{}: {}</code><br>",
                esc(&c.exception),
                esc(&truncate(&c.message, 200))
            ));
        }
        if n > 4 {
            out.push_str(&format!("and {} more", n - 4));
        }
        out.push_str("</dd>");
    }
    if let Some(code) = rec.exit_status {
        out.push_str(&format!("<dt>Exit status</dt><dd>{code}</dd>"));
    }
    out.push_str(&format!(
        "<dt>Duration</dt><dd>{:.1} s</dd><dt>Environment</dt><dd>{}</dd><dt>Date</dt><dd>{}</dd>",
        rec.duration_s,
        esc(&rec.env_summary()),
        esc(rec.date.get(..10).unwrap_or(&rec.date))
    ));
    out.push_str("</dl>");
    if !rec.log.is_empty() {
        out.push_str(&format!(
            "<details class=\"log\"><summary>Log</summary><pre>{}</pre></details>",
            esc(&rec.log)
        ));
    }
    out
}

pub fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut t: String = s.chars().take(max).collect();
    t.push('\u{2026}');
    t
}
