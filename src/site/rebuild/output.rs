//! What an update writes: the edited page first, then every page the change affects, the lists
//! whose lines changed, the JSON of the entries rendered again (their own files, or their lines
//! of their domains' files), the catalog-wide files and the search shards the kept index says
//! changed; only files whose bytes differ are written (atomically), and pages and shards that
//! went away are removed.

use super::affected::Changes;
use super::lines::CatalogLines;
use super::{Live, Update};
use crate::core::config::EntryJson;
use crate::core::error::{Error, Result};
use crate::core::model::{Catalog, PageKind, PageRef};
use crate::core::urls;
use crate::render::Renderer;
use crate::search::{Changed, LiveIndex, Shards};
use crate::site::build::{catalog_files, run_job, Job, Wanted};
use crate::site::Analysis;
use crate::view::Resolver;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// The render job of page (kind, id), if the catalog has it.
fn job_of(cat: &Catalog, kind: PageKind, id: &str) -> Option<Job> {
    match kind {
        PageKind::Entry => cat
            .entries
            .binary_search_by(|e| e.id.as_str().cmp(id))
            .ok()
            .map(Job::Entry),
        PageKind::Article => cat
            .articles
            .binary_search_by(|x| x.id.as_str().cmp(id))
            .ok()
            .map(Job::Article),
    }
}

/// Write `bytes` at `rel` under `dest` unless the file already holds them; whether it wrote.
fn write_if_changed(dest: &Path, rel: &str, bytes: &[u8]) -> Result<bool> {
    let target = dest.join(rel);
    if std::fs::read(&target).ok().as_deref() == Some(bytes) {
        return Ok(false);
    }
    crate::core::fs::write_atomic(&target, bytes)?;
    Ok(true)
}

/// The sitemap parts (`sitemap-N.xml`) in `dest` that the sitemap no longer names: a site that
/// shrank below what one sitemap file holds has `sitemap.xml` alone again.
fn stale_sitemap_parts(dest: &Path, keep: &HashSet<&str>) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir(dest) else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| {
            let n = name
                .strip_prefix("sitemap-")
                .and_then(|r| r.strip_suffix(".xml"));
            n.is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                && !keep.contains(name.as_str())
        })
        .collect()
}

/// The site paths of the list pages to redraw, those that show what changed: the home page
/// (counts, facets, the best-fixed entries, recent articles) on any change; the list of all
/// errors and the touched entries' facet pages when an entry's line changed; the articles' list
/// when an article's did; the facets' index pages when a facet's number of entries did.
pub(super) fn lists_to_redraw(ch: &Changes) -> HashSet<String> {
    let mut lists: HashSet<String> = HashSet::new();
    if ch.listed {
        lists.insert(String::new());
    }
    if ch.listed_entries {
        lists.insert("errors/".into());
        lists.extend(ch.facets.iter().cloned());
    }
    if ch.listed_articles {
        lists.insert("articles/".into());
    }
    if ch.facet_counts {
        lists.extend(["domains/", "categories/", "codes/"].map(String::from));
    }
    lists
}

impl Live {
    /// Render one entry or article page of `catalog` with `graph` and write it if its bytes
    /// changed; its site path and whether it was written.
    pub(super) fn write_page(
        &self,
        r: &Renderer<'_>,
        catalog: &Catalog,
        graph: &crate::link::Graph,
        page: &PageRef,
    ) -> Result<(String, bool)> {
        let _t = crate::core::timings::stage("update: early page");
        let resolver = Resolver::new(catalog, graph, &self.records);
        let job = job_of(catalog, page.kind, &page.id)
            .ok_or_else(|| Error::Other(format!("no page for {}", page.id)))?;
        let out = run_job(r, &resolver, &job)?;
        let wrote = write_if_changed(
            &self.opts.dest,
            &urls::file_of(&out.path),
            out.html.as_bytes(),
        )?;
        Ok((out.path, wrote))
    }

