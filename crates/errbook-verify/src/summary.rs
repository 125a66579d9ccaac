//! What a verify session did: the plan, the records it made, the timeline of its runs, the
//! records it could not write; and what follows from them (findings, the exit decision, counts
//! by verdict, what was skipped and why, wall and busy time, each GPU's runs).

use super::plan::{Action, Plan, Unit, UP_TO_DATE};
use super::schedule::Slot;
use errbook_records::Record;
use std::collections::BTreeMap;

/// A record this session made.
#[derive(Debug, Clone)]
pub struct Done {
    /// Position of its unit in `Plan::units`.
    pub unit: usize,
    pub record: Record,
    /// Not written: it is not evidence, and the recorded run of the same code in the same
    /// environment, which is, stands.
    pub kept: bool,
}

/// How the summary names a unit this host cannot run (the plan says why).
pub const SKIPPED: &str = "skipped";

/// How the summary names a unit whose run was cancelled.
pub const CANCELLED: &str = "cancelled";

/// What a session did.
#[derive(Debug, Clone)]
pub struct Summary {
    pub plan: Plan,
    /// The records made (skips and runs), in unit order; empty after a dry run.
    pub done: Vec<Done>,
    /// When and where each run happened; a slot's `job` is its unit's position in `Plan::units`.
    pub timeline: Vec<Slot>,
    /// Records that could not be written, as messages.
    pub failures: Vec<String>,
    /// Units whose run was cancelled (Ctrl-C) before it ended: nothing is recorded of them.
    pub cancelled: Vec<usize>,
}

/// How a session ended, for its exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Every record written; no claim contradicted (or contradictions allowed).
    Clean,
    /// This many claims were contradicted by their run.
    Findings(usize),
    /// A record could not be written.
    WriteFailed,
}

impl Summary {
    /// Records whose run disagrees with the text.
    pub(crate) fn findings(&self) -> usize {
        let done = self.done.iter();
        done.filter(|d| d.record.verdict.is_finding()).count()
    }

    /// The units this host did not run, with the reason.
    pub fn skipped(&self) -> impl Iterator<Item = (&Unit, &str)> {
        let plan = &self.plan;
        plan.units
            .iter()
            .zip(&plan.actions)
            .filter_map(|(u, a)| match a {
                Action::Skip(reason) => Some((u, reason.as_str())),
                _ => None,
            })
    }

    /// The exit decision: write failures first, then findings unless they are allowed.
    pub fn exit(&self, allow_contradictions: bool) -> Exit {
        if !self.failures.is_empty() {
            return Exit::WriteFailed;
        }
        match self.findings() {
            n if n > 0 && !allow_contradictions => Exit::Findings(n),
            _ => Exit::Clean,
        }
    }

    /// Each unit with the record this session made of it (none: it was up to date).
    pub fn results(&self) -> impl Iterator<Item = (&Unit, Option<&Record>)> {
        self.plan.units.iter().enumerate().map(|(i, u)| {
            let k = self.done.binary_search_by_key(&i, |d| d.unit).ok();
            (u, k.map(|k| &self.done[k].record))
        })
    }

