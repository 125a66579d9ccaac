//! An entry page's view: its code blocks, its workarounds (what works here first, then by
//! success rate) and dead ends with what their runs say and the code examples elsewhere, the
//! articles that discuss it, related entries, the verification summary computed from its
//! records, and every link touching it (for the JSON API).

use super::evidence::{self, Evidence, Outcome};
use super::{Example, Related, Resolver, SnippetView};
use errbook_core::model::{Article, Entry, Page};
use errbook_link::{Link, Node};
use errbook_records::{Reading, Role};

#[derive(Debug, Clone)]
pub struct EntryView<'a> {
    pub entry: &'a Entry,
    /// Every code block of the entry, in order (index = `Snippet::index`).
    pub snippets: Vec<SnippetView<'a>>,
    /// What works here first, then what works in some environments, what was not run, what
    /// failed (`Evidence::rank`); within each, best success rate first, then as numbered.
    pub workarounds: Vec<FixView<'a>>,
    pub dead_ends: Vec<FixView<'a>>,
    /// Articles that discuss the entry, best first, with the link.
    pub discussed: Vec<(&'a Article, &'a Link)>,
    pub related: Vec<Related<'a>>,
    pub verification: Option<Verification>,
}

/// A workaround or a dead end as its page shows it.
#[derive(Debug, Clone)]
pub struct FixView<'a> {
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
    /// Whether it has runnable code at all.
    pub has_code: bool,
    /// What the runs of its runnable code blocks say together.
    pub evidence: Evidence<'a>,
    pub examples: Vec<Example<'a>>,
}

/// What the entry's records say, for its Verification line.
#[derive(Debug, Clone, Default)]
pub struct Verification {
    /// The machines whose runs of the entry's code are evidence, as readers name them.
    pub machines: Vec<String>,
    /// The newest of those runs (YYYY-MM-DD).
    pub date: String,
    pub workarounds: usize,
    /// Workarounds with runnable code, and of those the ones no run counts for yet.
    pub with_code: usize,
    pub unverified: usize,
    /// Workarounds whose runs all confirm them, and whose runs all contradict them.
    pub works: usize,
    pub failed: usize,
    /// Numbers of the workarounds and dead ends whose environments disagree.
    pub disagree: Vec<(Role, usize)>,
    /// Each reading of the dead ends whose environments agree, with how many.
    pub dead_ends: Vec<(Reading, usize)>,
}

impl<'a> Resolver<'a> {
    pub fn entry(&self, e: &'a Entry) -> EntryView<'a> {
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
                has_code: has_code(&snippets, &w.snippets),
                evidence: self.part_evidence(e, &w.snippets, Role::Workaround),
                examples: self.examples(self.graph.snippets_for_workaround(&e.id, w.number), &e.id),
            })
            .collect();
        workarounds.sort_by(|a, b| {
            let rank = a.evidence.rank().cmp(&b.evidence.rank());
            rank.then(b.rate.cmp(&a.rate)).then(a.number.cmp(&b.number))
        });
        let dead_ends: Vec<FixView<'a>> = e
            .dead_ends
            .iter()
            .map(|d| FixView {
                number: d.number,
                summary: &d.summary,
                rate: d.fail_rate,
                detail: "",
                reason: &d.reason,
                snippets: &d.snippets,
                has_code: has_code(&snippets, &d.snippets),
                evidence: self.part_evidence(e, &d.snippets, Role::DeadEnd),
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
            verification: verification(&snippets, &workarounds, &dead_ends),
            snippets,
            workarounds,
            dead_ends,
            discussed,
            related: self.related(&e.id),
        }
    }
}

/// Whether any of the blocks `idx` is runnable.
fn has_code(all: &[SnippetView<'_>], idx: &[usize]) -> bool {
    idx.iter()
        .filter_map(|&i| all.get(i))
        .any(|v| v.snippet.run.is_some())
}

/// The entry's Verification line, from the runs of its code; None when none of them is evidence.
fn verification(
    snippets: &[SnippetView<'_>],
    workarounds: &[FixView<'_>],
    dead_ends: &[FixView<'_>],
) -> Option<Verification> {
    let runs = || snippets.iter().flat_map(|s| s.evidence.machines.iter());
    let date = runs().map(|m| m.run.date.as_str()).max()?;
    let mut v = Verification {
        machines: evidence::names(runs().map(|m| m.run.record)),
        date: date.get(..10).unwrap_or(date).to_string(),
        workarounds: workarounds.len(),
        ..Default::default()
    };
    for w in workarounds.iter().filter(|w| w.has_code) {
        v.with_code += 1;
        match w.evidence.outcome {
            Outcome::Unverified => v.unverified += 1,
            Outcome::Agree(x) if x.is_finding() => v.failed += 1,
            Outcome::Agree(errbook_records::Verdict::Confirmed) => v.works += 1,
            Outcome::Disagree => v.disagree.push((Role::Workaround, w.number)),
            _ => {}
        }
    }
    for d in dead_ends {
        if d.evidence.outcome == Outcome::Disagree {
            v.disagree.push((Role::DeadEnd, d.number));
        }
        if let Some(r) = d.evidence.reading() {
            match v.dead_ends.iter_mut().find(|(x, _)| *x == r) {
                Some((_, n)) => *n += 1,
                None => v.dead_ends.push((r, 1)),
            }
        }
    }
    Some(v)
}
