//! Read one block's claim from the text around it: the label above it, the comments inside
//! it, the prose just after and just before it, and the article's title; each cue weighed
//! (`cues`), the confidence the balance of them, no claim below the threshold. A failing claim
//! names the exception (and message) where the block's comments or the prose name one.

use super::context::{Around, Piece};
use super::cues::{self, Found};
use super::words::{HOW_TO, LABEL_AFTER, LABEL_BEFORE};
use errbook_core::model::{Claim, ClaimEvidence};
use regex::Regex;
use std::sync::LazyLock;

/// Below this confidence there is no claim.
pub const THRESHOLD: f32 = 0.5;

/// What the text says about one block.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Said {
    pub claim: Option<Claim>,
    pub confidence: f32,
    pub evidence: Vec<ClaimEvidence>,
}

/// A cue with where it was read and what it counts for there.
struct Weighed {
    found: Found,
    line: usize,
    weight: f32,
}

static EXCEPTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*(?:Error|Exception))\b(?::[ \t]*([^\n]{3,160}))?")
        .expect("a fixed pattern")
});
static LABELS: LazyLock<(Regex, Regex, Regex)> = LazyLock::new(|| {
    let r = |p: &str| Regex::new(p).expect("a fixed pattern");
    (r(LABEL_BEFORE), r(LABEL_AFTER), r(HOW_TO))
});

/// Sentences of a piece (split after `.`, `!`, `?` before a space), at most `max`.
fn sentences(s: &str, max: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let b = s.as_bytes();
    for (i, c) in s.char_indices() {
        if matches!(c, '.' | '!' | '?') && b.get(i + 1).is_some_and(|n| n.is_ascii_whitespace()) {
            out.push(s[start..=i].trim());
            start = i + 1;
            if out.len() == max {
                return out;
            }
        }
    }
    if start < s.len() && out.len() < max {
        out.push(s[start..].trim());
    }
    out
}

/// The label as a claim reads it: "Example 1: The Problematic Approach" less its number.
fn label_words(label: &str) -> &str {
    match label.split_once(':') {
        Some((head, rest)) if head.len() < 24 && !rest.trim().is_empty() => rest.trim(),
        _ => label,
    }
}

/// Every cue around a block, weighed by where it stands: the label most, then the block's own
/// comments, the first sentences after it, the prose that introduces it.
fn gather(around: &Around, comments: &[(usize, &str)]) -> Vec<Weighed> {
    let mut cues: Vec<Weighed> = Vec::new();
    let mut add = |text: &str, line: usize, weight: f32, whole: bool| {
        for mut f in cues::find(text) {
            if whole {
                f.words = text.to_string();
            }
            cues.push(Weighed {
                line,
                weight: weight * f.weight,
                found: f,
            });
        }
    };
    let mut side_label = None;
    if let Some(l) = &around.label {
        let words = label_words(&l.text);
        add(words, l.line, 1.2, true);
        let (before, after, _) = &*LABELS;
        if before.is_match(words) {
            side_label = Some((l, words, true));
        } else if after.is_match(words) {
            side_label = Some((l, words, false));
        }
    }
    for (line, c) in comments {
        add(c.trim(), *line, 1.0, false);
    }
    for (p, piece) in around.after.iter().enumerate() {
        let side = if p == 0 { 0.9 } else { 0.45 };
        for (k, s) in sentences(&piece.text, 4).into_iter().enumerate() {
            add(s, piece.line, side * [1.0, 0.7, 0.5, 0.4][k], false);
        }
    }
    let n = around.before.len();
    for (p, piece) in around.before.iter().enumerate() {
        let nearest = p + 1 == n;
        let side = match (nearest, piece.text.trim_end().ends_with(':')) {
            (true, true) => 0.8,
            (true, false) => 0.5,
            _ => 0.25,
        };
        let ss = sentences(&piece.text, 8);
        let last = ss.len();
        for (k, s) in ss.into_iter().enumerate() {
            let near_end = last - k;
            add(
                s,
                piece.line,
                side * if near_end == 1 { 1.0 } else { 0.5 },
                false,
            );
        }
    }
    if let Some((l, words, fails)) = side_label {
        cues_push(&mut cues, l, words, fails);
    }
    cues
}

