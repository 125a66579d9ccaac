//! What the runs of a code block (or of a workaround's or dead end's code) say, as the page shows
//! it: the chip in the reader's words ("works on H100 and H200", "environments disagree"), the
//! "Verified on" table (environment, verdict, date, duration), and each run's facts: its finding,
//! the root cause before the error that ended it, crashed children, the log. The words of
//! verdicts come from `records::verdict`; which runs count comes from `view::evidence`.

use super::escape as esc;
use crate::view::evidence::{Evidence, Outcome};
use errbook_records::{Judged, Record};

/// A verdict chip: its words, CSS class, where it holds, and a tooltip.
#[derive(Debug, Clone, serde::Serialize)]
pub(crate) struct Chip {
    pub word: String,
    pub class: String,
    /// "on H100 and H200", or for disagreeing environments "works on H100; failed on H200".
    pub on: String,
    pub title: String,
}

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The chip of `ev`; None for a part without runnable code.
pub(crate) fn chip(ev: &Evidence<'_>, has_code: bool) -> Option<Chip> {
    if !has_code {
        return None;
    }
    let title = ev
        .machines
        .iter()
        .map(|m| {
            let d = &m.run.date;
            let day = d.get(..10).unwrap_or(d);
            format!("{}: {} ({day})", m.run.env_summary(), m.reading.word)
        })
        .collect::<Vec<_>>()
        .join("\n");
    let chip = |word: String, class: &str, on: String, title: String| Chip {
        word,
        class: class.to_string(),
        on,
        title,
    };
    Some(match (ev.outcome, ev.reading()) {
        (Outcome::Agree(_), Some(r)) => chip(
            r.word.to_string(),
            r.class,
            format!("on {}", and_list(&ev.machine_names())),
            title,
        ),
        (Outcome::Disagree, _) => {
            let on: Vec<String> = ev
                .by_word()
                .into_iter()
                .map(|(r, names)| format!("{} on {}", r.word, and_list(&names)))
                .collect();
            chip("environments disagree".into(), "warn", on.join("; "), title)
        }
        _ => unverified(ev),
    })
}

/// The chip of code with no run that counts: changed since its last run, only environment
/// errors, or never run.
fn unverified(ev: &Evidence<'_>) -> Chip {
    let muted = |word: String, title: String| Chip {
        word,
        class: "muted".into(),
        on: String::new(),
        title,
    };
    if let Some(r) = &ev.stale {
        let day = r.date.get(..10).unwrap_or(&r.date);
        let last = r.verdict.reading(ev.role, &r.claim).word;
        return muted(
            "changed since its last run".into(),
            format!("last run {day}: {last}"),
        );
    }
    if let Some(r) = ev.not_evidence.first() {
        return muted(
            format!("not verified: {}", r.verdict.word()),
            r.finding.clone(),
        );
    }
    muted("not verified yet".into(), String::new())
}

/// The "Verified on" table of a code block's runs (every fresh run, evidence or not), or the
/// one stale run; empty when there is none.
pub(crate) fn table(ev: &Evidence<'_>, runs: &[&Judged]) -> String {
    if runs.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "<div class=\"table-wrap\"><table class=\"verified-on\"><caption>Verified on</caption><thead><tr><th>Environment</th><th>Verdict</th><th>Date</th><th>Duration</th></tr></thead><tbody>",
    );
    for r in runs {
        let reading = r.verdict.reading(ev.role, &r.claim);
        let day = r.date.get(..10).unwrap_or(&r.date);
        out.push_str(&format!(
            "<tr><td>{}</td><td><span class=\"verdict verdict-{}\">{}</span></td><td><time datetime=\"{}\">{}</time></td><td>{:.1} s</td></tr>",
            esc(&r.env_summary()),
            reading.class,
            esc(reading.word),
            esc(&r.date),
            esc(day),
            r.duration_s
        ));
    }
    out.push_str("</tbody></table></div>");
    out
}

/// The runs grouped by what they did (the reader's word and the exception at the root), in
/// first-seen order: two machines that failed alike are one outcome, though a process ID in
/// their messages differs.
pub(crate) fn by_outcome<'r, 'a>(
    ev: &Evidence<'_>,
    runs: &[&'r Judged<'a>],
) -> Vec<Vec<&'r Judged<'a>>> {
    let key = |r: &Judged| {
        let word = r.verdict.reading(ev.role, &r.claim).word;
        (word, r.record.cause().map(|c| c.exception.clone()))
    };
    let mut out: Vec<Vec<&'r Judged<'a>>> = Vec::new();
    for &r in runs {
        let k = key(r);
        let same = |g: &&mut Vec<&'r Judged<'a>>| key(g[0]) == k;
        match out.iter_mut().find(same) {
            Some(g) => g.push(r),
            None => out.push(vec![r]),
        }
    }
    out
}

