//! Scores: each paste's outcome against the catalog, and the figures by kind and by split that
//! the tool prints: top-1, top-3, right and confident (what `errbook search` exits 0 on), right
//! answers given weakly, confident wrong answers, and the negatives answered weak.

use crate::pastes::{Kind, Paste};
use errbook_eval_split::Split;
use errbook_site::{Answer, Searcher};
use serde::Serialize;

/// What the search answered to one paste.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Outcome {
    /// 1-based rank of the right entry among the first three; `None` for negatives or a miss.
    pub(crate) rank: Option<usize>,
    /// Whether the search was confident (`errbook search` exit 0, the browser's non-weak).
    pub(crate) confident: bool,
    /// The first three hits: (ID, score).
    pub(crate) top: Vec<(String, f64)>,
    pub(crate) detected: String,
}

pub(crate) fn outcome(searcher: &Searcher, paste: &Paste) -> Outcome {
    let a: Answer = searcher.search(&paste.text, 3);
    let rank = paste
        .want
        .as_ref()
        .and_then(|w| a.hits.iter().position(|h| &h.id == w).map(|k| k + 1));
    Outcome {
        rank,
        confident: a.confident(),
        top: a
            .hits
            .iter()
            .map(|h| (h.id.clone(), (h.score * 1000.0).round() / 1000.0))
            .collect(),
        detected: a.detected.template,
    }
}

/// Counts for a group of pastes.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct Tally {
    /// Pastes of errors the catalog holds.
    pub(crate) n: usize,
    pub(crate) top1: usize,
    pub(crate) top3: usize,
    /// Right entry first and confident.
    pub(crate) right_confident: usize,
    /// A wrong entry first, given confidently: the worst answer.
    pub(crate) wrong_confident: usize,
    /// Pastes of errors the catalog lacks.
    pub(crate) negatives: usize,
    /// Of those, answered weak (no confident match).
    pub(crate) negatives_weak: usize,
}

impl Tally {
    fn add(&mut self, p: &Paste, o: &Outcome) {
        if p.want.is_none() {
            self.negatives += 1;
            self.negatives_weak += usize::from(!o.confident);
            return;
        }
        self.n += 1;
        self.top1 += usize::from(o.rank == Some(1));
        self.top3 += usize::from(o.rank.is_some());
        self.right_confident += usize::from(o.rank == Some(1) && o.confident);
        self.wrong_confident += usize::from(o.rank != Some(1) && o.confident);
    }
}

/// The tallies of one split (or of all pastes): by kind, and over every kind.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct Report {
    pub(crate) by_kind: Vec<(&'static str, Tally)>,
    pub(crate) all: Tally,
}

/// Tally the pastes whose split passes `keep`.
pub(crate) fn report(
    pastes: &[Paste],
    outcomes: &[Outcome],
    keep: impl Fn(Split) -> bool,
) -> Report {
    let mut r = Report {
        by_kind: Kind::ALL
            .iter()
            .map(|k| (k.name(), Tally::default()))
            .collect(),
        all: Tally::default(),
    };
    for (p, o) in pastes.iter().zip(outcomes) {
        if !keep(p.split) {
            continue;
        }
        let k = Kind::ALL.iter().position(|k| *k == p.kind).unwrap_or(0);
        r.by_kind[k].1.add(p, o);
        r.all.add(p, o);
    }
    r
}

fn pct(a: usize, n: usize) -> String {
    if n == 0 {
        "-".to_string()
    } else {
        format!("{:.1}%", 100.0 * a as f64 / n as f64)
    }
}

/// The table of one report, as text.
pub(crate) fn table(title: &str, r: &Report) -> String {
    let mut s = format!(
        "{title}\n  {:<10} {:>5} {:>7} {:>7} {:>16} {:>16}\n",
        "kind", "n", "top-1", "top-3", "right+confident", "wrong+confident"
    );
    let row = |name: &str, t: &Tally| {
        format!(
            "  {:<10} {:>5} {:>7} {:>7} {:>16} {:>16}\n",
            name,
            t.n,
            pct(t.top1, t.n),
            pct(t.top3, t.n),
            pct(t.right_confident, t.n),
            t.wrong_confident
        )
    };
    for (name, t) in &r.by_kind {
        if t.n > 0 {
            s.push_str(&row(name, t));
        }
    }
    s.push_str(&row("all", &r.all));
    s.push_str(&format!(
        "  negatives (errors the catalog lacks) answered weak: {}/{} ({})\n",
        r.all.negatives_weak,
        r.all.negatives,
        pct(r.all.negatives_weak, r.all.negatives)
    ));
    s
}