/// Read what the text claims about a block: `around` it, its `comments` (line in the file,
/// text), the page's `title`; `program` says whether it is a whole program (the how-to prior
/// applies only to those).
pub(crate) fn said(
    around: &Around,
    comments: &[(usize, &str)],
    (title, title_line): (&str, usize),
    program: bool,
) -> Said {
    let cues = gather(around, comments);
    let mut fails: f32 = cues
        .iter()
        .filter(|c| c.found.fails)
        .map(|c| c.weight)
        .sum();
    let mut runs: f32 = cues
        .iter()
        .filter(|c| !c.found.fails)
        .map(|c| c.weight)
        .sum();
    let mut evidence: Vec<(f32, bool, ClaimEvidence)> = cues
        .iter()
        .map(|c| {
            (
                c.weight,
                c.found.fails,
                ClaimEvidence {
                    line: c.line,
                    text: c.found.words.clone(),
                },
            )
        })
        .collect();
    // A how-to article presents its whole programs as working, unless the text says otherwise.
    if program && fails < 0.5 && LABELS.2.is_match(title) {
        runs += 2.0;
        evidence.push((
            2.0,
            false,
            ClaimEvidence {
                line: title_line,
                text: title.to_string(),
            },
        ));
    }
    fails = fails.max(0.0);
    let confidence = (fails - runs).abs() / (fails + runs + 1.5);
    let claim_fails = fails > runs;
    if confidence < THRESHOLD {
        return Said {
            claim: None,
            confidence,
            evidence: Vec::new(),
        };
    }
    evidence.retain(|e| e.1 == claim_fails);
    evidence.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut ev: Vec<ClaimEvidence> = Vec::new();
    for (_, _, e) in evidence {
        let low = e.text.to_lowercase();
        if !ev.iter().any(|x| x.text.to_lowercase().contains(&low)) && ev.len() < 6 {
            ev.push(e);
        }
    }
    let claim = if claim_fails {
        let (exception, message) = named_error(around, comments);
        Claim::Fails { exception, message }
    } else {
        Claim::Runs
    };
    Said {
        claim: Some(claim),
        confidence: (confidence * 100.0).round() / 100.0,
        evidence: ev,
    }
}

fn cues_push(cues: &mut Vec<Weighed>, l: &Piece, words: &str, fails: bool) {
    cues.push(Weighed {
        line: l.line,
        weight: 1.5,
        found: Found {
            fails,
            weight: 1.5,
            words: words.to_string(),
        },
    });
}

/// The exception (and message) the block's comments name, else the one the prose just after
/// it names; only where exactly one type is named.
fn named_error(around: &Around, comments: &[(usize, &str)]) -> (Option<String>, Option<String>) {
    let from = |texts: &mut dyn Iterator<Item = &str>, with_message: bool| {
        let mut found: Vec<(String, Option<String>)> = Vec::new();
        for t in texts {
            for c in EXCEPTION.captures_iter(t) {
                let name = c[1].to_string();
                if name == "Exception" {
                    continue;
                }
                let msg = c.get(2).filter(|_| with_message).map(|m| {
                    m.as_str()
                        .trim()
                        .trim_matches(['"', '\'', '`', '.', ' '])
                        .to_string()
                });
                if !found.iter().any(|(n, _)| *n == name) {
                    found.push((name, msg.filter(|m| m.len() >= 3)));
                }
            }
        }
        (found.len() == 1).then(|| found.remove(0))
    };
    if let Some((e, m)) = from(&mut comments.iter().map(|(_, c)| *c), true) {
        return (Some(e), m);
    }
    let after = around.after.first().map(|p| p.text.as_str());
    match from(&mut after.into_iter(), false) {
        Some((e, _)) => (Some(e), None),
        None => (None, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(line: usize, text: &str) -> Piece {
        Piece {
            line,
            text: text.into(),
        }
    }

    #[test]
    fn the_problematic_approach_fails_and_the_improved_one_runs() {
        let a = Around {
            line: 20,
            label: Some(piece(18, "Example 1: The Problematic Approach")),
            before: vec![],
            after: vec![piece(34, "This example demonstrates a common setup. It does not solve the underlying problem.")],
        };
        let s = said(
            &a,
            &[(
                31,
                " This loop will likely fail due to CUDA initialization race conditions.",
            )],
            ("Why?", 1),
            true,
        );
        assert_eq!(
            s.claim,
            Some(Claim::Fails {
                exception: None,
                message: None
            })
        );
        assert!(s.confidence >= 0.8, "{s:?}");
        assert_eq!(s.evidence[0].text, "The Problematic Approach");
        let b = Around {
            after: vec![piece(
                50,
                "This improved version introduces a worker_init_fn.",
            )],
            label: Some(piece(40, "Example 2: Using a Custom Worker")),
            ..a.clone()
        };
        assert_eq!(
            said(&b, &[(45, " This loop is more robust")], ("Why?", 1), true).claim,
            Some(Claim::Runs)
        );
        let plain = Around {
            label: None,
            after: vec![piece(9, "This example utilizes an array.")],
            ..a.clone()
        };
        assert_eq!(
            said(&plain, &[], ("Why does it break?", 1), true).claim,
            None
        );
        assert_eq!(
            said(&plain, &[], ("How to use shared memory?", 1), true).claim,
            Some(Claim::Runs)
        );
        let named = said(
            &a,
            &[(
                31,
                " fails with RuntimeError: Cannot re-initialize CUDA in forked subprocess",
            )],
            ("x", 1),
            true,
        );
        assert_eq!(
            named.claim,
            Some(Claim::Fails {
                exception: Some("RuntimeError".into()),
                message: Some("Cannot re-initialize CUDA in forked subprocess".into())
            })
        );
    }
}
