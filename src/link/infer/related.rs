//! Entry <-> entry: related errors, from a shared error code, message wording (rare words,
//! weighted by how rare), the APIs their workarounds and dead ends name, and the category.
//!
//! Candidates come from inverted indexes (code, rare message words, rare API names), so the
//! cost follows the number of entries that share something, not entries squared.

use crate::core::model::Catalog;
use crate::link::code::Kind;
use crate::link::text::{self, round2};
use crate::link::{Evidence, Link, LinkKind, Node, Origin, Signal};
use std::collections::{BTreeSet, HashMap, HashSet};

/// A word or API name in more entries than this is too common to suggest a pair.
const RARE: usize = 50;
/// At most this many related candidates per entry.
const PER_ENTRY: usize = 5;

const STOP: &[&str] = &[
    "the",
    "a",
    "an",
    "to",
    "of",
    "in",
    "on",
    "for",
    "is",
    "be",
    "and",
    "or",
    "with",
    "you",
    "must",
    "use",
    "not",
    "at",
    "by",
    "it",
    "this",
    "that",
    "as",
    "but",
    "was",
    "are",
    "were",
    "from",
    "can",
    "cannot",
    "no",
    "error",
    text::NUM,
    text::PATH,
];

fn words(message: &str) -> BTreeSet<String> {
    text::words_of(message)
        .into_iter()
        .filter(|w| w.len() > 2 && !STOP.contains(&w.as_str()))
        .collect()
}

fn apis(catalog: &Catalog, i: usize) -> BTreeSet<String> {
    super::snippets::named(catalog, i)
        .into_iter()
        .flat_map(|n| n.toks)
        .filter_map(|t| match t.kind {
            Kind::Call { name, .. } if name.contains('_') || name.len() > 6 => Some(name),
            Kind::Setting { key, .. } => Some(key),
            Kind::Ident { name } => Some(name),
            _ => None,
        })
        .collect()
}

pub fn infer(catalog: &Catalog) -> Vec<Link> {
    let n = catalog.entries.len();
    let msg: Vec<BTreeSet<String>> = catalog.entries.iter().map(|e| words(&e.message)).collect();
    let api: Vec<BTreeSet<String>> = (0..n).map(|i| apis(catalog, i)).collect();
    let mut df: HashMap<&str, usize> = HashMap::new();
    for s in &msg {
        for w in s {
            *df.entry(w.as_str()).or_default() += 1;
        }
    }
    let idf = |w: &str| {
        ((n as f64 + 1.0) / (*df.get(w).unwrap_or(&1) as f64))
            .ln()
            .max(0.05)
    };
    let mut post: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, e) in catalog.entries.iter().enumerate() {
        if let Some(c) = &e.error_code {
            post.entry(format!("code:{}", c.trim_matches('`')))
                .or_default()
                .push(i);
        }
        for w in &msg[i] {
            post.entry(format!("w:{w}")).or_default().push(i);
        }
        for a in &api[i] {
            post.entry(format!("api:{a}")).or_default().push(i);
        }
    }
    let mut pairs: HashSet<(usize, usize)> = HashSet::new();
    for (k, list) in &post {
        if list.len() < 2 || list.len() > RARE {
            continue;
        }
        let _ = k;
        for (x, &a) in list.iter().enumerate() {
            for &b in &list[x + 1..] {
                pairs.insert((a.min(b), a.max(b)));
            }
        }
    }
    let mut cands: Vec<(usize, usize, f64, Vec<Evidence>)> = Vec::new();
    let mut pairs: Vec<(usize, usize)> = pairs.into_iter().collect();
    pairs.sort();
    for (a, b) in pairs {
        let (ea, eb) = (&catalog.entries[a], &catalog.entries[b]);
        let mut ev = Vec::new();
        if let (Some(ca), Some(cb)) = (&ea.error_code, &eb.error_code) {
            if ca == cb {
                let share = post
                    .get(&format!("code:{}", ca.trim_matches('`')))
                    .map(|l| l.len())
                    .unwrap_or(2);
                ev.push(Evidence {
                    signal: Signal::SameErrorCode {
                        code: ca.trim_matches('`').to_string(),
                    },
                    excerpt: ca.trim_matches('`').to_string(),
                    line: None,
                    weight: round2(0.6 * (3.0 / share as f64).min(1.0)),
                });
            }
        }
        let inter: Vec<&String> = msg[a].intersection(&msg[b]).collect();
        if !inter.is_empty() {
            let wi: f64 = inter.iter().map(|w| idf(w)).sum();
            let wu: f64 = msg[a].union(&msg[b]).map(|w| idf(w)).sum();
            let wa: f64 = msg[a].iter().map(|w| idf(w)).sum();
            let wb: f64 = msg[b].iter().map(|w| idf(w)).sum();
            // Jaccard and containment (one message is the other plus a detail), averaged.
            let j = (wi / wu.max(1e-9) + wi / wa.min(wb).max(1e-9)) / 2.0;
            if j > 0.1 {
                ev.push(Evidence {
                    signal: Signal::SimilarWording,
                    excerpt: inter
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                    line: None,
                    weight: round2(0.8 * j),
                });
            }
        }
        let shared: Vec<&String> = api[a].intersection(&api[b]).collect();
        if !shared.is_empty() {
            let j = shared.len() as f64 / api[a].union(&api[b]).count() as f64;
            ev.push(Evidence {
                signal: Signal::SameApi,
                excerpt: shared
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                line: None,
                weight: round2(0.4 * j),
            });
        }
        if ev.is_empty() {
            continue;
        }
        if ea.category == eb.category && !ea.category.is_empty() {
            ev.push(Evidence {
                signal: Signal::SameCategory {
                    category: ea.category.clone(),
                },
                excerpt: ea.category.clone(),
                line: None,
                weight: 0.1,
            });
        }
        let miss: f64 = ev.iter().map(|x| 1.0 - x.weight).product();
        let score = round2(1.0 - miss);
        if score >= 0.3 {
            cands.push((a, b, score, ev));
        }
    }
    // Keep each entry's best few.
    cands.sort_by(|x, y| y.2.total_cmp(&x.2).then((x.0, x.1).cmp(&(y.0, y.1))));
    let mut count = vec![0usize; n];
    let mut out = Vec::new();
    for (a, b, score, ev) in cands {
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
            evidence: ev,
        });
    }
    out
}
