//! Repeated: the code blocks seen more than once in the catalog, counted as each page is
//! parsed, before a lean build drops the entries' code (`parse::lean`). The page loop
//! highlights each of them once (`render::highlight::Memo`), as `Memo::for_catalog` would
//! have found them in the whole model. Memory holds a hash per distinct block and the text of
//! the repeated ones only.

use errbook_core::model::Snippet;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::Mutex;

/// Blocks seen so far, by hash of language and code: whether seen again.
type Seen = HashMap<u64, bool>;
/// The repeated blocks' language and code.
type Texts = Vec<(String, String)>;

/// Blocks seen so far and the repeated ones' text.
pub(super) struct Repeated<'c> {
    default_lang: &'c str,
    hasher: std::collections::hash_map::RandomState,
    seen: Mutex<(Seen, Texts)>,
}

impl<'c> Repeated<'c> {
    /// `default_lang` stands for a fence without a language (`build.default_code_lang`).
    pub(super) fn new(default_lang: &'c str) -> Repeated<'c> {
        Repeated {
            default_lang,
            hasher: Default::default(),
            seen: Mutex::new(Default::default()),
        }
    }

    /// Count the blocks of one page.
    pub(super) fn count(&self, snippets: &[Snippet]) {
        if snippets.is_empty() {
            return;
        }
        let keys: Vec<(&str, &str, u64)> = snippets
            .iter()
            .map(|s| {
                let lang = if s.lang.is_empty() {
                    self.default_lang
                } else {
                    &s.lang
                };
                (lang, s.shown(), self.hasher.hash_one((lang, s.shown())))
            })
            .collect();
        let Ok(mut seen) = self.seen.lock() else {
            return;
        };
        let (hashes, texts) = &mut *seen;
        for (lang, code, h) in keys {
            // A hash shared by two blocks only makes one of them highlighted once and kept:
            // the memo is a cache, the page is the same.
            match hashes.entry(h) {
                Entry::Vacant(v) => {
                    v.insert(false);
                }
                Entry::Occupied(mut o) => {
                    if !o.insert(true) {
                        texts.push((lang.to_string(), code.to_string()));
                    }
                }
            }
        }
    }

    /// The memo of the blocks seen more than once.
    pub(super) fn memo(self) -> errbook_render::highlight::Memo {
        let (_, texts) = self.seen.into_inner().unwrap_or_else(|e| e.into_inner());
        errbook_render::highlight::Memo::of_repeated(
            texts.iter().map(|(l, c)| (l.as_str(), c.as_str())),
        )
    }
}
