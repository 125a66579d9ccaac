//! An entry's message headline (its first sentence, three to eight words) named whole in an
//! article's title: "How do I avoid CUDA out-of-memory errors during validation?" names the
//! headline "CUDA out of memory", too short for a passage of `articles` to count, and joined
//! by hyphens. The title's words are read as written and with hyphens as spaces.

use super::index::Index;
use super::round2;
use super::scan::{evidence, Scan};
use crate::text;
use crate::{Evidence, Extent, Place, Signal};

/// What a headline named in the title says.
const WEIGHT: f64 = 0.75;

/// The entries whose headline the title names, as (entry, evidence).
pub(super) fn in_title(ix: &Index, scan: &Scan<'_>) -> Vec<(usize, Evidence)> {
    let title = &scan.toks[..scan.n_title];
    let whole: Vec<&str> = title.iter().map(|t| t.word.as_str()).collect();
    // The title line again, its hyphens read as spaces (`tokens` joins "out-of-memory").
    let line = title.first().map_or("", |t| {
        let rest = &scan.src[t.at..];
        &rest[..rest.find('\n').unwrap_or(rest.len())]
    });
    let split = text::tokens(&line.replace('-', " "));
    let parts: Vec<&str> = split.iter().map(|t| t.word.as_str()).collect();
    let mut out: Vec<(usize, Evidence)> = Vec::new();
    for seq in [&whole, &parts] {
        let ids: Vec<Option<u32>> = seq.iter().map(|w| ix.words.id(w)).collect();
        for i in 0..ids.len() {
            let Some(first) = ids[i] else { continue };
            for &t in ix.heads.get(&first).into_iter().flatten() {
                let tpl = &ix.templates[t as usize];
                let head = &tpl.words[..tpl.headline];
                let named = ids.len() >= i + head.len()
                    && head.iter().zip(&ids[i..]).all(|(w, x)| Some(*w) == *x);
                if !named || out.iter().any(|(e, _)| *e == tpl.entry) {
                    continue;
                }
                let (Some(from), Some(to)) = (title.first(), title.last()) else {
                    continue;
                };
                let signal = Signal::Message {
                    extent: Extent::Headline,
                    alias: tpl.alias,
                    place: Place::Title,
                    passing: false,
                };
                let ex = text::excerpt(scan.src, from.at, to.at + to.word.len());
                let ev = evidence(signal, ex, scan.line(from.at), round2(WEIGHT));
                out.push((tpl.entry, ev));
            }
        }
    }
    out
}