    /// Render the affected pages and every catalog-wide file with `r`; write what changed.
    /// `kept`: the search index and catalog.json's lines, changed on the way (`None`: made
    /// whole). `drawn`: list pages already rendered (by index into the renderer's lists: their
    /// site path and HTML).
    pub(super) fn write_affected(
        &self,
        r: &Renderer<'_>,
        next: &Analysis,
        ch: &Changes,
        kept: (&mut Option<LiveIndex>, &mut Option<CatalogLines>),
        drawn: Vec<(usize, (String, String))>,
    ) -> Result<Update> {
        let (index, lines) = kept;
        use rayon::prelude::*;
        let pages = crate::core::timings::stage("update: pages");
        let resolver = Resolver::new(&next.catalog, &next.graph, &self.records);
        let cat = &next.catalog;
        let mut jobs: Vec<Job> = ch
            .pages
            .iter()
            .filter_map(|p| job_of(cat, p.kind, &p.id))
            .collect();
        let lists = lists_to_redraw(ch);
        let mut gone_facets: HashSet<&String> = ch.facets.iter().collect();
        // Site paths of every page, for the sitemap (in the order of a full build).
        let mut all_paths: Vec<String> = cat.entries.iter().map(|e| urls::entry(&e.id)).collect();
        all_paths.extend(cat.articles.iter().map(|a| urls::article(&a.id)));
        for (i, p) in r.lists.pages.iter().enumerate() {
            gone_facets.remove(&p.path);
            all_paths.push(p.path.clone());
            if lists.contains(&p.path) && !drawn.iter().any(|(d, _)| *d == i) {
                jobs.push(Job::List(i));
            }
        }
        let mut out: Vec<(String, Vec<u8>)> = (drawn.into_iter())
            .map(|(_, (path, html))| (urls::file_of(&path), html.into_bytes()))
            .collect();
        // The JSON of every entry rendered again (its links may have changed), and of the
        // entries that went away (`None`), by ID.
        let mut json: BTreeMap<String, Option<Vec<u8>>> = ch
            .touched
            .iter()
            .filter(|p| p.kind == PageKind::Entry && cat.page(p).is_none())
            .map(|p| (p.id.clone(), None))
            .collect();
        let rendered = {
            let _t = crate::core::timings::stage("  render");
            jobs.par_iter()
                .map(|j| Ok((*j, run_job(r, &resolver, j)?)))
                .collect::<Result<Vec<_>>>()?
        };
        for (job, o) in rendered {
            out.push((urls::file_of(&o.path), o.html.into_bytes()));
            if let (Job::Entry(i), Some(bytes)) = (job, o.json) {
                json.insert(cat.entries[i].id.clone(), Some(bytes));
            }
        }
        {
            let _t = crate::core::timings::stage("  entry JSON");
            out.extend(self.entry_json_files(json)?);
        }
        drop(pages);
        let _catalog = crate::core::timings::stage("update: catalog files");
        if let Some(f) = self.catalog_json(&resolver, ch, lines)? {
            out.push(f);
        }
        let want = Wanted {
            catalog: false,
            links: ch.graph,
            sitemap: ch.paths,
            feed: ch.touched.iter().any(|p| p.kind == PageKind::Article),
            search: false,
        };
        let files = catalog_files(&self.cfg, &resolver, &all_paths, self.opts.offline, want)?;
        let keep = || files.iter().map(|f| f.path.as_str()).collect();
        let gone = (want.sitemap).then(|| stale_sitemap_parts(&self.opts.dest, &keep()));
        let search = {
            let _t = crate::core::timings::stage("  search");
            self.search_files(next, ch, index)
        };
        drop(_catalog);
        let gone: Vec<String> = gone.into_iter().flatten().chain(search.remove).collect();
        out.extend(files.into_iter().map(|f| (f.path, f.bytes)));
        out.extend(search.write.into_iter().map(|f| (f.path, f.bytes)));
        let written = self.write_out(&out, &gone)?;
        self.remove_gone(next, ch, gone_facets);
        Ok(Update {
            rendered: out.len(),
            written,
            full: false,
            recovered: false,
            millis: 0,
        })
    }

    /// catalog.json from its kept lines (`lines`: brought up to date, or made whole), when
    /// something it shows changed: an entry's line, an article's, the graph.
    fn catalog_json(
        &self,
        resolver: &Resolver<'_>,
        ch: &Changes,
        lines: &mut Option<CatalogLines>,
    ) -> Result<Option<(String, Vec<u8>)>> {
        let _t = crate::core::timings::stage("  catalog.json");
        let (cat, cfg) = (resolver.catalog, &self.cfg);
        let (kept, changed) = match lines.take() {
            Some(l) => l.update(cat, &ch.touched, cfg)?,
            None => (CatalogLines::new(cat, cfg)?, true),
        };
        let kept = lines.insert(kept);
        if !(changed || ch.listed || ch.graph) {
            return Ok(None);
        }
        let bytes = kept.file(cat, &resolver.discussed_by_article(), cfg)?;
        Ok(Some(("api/catalog.json".to_string(), bytes)))
    }

    /// Write the files of `out` whose bytes changed and remove the files of `gone` (search
    /// shards and sitemap parts no longer made); the files written, in order.
    fn write_out(&self, out: &[(String, Vec<u8>)], gone: &[String]) -> Result<Vec<String>> {
        use rayon::prelude::*;
        let dest = &self.opts.dest;
        let _write = crate::core::timings::stage("update: write");
        for p in gone {
            let _ = std::fs::remove_file(dest.join(p));
        }
        let mut written: Vec<String> = out
            .par_iter()
            .filter_map(|(rel, bytes)| match write_if_changed(dest, rel, bytes) {
                Ok(true) => Some(Ok(rel.clone())),
                Ok(false) => None,
                Err(e) => Some(Err(e)),
            })
            .collect::<Result<_>>()?;
        written.sort();
        Ok(written)
    }

