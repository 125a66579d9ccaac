//! The error a failing example is expected to raise when its text names none: the error of the
//! entry its article is about. A block of an article that errbook reads as failing ("The
//! Problematic Approach", "will likely fail") with no exception named by the text is judged
//! against the error of the article's one clear entry (`Graph::primary_entry`: the entry its
//! author names, else the one inferred that stands clearly first), as that entry's own
//! reproduction declares it: its exception type and the words of its message's first sentence
//! (`judge::entry_claim`). A declared claim, and an exception the text names, always win; an
//! article with no clear entry gets nothing. The join happens here, where the links are known:
//! the reading itself (`errbook-claims`) cannot see them.

use super::Resolver;
use errbook_core::model::{Claim, ClaimSource, Entry, Page, Snippet};
use errbook_link::{Link, Node, Origin};

/// The entry an article is about, and the claim that a block raises its error.
#[derive(Debug, Clone)]
pub struct Expected<'a> {
    pub entry: &'a Entry,
    /// The article -> entry link it rests on (declared, or inferred with its evidence).
    pub link: &'a Link,
    /// `Fails` with the entry's exception type and its message's steady words.
    pub claim: Claim,
}

impl Expected<'_> {
    /// The expected error as a reader reads it: `RuntimeError: Cannot re-initialize CUDA ...`.
    pub fn error(&self) -> String {
        match &self.claim {
            Claim::Fails { exception, message } => {
                errbook_records::judge::named(exception.as_deref(), message.as_deref())
            }
            Claim::Runs => String::new(),
        }
    }

    /// How errbook knows the article is about the entry: `named in the article's front
    /// matter`, `inferred from the article's text, score 0.87`.
    pub fn how(&self) -> String {
        match self.link.origin {
            Origin::Explicit => "named in the article's front matter".to_string(),
            Origin::Confirmed => "confirmed by the article's author".to_string(),
            Origin::Inferred => format!(
                "inferred from the article's text, score {:.2}",
                self.link.score
            ),
        }
    }
}

impl<'a> Resolver<'a> {
    /// The error block `s` of `page` is expected to raise, where its text reads it as failing
    /// and names no error, and its page is an article about one clear entry.
    pub fn expected(&self, page: Page<'a>, s: &Snippet) -> Option<Expected<'a>> {
        if !expects_entry(s) {
            return None;
        }
        self.about(page)
    }

    /// The entry `page` is about, with the claim of its error: for an article with one clear
    /// entry whose error a claim can name.
    pub(crate) fn about(&self, page: Page<'a>) -> Option<Expected<'a>> {
        let Page::Article(a) = page else {
            return None;
        };
        let link = self.graph.primary_entry(&a.id)?;
        let Node::Entry { id } = &link.to else {
            return None;
        };
        let entry = self.catalog.entry(id)?;
        let claim =
            errbook_records::judge::entry_claim(&entry.message, entry.exception.as_deref())?;
        Some(Expected { entry, link, claim })
    }
}

/// Whether `s` is a block whose claim is errbook's reading "fails" with no error named: the
/// only claim the entry's error completes.
pub fn expects_entry(s: &Snippet) -> bool {
    let inferred = s
        .reading
        .as_deref()
        .is_some_and(|r| r.source == ClaimSource::Inferred);
    let unnamed = s.run.as_ref().is_some_and(|r| {
        r.claim
            == Claim::Fails {
                exception: None,
                message: None,
            }
    });
    inferred && unnamed
}
