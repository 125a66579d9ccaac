//! What article inference looks entries up by, on both sides: the keys (message trigrams, error
//! codes) an entry can be found by, and those an article holds. An entry whose keys an article
//! does not hold has no candidate with it, so after an entry's message changes only the
//! articles holding its old or new keys are inferred again (`link::live`). Also whether two
//! versions of an entry look the same to article inference.

use super::articles::recorded_errors;
use super::index::{code_of, grams_of, templates_of};
use super::scan::{code_words, Scan};
use crate::core::model::{Article, Entry};
use crate::link::text::{self, gram_hash, Tok};
use crate::records::RecordSet;
use std::collections::HashSet;

/// What an article must contain for inference to find entry `e` in it: one of these trigram
/// hashes (of its message and aliases) or this error code as a word.
pub(crate) fn entry_keys(e: &Entry) -> (Vec<u64>, Option<String>) {
    let grams = (templates_of(0, e).iter())
        .flat_map(|t| grams_of(&t.words).collect::<Vec<_>>())
        .collect();
    (grams, code_of(e).map(str::to_string))
}

/// What of an article inference looks entries up by: the trigram hashes of its title and body
/// and of what its snippets printed (fresh records), and the words in it that look like error
/// codes. An entry none of whose `entry_keys` is here has no candidate with this article.
pub(crate) fn article_keys(
    a: &Article,
    src: &str,
    records: Option<&RecordSet>,
) -> (HashSet<u64>, HashSet<String>) {
    let scan = Scan::new(a, src);
    let mut grams: HashSet<u64> = HashSet::new();
    let mut add = |toks: &[Tok]| {
        for w in toks.windows(3) {
            let key = [w[0].word.as_str(), w[1].word.as_str(), w[2].word.as_str()];
            grams.insert(gram_hash(&key));
        }
    };
    add(&scan.toks);
    for (_, msg) in recorded_errors(a, records) {
        add(&text::tokens(&msg));
    }
    let codes = (code_words(src, scan.fm_end).into_iter())
        .map(|(c, _)| c.to_string())
        .collect();
    (grams, codes)
}

/// Whether `a` and `b` (two versions of one entry) look the same to article inference: the same
/// ID, message, aliases, exception type and error code.
pub(crate) fn same_features(a: &Entry, b: &Entry) -> bool {
    a.id == b.id
        && a.message == b.message
        && a.aliases == b.aliases
        && a.exception == b.exception
        && a.error_code == b.error_code
}
