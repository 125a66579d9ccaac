//! Article <-> entry: an entry's message (and its `aliases`) found in an article's title, prose
//! or code, as a *template* (see `text::tokens`), its error code found as a word, and its
//! exception type as support. Cost: one hash-map index of every template's trigrams (`index`),
//! then one pass over each article's tokens; no entry x article loop.

use super::index::{order, Index, MAX_POSTINGS};
use super::round2;
use crate::core::model::{Article, Catalog, Entry, Page, Snippet};
use crate::link::text::{self, gram_hash, Tok};
use crate::link::{Evidence, Extent, Link, LinkKind, Node, Origin, Place, Signal};
use crate::records::{Record, RecordSet};
use std::collections::HashMap;

/// A matched run must cover at least this many template words.
const MIN_RUN: usize = 5;

/// How much a message found at a place says.
fn place_weight(place: Place) -> f64 {
    match place {
        Place::Title | Place::Heading => 0.9,
        Place::Code => 0.85,
        Place::Prose => 0.7,
    }
}

/// Words around a mention that say the article is about something else ("unlike the
/// `X` error, ...").
const PASSING: &[&str] = &[
    "unlike",
    "not to be confused",
    "as opposed to",
    "different from",
    "differs from",
    "in contrast",
    "rather than",
    "instead of",
    "unrelated",
    "not the same",
    "not related",
    "see also",
    "another error",
    "a different error",
];

struct Found {
    template: usize,
    /// Token range of the passage.
    start: usize,
    hi: usize,
    /// Template words covered.
    n: usize,
    end: usize,
    quality: f64,
    extent: Extent,
}

/// Discusses-candidates for `articles` (of `catalog`), any score (the caller applies the
/// threshold). A large catalog's candidates are many: callers take the articles in batches.
pub(crate) fn infer(
    catalog: &Catalog,
    ix: &Index,
    articles: &[Article],
    sources: &HashMap<&std::path::Path, &str>,
    records: Option<&RecordSet>,
) -> Vec<Link> {
    use rayon::prelude::*;
    articles
        .par_iter()
        .flat_map_iter(|a| {
            let src = sources.get(a.source.as_path()).copied().unwrap_or("");
            infer_one(catalog, ix, a, src, records)
        })
        .collect()
}

/// `infer`, the candidates of each of `articles` apart (in their order).
pub(crate) fn infer_each(
    catalog: &Catalog,
    ix: &Index,
    articles: &[&Article],
    sources: &HashMap<&std::path::Path, &str>,
    records: Option<&RecordSet>,
) -> Vec<Vec<Link>> {
    use rayon::prelude::*;
    articles
        .par_iter()
        .map(|a| {
            let src = sources.get(a.source.as_path()).copied().unwrap_or("");
            infer_one(catalog, ix, a, src, records)
        })
        .collect()
}

fn infer_one(
    catalog: &Catalog,
    ix: &Index,
    a: &Article,
    src: &str,
    records: Option<&RecordSet>,
) -> Vec<Link> {
    let scan = Scan::new(a, src);
    // Evidence per entry, in this order: message passages, recorded runs, error codes.
    let mut per: HashMap<usize, Vec<Evidence>> = HashMap::new();
    for (e, ev) in (message_evidence(ix, &scan).into_iter())
        .chain(recorded_evidence(ix, a, records))
        .chain(code_evidence(ix, &scan))
    {
        per.entry(e).or_default().push(ev);
    }
    // Where each exception type is named in the article, looked for once (entries that share
    // a message share their exception type).
    let mut named: HashMap<&str, Option<usize>> = HashMap::new();
    per.into_iter()
        .map(|(e, ev)| {
            let entry = &catalog.entries[e];
            let at = (entry.exception.as_deref()).map(|x| {
                *named
                    .entry(x)
                    .or_insert_with(|| find_word(src, x, scan.fm_end))
            });
            discusses(a, entry, &scan, ev, at.flatten())
        })
        .collect()
}

/// An article's source, scanned once: the tokens of its title line and body, and where its
/// code blocks are.
pub(super) struct Scan<'a> {
    src: &'a str,
    /// End of the front matter.
    pub(super) fm_end: usize,
    /// The title's tokens, a separator, then the body's.
    pub(super) toks: Vec<Tok>,
    /// How many of `toks` are the title's.
    n_title: usize,
    /// Lines (inclusive) of the article's code blocks.
    code_lines: Vec<(usize, usize)>,
    /// Where each of its line breaks is: a passage's line is found by a binary search, not by
    /// counting the line breaks before it (an article can hold hundreds of passages).
    breaks: Vec<usize>,
}

