//! One update's edit of the kept state: each changed file is forgotten (its entry or article
//! taken out of the catalog) and read again, and what changed is noted (the pages touched, the
//! facets they are listed under, what list pages show of them) so the update knows what to
//! render. Everything taken out is kept, so a change that does not build is put back whole.

use super::affected::{entry_facets, listed_entries, Changes, Listed};
use crate::core::diag::{Diagnostic, Diagnostics};
use crate::core::error::Result;
use crate::core::model::{Article, Entry, PageKind, PageRef};
use crate::link::{Before, Graph};
use crate::load::SourceFile;
use crate::parse::Parsed;
use crate::site::Analysis;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

pub(super) struct Edit {
    /// The graph before the edit: whole until the new one is made, then (usually) the patch
    /// that made it (`link::Before`).
    before: Before,
    old_files: Vec<SourceFile>,
    old_unparsed: Vec<crate::core::model::PageRef>,
    /// What the catalog lost and gained, to put it back.
    removed_entries: Vec<Entry>,
    removed_articles: Vec<Article>,
    added_entries: Vec<String>,
    added_articles: Vec<String>,
    /// Parse diagnostics of every content file, the changed ones as they are now.
    file_diags: HashMap<PathBuf, Vec<Diagnostic>>,
    /// Pages whose files changed (old and new IDs).
    touched: BTreeSet<PageRef>,
    /// Facet pages (domain, category, code) of the touched entries, old and new.
    facets: BTreeSet<String>,
    /// What list pages show of the touched files, before and after.
    listed_before: Vec<Listed>,
    listed_after: Vec<Listed>,
}

impl Edit {
    /// Start editing `next`; its graph is set aside (the new one is made after the edit).
    pub(super) fn new(next: &mut Analysis, file_diags: HashMap<PathBuf, Vec<Diagnostic>>) -> Edit {
        Edit {
            before: Before::Whole(std::mem::take(&mut next.graph)),
            old_files: next.files.clone(),
            old_unparsed: next.catalog.unparsed.clone(),
            removed_entries: Vec::new(),
            removed_articles: Vec::new(),
            added_entries: Vec::new(),
            added_articles: Vec::new(),
            file_diags,
            touched: BTreeSet::new(),
            facets: BTreeSet::new(),
            listed_before: Vec::new(),
            listed_after: Vec::new(),
        }
    }

    /// Forget what the file at `path` was, and read and parse what it is now (a deleted file
    /// stays forgotten; an unreadable one becomes its diagnostic).
    pub(super) fn apply_file(
        &mut self,
        next: &mut Analysis,
        root: &Path,
        path: &Path,
        timeout: u64,
        drafts: bool,
    ) -> Result<()> {
        self.forget(next, path);
        if !root.join(path).is_file() {
            return Ok(());
        }
        let kind = if path.starts_with(crate::core::ids::ERRORS_DIR) {
            PageKind::Entry
        } else {
            PageKind::Article
        };
        let file = match crate::load::read_one(root, kind, path)? {
            Ok(f) => f,
            Err(d) => {
                self.file_diags.insert(path.to_path_buf(), vec![d]);
                return Ok(());
            }
        };
        let (parsed, d) = crate::parse::parse_file(&file, timeout);
        let mut d = d.items;
        match parsed {
            // A draft left out of the site is read (its diagnostics count), not shown.
            Parsed::Entry(e) if e.draft && !drafts => {}
            Parsed::Article(a) if a.draft && !drafts => {}
            Parsed::Entry(e) => self.add_entry(next, *e, &file, &mut d),
            Parsed::Article(a) => self.add_article(next, *a, &file, &mut d),
            Parsed::Failed => next
                .catalog
                .unparsed
                .extend(crate::parse::page_of_path(&file)),
        }
        self.file_diags.insert(path.to_path_buf(), d);
        let at = next.files.partition_point(|f| f.path < file.path);
        next.files.insert(at, file);
        Ok(())
    }

    fn forget(&mut self, next: &mut Analysis, path: &Path) {
        if let Some(i) = next.files.iter().position(|f| f.path == path) {
            let f = next.files.remove(i);
            if let Some(p) = crate::parse::page_of_path(&f) {
                next.catalog.unparsed.retain(|u| *u != p);
            }
        }
        self.file_diags.remove(path);
        let cat = &mut next.catalog;
        if let Some(i) = cat.entries.iter().position(|e| e.source == path) {
            let e = cat.entries.remove(i);
            self.touched.insert(PageRef {
                kind: PageKind::Entry,
                id: e.id.clone(),
            });
            self.facets.extend(entry_facets(&e));
            self.listed_before.push(Listed::entry(&e));
            self.removed_entries.push(e);
        }
        if let Some(i) = cat.articles.iter().position(|a| a.source == path) {
            let a = cat.articles.remove(i);
            self.touched.insert(PageRef {
                kind: PageKind::Article,
                id: a.id.clone(),
            });
            self.listed_before.push(Listed::article(&a));
            self.removed_articles.push(a);
        }
    }

