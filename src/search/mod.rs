//! Index: the search index, built from the typed model and written as files of the site
//! (`search/index.json` hosted, `search/index.js` offline); the same ranking answers
//! `errbook search`. Stages: `clean` (a paste's lines without prefixes, ranks regrouped),
//! `normalise` (the readings of the error it reports) with `template` (placeholders for what
//! varies), `tokenise` (template -> terms), `format` (the inverted index with BM25F impacts),
//! `rank` (a paste against it: `expand` looks terms up, `rerank` matches messages).

mod clean;
mod expand;
pub(crate) mod format;
pub(crate) mod normalise;
pub(crate) mod rank;
mod rerank;
mod template;
mod tokenise;

use crate::core::config::Config;
use crate::core::model::Catalog;
use crate::core::output::OutFile;
use crate::link::Graph;

pub use format::{build, Art, Doc, Index};
pub use normalise::{readings, Detected};
pub use rank::{search, Answer, Hit};

/// The global the offline script sets.
pub(crate) const OFFLINE_GLOBAL: &str = "errbookIndex";

/// The search files of the site (index data and its loader), paths relative to the output dir.
pub(crate) fn output_files(
    catalog: &Catalog,
    graph: &Graph,
    cfg: &Config,
    offline: bool,
) -> crate::core::error::Result<Vec<OutFile>> {
    let idx = format::build(catalog, graph);
    let json = serde_json::to_string(&idx)
        .map_err(|e| crate::core::error::Error::Other(format!("JSON: {e}")))?;
    // The weak threshold travels with the index, so the browser and the terminal agree.
    let meta = format!("{{\"weak\":{}}}", cfg.search.weak_score);
    Ok(if offline {
        // file:// pages cannot fetch: a classic script sets a global instead.
        let js = format!("window.{OFFLINE_GLOBAL}={json};window.{OFFLINE_GLOBAL}Meta={meta};\n");
        vec![OutFile::new("search/index.js", js.into_bytes())]
    } else {
        vec![
            OutFile::new("search/index.json", json.into_bytes()),
            OutFile::new("search/meta.json", meta.into_bytes()),
        ]
    })
}
