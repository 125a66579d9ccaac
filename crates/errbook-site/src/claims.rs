//! `errbook claims` as a library call: every code block of the pages asked for (all by
//! default) with its claim, where the claim comes from, its evidence and confidence, what it
//! needs and continues, whether it can run and why not, and the verdicts of its records judged
//! against this claim. The readings themselves are parse's (`errbook-claims`); this lists them,
//! with the error of the entry an article is about where a block is read as failing and its
//! text names none (`errbook_render::view::expect`, as the site judges it).

use super::analysis::{analyse_with, Analysis, Scope};
use errbook_core::config::Config;
use errbook_core::error::Result;
use errbook_core::model::{Claim, ClaimEvidence, ClaimSource, Page, PageKind, Snippet};
use errbook_records::{RecordSet, Verdict};
use errbook_render::view::expect::Expected;
use errbook_render::view::Resolver;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The error a failing claim names (`type`, `match`), as `errbook claims` prints it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct NamedError {
    #[serde(rename = "type")]
    pub exception: Option<String>,
    #[serde(rename = "match")]
    pub message: Option<String>,
}

/// One environment's verdict on a block, against the block's claim as it is now.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct VerdictIn {
    pub environment: String,
    pub verdict: Verdict,
}

/// One code block as `errbook claims` lists it.
#[derive(Debug, Clone, Serialize)]
pub struct BlockClaim {
    /// `articles/<id>` or `errors/<domain>/<slug>`.
    pub page: String,
    /// 1-based position among the page's fences.
    pub block: usize,
    pub line: usize,
    pub lang: String,
    /// `fails`, `runs` or `none`.
    pub claim: &'static str,
    /// `declared` or `inferred`.
    pub source: &'static str,
    pub error: Option<NamedError>,
    pub gpus: u32,
    /// 1-based blocks whose definitions it runs after.
    pub continues: Vec<usize>,
    pub runnable: bool,
    pub why_not: Option<String>,
    pub evidence: Vec<ClaimEvidence>,
    pub confidence: f64,
    pub verdicts: Vec<VerdictIn>,
    /// The page's file, relative to the root (for `--write`; not printed).
    #[serde(skip)]
    pub file: PathBuf,
    /// The attributes that would declare this reading (`--write`); none where there is
    /// nothing to write.
    #[serde(skip)]
    pub attributes: Option<String>,
}

/// What `errbook claims --format json` prints: one object, `{"blocks": [...]}`.
#[derive(Debug, Clone, Serialize)]
pub struct ClaimList {
    pub blocks: Vec<BlockClaim>,
}

/// Every block of the pages under `only` (files or folders; every page when empty).
pub fn claims(root: &Path, cfg: &Config, only: &[PathBuf]) -> Result<ClaimList> {
    let scope = Scope {
        infer: false,
        drafts: true,
        review: false,
        entry_texts: false,
    };
    let mut analysis = analyse_with(root, cfg, scope)?;
    let records = RecordSet::load(root, cfg)?;
    infer_pages_links(root, cfg, &mut analysis, &records);
    let resolver = Resolver::new(&analysis.catalog, &analysis.graph, &records);
    // A relative path names a file of the catalog where it is one (as `check --links` reads
    // them), else one from where errbook was started.
    let wanted: Vec<PathBuf> = only
        .iter()
        .map(|p| {
            let in_root = root.join(p);
            let p = if p.is_relative() && in_root.exists() {
                in_root
            } else {
                p.clone()
            };
            p.canonicalize().unwrap_or(p)
        })
        .collect();
    let mut out = Vec::new();
    for page in analysis.catalog.pages() {
        let file = root.join(page.source());
        let file = file.canonicalize().unwrap_or(file);
        if !wanted.is_empty() && !wanted.iter().any(|w| file.starts_with(w)) {
            continue;
        }
        out.extend(blocks_of(page, &resolver));
    }
    Ok(ClaimList { blocks: out })
}

/// Infer what each article is about into `analysis`'s graph: a block read as failing with no
/// error named is expected to raise the error of that entry. The code examples' links, most of
/// an inferring link stage's time, are left out.
fn infer_pages_links(root: &Path, cfg: &Config, analysis: &mut Analysis, records: &RecordSet) {
    let texts = errbook_link::explicit::texts_or_read(&analysis.files, Some(root));
    let how = errbook_link::How {
        cfg,
        infer: true,
        records: Some(records),
        keep_review: false,
    };
    let mut diags = errbook_core::diag::Diagnostics::default();
    analysis.graph =
        errbook_link::link_pages_from(&analysis.catalog, &analysis.files, &texts, how, &mut diags);
}

/// Give each article block that expects the error of the entry its article is about that
/// error as its run's claim, as the site judges it: what `errbook verify` runs blocks under, so
/// that its summary and the pages agree. Returns how many blocks took an entry's error.
pub fn expect_entry_errors(
    root: &Path,
    cfg: &Config,
    analysis: &mut Analysis,
    records: &RecordSet,
) -> usize {
    infer_pages_links(root, cfg, analysis, records);
    let resolver = Resolver::new(&analysis.catalog, &analysis.graph, records);
    let mut found = Vec::new();
    for (i, a) in analysis.catalog.articles.iter().enumerate() {
        for (j, s) in a.snippets.iter().enumerate() {
            if let Some(x) = resolver.expected(Page::Article(a), s) {
                found.push((i, j, x.claim));
            }
        }
    }
    for (i, j, claim) in &found {
        // The article is copied once here if the workspace still shares it: verify's own.
        let article = std::sync::Arc::make_mut(&mut analysis.catalog.articles[*i]);
        if let Some(run) = article.snippets[*j].run.as_mut() {
            run.claim = claim.clone();
        }
    }
    found.len()
}

