//! Extract and plan: every runnable snippet becomes a unit (its continuation chain as one
//! program, its hash); a unit this host cannot run (too few GPUs, a declared module that does
//! not import) is skipped with the reason and writes nothing, forced or not; a unit with a record
//! for its hash in the environment it would run in is up to date (unless forced); the rest run.
//! `Plan` holds the outcome: the units, each one's action, the host and runs at a time.

use super::gpu::Host;
use errbook_core::model::PageRef;
use errbook_core::model::{Catalog, RunSpec};
use errbook_records::hash;
use errbook_records::RecordSet;
use std::collections::BTreeMap;
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
    /// The hash records of the first scheme give the unit as it is now (`hash::legacy_hash_of`).
    pub legacy_hash: String,
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
                legacy_hash: hash::legacy_hash_of(snippets, s),
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
    /// A record for this hash in the environment it would run in exists.
    UpToDate,
    /// This host cannot run it, for this reason; nothing is written.
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

/// What the host offers the plan: its GPUs, and for each interpreter the declared modules that
/// do not import there.
pub(super) struct Offer<'a> {
    pub host: &'a Host,
    pub missing: &'a BTreeMap<String, Vec<String>>,
}

/// Why `u` cannot run on the host, if it cannot.
fn cannot(u: &Unit, offer: &Offer<'_>) -> Option<String> {
    let have = offer.host.gpus.len() as u32;
    if u.spec.gpus > have {
        let s = if u.spec.gpus == 1 { "" } else { "s" };
        return Some(format!("needs {} GPU{s}, host has {have}", u.spec.gpus));
    }
    let missing = offer.missing.get(&u.spec.interpreter)?;
    let lacks: Vec<&str> = u
        .spec
        .needs
        .iter()
        .filter(|m| missing.contains(m))
        .map(String::as_str)
        .collect();
    (!lacks.is_empty()).then(|| {
        format!(
            "needs {}, which {} cannot import",
            lacks.join(", "),
            u.spec.interpreter
        )
    })
}

/// Decide each unit's action.
pub(super) fn plan(
    units: &[Unit],
    records: &RecordSet,
    offer: &Offer<'_>,
    force: bool,
) -> Vec<Action> {
    units
        .iter()
        .map(|u| {
            if let Some(reason) = cannot(u, offer) {
                return Action::Skip(reason);
            }
            let key = offer.host.env_for_count(u.spec.gpus).key();
            // Only evidence stands: a run the machine spoiled (an environment error) is retried.
            let recorded = [&u.hash, &u.legacy_hash]
                .iter()
                .filter_map(|h| records.run_in(&u.page, h, &key))
                .any(|r| r.verdict.is_evidence());
            if recorded && !force {
                Action::UpToDate
            } else {
                Action::Run
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
    pub python: Vec<String>,
}

impl Plan {
    /// Positions in `units` of the units to run, in page order.
    pub(crate) fn to_run(&self) -> Vec<usize> {
        (0..self.units.len())
            .filter(|&i| self.actions[i] == Action::Run)
            .collect()
    }

    /// How many units have an action that `is` accepts.
    pub fn count(&self, is: impl Fn(&Action) -> bool) -> usize {
        self.actions.iter().filter(|a| is(a)).count()
    }
}
