//! Article <-> entry: an entry's message (and its `aliases`) found in an article's title, prose
//! or code, as a *template* (see `text::tokens`), its error code found as a word, and its
//! exception type as support. Cost: one hash-map index of every template's trigrams (`index`),
//! then one pass over each article's tokens; no entry x article loop. Entries found by their
//! code alone share their candidate with every entry of that code and exception type: it is
//! scored once for them, and given to each only when the caller wants it (`Wanted`). An
//! article that quotes no message is linked to the entry whose distinctive terms it uses
//! (`topic`).

use super::coded::{self, Named};
use super::index::{code_of, order, Index, MAX_POSTINGS};
use super::round2;
use super::scan::{evidence, find_word, is_passing, Scan};
use super::wanted::Wanted;
use crate::text::{self, gram_hash, Tok};
use crate::{Evidence, Extent, Link, LinkKind, Node, Origin, Place, Signal};
use errbook_core::model::{Article, Catalog, Page, Snippet};
use errbook_records::{Record, RecordSet};
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

/// Discusses-candidates for `articles` (of `catalog`) that `wanted` asks for (the caller
/// applies the threshold). A large catalog's candidates are many: callers take the articles in
/// batches.
pub(crate) fn infer(
    catalog: &Catalog,
    ix: &Index,
    articles: &[std::sync::Arc<Article>],
    sources: &HashMap<&std::path::Path, &str>,
    records: Option<&RecordSet>,
    wanted: &Wanted,
) -> Vec<Link> {
    use rayon::prelude::*;
    articles
        .par_iter()
        .flat_map_iter(|a| {
            let src = sources.get(a.source.as_path()).copied().unwrap_or("");
            infer_one(catalog, ix, a, src, records, wanted)
        })
        .collect()
}

