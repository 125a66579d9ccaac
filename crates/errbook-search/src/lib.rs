//! Index: the search index, built from the typed model and written as files of the site in
//! shards that a query fetches as it needs them (`shards`: `search/**.json` hosted, scripts
//! `search/**.js` offline); the same ranking answers `errbook search` over the whole index.
//! Stages: `clean` (a paste's lines without prefixes, ranks regrouped), `normalise` (the
//! readings of the error it reports) with `template` (placeholders for what varies),
//! `tokenise` (template -> terms), `format` (the inverted index with BM25F impacts), `rank` (a
//! paste against it: `expand` looks terms up, `rerank` matches messages), `shards` (the index
//! cut into the site's files as `layout` says; `tiers`, a common term's postings by impact);
//! `js` puts the numbers the browser's ranking shares with this crate into its script.

mod clean;
mod expand;
pub mod format;
mod js;
mod layout;
pub mod normalise;
pub mod rank;
mod rerank;
mod shards;
mod template;
mod tiers;
mod tokenise;

use errbook_core::config::Config;
use errbook_core::model::Catalog;
use errbook_core::output::OutFile;
use errbook_link::Graph;

pub use format::{build, Art, Doc, Index};
pub use js::fill as fill_rank_script;
pub use layout::Layout;
pub use normalise::{readings, Detected};
pub use rank::{search, Answer, Hit};
pub use shards::shards;

/// The search files of the site (the sharded index: `shards`), paths relative to the output
/// dir. The weak threshold travels in the manifest, so the browser and the terminal agree.
pub fn output_files(
    catalog: &Catalog,
    graph: &Graph,
    hints: &[String],
    cfg: &Config,
    offline: bool,
) -> errbook_core::error::Result<Vec<OutFile>> {
    let mut files = Vec::new();
    write_files(catalog, graph, hints, cfg, offline, &mut |f| {
        files.push(f.clone());
        Ok(())
    })?;
    Ok(files)
}

/// `output_files`, each file handed to `write` as soon as it is made rather than all held
/// together (a build's way: they are a large index's size again); how many files there are.
pub fn write_files(
    catalog: &Catalog,
    graph: &Graph,
    hints: &[String],
    cfg: &Config,
    offline: bool,
    write: &mut dyn FnMut(&OutFile) -> errbook_core::error::Result<()>,
) -> errbook_core::error::Result<usize> {
    let (idx, docs) = format::build_borrowed(catalog, graph);
    shards::write_files(&idx, &docs, hints, cfg.search, offline, write)
}
