//! Workaround / dead end <-> code example: the code-like tokens a workaround or dead end names
//! (calls, settings, guards, identifiers; see `link::code`) found in a snippet's code.
//!
//! Only snippets of pages already linked to the entry (an article that discusses it) are
//! compared: `num_workers=0` in an unrelated article says nothing about this entry's dead end.
//! A snippet the text presents as the problem ("Example 1: The Problematic Approach", or a run
//! claim that it fails) never *applies* a workaround; it can still fall into a dead end.

use super::round2;
use crate::code::{self, CodeTok};
use crate::text;
use crate::{Evidence, Link, LinkKind, Node, Origin, Signal};
use errbook_core::model::{Catalog, Claim, PageKind, PageRef, Snippet};
use errbook_records::RecordSet;

/// Words in a snippet's label that mark it as the wrong way.
const NEGATIVE_LABEL: &[&str] = &[
    "problem",
    "incorrect",
    "wrong",
    "bad",
    "error prone",
    "error-prone",
    "broken",
    "fails",
    "failing",
    "pitfall",
    "naive",
    "mistake",
    "anti-pattern",
    "don't",
    "avoid",
];

/// A workaround's or dead end's named tokens.
pub(crate) struct Named {
    pub number: usize,
    pub dead_end: bool,
    pub toks: Vec<CodeTok>,
}

impl Named {
    /// The node a snippet doing what this names links to, and how, for entry `entry_id`.
    fn target(&self, entry_id: &str) -> (Node, LinkKind) {
        let (entry, number) = (entry_id.to_string(), self.number);
        if self.dead_end {
            (Node::DeadEnd { entry, number }, LinkKind::DeadEnd)
        } else {
            (Node::Workaround { entry, number }, LinkKind::Applies)
        }
    }
}

/// Tokens of every workaround (summary and detail) and dead end (summary) of entry `entry`.
pub(crate) fn named(catalog: &Catalog, entry: usize) -> Vec<Named> {
    named_of(&catalog.entries[entry])
}

/// `named`, of the entry itself.
pub(crate) fn named_of(e: &errbook_core::model::Entry) -> Vec<Named> {
    let mut out = Vec::new();
    for w in &e.workarounds {
        let text = format!("{}\n{}", w.summary, w.detail);
        out.push(Named {
            number: w.number,
            dead_end: false,
            toks: code::extract(&text, true),
        });
    }
    for d in &e.dead_ends {
        out.push(Named {
            number: d.number,
            dead_end: true,
            toks: code::extract(&d.summary, true),
        });
    }
    out
}

/// Is the snippet presented as the problem (label or run claim)?
pub(crate) fn is_negative(s: &Snippet) -> bool {
    if matches!(s.run.as_ref().map(|r| &r.claim), Some(Claim::Fails { .. })) {
        return true;
    }
    let l = s.label.as_deref().unwrap_or("").to_lowercase();
    NEGATIVE_LABEL.iter().any(|w| {
        l.match_indices(w).any(|(i, _)| {
            let before = l[..i].chars().next_back();
            !before.is_some_and(|c| c.is_alphanumeric())
        })
    })
}

/// Score one snippet against one workaround or dead end: weighted share of the named tokens the
/// code has, 0 unless at least one strong token (a call, setting, identifier) matched.
pub(crate) fn score(n: &Named, s: &Snippet, have: &[CodeTok]) -> Option<(f64, Vec<Evidence>)> {
    if !n.toks.iter().any(|t| t.is_strong()) {
        return None;
    }
    let total: f64 = n.toks.iter().map(|t| t.weight()).sum();
    let mut got = 0.0;
    let mut strong = false;
    let mut ev = Vec::new();
    for t in &n.toks {
        let (m, h) = code::match_in(t, have, &s.code);
        if m <= 0.0 {
            continue;
        }
        got += m * t.weight();
        strong |= t.is_strong() && m >= 0.5;
        let (line, excerpt) = match h {
            Some(h) => {
                let before = &s.code[..h.at.min(s.code.len())];
                let l = before.bytes().filter(|&b| b == b'\n').count();
                let text = s.code.lines().nth(l).unwrap_or("").trim().to_string();
                (Some(s.line + 1 + l), text)
            }
            None => (Some(s.line), t.text.clone()),
        };
        ev.push(Evidence {
            signal: Signal::Token {
                kind: t.token_kind(),
                text: t.text.clone(),
                partly: m < 1.0,
            },
            excerpt,
            line,
            weight: round2(m * t.weight() / total),
        });
    }
    if !strong {
        return None;
    }
    Some((round2(got / total), ev))
}

/// The first sentence of an entry's message (after the exception type), as template words.
fn headline(e: &errbook_core::model::Entry) -> Vec<String> {
    let m = text::after_exception(&e.message, e.exception.as_deref());
    let head = m.split(". ").next().unwrap_or(m);
    text::words_of(head)
}

/// Did the snippet's recorded run (a fresh record) end in this entry's error? Then the
/// evidence, quoting the recorded message.
fn ran_into(
    e: &errbook_core::model::Entry,
    page: &PageRef,
    snippets: &[Snippet],
    s: &Snippet,
    records: Option<&RecordSet>,
) -> Option<Evidence> {
    let status = records?.status(page, snippets, s);
    let want = headline(e);
    if want.len() < 4 {
        return None;
    }
    let runs = status.fresh().iter().filter(|r| r.verdict.is_evidence());
    for (r, m) in runs.flat_map(|r| {
        super::articles::record_messages(r)
            .into_iter()
            .map(move |m| (r, m))
    }) {
        let have = text::words_of(&m);
        if have.windows(want.len()).any(|w| w == want.as_slice()) {
            return Some(Evidence {
                signal: Signal::RecordedFailure {
                    date: r.date.get(..10).unwrap_or(&r.date).to_string(),
                },
                excerpt: m.chars().take(220).collect(),
                line: Some(s.line),
                weight: 0.5,
            });
        }
    }
    None
}

/// Candidates for the snippets of `pages` (pages linked to entry `entry`).
pub(crate) fn infer(
    catalog: &Catalog,
    entry: usize,
    pages: &[PageRef],
    records: Option<&RecordSet>,
) -> Vec<Link> {
    let named = named(catalog, entry);
    if named.is_empty() {
        return Vec::new();
    }
    let e = &catalog.entries[entry];
    let mut out = Vec::new();
    for page in pages {
        if page.kind == PageKind::Entry && page.id == e.id {
            continue; // an entry's own code is not an example of it
        }
        let snippets = catalog.snippets_of(page);
        for s in snippets {
            let have = code::extract(&s.code, false);
            let failed = ran_into(e, page, snippets, s, records);
            // A snippet shown as the problem, or seen failing with this very error, applies no
            // workaround of it.
            let negative = is_negative(s) || failed.is_some();
            for n in &named {
                if !n.dead_end && negative {
                    continue;
                }
                let Some((mut sc, mut ev)) = score(n, s, &have) else {
                    continue;
                };
                if let (true, Some(f)) = (n.dead_end, &failed) {
                    // Doing what the dead end names and failing with the error: support.
                    sc = round2(1.0 - (1.0 - sc) * (1.0 - f.weight));
                    ev.push(f.clone());
                }
                let (to, kind) = n.target(&e.id);
                out.push(Link {
                    from: Node::Snippet {
                        page: page.clone(),
                        index: s.index,
                    },
                    to,
                    kind,
                    origin: Origin::Inferred,
                    score: sc,
                    evidence: ev,
                });
            }
        }
    }
    out
}
