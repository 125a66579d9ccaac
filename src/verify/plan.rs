//! Extract and plan: every runnable snippet becomes a unit (its continuation chain as one
//! program, its hash); units already recorded for the same hash are left alone (unless forced),
//! units that need more GPUs than the host has are skipped with that reason, the rest run.

use super::hash;
use super::records::{RecordSet, Verdict};
use crate::link::PageRef;
use crate::model::{Catalog, PageKind, RunSpec};
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
        let k = match self.page.kind {
            PageKind::Entry => "entry",
            PageKind::Article => "article",
        };
        format!("{k}/{}#{}", self.page.id, self.snippet)
    }
}

/// Every runnable snippet of the catalog, in page order.
pub fn extract(catalog: &Catalog) -> Vec<Unit> {
    let mut out = Vec::new();
    let sources: Vec<PathBuf> = catalog
        .entries
        .iter()
        .map(|e| e.source.clone())
        .chain(catalog.articles.iter().map(|a| a.source.clone()))
        .collect();
    for ((page, snippets), source) in super::records::pages(catalog).into_iter().zip(sources) {
        for s in snippets.iter().filter(|s| s.run.is_some()) {
            let ch = hash::chain(snippets, s);
            let Some(spec) = hash::effective(&ch) else {
                continue;
            };
            out.push(Unit {
                page: page.clone(),
                source: source.clone(),
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

/// Decide each unit's action. `host_gpus`: GPUs this host offers.
pub fn plan(units: &[Unit], records: &RecordSet, host_gpus: u32, force: bool) -> Vec<Action> {
    units
        .iter()
        .map(|u| {
            let existing = records.get(&u.page, &u.hash);
            let can_run = u.spec.gpus <= host_gpus;
            match existing {
                // A real result is kept unless forced; a skipped one is retried where it can run.
                Some(r) if r.verdict != Verdict::Skipped && !force => Action::UpToDate,
                Some(r) if r.verdict == Verdict::Skipped && !can_run => Action::UpToDate,
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