fn infer_one(
    catalog: &Catalog,
    ix: &Index,
    a: &Article,
    src: &str,
    records: Option<&RecordSet>,
    wanted: &Wanted,
) -> Vec<Link> {
    let scan = Scan::new(a, src);
    // Evidence per entry found by its message, in this order: message passages, recorded runs,
    // error codes.
    let mut per: HashMap<usize, Vec<Evidence>> = HashMap::new();
    for (e, ev) in
        (message_evidence(ix, &scan).into_iter()).chain(recorded_evidence(ix, a, records))
    {
        per.entry(e).or_default().push(ev);
    }
    // Entries whose message headline the title names whole.
    for (e, ev) in super::titled::in_title(ix, &scan) {
        if !per
            .get(&e)
            .is_some_and(|v| v.iter().any(|x| x.signal == ev.signal))
        {
            per.entry(e).or_default().push(ev);
        }
    }
    // The entry the article is about by its words and names, quoted or not; an author who
    // declares the article's errors has said what it is about.
    if a.errors.is_empty() {
        if let Some((e, ev)) = topic_evidence(catalog, ix, &scan) {
            per.entry(e).or_default().push(ev);
        }
    }
    let codes = coded::named(ix, &scan);
    let by_code: HashMap<&str, &Named<'_>> = codes.iter().map(|n| (n.code, n)).collect();
    let code_evidence = |e: usize| {
        let code = code_of(&catalog.entries[e])?;
        by_code.get(code).map(|n| &n.evidence)
    };
    for (&e, ev) in per.iter_mut() {
        if let Some(more) = code_evidence(e) {
            ev.extend(more.iter().cloned());
        }
    }
    // Where each exception type is named in the article, looked for once (entries that share
    // a message or a code share their exception type).
    let mut named = Exceptions {
        src,
        from: scan.fm_end,
        at: HashMap::new(),
    };
    let mut named_at = |x| named.at(x);
    let mut out = Vec::new();
    // Entries found by their code alone, a candidate per code and exception type, given to
    // every entry of them when it is wanted ...
    for n in &codes {
        let Some(coded) = ix.codes.get(n.code) else {
            continue;
        };
        for (x, es) in &coded.by_exception {
            let x = x.as_deref();
            let one = discusses(&scan, x, n.evidence.clone(), named_at(x));
            if one.score < wanted.min {
                continue;
            }
            for &e in es.iter().filter(|e| !per.contains_key(e)) {
                out.push(one.link(a, &catalog.entries[e].id));
            }
        }
    }
    // ... and to the pinned ones whatever it scores.
    for &e in wanted.pinned(&a.id) {
        let Some(ev) = code_evidence(e).filter(|_| !per.contains_key(&e)) else {
            continue;
        };
        let entry = &catalog.entries[e];
        let x = entry.exception.as_deref();
        let one = discusses(&scan, x, ev.clone(), named_at(x));
        if one.score < wanted.min {
            out.push(one.link(a, &entry.id));
        }
    }
    // Entries found by their message.
    let pinned = wanted.pinned(&a.id);
    for (e, ev) in per {
        let entry = &catalog.entries[e];
        let x = entry.exception.as_deref();
        let one = discusses(&scan, x, ev, named_at(x));
        if one.score >= wanted.min || pinned.binary_search(&e).is_ok() {
            out.push(one.into_link(a, &entry.id));
        }
    }
    out
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

/// The entry the article is about by the terms that set it apart (`topic`), as (entry,
/// evidence): the terms as its excerpt, where the most distinctive one is first used as its
/// line, a weight over the threshold's usual 0.6 by how much of the entry it covers.
fn topic_evidence(catalog: &Catalog, ix: &Index, scan: &Scan<'_>) -> Option<(usize, Evidence)> {
    let t = ix.topics.about(catalog, &scan.toks, scan.n_title)?;
    let at = t.shared.first().map_or(scan.fm_end, |s| s.1);
    let names: Vec<&str> = t.shared.iter().take(8).map(|s| s.0.as_str()).collect();
    let mut excerpt = names.join(", ");
    if t.shared.len() > names.len() {
        excerpt.push_str(", \u{2026}");
    }
    let signal = Signal::Topic {
        shared: t.shared.len(),
    };
    let w = (0.62 + 0.5 * (t.score - super::topic::LEAST)).min(0.9);
    Some((t.entry, evidence(signal, excerpt, scan.line(at), round2(w))))
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

/// Where each exception type is named in an article (`find_word`), looked for once.
struct Exceptions<'s, 'x> {
    src: &'s str,
    /// End of the front matter.
    from: usize,
    at: HashMap<&'x str, Option<usize>>,
}

impl<'x> Exceptions<'_, 'x> {
    fn at(&mut self, x: Option<&'x str>) -> Option<usize> {
        let x = x?;
        let (src, from) = (self.src, self.from);
        *self.at.entry(x).or_insert_with(|| find_word(src, x, from))
    }
}

/// What an entry's candidate link from article `a` says: its evidence, strongest first, and
/// its score. `ev` is what was found of the entry; its exception type `x` is added when the
/// article names it (at `named`, where `find_word` finds it).
fn discusses(
    scan: &Scan<'_>,
    x: Option<&str>,
    mut ev: Vec<Evidence>,
    named: Option<usize>,
) -> Scored {
    let src = scan.src;
    // The exception type supports a match found otherwise; it never makes one.
    if let (Some(x), Some(i)) = (x, named) {
        let w = if x.contains('.') { 0.2 } else { 0.05 };
        let signal = Signal::Exception {
            name: x.to_string(),
        };
        let ex = text::excerpt(src, i, i + x.len());
        ev.push(evidence(signal, ex, scan.line(i), w));
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
    Scored {
        score: round2(1.0 - miss),
        evidence: ev,
    }
}

/// A candidate link's score and evidence (`discusses`), for one entry or for many alike.
struct Scored {
    score: f64,
    evidence: Vec<Evidence>,
}

impl Scored {
    /// The candidate link from article `a` to the entry `id`.
    fn link(&self, a: &Article, id: &str) -> Link {
        Scored {
            score: self.score,
            evidence: self.evidence.clone(),
        }
        .into_link(a, id)
    }

    /// `link`, for the last entry.
    fn into_link(self, a: &Article, id: &str) -> Link {
        Link {
            from: Node::Article { id: a.id.clone() },
            to: Node::Entry { id: id.to_string() },
            kind: LinkKind::Discusses,
            origin: Origin::Inferred,
            score: self.score,
            evidence: self.evidence,
        }
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
        // A word no template has matches none (a hash collision).
        let ids = key.map(|k| ix.words.id(k));
        for &(t, p) in post {
            let words = &ix.templates[t as usize].words[p as usize..p as usize + 3];
            if words.iter().zip(ids).any(|(w, k)| Some(*w) != k) {
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
