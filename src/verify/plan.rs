//! Extract and plan: every runnable snippet becomes a unit (its continuation chain as one
//! program, its hash); units already recorded for the same hash are left alone (unless forced;
//! never where the host cannot run them), units that need more GPUs than the host has are
//! skipped with that reason, the rest run.
//! `Plan` holds the outcome: the units, each one's action, the host and runs at a time.

use super::gpu::Host;
use crate::core::model::PageRef;
use crate::core::model::{Catalog, RunSpec};
use crate::records::hash;
use crate::records::{RecordSet, Verdict};
use std::path::PathBuf;

/// One runnable snippet, ready to run.
#[derive(Debug, Clone)]
pub struct Unit {
    pub page: PageRef,
    pub source: PathBuf,
    pub snippet: String,
    pub line: usize,
    pub lang: String,
    /// Ids of the chain, ancestors first, the snippet last.
    pub chain: Vec<String>,
    pub program: String,
    /// The chain's effective needs (GPUs, variables) and the snippet's claim and limits.
    pub spec: RunSpec,
    pub hash: String,
}

impl Unit {
    /// `article/<id>#<snippet>` or `entry/<id>#<snippet>`, for messages and `--only`.
    pub fn name(&self) -> String {
        format!(
            "{}/{}#{}",
            self.page.kind.word(),
            self.page.id,
            self.snippet
        )
    }
}

/// Every runnable snippet of the catalog, in page order.
pub(super) fn extract(catalog: &Catalog) -> Vec<Unit> {
    let mut out = Vec::new();
    for p in catalog.pages() {
        let (page, source, snippets) = (p.reference(), p.source(), p.snippets());
        for s in snippets.iter().filter(|s| s.run.is_some()) {
            let ch = hash::chain(snippets, s);
            let Some(spec) = hash::effective(&ch) else {
                continue;
            };
            out.push(Unit {
                page: page.clone(),
                source: source.to_path_buf(),
                snippet: s.id.clone(),
                line: s.line,
                lang: s.lang.clone(),
                chain: ch.iter().map(|c| c.id.clone()).collect(),
                program: hash::program(&ch),
                spec,
                hash: hash::hash_of(snippets, s),
            });
        }
    }
    out
}

/// What to do with each unit.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Run it.
    Run,
    /// A record for this exact hash exists.
    UpToDate,
    /// Cannot run here; a skipped record says why.
    Skip(String),
}

/// How the summary names the state of a unit that has a record for its hash already.
pub const UP_TO_DATE: &str = "up to date";

impl Action {
    /// In words, as the dry run lists it: `run`, `up to date`, `skip: <reason>`.
    pub fn describe(&self) -> String {
        match self {
            Action::Run => "run".to_string(),
            Action::UpToDate => UP_TO_DATE.to_string(),
            Action::Skip(reason) => format!("skip: {reason}"),
        }
    }
}

/// Decide each unit's action. `host_gpus`: the most GPUs a run can have where runs happen.
pub(super) fn plan(
    units: &[Unit],
    records: &RecordSet,
    host_gpus: u32,
    force: bool,
) -> Vec<Action> {
    units
        .iter()
        .map(|u| {
            let existing = records.get(&u.page, &u.hash);
            let can_run = u.spec.gpus <= host_gpus;
            match existing {
                // A real result is kept unless forced; a skipped one is retried where it can run.
                Some(r) if r.verdict != Verdict::Skipped && !force => Action::UpToDate,
                // A host that cannot run it writes no record over an existing one, forced or not.
                Some(_) if !can_run => Action::UpToDate,
                _ if !can_run => Action::Skip(format!(
                    "needs {} GPU{}, host has {host_gpus}",
                    u.spec.gpus,
                    if u.spec.gpus == 1 { "" } else { "s" }
                )),
                _ => Action::Run,
            }
        })
        .collect()
}

/// A session's plan: every unit (after `only`), its action, where the runs happen.
#[derive(Debug, Clone)]
pub struct Plan {
    pub units: Vec<Unit>,
    /// Parallel to `units`.
    pub actions: Vec<Action>,
    pub host: Host,
    /// Where runs happen: `local`, `ssh://a (2 GPUs), ...`, `slurm (partition gpu)`.
    pub runner: String,
    /// Runs at a time.
    pub jobs: usize,
    /// The interpreter command of `python3` snippets (book.toml's `verify.python`).
    pub(crate) python: Vec<String>,
}

impl Plan {
    /// Positions in `units` of the units to run, in page order.
    pub fn to_run(&self) -> Vec<usize> {
        (0..self.units.len())
            .filter(|&i| self.actions[i] == Action::Run)
            .collect()
    }

    /// How many units have an action that `is` accepts.
    pub fn count(&self, is: impl Fn(&Action) -> bool) -> usize {
        self.actions.iter().filter(|a| is(a)).count()
    }
}
