//! A code block's view: its record status (the hash of its chain computed once) and the flags
//! the link graph draws from it to other entries (the workaround it applies, the dead end it
//! falls into).

use super::Resolver;
use crate::core::model::{DeadEnd, Entry, Page, Snippet, Workaround};
use crate::link::{Link, LinkKind, Node};
use crate::records::Status;

#[derive(Debug, Clone)]
pub(crate) struct SnippetView<'a> {
    pub snippet: &'a Snippet,
    /// Missing for a block that is not runnable.
    pub status: Status<'a>,
    pub flags: Vec<Flag<'a>>,
}

/// A link from a code block to a workaround or dead end of another entry.
#[derive(Debug, Clone)]
pub(crate) struct Flag<'a> {
    pub link: &'a Link,
    pub entry: &'a Entry,
    pub number: usize,
    pub part: Part<'a>,
}

/// What the flag points at; `None` when the entry has no part with that number.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Part<'a> {
    Workaround(Option<&'a Workaround>),
    DeadEnd(Option<&'a DeadEnd>),
}

impl<'a> Resolver<'a> {
    /// The views of every code block of `page`, in order.
    pub(crate) fn snippets(&self, page: Page<'a>) -> Vec<SnippetView<'a>> {
        let page_ref = page.reference();
        let all = page.snippets();
        all.iter()
            .map(|s| SnippetView {
                snippet: s,
                status: self.records.status(&page_ref, all, s),
                flags: self.flags(page, s),
            })
            .collect()
    }

    fn flags(&self, page: Page<'a>, s: &Snippet) -> Vec<Flag<'a>> {
        let page_ref = page.reference();
        let mut out = Vec::new();
        for link in self.graph.links_from_snippet(&page_ref, s.index) {
            let (entry_id, number) = match &link.to {
                Node::Workaround { entry, number } | Node::DeadEnd { entry, number } => {
                    (entry, *number)
                }
                _ => continue,
            };
            let Some(entry) = self.catalog.entry(entry_id) else {
                continue;
            };
            if matches!(page, Page::Entry(e) if e.id == entry.id) {
                continue; // an entry's own code needs no flag pointing at itself
            }
            let part = match link.kind {
                LinkKind::DeadEnd => {
                    Part::DeadEnd(entry.dead_ends.iter().find(|d| d.number == number))
                }
                LinkKind::Applies => {
                    Part::Workaround(entry.workarounds.iter().find(|w| w.number == number))
                }
                _ => continue,
            };
            out.push(Flag {
                link,
                entry,
                number,
                part,
            });
        }
        out
    }
}
