//! What a search result says to do about its error: the entry's best verified workaround, in
//! the reader's words and with where it ran ("Works here (H100 and H200): set the start method
//! to 'spawn'..."), else the catalog's first workaround marked as the catalog's claim. The search
//! index ships it with each entry; the ranking never reads it.

use super::evidence::Outcome;
use super::Resolver;
use crate::runs::{and_list, truncate};
use errbook_core::model::Entry;
use errbook_records::{Role, Verdict};

/// The longest summary a result shows.
const SUMMARY: usize = 160;

impl<'a> Resolver<'a> {
    /// The hint of each entry, in catalog order.
    pub fn search_hints(&self) -> Vec<String> {
        self.catalog
            .entries
            .iter()
            .map(|e| self.search_hint(e))
            .collect()
    }

    /// The hint of entry `e`; empty when it has no workaround.
    pub fn search_hint(&self, e: &'a Entry) -> String {
        // Code stays between backticks: the page's script shows it as code.
        let summary = |s: &str| truncate(s.trim(), SUMMARY);
        let mut best = None;
        for w in &e.workarounds {
            let ev = self.part_evidence(e, &w.snippets, Role::Workaround);
            if ev.outcome == Outcome::Agree(Verdict::Confirmed) {
                best = Some((w, and_list(&ev.machine_names())));
                break;
            }
        }
        if let Some((w, on)) = best {
            return format!("Works here ({on}): {}", summary(&w.summary));
        }
        match e
            .workarounds
            .iter()
            .max_by_key(|w| (w.success_rate, std::cmp::Reverse(w.number)))
        {
            Some(w) => format!(
                "The catalog suggests ({}% success, its claim): {}",
                w.success_rate,
                summary(&w.summary)
            ),
            None => String::new(),
        }
    }
}
