//! An entry page's view: its code blocks, its workarounds (ranked by success rate) and dead ends
//! with their combined verdicts and the code examples elsewhere, the articles that discuss it,
//! related entries, the verification summary, and every link touching it (for the JSON API).

use super::{Example, Related, Resolver, SnippetView};
use crate::core::model::{Article, Entry, Page};
use crate::link::{Link, Node};
use crate::records::{Status, Verdict};

#[derive(Debug, Clone)]
pub(crate) struct EntryView<'a> {
    pub entry: &'a Entry,
    /// Every code block of the entry, in order (index = `Snippet::index`).
    pub snippets: Vec<SnippetView<'a>>,
    /// Best success rate first, then as numbered.
    pub workarounds: Vec<FixView<'a>>,
    pub dead_ends: Vec<FixView<'a>>,
    /// Articles that discuss the entry, best first, with the link.
    pub discussed: Vec<(&'a Article, &'a Link)>,
    pub related: Vec<Related<'a>>,
    pub verification: Option<Verification<'a>>,
    /// Every link with an end on the entry, in graph order.
    pub links: Vec<&'a Link>,
}

/// A workaround or a dead end as its page shows it.
#[derive(Debug, Clone)]
pub(crate) struct FixView<'a> {
    pub number: usize,
    pub summary: &'a str,
    /// Success rate of a workaround, failure rate of a dead end.
    pub rate: u8,
    /// A workaround's Markdown detail (empty for a dead end).
    pub detail: &'a str,
    /// A dead end's reason (empty for a workaround).
    pub reason: &'a str,
    /// Indices into the entry's code blocks.
    pub snippets: &'a [usize],
    /// What its runnable code blocks' records say together (the most telling one), if it has any.
    pub verdict: Option<Status<'a>>,
    pub examples: Vec<Example<'a>>,
}

/// How many of the entry's workarounds with runnable code their runs confirm.
#[derive(Debug, Clone)]
pub(crate) struct Verification<'a> {
    pub confirmed: usize,
    pub with_code: usize,
    pub workarounds: usize,
    /// The newest confirming run: its date and environment.
    pub last: Option<(&'a str, String)>,
}

impl<'a> Resolver<'a> {
    pub(crate) fn entry(&self, e: &'a Entry) -> EntryView<'a> {
        let snippets = self.snippets(Page::Entry(e));
        let mut workarounds: Vec<FixView<'a>> = e
            .workarounds
            .iter()
            .map(|w| FixView {
                number: w.number,
                summary: &w.summary,
                rate: w.success_rate,
                detail: &w.detail,
                reason: "",
                snippets: &w.snippets,
                verdict: combined(&snippets, &w.snippets),
                examples: self.examples(self.graph.snippets_for_workaround(&e.id, w.number), &e.id),
            })
            .collect();
        workarounds.sort_by(|a, b| b.rate.cmp(&a.rate).then(a.number.cmp(&b.number)));
        let dead_ends = e
            .dead_ends
            .iter()
            .map(|d| FixView {
                number: d.number,
                summary: &d.summary,
                rate: d.fail_rate,
                detail: "",
                reason: &d.reason,
                snippets: &d.snippets,
                verdict: combined(&snippets, &d.snippets),
                examples: self.examples(self.graph.snippets_for_dead_end(&e.id, d.number), &e.id),
            })
            .collect();
        let discussed = self
            .graph
            .articles_for_entry(&e.id)
            .filter_map(|l| match &l.from {
                Node::Article { id } => Some((self.catalog.article(id)?, l)),
                _ => None,
            })
            .collect();
        EntryView {
            entry: e,
            verification: verification(e, &snippets),
            snippets,
            workarounds,
            dead_ends,
            discussed,
            related: self.related(&e.id),
            links: self.graph.touching_entry(&e.id).collect(),
        }
    }
}

/// The class a status shows with: its verdict's for a fresh record, muted otherwise.
fn class(s: &Status<'_>) -> &'static str {
    match s {
        Status::Fresh(r) => r.verdict.class(),
        Status::Stale(_) | Status::Missing => "muted",
    }
}

/// The most telling status of the runnable blocks `idx`: a finding against the text wins; a
/// confirmation gives way to anything else.
fn combined<'a>(all: &[SnippetView<'a>], idx: &[usize]) -> Option<Status<'a>> {
    let mut pick: Option<Status<'a>> = None;
    let runnable = idx.iter().filter_map(|&i| all.get(i));
    for v in runnable.filter(|v| v.snippet.run.is_some()) {
        let replace = match &pick {
            None => true,
            Some(p) => class(p) != "bad" && (class(&v.status) == "bad" || class(p) == "ok"),
        };
        if replace {
            pick = Some(v.status.clone());
        }
    }
    pick
}

/// How many workarounds with runnable code are confirmed by a run; None when none has any.
fn verification<'a>(e: &'a Entry, snippets: &[SnippetView<'a>]) -> Option<Verification<'a>> {
    let mut v = Verification {
        confirmed: 0,
        with_code: 0,
        workarounds: e.workarounds.len(),
        last: None,
    };
    for w in &e.workarounds {
        let runs: Vec<&SnippetView<'a>> = w
            .snippets
            .iter()
            .filter_map(|&i| snippets.get(i))
            .filter(|s| s.snippet.run.is_some())
            .collect();
        if runs.is_empty() {
            continue;
        }
        v.with_code += 1;
        // Up to the first block that is not confirmed: its workaround is not confirmed.
        let ok = runs.iter().all(|s| match &s.status {
            Status::Fresh(rec) if rec.verdict == Verdict::Confirmed => {
                if v.last.as_ref().is_none_or(|(d, _)| rec.date.as_str() > *d) {
                    v.last = Some((rec.date.as_str(), rec.env_summary()));
                }
                true
            }
            _ => false,
        });
        v.confirmed += usize::from(ok);
    }
    (v.with_code > 0).then_some(v)
}
