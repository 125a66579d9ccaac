//! A code block as readers see it: highlighted code with a copy button, what the text claims
//! about it, what the last verification run found, and the links the graph draws from it
//! (the workaround it applies, the dead end it falls into).

use super::escape as esc;
use super::PageCtx;
use crate::core::urls;
use crate::records::{Record, Status};
use crate::view::snippet::Part;
use crate::view::SnippetView;

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
    let shown = snippet.map(|s| s.display.as_str()).unwrap_or(text);
    let code = ctx.r.highlights.highlight(shown, lang);
    let mut out = String::with_capacity(code.len() + 512);
    let anchor = snippet
        .map(|s| format!(" id=\"{}\"", esc(&urls::code_anchor(&s.id))))
        .unwrap_or_default();
    out.push_str(&format!("<figure class=\"snippet\"{anchor}>"));
    if let Some(v) = view {
        flags(ctx, v, &mut out);
    }
    out.push_str(&format!(
        "<div class=\"code-wrap\"><button class=\"copy\" type=\"button\" aria-label=\"Copy code\">Copy</button><pre class=\"code\"><code class=\"language-{}\">{code}</code></pre></div>",
        esc(lang)
    ));
    if let Some(v) = view.filter(|v| v.snippet.run.is_some()) {
        out.push_str(&run_box(v));
    }
    out.push_str("</figure>\n");
    out
}

/// Dead-end warnings and "applies workaround" notes from the link graph.
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
                    esc(&ev.signal.to_string())
                )
            })
            .unwrap_or_default();
        match f.part {
            Part::DeadEnd(d) => {
                let (summary, rate) = d
                    .map(|d| (d.summary.as_str(), d.fail_rate))
                    .unwrap_or(("", 0));
                out.push_str(&format!(
                    "<p class=\"flag flag-dead-end\" role=\"note\">&#9888; Known dead end of <a href=\"{href}#{}\">{}</a>: {} ({rate}% fail){why}</p>",
                    urls::dead_end_anchor(number), esc(&e.message), esc(summary)
                ));
            }
            Part::Workaround(w) => {
                let (summary, rate) = w
                    .map(|w| (w.summary.as_str(), w.success_rate))
                    .unwrap_or(("", 0));
                out.push_str(&format!(
                    "<p class=\"flag flag-applies\" role=\"note\">&#10003; Applies workaround {number} of <a href=\"{href}#{}\">{}</a>: {} ({rate}% success){why}</p>",
                    urls::workaround_anchor(number), esc(&e.message), esc(&truncate(summary, 140))
                ));
            }
        }
    }
}

/// The claim and what the run found.
fn run_box(v: &SnippetView<'_>) -> String {
    let Some(run) = &v.snippet.run else {
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
        let anchor = esc(&urls::code_anchor(a));
        needs.push(format!("continues <a href=\"#{anchor}\">{}</a>", esc(a)));
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
    match &v.status {
        Status::Fresh(rec) => {
            let (word, class) = (rec.verdict.word(), rec.verdict.class());
            // A run that contradicts the text is shown open: readers must not miss it.
            let open = if class == "bad" { " open" } else { "" };
            format!(
                "<details class=\"run run-{class}\"{open}><summary>{claim} <span class=\"verdict verdict-{class}\">Run: {word}</span></summary>{}</details>",
                record_details(rec)
            )
        }
        Status::Stale(rec) => {
            let word = rec.verdict.word();
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
pub(crate) fn record_details(rec: &Record) -> String {
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

pub(crate) fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut t: String = s.chars().take(max).collect();
    t.push('\u{2026}');
    t
}