impl<'a> Scan<'a> {
    pub(super) fn new(a: &Article, src: &'a str) -> Scan<'a> {
        let fm_end = crate::link::explicit::front_matter_end(src);
        let title_at = src[..fm_end].find("title:").unwrap_or(0);
        let title_end = src[title_at..]
            .find('\n')
            .map(|i| title_at + i)
            .unwrap_or(fm_end);
        let shifted =
            |toks: Vec<Tok>, by: usize| toks.into_iter().map(move |t| Tok { at: t.at + by, ..t });
        let mut toks: Vec<Tok> = shifted(text::tokens(&src[title_at..title_end]), title_at)
            .filter(|t| t.word != "title")
            .collect();
        let n_title = toks.len();
        toks.push(Tok {
            word: "\u{0}".into(),
            at: title_end,
        });
        toks.extend(shifted(text::tokens(&src[fm_end..]), fm_end));
        Scan {
            src,
            fm_end,
            toks,
            n_title,
            code_lines: code_line_ranges(a),
            breaks: line_breaks(src),
        }
    }

    /// The 1-based line of byte `at` (`line_in`).
    fn line(&self, at: usize) -> usize {
        line_in(&self.breaks, self.src.len(), at)
    }

    /// Where the passage at byte `at` is (`in_title`: it is part of the title line).
    fn place(&self, at: usize, in_title: bool) -> Place {
        if in_title {
            return Place::Title;
        }
        let line = self.line(at);
        if self.code_lines.iter().any(|&(s, e)| line >= s && line <= e) {
            return Place::Code;
        }
        let ls = self.src[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
        if self.src[ls..].starts_with('#') {
            Place::Heading
        } else {
            Place::Prose
        }
    }
}

/// Entries' messages found in the article's title and body, as (entry, evidence).
fn message_evidence(ix: &Index, scan: &Scan<'_>) -> Vec<(usize, Evidence)> {
    let src = scan.src;
    let mut out = Vec::new();
    for f in passages(ix, &scan.toks, src.len()) {
        let tpl = &ix.templates[f.template];
        let at = scan.toks[f.start].at;
        let place = scan.place(at, f.start < scan.n_title);
        let ex = text::excerpt(src, at, f.end);
        let passing = place == Place::Prose && is_passing(&ex);
        let mut w = place_weight(place) * f.quality;
        if passing {
            w *= 0.4;
        }
        let signal = Signal::Message {
            extent: f.extent,
            alias: tpl.alias,
            place,
            passing,
        };
        out.push((tpl.entry, evidence(signal, ex, scan.line(at), round2(w))));
    }
    out
}

/// Entries' messages in what the article's snippets printed when they ran (fresh verification
/// records), as (entry, evidence).
fn recorded_evidence(
    ix: &Index,
    a: &Article,
    records: Option<&RecordSet>,
) -> Vec<(usize, Evidence)> {
    let mut out = Vec::new();
    for (s, msg) in recorded_errors(a, records) {
        let toks = text::tokens(&msg);
        for f in passages(ix, &toks, msg.len()) {
            let mut ex: String = msg.trim().chars().take(220).collect();
            if msg.trim().chars().count() > 220 {
                ex.push('\u{2026}');
            }
            let signal = Signal::RecordedMessage {
                extent: f.extent,
                snippet: s.id.clone(),
            };
            let ev = evidence(signal, ex, s.line, round2(0.9 * f.quality));
            out.push((ix.templates[f.template].entry, ev));
        }
    }
    out
}

/// Entries' error codes found as whole words in the article, as (entry, evidence).
fn code_evidence(ix: &Index, scan: &Scan<'_>) -> Vec<(usize, Evidence)> {
    let src = scan.src;
    let mut out = Vec::new();
    for (code, at) in code_words(src, scan.fm_end) {
        let Some(es) = ix.codes.get(code) else {
            continue;
        };
        let place = scan.place(at, at < scan.fm_end);
        let ex = text::excerpt(src, at, at + code.len());
        let passing = place == Place::Prose && is_passing(&ex);
        let base = if place == Place::Prose { 0.6 } else { 0.7 };
        let mut w = base / es.len() as f64;
        if passing {
            w *= 0.4;
        }
        let line = scan.line(at);
        for &e in es {
            let signal = Signal::ErrorCode {
                code: code.to_string(),
                place,
            };
            out.push((e, evidence(signal, ex.clone(), line, round2(w))));
        }
    }
    out
}

/// The candidate link from article `a` to `entry`, scored from its evidence (the exception
/// type added when the article names it: at `named`, where `find_word` finds it).
fn discusses(
    a: &Article,
    entry: &Entry,
    scan: &Scan<'_>,
    mut ev: Vec<Evidence>,
    named: Option<usize>,
) -> Link {
    let src = scan.src;
    // The exception type supports a match found otherwise; it never makes one.
    if let Some(x) = &entry.exception {
        if let Some(i) = named {
            let w = if x.contains('.') { 0.2 } else { 0.05 };
            let signal = Signal::Exception { name: x.clone() };
            let ex = text::excerpt(src, i, i + x.len());
            ev.push(evidence(signal, ex, scan.line(i), w));
        }
    }
    ev.sort_by(|a, b| b.weight.total_cmp(&a.weight));
    ev.truncate(6);
    // Noisy-or; repeated mentions of the same kind count half.
    let mut miss = 1.0;
    let mut seen_kinds: Vec<&Signal> = Vec::new();
    for x in &ev {
        let w = if seen_kinds.contains(&&x.signal) {
            x.weight * 0.5
        } else {
            x.weight
        };
        seen_kinds.push(&x.signal);
        miss *= 1.0 - w.clamp(0.0, 0.99);
    }
    Link {
        from: Node::Article { id: a.id.clone() },
        to: Node::Entry {
            id: entry.id.clone(),
        },
        kind: LinkKind::Discusses,
        origin: Origin::Inferred,
        score: round2(1.0 - miss),
        evidence: ev,
    }
}

fn evidence(signal: Signal, excerpt: String, line: usize, weight: f64) -> Evidence {
    Evidence {
        signal,
        excerpt,
        line: Some(line),
        weight,
    }
}

/// Passages of `toks` that match a template, at most one template per passage.
fn passages(ix: &Index, toks: &[Tok], text_len: usize) -> Vec<Found> {
    // Each diagonal is one passage.
    let found = seeds(ix, toks)
        .into_iter()
        .filter_map(|((t, _), hs)| passage(ix, t as usize, &hs, toks, text_len))
        .collect();
    best(ix, found)
}

/// Trigram hits of `toks` in the templates, grouped by (template, diagonal), each as (token
/// position, template position). In no order that counts (`best` sorts what they make).
type Seeds = HashMap<(u32, i64), Vec<(usize, usize)>, foldhash::fast::RandomState>;

/// The trigram hits of `toks` (`Seeds`).
fn seeds(ix: &Index, toks: &[Tok]) -> Seeds {
    let mut hits = Seeds::default();
    for i in 0..toks.len().saturating_sub(2) {
        let key = [
            toks[i].word.as_str(),
            toks[i + 1].word.as_str(),
            toks[i + 2].word.as_str(),
        ];
        let Some(post) = ix.grams.get(&gram_hash(&key)) else {
            continue;
        };
        if post.len() > MAX_POSTINGS {
            continue;
        }
        for &(t, p) in post {
            let words = &ix.templates[t as usize].words[p as usize..p as usize + 3];
            if words.iter().zip(key).any(|(w, k)| w != k) {
                continue; // hash collision
            }
            hits.entry((t, i as i64 - p as i64))
                .or_default()
                .push((i, p as usize));
        }
    }
    hits
}

/// The passage one diagonal's hits `hs` make of template `t`, if it covers enough of it;
/// coverage = template words covered by the trigrams.
fn passage(
    ix: &Index,
    t: usize,
    hs: &[(usize, usize)],
    toks: &[Tok],
    text_len: usize,
) -> Option<Found> {
    let tpl = &ix.templates[t];
    let mut covered = vec![false; tpl.words.len()];
    let (mut lo, mut hi) = (usize::MAX, 0);
    for &(i, p) in hs {
        for c in covered.iter_mut().skip(p).take(3) {
            *c = true;
        }
        lo = lo.min(i);
        hi = hi.max(i + 3);
    }
    let n = covered.iter().filter(|c| **c).count();
    if n < MIN_RUN.min(tpl.words.len()) {
        return None;
    }
    let full = n as f64 / tpl.words.len() as f64;
    let head = covered[..tpl.headline.min(covered.len())]
        .iter()
        .all(|c| *c);
    let (quality, extent) = if full >= 0.999 {
        (1.0, Extent::Whole)
    } else if head && tpl.headline >= MIN_RUN {
        (0.85_f64.max(full), Extent::Headline)
    } else {
        (full * 0.9, Extent::Part)
    };
    let end = toks
        .get(hi - 1)
        .map(|t| t.at + t.word.len())
        .unwrap_or(text_len);
    Some(Found {
        template: t,
        start: lo,
        hi,
        n,
        end,
        quality,
        extent,
    })
}

/// Two entries with similar messages: a passage goes to the template it matches best, and
/// among equally good ones to the longest (the quoted message, not one contained in it).
fn best(ix: &Index, mut found: Vec<Found>) -> Vec<Found> {
    found.sort_by(|a, b| {
        b.quality
            .total_cmp(&a.quality)
            .then(b.n.cmp(&a.n))
            .then(a.start.cmp(&b.start))
            .then_with(|| order(&ix.templates[a.template]).cmp(&order(&ix.templates[b.template])))
    });
    let mut kept: Vec<Found> = Vec::new();
    for f in found {
        let beaten = kept.iter().any(|k| {
            let overlap = f.start < k.hi && k.start < f.hi;
            let same = ix.templates[k.template].entry == ix.templates[f.template].entry;
            overlap
                && (k.quality > f.quality + 0.02
                    || (k.quality >= f.quality - 0.02 && (k.n > f.n || same)))
        });
        if !beaten {
            kept.push(f);
        }
    }
    kept
}

/// The errors a fresh record of each snippet shows (final, wrapped, crashed children), as
/// `Exception: message` lines.
pub(crate) fn recorded_errors<'a>(
    a: &'a Article,
    records: Option<&RecordSet>,
) -> Vec<(&'a Snippet, String)> {
    let Some(rs) = records else { return Vec::new() };
    let page = Page::Article(a).reference();
    let mut out = Vec::new();
    for s in &a.snippets {
        let status = rs.status(&page, &a.snippets, s);
        // What the machine did (an environment error) says nothing about the article's errors.
        for r in status.fresh().iter().filter(|r| r.verdict.is_evidence()) {
            out.extend(record_messages(r).into_iter().map(|m| (s, m)));
        }
    }
    out
}

/// Every error message of one record.
pub(crate) fn record_messages(r: &Record) -> Vec<String> {
    let mut v = Vec::new();
    if let (Some(e), Some(m)) = (&r.exception, &r.message) {
        v.push(format!("{e}: {m}"));
    }
    for w in r.wrapped.iter().chain(r.children.iter()) {
        v.push(format!("{}: {}", w.exception, w.message));
    }
    v
}

fn is_passing(excerpt: &str) -> bool {
    let l = excerpt.to_lowercase();
    PASSING.iter().any(|p| l.contains(p))
}

/// The 1-based line of byte `at` of a text of `len` bytes whose line breaks are at `breaks`:
/// one more than the breaks before it (`text::line_of`, which counts them).
fn line_in(breaks: &[usize], len: usize, at: usize) -> usize {
    let at = at.min(len);
    breaks.partition_point(|&b| b < at) + 1
}

/// The offsets of the line breaks of `src`.
fn line_breaks(src: &str) -> Vec<usize> {
    (src.bytes().enumerate())
        .filter(|&(_, b)| b == b'\n')
        .map(|(i, _)| i)
        .collect()
}

/// Lines (inclusive) of the article's code blocks.
fn code_line_ranges(a: &Article) -> Vec<(usize, usize)> {
    a.snippets
        .iter()
        .map(|s| (s.line, s.line + s.code.lines().count() + 1))
        .collect()
}

/// Words that look like error codes (`CUDA_ERROR_NOT_INITIALIZED`, `E0308`, `ENOENT`) with their
/// offsets, after `from`.
pub(super) fn code_words(src: &str, from: usize) -> Vec<(&str, usize)> {
    static RE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\b(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|E[A-Z]{3,}|[A-Z]{1,3}[0-9]{3,5})\b")
            .expect("static regex")
    });
    let title = src[..from].find("title:").unwrap_or(from);
    RE.find_iter(src)
        .filter(|m| m.start() >= title)
        .map(|m| (m.as_str(), m.start()))
        .collect()
}

fn find_word(src: &str, w: &str, from: usize) -> Option<usize> {
    src[from..]
        .match_indices(w)
        .map(|(i, _)| i + from)
        .find(|&i| {
            let b = src[..i].chars().next_back();
            let a = src[i + w.len()..].chars().next();
            !b.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                && !a.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_line_found_by_search_is_the_line_counted() {
        for src in ["", "one", "a\nb", "\n\nx\n", "é\nü✓\n\nlast ✓ line\n✓"] {
            let breaks = super::line_breaks(src);
            for at in 0..src.len() + 3 {
                let want = crate::link::text::line_of(src, at);
                assert_eq!(
                    super::line_in(&breaks, src.len(), at),
                    want,
                    "{src:?} at {at}"
                );
            }
        }
    }
}
