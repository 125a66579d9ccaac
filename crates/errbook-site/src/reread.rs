//! Reread: an entry's whole model again, from its file, for a lean build (`Scope::lean`). The
//! analysis kept of each entry only what the stages reading every entry need; the page loop
//! reads and parses each entry's file again in the worker that renders it, so memory holds one
//! whole entry per worker. A file that no longer parses to the entry it was (changed during the
//! build) fails the build, and the old output stays whole.

use errbook_core::config::Config;
use errbook_core::error::{Error, Result};
use errbook_core::model::{Catalog, Entry, PageKind};
use errbook_link::{Graph, Node};
use std::path::Path;

/// `e` as its file gives it now, whole.
pub(super) fn entry(root: &Path, cfg: &Config, e: &Entry) -> Result<Box<Entry>> {
    let changed = || {
        Error::Other(format!(
            "{} changed during the build; build again",
            e.source.display()
        ))
    };
    let file =
        errbook_parse::load::read_one(root, PageKind::Entry, &e.source)?.map_err(|_| changed())?;
    match errbook_parse::entry_whole(&file, cfg.verify.timeout_s) {
        Some(whole) if whole.id == e.id => Ok(Box::new(whole)),
        _ => Err(changed()),
    }
}

/// Make whole again the entries whose parts other pages show: an entry whose code block is
/// an end of a link (shown as an example elsewhere), and an entry whose workaround or dead end
/// is (a code block elsewhere flagged with what that part's own runs say).
pub(super) fn restore_linked(
    root: &Path,
    cfg: &Config,
    catalog: &mut Catalog,
    graph: &Graph,
) -> Result<()> {
    let mut ids: Vec<&str> = graph
        .links
        .iter()
        .flat_map(|l| [&l.from, &l.to])
        .filter_map(|n| match n {
            Node::Snippet { page, .. } if page.kind == PageKind::Entry => Some(page.id.as_str()),
            Node::Workaround { entry, .. } | Node::DeadEnd { entry, .. } => Some(entry.as_str()),
            _ => None,
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        let Ok(i) = catalog.entries.binary_search_by(|e| e.id.as_str().cmp(id)) else {
            continue;
        };
        let whole = entry(root, cfg, &catalog.entries[i])?;
        catalog.entries[i] = *whole;
    }
    Ok(())
}