/// One outcome's facts (of the first of `runs`, which all did the same), collapsed under a
/// summary naming the machines and the verdict.
pub(crate) fn run_details(ev: &Evidence<'_>, runs: &[&Judged]) -> String {
    let Some(r) = runs.first() else {
        return String::new();
    };
    let reading = r.verdict.reading(ev.role, &r.claim);
    let mut machines: Vec<String> = Vec::new();
    for x in runs {
        let m = x.record.env.hardware();
        if !machines.contains(&m) {
            machines.push(m);
        }
    }
    format!(
        "<details class=\"run-record\"><summary>{}: <span class=\"verdict verdict-{}\">{}</span></summary>{}</details>",
        esc(&and_list(&machines)),
        reading.class,
        esc(reading.word),
        record_details(r)
    )
}

/// What the run found, the root cause and the error it led to, crashed children, exit status,
/// duration, GPU memory, environment, date and the log of one record.
pub(crate) fn record_details(rec: &Judged) -> String {
    let mut out = String::new();
    if !rec.finding.is_empty() {
        out.push_str(&format!("<p class=\"finding\">{}</p>", esc(&rec.finding)));
    }
    out.push_str("<dl class=\"run-facts\">");
    raised(rec, &mut out);
    children(rec, &mut out);
    if let Some(code) = rec.exit_status {
        out.push_str(&format!("<dt>Exit status</dt><dd>{code}</dd>"));
    }
    out.push_str(&format!(
        "<dt>Duration</dt><dd>{:.1} s</dd>",
        rec.duration_s
    ));
    if let Some(mib) = rec.gpu_mem_peak_mib {
        out.push_str(&format!("<dt>GPU memory</dt><dd>{mib} MiB at most</dd>"));
    }
    out.push_str(&format!(
        "<dt>Environment</dt><dd>{}</dd><dt>Date</dt><dd>{}</dd>",
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

/// `Exception: message`, capped; the message without the warnings printed after it.
fn line(exception: &str, message: &str, max: usize) -> String {
    let message = errbook_records::message::without_warnings(message);
    let l = if message.is_empty() {
        exception.to_string()
    } else {
        format!("{exception}: {message}")
    };
    truncate(&l, max)
}

/// The root cause first (a child's error, or the original inside a wrapper), then the error
/// that ended the main process.
fn raised(rec: &Record, out: &mut String) {
    let Some(cause) = rec.cause() else {
        return;
    };
    let fin = rec.final_error();
    let is_final = fin
        .as_ref()
        .is_some_and(|f| f.exception == cause.exception && f.message == cause.message);
    let label = if is_final { "Raised" } else { "Root cause" };
    let from = match cause.origin.as_str() {
        "main" | "" => String::new(),
        "wrapped" if fin.is_some() => {
            " <span class=\"origin\">(carried by the error below)</span>".to_string()
        }
        "wrapped" => String::new(),
        child => format!(
            " <span class=\"origin\">(in {})</span>",
            esc(&process(child))
        ),
    };
    out.push_str(&format!(
        "<dt>{label}</dt><dd><code>{}</code>{from}</dd>",
        esc(&line(&cause.exception, &cause.message, 400))
    ));
    if let Some(f) = fin.filter(|_| !is_final) {
        out.push_str(&format!(
            "<dt>Reported as</dt><dd><code>{}</code></dd>",
            esc(&line(&f.exception, &f.message, 300))
        ));
    }
}

/// The crashed child processes but the one shown as the root cause, four at most.
fn children(rec: &Record, out: &mut String) {
    let kids: Vec<_> = (rec.children.iter())
        .filter(|c| rec.root_cause.as_ref() != Some(*c))
        .collect();
    let n = kids.len();
    if n == 0 {
        return;
    }
    out.push_str(&format!(
        "<dt>Crashed child process{}</dt><dd>",
        if n == 1 { "" } else { "es" }
    ));
    for c in kids.iter().take(4) {
        out.push_str(&format!(
            "<code>{}</code> <span class=\"origin\">({})</span><br>",
            esc(&line(&c.exception, &c.message, 200)),
            esc(&process(&c.origin))
        ));
    }
    if n > 4 {
        out.push_str(&format!("and {} more", n - 4));
    }
    out.push_str("</dd>");
}

/// A child process as a reader names it: `a spawned child process`, `child process Process-1`.
fn process(origin: &str) -> String {
    match origin {
        "spawned" => "a child process it spawned".to_string(),
        name => format!("child process {name}"),
    }
}

/// `s` cut to `max` characters, with an ellipsis when cut.
pub(crate) fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut t: String = s.chars().take(max).collect();
    t.push('\u{2026}');
    t
}
