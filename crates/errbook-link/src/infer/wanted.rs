//! Which article candidates a caller can use: those scoring at least its cut, and those of the
//! pairs something else already says a word on (a link drawn for the pair takes a candidate's
//! evidence; an author's `links:` item confirms or rejects it), whatever their score. Article
//! inference makes no other candidate: an article naming a code that thousands of entries share
//! would otherwise make thousands of candidates that score nothing, for every article.

use errbook_core::model::Catalog;
use std::collections::{HashMap, HashSet};

/// What `infer::articles` is asked for (see the top of this file).
pub(crate) struct Wanted {
    /// Candidates scoring less than this are of no use, unless pinned.
    pub min: f64,
    /// Positions in `catalog.entries` by article ID: pairs whose candidate is of use whatever
    /// its score.
    pinned: HashMap<String, Vec<usize>>,
}

impl Wanted {
    /// Candidates scoring at least `min`, and those of the (article ID, entry ID) `pairs`
    /// (every entry of an ID: two entries can share one by mistake).
    pub(crate) fn new<'a>(
        catalog: &Catalog,
        min: f64,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Wanted {
        let pairs: Vec<(&str, &str)> = pairs.into_iter().collect();
        let ids: HashSet<&str> = pairs.iter().map(|&(_, e)| e).collect();
        let mut at: HashMap<&str, Vec<usize>> = HashMap::new();
        if !ids.is_empty() {
            for (i, e) in catalog.entries.iter().enumerate() {
                if ids.contains(e.id.as_str()) {
                    at.entry(e.id.as_str()).or_default().push(i);
                }
            }
        }
        let mut pinned: HashMap<String, Vec<usize>> = HashMap::new();
        for (a, e) in pairs {
            let is = at.get(e).map_or(&[][..], |v| &v[..]);
            pinned.entry(a.to_string()).or_default().extend(is);
        }
        for v in pinned.values_mut() {
            v.sort_unstable();
            v.dedup();
        }
        Wanted { min, pinned }
    }

    /// The positions in `catalog.entries` of the entries pinned for `article`, in order.
    pub(crate) fn pinned(&self, article: &str) -> &[usize] {
        self.pinned.get(article).map_or(&[][..], |v| &v[..])
    }
}
