//! The typed catalog model: what `parse` produces and every later stage reads.
//!
//! Nothing here knows about files, HTML or JSON layout; it is plain data with serde derives so the
//! `/api/` output is a direct serialisation of it.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;

/// The whole parsed catalog, in a stable order (entries by ID, articles by ID). Each page is
/// shared (`Arc`): a catalog made again after one file changed (the workspace `serve` and the
/// language server keep) holds the other pages' parses as they were, not copies of them.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub entries: Vec<Arc<Entry>>,
    pub articles: Vec<Arc<Article>>,
    /// Pages whose file is there but did not parse: their own errors say why, and nothing that
    /// names them is reported as broken because of it.
    pub unparsed: Vec<PageRef>,
}

impl Catalog {
    /// Whether a page with this ID is there but did not parse.
    pub fn is_unparsed(&self, id: &str) -> bool {
        self.unparsed.iter().any(|p| p.id == id)
    }

    pub fn entry(&self, id: &str) -> Option<&Entry> {
        self.entries
            .binary_search_by(|e| e.id.as_str().cmp(id))
            .ok()
            .map(|i| &*self.entries[i])
    }
    pub fn article(&self, id: &str) -> Option<&Article> {
        self.articles
            .binary_search_by(|a| a.id.as_str().cmp(id))
            .ok()
            .map(|i| &*self.articles[i])
    }
    /// Sort both lists by ID, then path, so lookups and output order are deterministic. In
    /// place: a stable sort's buffer would be half the entries again (hundreds of MB at a
    /// million), and paths are unique, so the order is the same.
    pub fn sort(&mut self) {
        self.entries
            .sort_unstable_by(|a, b| a.id.cmp(&b.id).then_with(|| a.source.cmp(&b.source)));
        self.articles
            .sort_unstable_by(|a, b| a.id.cmp(&b.id).then_with(|| a.source.cmp(&b.source)));
    }

    /// Leave out the drafts (`draft: true`); how many there were.
    pub fn drop_drafts(&mut self) -> usize {
        let before = self.entries.len() + self.articles.len();
        self.entries.retain(|e| !e.draft);
        self.articles.retain(|a| !a.draft);
        before - self.entries.len() - self.articles.len()
    }

    /// The page `page` names, if the catalog has it.
    pub fn page(&self, page: &PageRef) -> Option<Page<'_>> {
        match page.kind {
            PageKind::Entry => self.entry(&page.id).map(Page::Entry),
            PageKind::Article => self.article(&page.id).map(Page::Article),
        }
    }

    /// The code blocks of the page `page` names (empty when there is no such page).
    pub fn snippets_of(&self, page: &PageRef) -> &[Snippet] {
        self.page(page).map(|p| p.snippets()).unwrap_or(&[])
    }

    /// Every page that holds code blocks: entries, then articles, each in ID order.
    pub fn pages(&self) -> impl Iterator<Item = Page<'_>> + '_ {
        let entries = self.entries.iter().map(|e| Page::Entry(e));
        entries.chain(self.articles.iter().map(|a| Page::Article(a)))
    }
}

/// A page of the catalog, entry or article, for what both have: an ID, a source, code blocks.
#[derive(Debug, Clone, Copy)]
pub enum Page<'a> {
    Entry(&'a Entry),
    Article(&'a Article),
}

impl<'a> Page<'a> {
    pub(crate) fn kind(self) -> PageKind {
        match self {
            Page::Entry(_) => PageKind::Entry,
            Page::Article(_) => PageKind::Article,
        }
    }
    pub(crate) fn id(self) -> &'a str {
        match self {
            Page::Entry(e) => &e.id,
            Page::Article(a) => &a.id,
        }
    }
    pub fn reference(self) -> PageRef {
        PageRef {
            kind: self.kind(),
            id: self.id().to_string(),
        }
    }
    pub fn source(self) -> &'a std::path::Path {
        match self {
            Page::Entry(e) => &e.source,
            Page::Article(a) => &a.source,
        }
    }
    /// The body's links that may name other content (`Entry::content_links`).
    pub fn content_links(self) -> &'a [ContentLink] {
        match self {
            Page::Entry(e) => &e.content_links,
            Page::Article(a) => &a.content_links,
        }
    }
    pub fn snippets(self) -> &'a [Snippet] {
        match self {
            Page::Entry(e) => &e.snippets,
            Page::Article(a) => &a.snippets,
        }
    }
    /// What readers see as the page's title: an entry's message, an article's title.
    pub fn title(self) -> &'a str {
        match self {
            Page::Entry(e) => &e.message,
            Page::Article(a) => &a.title,
        }
    }
}

