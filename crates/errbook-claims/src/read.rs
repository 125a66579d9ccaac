//! Read one block's claim from the text around it: the label above it, the comments inside
//! it, the prose just after and just before it, and the article's title; each cue weighed
//! (`cues`), the confidence the balance of them, no claim below the threshold. A failing claim
//! names the exception (and message) where the block's comments or the prose name one.

use super::context::Around;
use super::cues::{self, Found};
use super::words::{
    COMMENT_FAILS, CONDITIONAL, HOW_TO, LABEL_AFTER, LABEL_BEFORE, NEXT_THING, SUBJECT_IS_BLOCK,
};
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
    /// Where it stands, for the order a reader is shown the evidence in: 0 the label, 1 the
    /// block's own comments, 2 the prose around it, 3 the title.
    place: u8,
}

static EXCEPTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*(?:Error|Exception))\b(?::[ \t]*([^\n]{3,160}))?")
        .expect("a fixed pattern")
});
/// The sentence patterns: a comment that says its line fails, a sentence about the next
/// thing, a conditional one, one whose subject is the block.
static SENTENCE: LazyLock<[Regex; 4]> = LazyLock::new(|| {
    [COMMENT_FAILS, NEXT_THING, CONDITIONAL, SUBJECT_IS_BLOCK]
        .map(|p| Regex::new(p).expect("a fixed pattern"))
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
    let mut add = |text: &str, line: usize, weight: f32, whole: bool, place: u8| {
        for mut f in cues::find(text) {
            if whole {
                f.words = text.to_string();
            }
            cues.push(Weighed {
                line,
                weight: weight * f.weight,
                found: f,
                place,
            });
        }
    };
    let mut side_label = None;
    if let Some(l) = &around.label {
        let words = label_words(&l.text);
        add(words, l.line, 1.2, true, 0);
        let (before, after, _) = &*LABELS;
        if before.is_match(words) {
            side_label = Some((l, words, true));
        } else if after.is_match(words) {
            side_label = Some((l, words, false));
        }
    }
    let comment_fails = &SENTENCE[0];
    // Comments that say what their line does when run.
    let mut said_of_line: Vec<(usize, &str)> = Vec::new();
    for (line, c) in comments {
        let c = c.trim();
        // A placeholder ("... work on buf ...") stands for code, not for a claim.
        if c.starts_with("...") {
            continue;
        }
        if comment_fails.is_match(c) {
            said_of_line.push((*line, c));
            continue;
        }
        add(c, *line, 1.0, false, 1);
    }
    for (text, line, weight) in after_texts(around).into_iter().chain(before_texts(around)) {
        add(text, line, weight, false, 2);
    }
    if let Some((l, words, fails)) = side_label {
        cues_push(&mut cues, (l.line, 0), words, fails, 1.5);
    }
    for (line, c) in said_of_line {
        cues_push(&mut cues, (line, 1), c, true, 3.0);
    }
    cues
}

/// The sentences (and clauses) after a block that speak of it, with the weight each counts for.
fn after_texts(around: &Around) -> Vec<(&str, usize, f32)> {
    let [_, next_thing, conditional, subject] = &*SENTENCE;
    let mut out = Vec::new();
    for (p, piece) in around.after.iter().enumerate() {
        let side = if p == 0 { 1.1 } else { 0.45 };
        for (k, s) in sentences(&piece.text, 4).into_iter().enumerate() {
            if next_thing.is_match(s) {
                continue;
            }
            let w = side * [1.0, 0.7, 0.5, 0.4][k];
            // Each clause of a sentence ("this completes; in a container it can fail") alone.
            for (j, part) in s.split("; ").enumerate() {
                let mut w = w;
                if conditional.is_match(part) {
                    w *= 0.3;
                } else if p == 0 && k == 0 && j == 0 && subject.is_match(part) {
                    // "This works and prints 15.": the block's own result, said of it.
                    w *= 1.7;
                }
                out.push((part, piece.line, w));
            }
        }
    }
    out
}

/// The sentences before a block that introduce it, with the weight each counts for.
fn before_texts(around: &Around) -> Vec<(&str, usize, f32)> {
    let conditional = &SENTENCE[2];
    let mut out = Vec::new();
    let n = around.before.len();
    for (p, piece) in around.before.iter().enumerate() {
        let nearest = p + 1 == n;
        // A paragraph right after the previous block speaks of that block.
        if !nearest && p < around.after_block {
            continue;
        }
        let side = match (nearest, piece.text.trim_end().ends_with(':')) {
            (true, true) => 1.2,
            (true, false) => 0.5,
            _ => 0.25,
        };
        let ss = sentences(&piece.text, 8);
        let last = ss.len();
        for (k, s) in ss.into_iter().enumerate() {
            let near_end = last - k;
            // Of a paragraph that also follows the previous block, only its last sentence
            // introduces this one.
            if p < around.after_block && near_end > 1 {
                continue;
            }
            let cond = if conditional.is_match(s) { 0.3 } else { 1.0 };
            let w = cond * side * if near_end == 1 { 1.0 } else { 0.5 };
            out.push((s, piece.line, w));
        }
    }
    out
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
    let mut evidence: Vec<(f32, bool, ClaimEvidence, u8)> = cues
        .iter()
        .map(|c| {
            (
                c.weight,
                c.found.fails,
                ClaimEvidence {
                    line: c.line,
                    text: c.found.words.clone(),
                },
                c.place,
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
            3,
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
    // The words the block's own text says first (label, comments), then the prose around it,
    // each by what it counts for.
    evidence.sort_by(|a, b| a.3.cmp(&b.3).then(b.0.total_cmp(&a.0)));
    let mut ev: Vec<ClaimEvidence> = Vec::new();
    for (_, _, e, _) in evidence {
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

fn cues_push(
    cues: &mut Vec<Weighed>,
    (line, place): (usize, u8),
    words: &str,
    fails: bool,
    weight: f32,
) {
    cues.push(Weighed {
        line,
        weight,
        place,
        found: Found {
            fails,
            weight,
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
    use super::super::context::Piece;
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
            after_block: 0,
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

#[cfg(test)]
mod rules {
    use super::super::context::Piece;
    use super::*;

    fn after(text: &str) -> Around {
        Around {
            line: 10,
            label: None,
            before: vec![],
            after_block: 0,
            after: vec![Piece {
                line: 20,
                text: text.into(),
            }],
        }
    }

    fn claim(a: &Around, comments: &[(usize, &str)], program: bool) -> Option<Claim> {
        said(a, comments, ("How to do it?", 1), program).claim
    }

    fn fails(c: Option<Claim>) -> bool {
        matches!(c, Some(Claim::Fails { .. }))
    }

    #[test]
    fn a_comment_naming_what_its_line_raises_is_a_failing_claim() {
        let a = Around::default();
        for c in [
            " RuntimeError: Trying to backward through the graph a second time",
            " fails: Adam's state is still on the CPU",
            " fails at step 1: h still links to step 0's graph",
            " raises: default process group has not been initialized",
        ] {
            assert!(fails(claim(&a, &[(5, c)], false)), "{c}");
        }
        // A placeholder comment is no claim.
        assert_eq!(claim(&a, &[(5, " ... work on buf ...")], false), None);
    }

    #[test]
    fn the_sentence_right_after_a_block_says_what_it_does() {
        assert_eq!(
            claim(&after("This works and prints 15."), &[], false),
            Some(Claim::Runs)
        );
        assert!(fails(claim(
            &after("With two workers this fails at the first batch."),
            &[],
            false
        )));
        assert_eq!(
            claim(&after("It prints 0: nothing is held."), &[], false),
            Some(Claim::Runs)
        );
        assert_eq!(
            claim(
                &after("This will not fail even on small cards."),
                &[],
                false
            ),
            Some(Claim::Runs)
        );
    }

    #[test]
    fn sentences_about_the_next_block_or_a_setup_make_no_claim() {
        // The next block's introduction and a remedy named as a noun.
        for s in [
            "The large version, which raises `RESOURCE_EXHAUSTED` on a card of that size:",
            "The fix is the order: move the model first.",
            "Whether this runs out depends on the card; the maintainers' fix applies either way.",
            "It can fail in a container.",
        ] {
            assert_eq!(claim(&after(s), &[], false), None, "{s}");
        }
    }

    #[test]
    fn an_introduction_ending_in_a_colon_speaks_of_its_block() {
        let a = Around {
            before: vec![Piece {
                line: 8,
                text:
                    "The large version, which raises `RESOURCE_EXHAUSTED` on a card of that size:"
                        .into(),
            }],
            ..Around::default()
        };
        assert!(fails(claim(&a, &[], false)));
    }

    #[test]
    fn a_paragraph_after_the_previous_block_speaks_of_that_block() {
        let p = |line, text: &str| Piece {
            line,
            text: text.into(),
        };
        let a = Around {
            before: vec![
                p(5, "This runs cleanly."),
                p(
                    7,
                    "The reporter confirmed that 16 fits. The same failure, reproduced in a few lines:",
                ),
            ],
            after_block: 2,
            ..Around::default()
        };
        assert!(fails(claim(&a, &[], false)));
        assert_eq!(
            claim(
                &after("Only each layer's input is kept, and the step fits."),
                &[],
                false
            ),
            Some(Claim::Runs)
        );
        assert_eq!(
            claim(
                &after("A NumPy array is one object, and memory stays flat."),
                &[],
                false
            ),
            Some(Claim::Runs)
        );
    }

    #[test]
    fn the_how_to_title_makes_no_claim_for_a_block_without_imports() {
        let plain = after("The snapshot lists each segment.");
        assert_eq!(claim(&plain, &[], true), Some(Claim::Runs));
        assert_eq!(claim(&plain, &[], false), None);
    }
}
