//! catalog.json's entries kept between updates, each as its JSON (`render::api::catalog_entry`,
//! which depends on the entry and the configuration only): an update serializes again only the
//! entries it touched and joins the rest as they are, the bytes a full build writes. Not the
//! articles' part, which follows the link graph (and is small).

use crate::core::config::Config;
use crate::core::error::Result;
use crate::core::model::{Catalog, PageKind, PageRef};
use crate::site::build::json_error;
use std::collections::{BTreeMap, BTreeSet};

pub(super) struct CatalogLines {
    /// Each entry's JSON by ID (so in catalog order).
    by_id: BTreeMap<String, Vec<u8>>,
}

impl CatalogLines {
    /// Every entry of `cat` serialized.
    pub(super) fn new(cat: &Catalog, cfg: &Config) -> Result<CatalogLines> {
        let _t = crate::core::timings::stage("  catalog.json: every entry");
        let by_id = (cat.entries.iter())
            .map(|e| Ok((e.id.clone(), crate::render::api::catalog_entry(e, cfg)?)))
            .collect::<serde_json::Result<_>>()
            .map_err(json_error)?;
        Ok(CatalogLines { by_id })
    }

    /// The lines brought up to `cat` after an edit of the pages of `touched` (old and new IDs):
    /// theirs serialized again, those of entries gone dropped; and whether any line changed.
    /// Lines that do not match the catalog's entries one for one after that are made again
    /// whole.
    pub(super) fn update(
        mut self,
        cat: &Catalog,
        touched: &BTreeSet<PageRef>,
        cfg: &Config,
    ) -> Result<(CatalogLines, bool)> {
        let mut changed = false;
        for p in touched.iter().filter(|p| p.kind == PageKind::Entry) {
            let old = self.by_id.remove(&p.id);
            let now = match cat.entries.binary_search_by(|e| e.id.as_str().cmp(&p.id)) {
                Ok(i) => Some(crate::render::api::catalog_entry(&cat.entries[i], cfg)),
                Err(_) => None,
            };
            let now = now.transpose().map_err(json_error)?;
            changed |= old != now;
            if let Some(line) = now {
                self.by_id.insert(p.id.clone(), line);
            }
        }
        let matches = self.by_id.len() == cat.entries.len()
            && (self.by_id.keys().zip(&cat.entries)).all(|(id, e)| *id == e.id);
        if matches {
            Ok((self, changed))
        } else {
            Ok((CatalogLines::new(cat, cfg)?, true))
        }
    }

    /// catalog.json of `cat` from the lines (`discussed`: as `render::api::catalog_json`).
    pub(super) fn file(
        &self,
        cat: &Catalog,
        discussed: &[Vec<&str>],
        cfg: &Config,
    ) -> Result<Vec<u8>> {
        let lines = self.by_id.values().map(|l| Ok(l.as_slice()));
        let mut out = Vec::new();
        crate::render::api::catalog_json(&mut out, cat, lines, discussed, cfg)
            .map_err(json_error)?;
        Ok(out)
    }
}
