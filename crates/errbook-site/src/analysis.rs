//! Analysis: the stages that only read, load -> parse -> link, with every diagnostic they find.
//! `check`, `search`, `verify` and `build` all start here.

use errbook_core::config::Config;
use errbook_core::diag::{Diagnostic, Diagnostics};
use errbook_core::error::Result;
use errbook_core::model::Catalog;
use errbook_link::Graph;
use errbook_parse::load::SourceFile;
use errbook_records::RecordSet;
use std::path::Path;

/// Everything known about the content before rendering.
#[derive(Default)]
pub struct Analysis {
    pub files: Vec<SourceFile>,
    pub catalog: Catalog,
    pub graph: Graph,
    pub diags: Diagnostics,
    /// A lean analysis's code blocks seen more than once, found before the entries' code was
    /// dropped (`Scope::lean`); the build highlights each of them once.
    pub highlights: Option<errbook_render::highlight::Memo>,
    /// The entries were cut to what every page needs (`parse::lean`): the build reads each
    /// entry's file again to render its page. A lean analysis of a catalog whose entries fit
    /// `WHOLE_ENTRIES_BYTES` keeps them whole instead.
    pub lean_entries: bool,
    /// The search terms a lean analysis gathered from the entries it cut
    /// (`Entry::search_terms`): the search index is made from them.
    pub search_vocab: Option<errbook_search::Vocab>,
}

/// A lean analysis keeps the entries whole, and the build renders them without reading their
/// files again, while the entries' files hold at most this many bytes (their models then take
/// a few times that): reading and parsing every entry twice costs a tenth of a build's time,
/// which a catalog this size can spare in memory. A larger catalog's memory grows with what
/// cross-links and the index need, not with its pages.
/// `ERRBOOK_WHOLE_ENTRIES_MIB` sets another budget in MiB (0: always lean, as a large catalog's
/// build; the tests run both ways).
pub(crate) const WHOLE_ENTRIES_BYTES: u64 = 64 << 20;

/// `WHOLE_ENTRIES_BYTES`, or what `ERRBOOK_WHOLE_ENTRIES_MIB` says instead.
fn whole_entries_budget() -> u64 {
    std::env::var("ERRBOOK_WHOLE_ENTRIES_MIB")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(WHOLE_ENTRIES_BYTES, |mib| mib.saturating_mul(1 << 20))
}

/// load -> parse -> link.
pub fn analyse(root: &Path, cfg: &Config, infer: bool) -> Result<Analysis> {
    analyse_with(
        root,
        cfg,
        Scope {
            infer,
            drafts: true,
            review: true,
            lean: false,
        },
    )
}

/// What an analysis takes in.
#[derive(Debug, Clone, Copy)]
pub struct Scope {
    /// Infer the links authors did not write (else only the explicit ones).
    pub infer: bool,
    /// Keep the pages marked `draft: true` (a build leaves them out unless `--drafts`).
    pub drafts: bool,
    /// Keep the inferred links left out, for `check --links` (`Graph::review`).
    pub review: bool,
    /// A build's analysis: each entry's text is dropped once it is parsed (`Analysis::files`
    /// holds the articles', which inference matches), and so is what only the entry's own page
    /// shows (`parse::lean`; the build reads the file again to render it). Else every file's
    /// text and the whole model are kept.
    pub lean: bool,
}

/// `analyse`, choosing what it takes in.
pub fn analyse_with(root: &Path, cfg: &Config, scope: Scope) -> Result<Analysis> {
    let mut diags = Diagnostics::default();
    let (files, mut catalog, highlights, lean_entries, vocab) = if !scope.lean {
        let t = tracing::info_span!("load").entered();
        let files = errbook_parse::load::load_all(root, &mut diags)?;
        drop(t);
        let _t = tracing::info_span!("parse").entered();
        let catalog = errbook_parse::parse_all(&files, cfg.verify.timeout_s, &mut diags);
        (files, catalog, None, false, None)
    } else {
        let _t = tracing::info_span!("load+parse").entered();
        let repeated = super::repeated::Repeated::new(&cfg.build.default_code_lang);
        let paths = errbook_parse::load::content_paths(root)?;
        let lean = entry_bytes(root, &paths) > whole_entries_budget();
        let vocab = lean.then(errbook_search::Vocab::default);
        let how = (&paths[..], vocab.as_ref());
        let (files, catalog) = load_and_parse(root, cfg, how, &repeated, &mut diags)?;
        (files, catalog, Some(repeated.memo()), lean, vocab)
    };
    if lean_entries {
        let _t = tracing::info_span!("compact").entered();
        errbook_parse::compact::afresh(&mut catalog.entries);
    }
    let records = RecordSet::load(root, cfg)?;
    let parsed_files = (files, catalog);
    let mut analysis = link_stage(root, cfg, scope, parsed_files, (diags, &records))?;
    analysis.highlights = highlights;
    analysis.lean_entries = lean_entries;
    analysis.search_vocab = vocab;
    if lean_entries {
        let catalog = &mut analysis.catalog;
        // The entries whose parts other pages show keep their whole model.
        super::reread::restore_linked(root, cfg, catalog, &analysis.graph)?;
        // The link stage was the last to read the parts of an entry that stays cut beyond what
        // the lists and the search index's documents show; its search terms were gathered.
        for e in &mut catalog.entries {
            if e.search_terms.is_some() {
                errbook_parse::lean::linked(e);
            }
        }
        let _t = tracing::info_span!("compact.linked").entered();
        errbook_parse::compact::afresh(&mut catalog.entries);
    }
    Ok(analysis)
}

