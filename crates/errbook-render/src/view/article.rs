//! An article page's view: its code blocks, the entries it discusses (best first, with the
//! link), and for further reading the entries related to those.

use super::{Related, Resolver, SnippetView};
use errbook_core::model::{Article, Entry, Page};
use errbook_link::{Link, Node};

#[derive(Debug, Clone)]
pub struct ArticleView<'a> {
    pub article: &'a Article,
    /// Every code block of the article, in order (index = `Snippet::index`).
    pub snippets: Vec<SnippetView<'a>>,
    pub discussed: Vec<(&'a Entry, &'a Link)>,
    /// Entries related to the discussed ones, not discussed themselves, each once.
    pub related: Vec<Related<'a>>,
}

impl<'a> Resolver<'a> {
    pub fn article(&self, a: &'a Article) -> ArticleView<'a> {
        let discussed: Vec<(&'a Entry, &'a Link)> = self
            .graph
            .entries_for_article(&a.id)
            .filter_map(|l| match &l.to {
                Node::Entry { id } => Some((self.catalog.entry(id)?, l)),
                _ => None,
            })
            .collect();
        let mut related: Vec<Related<'a>> = Vec::new();
        for (e, _) in &discussed {
            for r in self.related(&e.id) {
                let id = &r.entry.id;
                let known = discussed.iter().any(|(d, _)| &d.id == id)
                    || related.iter().any(|x| &x.entry.id == id);
                if !known {
                    related.push(r);
                }
            }
        }
        ArticleView {
            article: a,
            snippets: self.snippets(Page::Article(a)),
            discussed,
            related,
        }
    }
}
