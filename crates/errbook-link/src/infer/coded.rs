//! Article <-> entry by error code: the error codes of the catalog an article names as words,
//! each with its evidence. Every entry of a code gets the same evidence from it (an entry has
//! one code), so it is made once per code, not once per entry: a code can be shared by a large
//! part of the catalog.

use super::index::Index;
use super::round2;
use super::scan::{code_words, evidence, is_passing, Scan};
use crate::text;
use crate::{Evidence, Place, Signal};
use std::collections::HashMap;

/// One code of the catalog named in an article: the code and its evidence (one per time it is
/// named, in the article's order).
pub(super) struct Named<'s> {
    pub(super) code: &'s str,
    pub(super) evidence: Vec<Evidence>,
}

/// The catalog's error codes named as whole words in the article, in the order each is first
/// named.
pub(super) fn named<'s>(ix: &Index, scan: &Scan<'s>) -> Vec<Named<'s>> {
    let src = scan.src;
    let mut out: Vec<Named<'s>> = Vec::new();
    let mut at_of: HashMap<&str, usize> = HashMap::new();
    for (code, at) in code_words(src, scan.fm_end) {
        let Some(coded) = ix.codes.get(code) else {
            continue;
        };
        let place = scan.place(at, at < scan.fm_end);
        let ex = text::excerpt(src, at, at + code.len());
        let passing = place == Place::Prose && is_passing(&ex);
        let base = if place == Place::Prose { 0.6 } else { 0.7 };
        let mut w = base / coded.n as f64;
        if passing {
            w *= 0.4;
        }
        let signal = Signal::ErrorCode {
            code: code.to_string(),
            place,
        };
        let ev = evidence(signal, ex, scan.line(at), round2(w));
        match at_of.get(code) {
            Some(&k) => out[k].evidence.push(ev),
            None => {
                at_of.insert(code, out.len());
                out.push(Named {
                    code,
                    evidence: vec![ev],
                });
            }
        }
    }
    out
}