/// A structured error entry: `content/errors/<domain>/<slug>.md`.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    /// `domain/slug`, equal to the path under content/errors/ without `.md`.
    pub id: String,
    pub domain: String,
    pub slug: String,
    /// Path relative to the site root, e.g. `content/errors/pytorch/x.md`.
    pub source: PathBuf,
    /// The error message, as written on the title line (without the leading `# `).
    pub message: String,
    /// The exception type the message starts with (`RuntimeError` in `RuntimeError: ...`).
    pub exception: Option<String>,
    pub category: String,
    pub error_code: Option<String>,
    pub verification: String,
    /// Percentage 0-100.
    pub fix_rate: Option<u8>,
    /// Markdown source of the Root Cause section.
    pub root_cause: String,
    pub versions: Vec<VersionRow>,
    pub workarounds: Vec<Workaround>,
    pub dead_ends: Vec<DeadEnd>,
    /// Sections the layout allows beyond the fixed ones (`## Reproduction`, `## Notes`).
    pub extra_sections: Vec<Section>,
    pub aliases: Vec<String>,
    pub tags: Vec<String>,
    /// Entry IDs the author names as related.
    pub related: Vec<String>,
    pub links: LinkOverrides,
    /// `draft: true` in front matter: left out of `build` and `serve` unless `--drafts`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub draft: bool,
    /// Every fenced code block of the entry, in document order.
    pub snippets: Vec<Snippet>,
    /// The body's Markdown links that may name other content, with where they are written:
    /// what the link stage checks, so that it needs no source text.
    #[serde(skip)]
    pub content_links: Vec<ContentLink>,
}

/// A Markdown link (or image) whose destination may name other content (`@/...`, a relative
/// `.md` path), as written, with the byte span the link stage reports it at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentLink {
    /// The destination as written (entities and escapes resolved).
    pub dest: Box<str>,
    /// Byte offset in the file of the destination (of the whole link when it is not written out).
    pub at: usize,
    pub len: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct VersionRow {
    pub version: String,
    pub status: String,
    pub introduced: Option<String>,
    pub deprecated: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Workaround {
    /// 1-based position in the entry's list, as written.
    pub number: usize,
    /// The bold summary.
    pub summary: String,
    /// Percentage 0-100.
    pub success_rate: u8,
    /// Markdown after the rate, if any (without the code blocks).
    pub detail: String,
    /// Indices into `Entry::snippets`.
    pub snippets: Vec<usize>,
    pub line: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct DeadEnd {
    pub number: usize,
    pub summary: String,
    /// Why it fails (the text after the dash).
    pub reason: String,
    /// Percentage 0-100.
    pub fail_rate: u8,
    pub snippets: Vec<usize>,
    pub line: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Section {
    pub title: String,
    /// Markdown source of the section body.
    pub body: String,
    pub snippets: Vec<usize>,
    pub line: usize,
}

/// Author decisions on inferred links, from front matter `links: {confirm: [...], reject: [...]}`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LinkOverrides {
    #[serde(default)]
    pub confirm: Vec<String>,
    #[serde(default)]
    pub reject: Vec<String>,
}

/// A Q&A article: `content/articles/<id>.md`.
#[derive(Debug, Clone, Serialize)]
pub struct Article {
    pub id: String,
    pub source: PathBuf,
    pub title: String,
    /// `YYYY-MM-DD` as written.
    pub date: String,
    /// Entry IDs the author says the article is about.
    pub errors: Vec<String>,
    pub tags: Vec<String>,
    pub links: LinkOverrides,
    /// `draft: true` in front matter: left out of `build` and `serve` unless `--drafts`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub draft: bool,
    /// Markdown body (front matter removed).
    pub body: String,
    /// 1-based line in the file where `body` starts, so body offsets map back to file lines.
    pub body_line: usize,
    pub snippets: Vec<Snippet>,
    /// As `Entry::content_links`.
    #[serde(skip)]
    pub content_links: Vec<ContentLink>,
}

/// A fenced code block, with its run attributes when its info string asks for a run.
#[derive(Debug, Clone, Serialize)]
pub struct Snippet {
    /// 0-based position among the page's code blocks.
    pub index: usize,
    /// Stable identifier on the page: the `id=` attribute, or `snippet-<index+1>`.
    pub id: String,
    /// Language (first word of the info string), empty if none.
    pub lang: String,
    /// The whole info string as written.
    pub info: String,
    /// Code as it runs: hidden setup lines included (their marker removed).
    pub code: String,
    /// Code as readers see it (hidden lines removed), only where it differs from `code`: most
    /// blocks have no hidden line, and a second copy of every block's code was a tenth of a
    /// large catalog's model. `Snippet::shown` reads it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display: Option<String>,
    /// 1-based line of the opening fence in the source file.
    pub line: usize,
    /// The nearest heading or bold label before the block ("Example 1: The Problematic Approach").
    pub label: Option<String>,
    pub run: Option<RunSpec>,
    /// What the page claims about the block and whether it can run as a reader would run it:
    /// declared (from `run` attributes) or read from the text (`errbook-claims`). None only for a
    /// page nobody read (a model built by hand).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reading: Option<Box<ClaimReading>>,
}

impl Snippet {
    /// The code as readers see it: hidden setup lines removed.
    pub fn shown(&self) -> &str {
        self.display.as_deref().unwrap_or(&self.code)
    }
}

/// Where a block's claim comes from.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ClaimSource {
    /// The author wrote it in the info string (`run`, `expect=`).
    Declared,
    /// errbook read it from the text around the block.
    Inferred,
}

/// Words of the page that a reading rests on, with their 1-based line in the file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ClaimEvidence {
    pub line: usize,
    pub text: String,
}

