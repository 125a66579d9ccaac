//! Entry <-> entry: related errors, from a shared error code, message wording (rare words,
//! weighted by how rare), the APIs their workarounds and dead ends name, and the category.
//!
//! Candidates come from inverted indexes (code, rare message words, rare API names;
//! `features`), so the cost follows the number of entries that share something, not entries
//! squared.

use super::features::{common, either, Features, Key};
use super::round2;
use crate::{Evidence, Link, LinkKind, Node, Origin, Signal};
use errbook_core::model::Catalog;

/// At most this many related candidates per entry.
const PER_ENTRY: usize = 5;

/// Related-candidates between entries, at most `PER_ENTRY` per entry, best first.
///
/// The candidates are ranked by score alone; the evidence of the few kept is made again then:
/// every candidate's evidence, strings included, was held at once before.
pub(crate) fn infer(catalog: &Catalog) -> Vec<Link> {
    let f = Features::new(catalog);
    let mut cands = Vec::new();
    for a in 0..catalog.entries.len() {
        for b in f.partners(catalog, a) {
            if let Some((score, _)) = f.scored(catalog, a, b) {
                cands.push((a, b, score, ()));
            }
        }
    }
    top(catalog, cands, |a, b, ()| {
        (f.scored(catalog, a, b)).map_or_else(Vec::new, |(_, ev)| ev)
    })
}

/// Keep each entry's best few of `cands`, best first: a greedy pass over them all in order of
/// score (then position), so one pair's score can move pairs anywhere in the catalog. `ev`
/// gives a kept candidate's evidence.
pub(super) fn top<T>(
    catalog: &Catalog,
    mut cands: Vec<(usize, usize, f64, T)>,
    ev: impl Fn(usize, usize, T) -> Vec<Evidence>,
) -> Vec<Link> {
    cands.sort_by(|x, y| y.2.total_cmp(&x.2).then((x.0, x.1).cmp(&(y.0, y.1))));
    let mut count = vec![0usize; catalog.entries.len()];
    let mut out = Vec::new();
    for (a, b, score, e) in cands {
        if count[a] >= PER_ENTRY || count[b] >= PER_ENTRY {
            continue;
        }
        count[a] += 1;
        count[b] += 1;
        out.push(Link {
            from: Node::Entry {
                id: catalog.entries[a].id.clone(),
            },
            to: Node::Entry {
                id: catalog.entries[b].id.clone(),
            },
            kind: LinkKind::Related,
            origin: Origin::Inferred,
            score,
            evidence: ev(a, b, e),
        });
    }
    out
}

impl Features {
    /// The score and evidence of the pair (`a`, `b`) when it is a candidate (at least 0.3).
    pub(super) fn scored(
        &self,
        catalog: &Catalog,
        a: usize,
        b: usize,
    ) -> Option<(f64, Vec<Evidence>)> {
        let ev = self.evidence(catalog, a, b);
        if ev.is_empty() {
            return None;
        }
        let miss: f64 = ev.iter().map(|x| 1.0 - x.weight).product();
        let score = round2(1.0 - miss);
        (score >= 0.3).then_some((score, ev))
    }

    /// What entries `a` and `b` share (empty when nothing but, at most, their category).
    fn evidence(&self, catalog: &Catalog, a: usize, b: usize) -> Vec<Evidence> {
        let (ea, eb) = (&catalog.entries[a], &catalog.entries[b]);
        let mut ev = Vec::new();
        if let (Some(ca), Some(cb)) = (&ea.error_code, &eb.error_code) {
            if ca == cb {
                let share = self.list(&Key::code(ca)).map(|l| l.len()).unwrap_or(2);
                let code = ca.trim_matches('`').to_string();
                let weight = round2(0.6 * (3.0 / share as f64).min(1.0));
                ev.push(shared(
                    Signal::SameErrorCode { code: code.clone() },
                    code,
                    weight,
                ));
            }
        }
        ev.extend(self.wording(a, b));
        let both = common(&self.api[a], &self.api[b]);
        if !both.is_empty() {
            let apis: Vec<&str> = both.iter().map(|&n| self.names.name(n)).collect();
            let union = self.api[a].len() + self.api[b].len() - both.len();
            let j = apis.len() as f64 / union as f64;
            ev.push(shared(Signal::SameApi, apis.join(", "), round2(0.4 * j)));
        }
        if !ev.is_empty() && ea.category == eb.category && !ea.category.is_empty() {
            let category = ea.category.clone();
            let signal = Signal::SameCategory {
                category: category.clone(),
            };
            ev.push(shared(signal, category, 0.1));
        }
        ev
    }

    /// Rare words both messages have, weighted by how rare, when they are enough to count.
    fn wording(&self, a: usize, b: usize) -> Option<Evidence> {
        let (ma, mb) = (&self.msg[a], &self.msg[b]);
        let inter = common(ma, mb);
        if inter.is_empty() {
            return None;
        }
        let wi: f64 = inter.iter().map(|&w| self.idf(w)).sum();
        let wu: f64 = either(ma, mb).into_iter().map(|w| self.idf(w)).sum();
        let wa: f64 = ma.iter().map(|&w| self.idf(w)).sum();
        let wb: f64 = mb.iter().map(|&w| self.idf(w)).sum();
        // Jaccard and containment (one message is the other plus a detail), averaged.
        let j = (wi / wu.max(1e-9) + wi / wa.min(wb).max(1e-9)) / 2.0;
        let words: Vec<&str> = inter.iter().map(|&w| self.names.name(w)).collect();
        (j > 0.1).then(|| shared(Signal::SimilarWording, words.join(" "), round2(0.8 * j)))
    }
}

/// Evidence of something two entries share (no line: it is in both).
fn shared(signal: Signal, excerpt: String, weight: f64) -> Evidence {
    Evidence {
        signal,
        excerpt,
        line: None,
        weight,
    }
}
