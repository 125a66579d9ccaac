//! Score a piece of text for what it says about a block: each cue found (`words::CUES`), turned
//! around by a negation or a remedy before it in its clause, weakened by a hedge, unless it lies
//! in a phrase that only names errors. Linear in the text read (each piece is capped).

use super::words::{Cue, CLAUSE_ENDS, CUES, HEDGES, NEUTRAL, NOT, REMEDY};
use regex::{Regex, RegexSet};
use std::sync::LazyLock;

/// One cue found: which way, how strong, the words that show it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Found {
    pub fails: bool,
    pub weight: f32,
    pub words: String,
}

struct Compiled {
    /// Each cue's pattern, in `CUES`' order (the set's indices), None where it did not compile.
    cues: Vec<(Option<Regex>, &'static Cue)>,
    any: RegexSet,
    neutral: Vec<Regex>,
}

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| {
    let cues: Vec<(Option<Regex>, &Cue)> = CUES
        .iter()
        .map(|c| (Regex::new(&format!("(?i){}", c.pattern)).ok(), c))
        .collect();
    let any = RegexSet::new(CUES.iter().map(|c| format!("(?i){}", c.pattern)))
        .unwrap_or_else(|_| RegexSet::empty());
    let neutral = NEUTRAL.iter().filter_map(|p| Regex::new(p).ok()).collect();
    Compiled { cues, any, neutral }
});

/// Words of `s` (letters, digits, apostrophes, hyphens), lower case.
fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-' || c == '\u{2019}'))
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase().replace('\u{2019}', "'"))
        .collect()
}

/// The clause before byte `at` of `s`: back to the last punctuation that ends one, then at most
/// the last six words before a clause word.
fn clause_before(s: &str, at: usize) -> Vec<String> {
    let head = &s[..at];
    let start = head
        // A quotation ends a clause too: its words ("Cannot re-initialize") turn nothing.
        .rfind([
            '.', ',', ';', ':', '!', '?', '(', ')', '\u{2014}', '"', '`', '\u{201c}', '\u{201d}',
        ])
        .map_or(0, |i| i + 1);
    let mut w = words(&head[start..]);
    if let Some(k) = w.iter().rposition(|x| CLAUSE_ENDS.contains(&x.as_str())) {
        w.drain(..=k);
    }
    let n = w.len();
    w.drain(..n.saturating_sub(6));
    w
}

/// Which way a cue at `at` points once the words before it are read: the cue's own way, or
/// turned around; and the weight a hedge leaves.
fn turn(cue_fails: bool, before: &[String]) -> (bool, f32, usize) {
    let mut fails = cue_fails;
    let mut from = before.len();
    // The nearest turning word decides; "does not solve the problem" stays a failure.
    if let Some(k) = before
        .iter()
        .rposition(|w| NOT.contains(&w.as_str()) || REMEDY.contains(&w.as_str()))
        // "without X this raises" sets a condition; "runs without error" turns the cue.
        .filter(|&k| before[k] != "without" || k + 2 >= before.len())
    {
        let w = before[k].as_str();
        from = k;
        if NOT.contains(&w) {
            fails = !fails;
        } else if cue_fails {
            let negated = before[..k].iter().any(|x| NOT.contains(&x.as_str()));
            fails = negated;
            if negated {
                from = before[..k]
                    .iter()
                    .rposition(|x| NOT.contains(&x.as_str()))
                    .unwrap_or(k);
            }
        }
    }
    let mut weight = 1.0f32;
    for w in before.iter().rev().take(3) {
        if let Some((h, f)) = HEDGES.iter().find(|(h, _)| h == w) {
            weight = weight.min(*f);
            from = from.min(before.iter().rposition(|x| x == h).unwrap_or(from));
        }
    }
    (fails, weight, from)
}

/// Every cue in `s`, in order of where it starts.
pub(crate) fn find(s: &str) -> Vec<Found> {
    let c = &*COMPILED;
    // One pass says which cues are there; only those are looked for one by one.
    let there = c.any.matches(s);
    if !there.matched_any() {
        return Vec::new();
    }
    let neutral: Vec<(usize, usize)> = c
        .neutral
        .iter()
        .flat_map(|r| r.find_iter(s).map(|m| (m.start(), m.end())))
        .collect();
    let mut hits: Vec<(usize, usize, &Cue)> = Vec::new();
    let found = there.iter().filter_map(|k| c.cues.get(k));
    for (r, cue) in found.filter_map(|(r, cue)| Some((r.as_ref()?, *cue))) {
        for m in r.find_iter(s) {
            if neutral.iter().any(|&(a, b)| m.start() < b && a < m.end()) {
                continue;
            }
            // The first cue at a place wins (a longer pattern is listed first where it matters).
            if hits.iter().any(|&(a, b, _)| m.start() < b && a < m.end()) {
                continue;
            }
            hits.push((m.start(), m.end(), cue));
        }
    }
    hits.sort_by_key(|h| h.0);
    hits.into_iter()
        .map(|(a, b, cue)| {
            let before = clause_before(s, a);
            let (fails, hedge, from) = turn(cue.fails, &before);
            let lead = before[from.min(before.len())..].join(" ");
            let matched = &s[a..b];
            let words = if lead.is_empty() {
                matched.to_string()
            } else {
                format!("{lead} {matched}")
            };
            let turned = fails != cue.fails;
            Found {
                fails,
                weight: cue.weight * hedge * if turned { 0.8 } else { 1.0 },
                words,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn way(s: &str) -> Vec<(bool, String)> {
        find(s).into_iter().map(|f| (f.fails, f.words)).collect()
    }

    #[test]
    fn negations_remedies_and_hedges() {
        assert_eq!(
            way("This loop will likely fail due to races"),
            [(true, "likely fail".to_string())]
        );
        assert_eq!(find("This loop will likely fail")[0].weight, 2.0 * 0.85);
        assert_eq!(
            way("This completely avoids the race condition"),
            [(false, "avoids the race condition".to_string())]
        );
        assert_eq!(
            way("does not solve the problem")[0],
            (true, "not solve".to_string())
        );
        assert!(
            way("does not solve the problem")[1].0,
            "the problem stays a failure"
        );
        assert_eq!(
            way("This improved version works"),
            [(false, "improved".into()), (false, "works".into())]
        );
        assert!(way(
            "This example adds error handling, catching potential RuntimeError exceptions"
        )
        .is_empty());
        assert_eq!(
            way("It doesn't use spawn, so it will fail"),
            [(true, "fail".to_string())]
        );
        assert_eq!(
            way("without --shm-size this raises"),
            [(true, "raises".to_string())]
        );
        assert_eq!(
            way("runs without error")[1],
            (false, "without error".into())
        );
        assert!(way("which raises the \"Cannot re-initialize CUDA\" error")
            .iter()
            .all(|f| f.0));
        assert!(find("Example 1: Incorrect Initialization (Error Prone)")
            .iter()
            .all(|f| f.fails));
    }
}