/// A block's claim and runnability as errbook reads them (see `errbook-claims`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ClaimReading {
    /// The claim, or none (below the threshold, or a block that is not a program).
    pub claim: Option<Claim>,
    pub source: ClaimSource,
    /// What the claim rests on: heading, comment, prose, title; the strongest first.
    pub evidence: Vec<ClaimEvidence>,
    /// 0..1; an inferred claim is made only at or above the reader's threshold.
    pub confidence: f32,
    /// 0-based indices of the earlier blocks whose definitions this block runs after.
    pub continues: Vec<usize>,
    /// GPUs the run needs, read from the code (declared: the `gpus=` attribute).
    pub gpus: u32,
    /// Whether errbook can run the block as a reader would.
    pub runnable: bool,
    /// Why it cannot run, in words; none when it can.
    pub why_not: Option<String>,
}

/// What a runnable snippet's info string declares.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RunSpec {
    pub claim: Claim,
    /// GPUs the run needs (0: CPU only).
    pub gpus: u32,
    /// Environment variables set for the run, in the order written.
    pub env: Vec<(String, String)>,
    /// Wall-clock limit in seconds.
    pub timeout_s: u64,
    /// The `id` of an earlier block of the same page this one continues.
    pub after: Option<String>,
    /// Run with `python3` (default) or another interpreter name.
    pub interpreter: String,
    /// The run may use the network (`network`); sandboxed runs have none otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub network: bool,
    /// Python modules the run needs (`needs=torch,numpy`): a host where one does not import
    /// skips the run, and a run that fails to import one is an environment error.
    pub needs: Vec<String>,
    /// GPU memory the run uses on each of its GPUs, in MiB (`gpu_mem=2GiB`), as declared; the
    /// scheduler packs runs onto a GPU by it (else by the peak its last record measured).
    pub gpu_mem_mib: Option<u64>,
}

/// What the text claims about a runnable snippet.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Claim {
    /// It runs to the end without an exception, and no child process crashes.
    Runs,
    /// It fails; optionally with this exception type and a fragment of its message.
    Fails {
        exception: Option<String>,
        message: Option<String>,
    },
}

impl Claim {
    pub fn describe(&self) -> String {
        match self {
            Claim::Runs => "runs cleanly".to_string(),
            Claim::Fails {
                exception: None,
                message: None,
            } => "fails".to_string(),
            Claim::Fails { exception, message } => {
                let mut s = String::from("fails with ");
                s.push_str(exception.as_deref().unwrap_or("an error"));
                if let Some(m) = message {
                    s.push_str(&format!(" \u{201c}{m}\u{201d}"));
                }
                s
            }
        }
    }
}

/// Where a snippet lives, for messages and records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PageKind {
    Entry,
    Article,
}

impl PageKind {
    /// `entry` or `article`, as messages and `--only` name them.
    pub fn word(self) -> &'static str {
        match self {
            PageKind::Entry => "entry",
            PageKind::Article => "article",
        }
    }
}

/// A page of the site that holds snippets, by kind and ID.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PageRef {
    pub kind: PageKind,
    pub id: String,
}