/// The stages after parse: drafts left out as the scope says, the link stage over the catalog,
/// the files' texts and the records, and every diagnostic sorted. `analyse_with` and the
/// workspace, which parses files as they change, both end here.
pub(super) fn link_stage(
    root: &Path,
    cfg: &Config,
    scope: Scope,
    (files, mut catalog): (Vec<SourceFile>, Catalog),
    (mut diags, records): (Diagnostics, &RecordSet),
) -> Result<Analysis> {
    if !scope.drafts {
        catalog.drop_drafts();
    }
    let t = tracing::info_span!("link").entered();
    let texts = if scope.lean {
        errbook_link::explicit::texts_or_read(&files, Some(root))
    } else {
        errbook_link::explicit::texts(&files)
    };
    let how = errbook_link::How {
        cfg,
        infer: scope.infer,
        records: Some(records),
        keep_review: scope.review,
    };
    let graph = errbook_link::link_from(&catalog, &files, &texts, how, &mut diags);
    drop((t, texts));
    diags.sort();
    Ok(Analysis {
        files,
        catalog,
        graph,
        diags,
        ..Analysis::default()
    })
}

/// The bytes of the entries' files among `paths` (what a file that cannot be read adds is
/// left to the reading to report).
fn entry_bytes(root: &Path, paths: &[(errbook_core::model::PageKind, std::path::PathBuf)]) -> u64 {
    use rayon::prelude::*;
    paths
        .par_iter()
        .filter(|(kind, _)| *kind == errbook_core::model::PageKind::Entry)
        .map(|(_, rel)| std::fs::metadata(root.join(rel)).map_or(0, |m| m.len()))
        .sum()
}

/// Read and parse the content files `paths`, a file at a time per thread, keeping the text of
/// the articles only (link inference matches them) and, with a `vocab` (a lean build), of each
/// entry what a lean build keeps (`parse::lean`), its search terms gathered into `vocab` first;
/// what the link stage checks of an entry was taken out at parse time, and the code blocks are
/// counted in `repeated` before they go. Returns the files kept and the catalog.
fn load_and_parse(
    root: &Path,
    cfg: &Config,
    (paths, vocab): (
        &[(errbook_core::model::PageKind, std::path::PathBuf)],
        Option<&errbook_search::Vocab>,
    ),
    repeated: &super::repeated::Repeated<'_>,
    diags: &mut Diagnostics,
) -> Result<(Vec<SourceFile>, Catalog)> {
    use errbook_core::model::{Entry, PageKind};
    use errbook_parse::{Done, Parsed};
    use rayon::prelude::*;
    let timeout = cfg.verify.timeout_s;
    // Each file: an entry, in the list itself and not boxed (a box each, then moved into a list
    // of their own, held a million entries twice while the one became the other); any other
    // file's parse and, for an article, the file kept; why it could not be read; or a failure
    // to read the folder.
    #[allow(clippy::large_enum_variant)] // Inline on purpose: the list becomes the entries.
    enum Read {
        Entry(Entry, Diagnostics),
        Other(Done, Option<SourceFile>),
        Unread(Diagnostic),
        Failed(errbook_core::error::Error),
    }
    let read: Vec<Read> = paths
        .par_iter()
        .map(|(kind, rel)| {
            let f = match errbook_parse::load::read_one(root, *kind, rel) {
                Ok(Ok(f)) => f,
                Ok(Err(d)) => return Read::Unread(d),
                Err(e) => return Read::Failed(e),
            };
            if f.kind == PageKind::Entry {
                let (e, d) = errbook_parse::parse_entry(&f, timeout);
                let Some(mut e) = e else {
                    return Read::Other(Done::of(&f, (Parsed::Failed, d)), None);
                };
                repeated.count(&e.snippets);
                if let Some(vocab) = vocab {
                    e.search_terms = Some(errbook_search::gather_terms(&e, vocab));
                    errbook_parse::lean::entry(&mut e);
                }
                return Read::Entry(e, d);
            }
            let (parsed, d) = errbook_parse::parse_file(&f, timeout);
            if let Parsed::Article(a) = &parsed {
                repeated.count(&a.snippets);
            }
            Read::Other(Done::of(&f, (parsed, d)), Some(f))
        })
        .collect();
    // Into the entries where they lie (`collect` reuses the list: an `Entry` is no larger).
    let (mut files, mut others, mut failed) = (Vec::new(), Vec::new(), None);
    let entries: Vec<Entry> = (read.into_iter())
        .filter_map(|r| match r {
            Read::Entry(e, d) => {
                diags.extend(d.items);
                Some(e)
            }
            Read::Other(done, kept) => {
                others.push(done);
                files.extend(kept);
                None
            }
            Read::Unread(d) => {
                diags.push(d);
                None
            }
            Read::Failed(e) => {
                failed.get_or_insert(e);
                None
            }
        })
        .collect();
    if let Some(e) = failed {
        return Err(e);
    }
    // A duplicate ID's diagnostic shows the file: read again, the rare time there is one.
    let text_of = |rel: &Path| {
        let (kind, _) = paths.iter().find(|(_, p)| p == rel)?;
        errbook_parse::load::read_one(root, *kind, rel).ok()?.ok()
    };
    let catalog = errbook_parse::catalog_with(entries, others, &text_of, diags);
    Ok((files, catalog))
}
