//! The `## Workarounds` and `## Dead Ends` lists. Both are lists whose items start with a bold
//! summary and carry a rate in parentheses (`(NN% success)`, `(NN% fail)`); one reader reads
//! both, told by a `ListRule` what differs: the rate's pattern and the words of the diagnostics.

use super::blocks::{bold_summary, first_paragraph, item_text, Block, BlockKind};
use super::Ctx;
use errbook_core::diag::Code;
use errbook_core::model::{DeadEnd, Workaround};
use regex::Regex;
use std::ops::Range;
use std::sync::LazyLock;

static SUCCESS_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\(\s*(-?\d+(?:\.\d+)?)\s*%\s*success\s*\)").expect("static regex")
});
static FAIL_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\(\s*(-?\d+(?:\.\d+)?)\s*%\s*fail(?:s|ure)?\s*\)").expect("static regex")
});

/// What differs between the workaround list and the dead-end list.
struct ListRule {
    code: Code,
    /// `workaround`, `dead end`: in "this ... has no bold summary".
    noun: &'static str,
    /// The message and hint for a block that is not a list.
    not_a_list: &'static str,
    not_a_list_hint: &'static str,
    summary_hint: &'static str,
    /// The rate in parentheses; group 1 is the number.
    rate: &'static LazyLock<Regex>,
    /// `success rate`, `failure rate`.
    rate_name: &'static str,
    rate_hint: &'static str,
}

static WORKAROUNDS: ListRule = ListRule {
    code: Code::Workaround,
    noun: "workaround",
    not_a_list: "only a numbered list of workarounds goes under `## Workarounds`",
    not_a_list_hint: "write `1. **Summary** (NN% success)`, code indented under it",
    summary_hint: "start the item with the summary in bold: `1. **Do this** (90% success)`",
    rate: &SUCCESS_RE,
    rate_name: "success rate",
    rate_hint: "end the summary line with `(NN% success)`",
};

static DEAD_ENDS: ListRule = ListRule {
    code: Code::DeadEnd,
    noun: "dead end",
    not_a_list: "only a list of dead ends goes under `## Dead Ends`",
    not_a_list_hint: "write `- **What was tried** — why it fails (NN% fail)`",
    summary_hint: "write `- **What was tried** — why it fails (NN% fail)`",
    rate: &FAIL_RE,
    rate_name: "failure rate",
    rate_hint: "end the line with `(NN% fail)`",
};

/// One item that has its summary and a valid rate.
struct ListItem<'s> {
    /// 1-based among the items that were read.
    number: usize,
    summary: String,
    rate: u8,
    /// The summary's line after the bold summary, without the rate.
    text: String,
    /// The item after its first paragraph (more prose, code).
    rest: &'s str,
    snippets: Vec<usize>,
    line: usize,
}

pub(super) fn workarounds(cx: &mut Ctx, body: &[&Block]) -> Vec<Workaround> {
    read_list(cx, body, &WORKAROUNDS, |i| Workaround {
        number: i.number,
        summary: i.summary,
        success_rate: i.rate,
        detail: join_detail(i.text.trim(), &strip_code(i.rest)),
        snippets: i.snippets,
        line: i.line,
    })
}

pub(super) fn dead_ends(cx: &mut Ctx, body: &[&Block]) -> Vec<DeadEnd> {
    read_list(cx, body, &DEAD_ENDS, |i| DeadEnd {
        number: i.number,
        summary: i.summary,
        reason: i
            .text
            .trim()
            .trim_start_matches(['—', '–', '-', ':'])
            .trim()
            .to_string(),
        fail_rate: i.rate,
        snippets: i.snippets,
        line: i.line,
    })
}

/// Read the section's lists by `rule`; anything but a list, and items without their summary or
/// rate, are diagnostics.
fn read_list<T>(
    cx: &mut Ctx,
    body: &[&Block],
    rule: &ListRule,
    make: impl Fn(ListItem) -> T,
) -> Vec<T> {
    let mut out = Vec::new();
    for b in body {
        let BlockKind::List { .. } = b.kind else {
            let r = b.range.clone();
            cx.error(Code::Stray, r, rule.not_a_list, rule.not_a_list_hint);
            continue;
        };
        for r in &b.items {
            if let Some(item) = read_item(cx, r.clone(), rule, out.len() + 1) {
                out.push(make(item));
            }
        }
    }
    out
}

fn read_item<'s>(
    cx: &mut Ctx<'s>,
    r: Range<usize>,
    rule: &ListRule,
    number: usize,
) -> Option<ListItem<'s>> {
    let (text, at) = item_text(cx.src, &r);
    let para = first_paragraph(text);
    let Some((summary, sum_end)) = bold_summary(para).filter(|(s, _)| !s.is_empty()) else {
        let msg = format!("this {} has no bold summary", rule.noun);
        cx.error(rule.code, r, msg, rule.summary_hint);
        return None;
    };
    let after = para.get(sum_end..).unwrap_or("");
    // The whole `(NN% success)` and the number in it.
    let rate_match = |c: regex::Captures<'s>| Some((c.get(0)?, c.get(1)?));
    let Some((whole, num)) = rule.rate.captures(after).and_then(rate_match) else {
        let msg = format!("this {} has no {}", rule.noun, rule.rate_name);
        cx.error(rule.code, r, msg, rule.rate_hint);
        return None;
    };
    let rate_at = at + sum_end + whole.start();
    let rate = cx.percent(num.as_str(), rate_at..rate_at + whole.len(), rule.rate_name)?;
    let without_rate = format!("{}{}", &after[..whole.start()], &after[whole.end()..]);
    let snippets = cx.adopt(r.clone());
    Some(ListItem {
        number,
        summary,
        rate,
        text: without_rate,
        rest: text.get(para.len()..).unwrap_or(""),
        snippets,
        line: cx.line(r.start),
    })
}

/// The prose of `text` without its fenced code (which becomes snippets).
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
