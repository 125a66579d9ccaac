//! The site's search from the terminal: analyse the catalog, build the same index the site
//! ships, and rank a pasted message or traceback against it, as the browser does. A `Searcher`
//! holds the index, so that many queries (the evaluation tool's) share one analysis.

use errbook_core::config::Config;
use errbook_core::error::Result;
use errbook_search::format::{Doc, Index};
use errbook_search::normalise::Detected;
use std::path::Path;

/// One ranked entry.
#[derive(Debug, Clone)]
pub struct Hit {
    pub id: String,
    pub message: String,
    pub score: f64,
    /// The entry's absolute URL on the hosted site.
    pub url: String,
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The error the paste was read as.
    pub detected: Detected,
    /// The query terms it was turned into.
    pub terms: Vec<String>,
    /// Best first.
    pub hits: Vec<Hit>,
    /// Below this score a match is weak (`search.weak_score`).
    pub weak_score: f64,
}

impl Answer {
    /// A best match at or above the weak score.
    pub fn confident(&self) -> bool {
        self.hits
            .first()
            .is_some_and(|h| h.score >= self.weak_score)
    }
}

/// The catalog's search index with the site's settings, ready for queries.
pub struct Searcher {
    index: Index,
    weak_score: f64,
    base_url: String,
}

impl Searcher {
    /// Analyse the catalog at `root` and build its index, as a build would (drafts left out).
    pub fn open(root: &Path, cfg: &Config) -> Result<Searcher> {
        let scope = super::Scope {
            infer: true,
            drafts: false,
            review: false,
            entry_texts: false,
        };
        let analysis = super::analyse_with(root, cfg, scope)?;
        Ok(Searcher {
            index: errbook_search::build(&analysis.catalog, &analysis.graph),
            weak_score: cfg.search.weak_score,
            base_url: cfg.site.base_url.clone(),
        })
    }

    /// Rank the catalog's entries for `text`, at most `limit` hits (at least one).
    /// The entries the index holds.
    pub fn entries(&self) -> usize {
        self.index.docs.len()
    }

    pub fn search(&self, text: &str, limit: usize) -> Answer {
        let answer = errbook_search::rank::search(&self.index, text, limit.max(1), self.weak_score);
        let hits = answer
            .hits
            .iter()
            .filter_map(|h| {
                let Doc(id, message, ..) = self.index.docs.get(h.doc)?;
                Some(Hit {
                    id: id.clone(),
                    message: message.clone(),
                    score: h.score,
                    url: format!("{}{}", self.base_url, errbook_core::urls::entry(id)),
                })
            })
            .collect();
        Answer {
            detected: answer.detected,
            terms: answer.terms,
            hits,
            weak_score: self.weak_score,
        }
    }
}

/// Search the catalog at `root` for `text`, at most `limit` hits.
pub fn search(root: &Path, cfg: &Config, text: &str, limit: usize) -> Result<Answer> {
    Ok(Searcher::open(root, cfg)?.search(text, limit))
}
