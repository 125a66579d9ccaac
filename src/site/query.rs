//! The site's search from the terminal: analyse the catalog, build the same index the site
//! ships, and rank a pasted message or traceback against it, as the browser does.

use crate::core::config::Config;
use crate::core::error::Result;
use crate::search::normalise::Detected;
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

/// Search the catalog at `root` for `text`, at most `limit` hits.
pub fn search(root: &Path, cfg: &Config, text: &str, limit: usize) -> Result<Answer> {
    let scope = super::Scope {
        infer: true,
        drafts: false,
    };
    let analysis = super::analyse_with(root, cfg, scope)?;
    let idx = crate::search::format::build(&analysis.catalog, &analysis.graph);
    let answer = crate::search::rank::search(&idx, text, limit.max(1));
    let hits = answer
        .hits
        .iter()
        .filter_map(|h| {
            let crate::search::format::Doc(id, message, _) = idx.docs.get(h.doc)?;
            Some(Hit {
                id: id.clone(),
                message: message.clone(),
                score: h.score,
                url: format!("{}{}", cfg.site.base_url, crate::core::urls::entry(id)),
            })
        })
        .collect();
    Ok(Answer {
        detected: answer.detected,
        terms: answer.terms,
        hits,
        weak_score: cfg.search.weak_score,
    })
}