    fn add_entry(
        &mut self,
        next: &mut Analysis,
        e: Entry,
        file: &SourceFile,
        d: &mut Vec<Diagnostic>,
    ) {
        self.touched.insert(PageRef {
            kind: PageKind::Entry,
            id: e.id.clone(),
        });
        self.facets.extend(entry_facets(&e));
        self.listed_after.push(Listed::entry(&e));
        let cat = &mut next.catalog;
        match cat.entries.binary_search_by(|x| x.id.cmp(&e.id)) {
            Ok(i) => d.push(crate::parse::duplicate_id(
                file,
                &e.id,
                &cat.entries[i].source,
            )),
            Err(i) => {
                self.added_entries.push(e.id.clone());
                cat.entries.insert(i, e);
            }
        }
    }

    fn add_article(
        &mut self,
        next: &mut Analysis,
        a: Article,
        file: &SourceFile,
        d: &mut Vec<Diagnostic>,
    ) {
        self.touched.insert(PageRef {
            kind: PageKind::Article,
            id: a.id.clone(),
        });
        self.listed_after.push(Listed::article(&a));
        let cat = &mut next.catalog;
        match cat.articles.binary_search_by(|x| x.id.cmp(&a.id)) {
            Ok(i) => d.push(crate::parse::duplicate_id(
                file,
                &a.id,
                &cat.articles[i].source,
            )),
            Err(i) => {
                self.added_articles.push(a.id.clone());
                cat.articles.insert(i, a);
            }
        }
    }

    /// The one page edited in place (one file, same ID, listed the same way, no parse error),
    /// if that is what this edit is.
    pub(super) fn single_page(&self, rel: &[PathBuf]) -> Option<PageRef> {
        let [path] = rel else { return None };
        let clean = !self
            .file_diags
            .get(path)
            .is_some_and(|d| d.iter().any(|d| d.is_error()));
        let one = self.touched.len() == 1
            && self.listed_before.len() == 1
            && self.listed_after.len() == 1;
        (one && clean)
            .then(|| self.touched.iter().next().cloned())
            .flatten()
    }

    /// The graph as it was before the edit, while the new one is not made.
    pub(super) fn old_graph(&self) -> Option<&Graph> {
        match &self.before {
            Before::Whole(g) => Some(g),
            Before::Patched(_) => None,
        }
    }

    /// The graph before the edit, to make the new one from (`set_before` then keeps what it
    /// was).
    pub(super) fn take_old_graph(&mut self) -> Graph {
        match std::mem::take(&mut self.before) {
            Before::Whole(g) => g,
            Before::Patched(_) => Graph::default(),
        }
    }

    pub(super) fn set_before(&mut self, before: Before) {
        self.before = before;
    }

    /// Every file's parse diagnostics (the link stage adds its own).
    pub(super) fn parse_diagnostics(&self) -> Diagnostics {
        let mut diags = Diagnostics::default();
        for d in self.file_diags.values() {
            diags.extend(d.iter().cloned());
        }
        diags
    }

    /// What the edit changed, as the link state needs it, with `graph` the graph before.
    pub(super) fn changed(&self, graph: Graph) -> crate::link::Changed<'_> {
        crate::link::Changed {
            old_entries: &self.removed_entries,
            touched: &self.touched,
            graph,
        }
    }

    /// What the edit changed that lists show (no graph needed: `pages` empty, `graph` false).
    pub(super) fn listing(&self) -> Changes {
        let entries_before = listed_entries(&self.listed_before);
        let entries_after = listed_entries(&self.listed_after);
        let articles = |v: &[Listed]| -> Vec<Listed> {
            (v.iter())
                .filter(|l| matches!(l, Listed::Article { .. }))
                .cloned()
                .collect()
        };
        let pages = |v: &[Listed]| -> BTreeSet<(PageKind, String)> {
            (v.iter())
                .map(|l| (l.page().0, l.page().1.to_string()))
                .collect()
        };
        let facet_counts = entries_before.1 != entries_after.1;
        Changes {
            pages: HashSet::new(),
            touched: self.touched.clone(),
            facets: self.facets.clone(),
            listed: self.listed_before != self.listed_after,
            listed_entries: entries_before.0 != entries_after.0,
            listed_articles: articles(&self.listed_before) != articles(&self.listed_after),
            facet_counts,
            paths: facet_counts || pages(&self.listed_before) != pages(&self.listed_after),
            graph: false,
        }
    }

    /// What the edit changed, against the graph made from it.
    pub(super) fn changes(&self, new_graph: &Graph) -> Changes {
        let (pages, graph) = match &self.before {
            Before::Whole(old) => super::affected::pages(old, new_graph, &self.touched),
            Before::Patched(p) => super::affected::pages_patched(new_graph, p, &self.touched),
        };
        Changes {
            pages,
            graph,
            ..self.listing()
        }
    }

    pub(super) fn into_file_diags(self) -> HashMap<PathBuf, Vec<Diagnostic>> {
        self.file_diags
    }

    /// Put the catalog, the graph and the files back as they were before the edit.
    pub(super) fn revert(self, mut a: Analysis) -> Analysis {
        let cat = &mut a.catalog;
        cat.entries.retain(|e| !self.added_entries.contains(&e.id));
        cat.articles
            .retain(|x| !self.added_articles.contains(&x.id));
        cat.entries.extend(self.removed_entries);
        cat.articles.extend(self.removed_articles);
        cat.sort();
        a.graph = self.before.undo(std::mem::take(&mut a.graph));
        a.files = self.old_files;
        a.catalog.unparsed = self.old_unparsed;
        a
    }
}