    /// How many units ended with each verdict's word (`up to date` or `skipped` for those not
    /// run), in alphabetical order of the words.
    pub fn counts(&self) -> BTreeMap<&'static str, usize> {
        let mut counts = BTreeMap::new();
        for (i, ((_, rec), a)) in self.results().zip(&self.plan.actions).enumerate() {
            let word = match (rec, a) {
                (Some(r), _) => r.verdict.word(),
                (None, Action::Skip(_)) => SKIPPED,
                (None, _) if self.cancelled.contains(&i) => CANCELLED,
                (None, _) => UP_TO_DATE,
            };
            *counts.entry(word).or_default() += 1;
        }
        counts
    }

    /// Seconds from the first run's start to the last one's end.
    pub fn wall_s(&self) -> f64 {
        self.timeline.iter().map(|s| s.end_s).fold(0.0, f64::max)
    }

    /// Seconds of all runs together.
    pub fn busy_s(&self) -> f64 {
        self.timeline.iter().map(|s| s.end_s - s.start_s).sum()
    }

    /// The longest run's seconds.
    pub fn longest_s(&self) -> f64 {
        let each = self.timeline.iter().map(|s| s.end_s - s.start_s);
        each.fold(0.0, f64::max)
    }

    /// The most runs that were on one GPU at the same moment.
    pub fn most_at_once_on_a_gpu(&self) -> usize {
        let mut most = 0;
        for a in &self.timeline {
            for &g in &a.gpus {
                // At a run's start, the runs on its GPU that started before and had not ended.
                let on = self.timeline.iter().filter(|b| {
                    b.gpus.contains(&g) && b.start_s <= a.start_s && a.start_s < b.end_s
                });
                most = most.max(on.count());
            }
        }
        most
    }

    /// The runs that had GPU `gpu`, in the order they started.
    pub fn on_gpu(&self, gpu: u32) -> Vec<&Slot> {
        let mut on: Vec<&Slot> = self
            .timeline
            .iter()
            .filter(|s| s.gpus.contains(&gpu))
            .collect();
        on.sort_by(|a, b| a.start_s.total_cmp(&b.start_s));
        on
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Action;
    use errbook_core::model::{Claim, PageKind, PageRef, RunSpec};
    use errbook_records::Verdict;

    fn unit(id: &str) -> Unit {
        Unit {
            page: PageRef {
                kind: PageKind::Article,
                id: "a".into(),
            },
            source: "content/articles/a.md".into(),
            snippet: id.into(),
            line: 1,
            lang: "python".into(),
            chain: vec![id.into()],
            program: String::new(),
            spec: RunSpec {
                claim: Claim::Runs,
                gpus: 0,
                env: vec![],
                timeout_s: 1,
                after: None,
                interpreter: "python3".into(),
                network: false,
                needs: vec![],
                gpu_mem_mib: None,
            },
            hash: format!("{id}-hash"),
            legacy_hash: String::new(),
        }
    }

    fn done(units: &[Unit], unit: usize, verdict: Verdict) -> Done {
        let u = &units[unit];
        let text = serde_json::json!({
            "hash": u.hash, "page": u.page, "snippet": u.snippet, "claim": u.spec.claim,
            "verdict": verdict, "date": "2025-01-30T00:00:00Z", "runner": "local",
            "sandbox": "none",
        });
        let record = serde_json::from_value(text).unwrap();
        Done {
            unit,
            record,
            kept: false,
        }
    }

    #[test]
    fn counts_use_the_verdict_words_and_the_exit_weighs_failures_first() {
        let units: Vec<Unit> = ["a", "b", "c", "d"].map(unit).to_vec();
        let done = vec![
            done(&units, 0, Verdict::DifferentError),
            done(&units, 3, Verdict::Confirmed),
        ];
        let mut actions = vec![Action::Run; units.len()];
        actions[1] = Action::Skip("needs 1 GPU, host has 0".into());
        let mut s = Summary {
            plan: Plan {
                actions,
                units,
                host: Default::default(),
                runner: "local".into(),
                jobs: 1,
                python: vec![],
            },
            done,
            timeline: vec![],
            failures: vec![],
            cancelled: vec![],
        };
        let counts: Vec<(&str, usize)> = s.counts().into_iter().collect();
        assert_eq!(
            counts,
            [
                ("confirmed", 1),
                ("different error", 1),
                ("skipped", 1),
                ("up to date", 1)
            ]
        );
        let skipped: Vec<_> = s
            .skipped()
            .map(|(u, why)| (u.snippet.as_str(), why))
            .collect();
        assert_eq!(skipped, [("b", "needs 1 GPU, host has 0")]);
        let third = s.results().nth(2).unwrap();
        assert_eq!((third.0.snippet.as_str(), third.1.is_none()), ("c", true));
        assert_eq!(s.exit(false), Exit::Findings(1));
        assert_eq!(s.exit(true), Exit::Clean);
        s.failures.push("disk full".into());
        assert_eq!(s.exit(true), Exit::WriteFailed);
    }
}