fn blocks_of<'a>(page: Page<'a>, resolver: &Resolver<'a>) -> Vec<BlockClaim> {
    let name = match page.reference().kind {
        PageKind::Article => format!("articles/{}", page.reference().id),
        PageKind::Entry => format!("errors/{}", page.reference().id),
    };
    let snippets = page.snippets();
    snippets
        .iter()
        .map(|s| {
            let r = s.reading.as_deref();
            let expected = resolver.expected(page, s);
            let claim = expected
                .as_ref()
                .map(|x| &x.claim)
                .or(r.and_then(|r| r.claim.as_ref()));
            let entry_claim = expected.as_ref().map(|x| &x.claim);
            let verdicts = resolver
                .records
                .status_expecting(&page.reference(), snippets, s, entry_claim)
                .fresh()
                .iter()
                .map(|j| VerdictIn {
                    environment: j.env.key(),
                    verdict: j.verdict,
                })
                .collect();
            BlockClaim {
                page: name.clone(),
                block: s.index + 1,
                line: s.line,
                lang: s.lang.clone(),
                claim: match claim {
                    Some(Claim::Fails { .. }) => "fails",
                    Some(Claim::Runs) => "runs",
                    None => "none",
                },
                source: match r.map(|r| r.source) {
                    Some(ClaimSource::Declared) => "declared",
                    _ => "inferred",
                },
                error: match claim {
                    Some(Claim::Fails { exception, message }) => Some(NamedError {
                        exception: exception.clone(),
                        message: message.clone(),
                    }),
                    _ => None,
                },
                gpus: r.map_or(0, |r| r.gpus),
                continues: r
                    .map(|r| r.continues.iter().map(|c| c + 1).collect())
                    .unwrap_or_default(),
                runnable: r.is_some_and(|r| r.runnable),
                why_not: r.and_then(|r| r.why_not.clone()),
                evidence: r
                    .map(|r| r.evidence.clone())
                    .unwrap_or_default()
                    .into_iter()
                    .chain(expected.as_ref().map(from_entry))
                    .collect(),
                confidence: r.map_or(0.0, |r| (f64::from(r.confidence) * 100.0).round() / 100.0),
                verdicts,
                file: page.source().to_path_buf(),
                attributes: attributes_with(s, expected.as_ref(), true),
            }
        })
        .collect()
}

/// The evidence that a claim's error is the entry's: which entry, and how errbook knows the
/// article is about it, at the line of the first words the link rests on (else the front
/// matter's first line).
fn from_entry(x: &Expected<'_>) -> ClaimEvidence {
    ClaimEvidence {
        line: x.link.evidence.iter().find_map(|e| e.line).unwrap_or(1),
        text: format!(
            "the error of the entry it is about, {} ({}): {}",
            x.entry.id,
            x.how(),
            x.error()
        ),
    }
}

/// The attributes `--write` writes onto block `s` of `page`: its reading, with the error of the
/// entry its article is about where the block expects one. `inferred_links`: whether the
/// resolver's graph holds the inferred links (the language server's check infers none); without
/// them a block that expects an entry's error whose article names none gets nothing, since what
/// it would be judged against is not known, and writing the reading alone would lose it.
pub fn attributes_to_write(
    resolver: &Resolver<'_>,
    page: Page<'_>,
    s: &Snippet,
    inferred_links: bool,
) -> Option<String> {
    attributes_with(s, resolver.expected(page, s).as_ref(), inferred_links)
}

/// `attributes_to_write` with the block's expected error already asked for.
fn attributes_with(
    s: &Snippet,
    expected: Option<&Expected<'_>>,
    inferred_links: bool,
) -> Option<String> {
    match expected {
        Some(x) => errbook_claims::attributes(&declaring(s, &x.claim)),
        None if inferred_links || !errbook_render::view::expect::expects_entry(s) => {
            errbook_claims::attributes(s)
        }
        None => None,
    }
}

/// `s` with its reading's claim replaced by the entry's: what `--write` declares, so that the
/// author reviews the error the block is judged against.
fn declaring(s: &Snippet, claim: &Claim) -> Snippet {
    let mut s = s.clone();
    if let Some(r) = s.reading.as_deref_mut() {
        r.claim = Some(claim.clone());
    }
    s
}

/// Write the readings of `blocks` into their pages as info-string attributes; the files
/// changed, relative to `root`.
pub fn write_claims(root: &Path, blocks: &[BlockClaim]) -> Result<Vec<PathBuf>> {
    let mut files: Vec<&PathBuf> = blocks
        .iter()
        .filter(|b| b.attributes.is_some())
        .map(|b| &b.file)
        .collect();
    files.dedup();
    let mut changed = Vec::new();
    for f in files {
        let edits: Vec<(usize, String)> = blocks
            .iter()
            .filter(|b| b.file == *f)
            .filter_map(|b| Some((b.line, b.attributes.clone()?)))
            .collect();
        let path = root.join(f);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            errbook_core::error::Error::system(format!("reading {}", path.display()), e)
        })?;
        let new = errbook_claims::write_attributes(&text, &edits);
        if new != text {
            errbook_core::fs::write_atomic(&path, new.as_bytes())?;
            changed.push(f.clone());
        }
    }
    Ok(changed)
}