    /// The search files that changed and those to remove. With no kept index (an update failed
    /// half way), the whole index is made again and written over what is there.
    fn search_files(&self, next: &Analysis, ch: &Changes, index: &mut Option<LiveIndex>) -> Shards {
        let (search, offline) = (self.cfg.search, self.opts.offline);
        let (cat, graph) = (&next.catalog, &next.graph);
        if let Some(ix) = index {
            let mut changed = Changed::default();
            for p in &ch.touched {
                match p.kind {
                    PageKind::Entry => changed.entries.insert(p.id.clone()),
                    PageKind::Article => changed.articles.insert(p.id.clone()),
                };
            }
            return ix.update(cat, graph, &changed, search, offline, true);
        }
        let (ix, mut files) = LiveIndex::all_files(cat, graph, search, offline);
        *index = Some(ix);
        let dest = &self.opts.dest;
        let keep: HashSet<&str> = files.write.iter().map(|f| f.path.as_str()).collect();
        let stale = crate::search::stale_shards(dest, &keep);
        files.remove = stale
            .iter()
            .filter_map(|p| p.strip_prefix(dest).ok())
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        files
    }

    /// The files that hold the entries' JSON of `json` (by ID; `None`: the entry went away) under
    /// `build.entry_json`: each entry's own file, or its domain's file with those entries
    /// spliced in. A domain file left with no entry is removed here; a gone entry's own file
    /// by `remove_gone`.
    fn entry_json_files(
        &self,
        json: BTreeMap<String, Option<Vec<u8>>>,
    ) -> Result<Vec<(String, Vec<u8>)>> {
        let mut out = Vec::new();
        match self.cfg.build.entry_json {
            EntryJson::None => {}
            EntryJson::Files => {
                for (id, bytes) in json {
                    if let Some(b) = bytes {
                        out.push((urls::entry_json(&id), b));
                    }
                }
            }
            EntryJson::Domains => {
                let mut by_domain: BTreeMap<String, BTreeMap<String, Option<Vec<u8>>>> =
                    BTreeMap::new();
                for (id, bytes) in json {
                    let d = urls::id_domain(&id).to_string();
                    by_domain.entry(d).or_default().insert(id, bytes);
                }
                // Each domain's file read and spliced on its own thread (a few MB each); one
                // that holds its entries as they are already is left alone.
                use crate::render::shards::{holds, splice};
                use rayon::prelude::*;
                let spliced: Vec<(String, Option<Vec<u8>>)> = by_domain
                    .par_iter()
                    .filter_map(|(domain, changes)| {
                        let rel = urls::domain_json(domain);
                        let old = std::fs::read(self.opts.dest.join(&rel)).ok();
                        if old.as_deref().is_some_and(|o| holds(o, changes)) {
                            return None;
                        }
                        Some((rel, splice(domain, old.as_deref(), changes)))
                    })
                    .collect();
                for (rel, bytes) in spliced {
                    match bytes {
                        Some(bytes) => out.push((rel, bytes)),
                        None => {
                            let _ = std::fs::remove_file(self.opts.dest.join(&rel));
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    /// Index pages of a facet that lost its last entry, and pages of entries or articles that no
    /// longer exist.
    fn remove_gone(&self, next: &Analysis, ch: &Changes, gone_facets: HashSet<&String>) {
        let (dest, cat) = (&self.opts.dest, &next.catalog);
        for f in gone_facets {
            let _ = std::fs::remove_dir_all(dest.join(f));
        }
        for page in ch.touched.iter().filter(|p| cat.page(p).is_none()) {
            let site = match page.kind {
                PageKind::Entry => urls::entry(&page.id),
                PageKind::Article => urls::article(&page.id),
            };
            let _ = std::fs::remove_dir_all(dest.join(&site));
            if page.kind == PageKind::Entry && self.cfg.build.entry_json == EntryJson::Files {
                let _ = std::fs::remove_file(dest.join(urls::entry_json(&page.id)));
            }
        }
    }
}

#[cfg(test)]
mod sitemap_tests {
    use super::*;

    #[test]
    fn sitemap_parts_the_sitemap_no_longer_names_are_stale() {
        let dir = tempfile::tempdir().unwrap();
        for f in [
            "sitemap.xml",
            "sitemap-1.xml",
            "sitemap-2.xml",
            "sitemap-12.xml",
            "sitemap-.xml",
            "sitemap-x.xml",
            "feed.xml",
        ] {
            std::fs::write(dir.path().join(f), "x").unwrap();
        }
        let keep: HashSet<&str> = ["sitemap.xml", "sitemap-1.xml"].into_iter().collect();
        let mut stale = stale_sitemap_parts(dir.path(), &keep);
        stale.sort();
        assert_eq!(stale, ["sitemap-12.xml", "sitemap-2.xml"]);
        let alone: HashSet<&str> = ["sitemap.xml"].into_iter().collect();
        assert_eq!(stale_sitemap_parts(dir.path(), &alone).len(), 3);
    }
}
