//! `check`: the analysis with every diagnostic, and its view of the records: a warning for each
//! runnable snippet with no record, a stale one, or only runs the machine spoiled (environment
//! errors, limits), each record that matches no snippet any more, and each file in the records
//! folder that is not a record.

use super::Analysis;
use errbook_core::config::Config;
use errbook_core::diag::{Code, Diagnostic};
use errbook_core::model::{Catalog, Page, PageKind};
use errbook_records::{Judged, RecordSet, Status};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

/// Analyse the catalog at `root` and add the record diagnostics and those of links within the
/// site (checked against the site as `serve` would answer it); nothing is written.
pub fn check(root: &Path, cfg: &Config) -> errbook_core::error::Result<Analysis> {
    let mut analysis = super::analyse(root, cfg, true)?;
    let set = RecordSet::load(root, cfg)?;
    let found = records(&analysis, &set);
    analysis.diags.extend(found);
    let theirs = (std::sync::Arc::new(set), None);
    let (mut analysis, links) = super::internal::check(root, cfg, analysis, theirs, None)?;
    analysis.diags.extend(links);
    Ok(analysis)
}

/// `check --links FILE`: the links of one file with their evidence, and the candidates left out.
pub fn explain_links(analysis: &Analysis, file: &Path) -> String {
    errbook_link::explain::explain(&analysis.catalog, &analysis.graph, file)
}

/// The record diagnostics of `analysis` against `set`.
pub(super) fn records(analysis: &Analysis, set: &RecordSet) -> Vec<Diagnostic> {
    let sources: HashMap<&Path, &Arc<str>> = (analysis.files.iter())
        .map(|f| (f.path.as_path(), &f.text))
        .collect();
    let mut out = Vec::new();
    for page in analysis.catalog.pages() {
        if let Some(src) = sources.get(page.source()) {
            out.extend(page_records(page, src, set));
        }
    }
    out.extend(set_records(analysis, set));
    out
}

/// The record diagnostics that are not of one page: records that match no code block, files
/// that are not records.
pub(super) fn set_records(analysis: &Analysis, set: &RecordSet) -> Vec<Diagnostic> {
    let mut out = orphans(analysis, set);
    out.extend(files(set));
    out
}

/// A warning for each runnable snippet of `page` (whose text is `src`) with no record, only
/// spoiled runs, or a stale record: what a page's records say of it depends on the page and the
/// records alone.
pub(super) fn page_records(page: Page<'_>, src: &Arc<str>, set: &RecordSet) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let path = page.source();
    let (page_ref, snippets) = (page.reference(), page.snippets());
    for s in snippets.iter().filter(|s| s.run.is_some()) {
        let (code, message) = match set.status(&page_ref, snippets, s) {
            Status::Fresh(runs) if runs.iter().any(|r| r.verdict.is_evidence()) => continue,
            Status::Fresh(runs) => (
                Code::VerifyMissing,
                format!(
                    "code block `{}` has no run that counts: {}",
                    s.id,
                    spoiled(&runs)
                ),
            ),
            Status::Stale(r) => (
                Code::VerifyStale,
                format!(
                    "code block `{}` changed since it was verified ({} on {})",
                    s.id,
                    r.verdict.as_str(),
                    r.date.get(..10).unwrap_or(&r.date)
                ),
            ),
            Status::Missing => (
                Code::VerifyMissing,
                format!("runnable code block `{}` has no verification record", s.id),
            ),
        };
        // Only a block that asks for GPUs needs a GPU host; a CPU-only one runs anywhere.
        let needs_gpus = s.run.as_ref().is_some_and(|r| r.gpus > 0);
        let hint = if needs_gpus {
            "run `errbook verify` on a GPU host and commit verify/"
        } else {
            "run `errbook verify` (this block needs no GPU) and commit verify/"
        };
        out.push(Diagnostic::at_line(code, path, src, s.line, message).hint(hint));
    }
    out
}

/// A warning for each record whose code block is gone (stale records whose position is still
/// used are reported at the snippet).
fn orphans(analysis: &Analysis, set: &RecordSet) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for i in set.orphans(&named_pages(&analysis.catalog, set)) {
        let r = &set.records[i];
        let still_shown = analysis
            .catalog
            .snippets_of(&r.page)
            .iter()
            .any(|s| s.run.is_some() && s.id == r.snippet);
        // A page that did not parse still has its blocks: its records are not orphans.
        let unparsed = analysis.catalog.unparsed.contains(&r.page);
        if !still_shown && !unparsed {
            let kind = r.page.kind.word();
            out.push(
                Diagnostic::file(
                    Code::VerifyOrphan,
                    &set.paths[i],
                    format!(
                        "record for `{}` of {kind} `{}` matches no runnable code block",
                        r.snippet, r.page.id
                    ),
                )
                .hint("remove it with `errbook verify --prune`"),
            );
        }
    }
    out
}

/// The pages of `cat` that a record of `set` names. A record is matched only by the code
/// blocks of its own page, so `RecordSet::orphans` finds the same orphans among these pages
/// alone, and hashes no block of a page without records (the pages are shared, not copied).
fn named_pages(cat: &Catalog, set: &RecordSet) -> Catalog {
    let named: HashSet<(PageKind, &str)> = (set.records.iter())
        .map(|r| (r.page.kind, r.page.id.as_str()))
        .collect();
    let has = |kind: PageKind, id: &str| named.contains(&(kind, id));
    Catalog {
        entries: (cat.entries.iter())
            .filter(|e| has(PageKind::Entry, &e.id))
            .cloned()
            .collect(),
        articles: (cat.articles.iter())
            .filter(|a| has(PageKind::Article, &a.id))
            .cloned()
            .collect(),
        unparsed: Vec::new(),
    }
}

/// A warning for each file that is not a record.
fn files(set: &RecordSet) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (p, e) in &set.unreadable {
        out.push(
            Diagnostic::file(
                Code::VerifyRecord,
                p,
                format!("not a verification record: {e}"),
            )
            .hint("records are written by `errbook verify`; delete the file or rerun"),
        );
    }
    out
}

/// What spoiled every run of a code block: `environment error on H100 and H200`.
fn spoiled(runs: &[Judged]) -> String {
    let mut by_word: Vec<(&str, Vec<String>)> = Vec::new();
    for r in runs {
        let (word, machine) = (r.verdict.word(), r.env.machine());
        match by_word.iter_mut().find(|(w, _)| *w == word) {
            Some((_, ms)) if !ms.contains(&machine) => ms.push(machine),
            Some(_) => {}
            None => by_word.push((word, vec![machine])),
        }
    }
    let said: Vec<String> = by_word
        .into_iter()
        .map(|(w, ms)| format!("{w} on {}", ms.join(" and ")))
        .collect();
    said.join("; ")
}
