//! A code block's view: its record status (the hash of its chain computed once; its runs judged
//! against the error of the entry its article is about where its text reads it as failing and
//! names none, `expect`), what its runs say together in the words of its role (a workaround's
//! code "works"), and the flags the link graph draws from it to other entries (the workaround it
//! applies, the dead end it falls into), each with what that part's own runs say.

use super::evidence::Evidence;
use super::expect::{expects_entry, Expected};
use super::Resolver;
use errbook_core::model::{DeadEnd, Entry, Page, Snippet, Workaround};
use errbook_link::{Link, LinkKind, Node};
use errbook_records::{Role, Status};

#[derive(Debug, Clone)]
pub struct SnippetView<'a> {
    pub snippet: &'a Snippet,
    /// Missing for a block that is not runnable.
    pub status: Status<'a>,
    /// What its runs say together.
    pub evidence: Evidence<'a>,
    pub flags: Vec<Flag<'a>>,
    /// The error of the entry its article is about, where its text reads it as failing and
    /// names none: what its runs are judged against (`expect`).
    pub expected: Option<Expected<'a>>,
}

/// A link from a code block to a workaround or dead end of another entry.
#[derive(Debug, Clone)]
pub struct Flag<'a> {
    pub link: &'a Link,
    pub entry: &'a Entry,
    pub number: usize,
    pub part: Part<'a>,
    /// What the runs of that workaround's or dead end's own code on its entry say.
    pub evidence: Evidence<'a>,
}

/// What the flag points at; `None` when the entry has no part with that number.
#[derive(Debug, Clone, Copy)]
pub enum Part<'a> {
    Workaround(Option<&'a Workaround>),
    DeadEnd(Option<&'a DeadEnd>),
}

impl<'a> Resolver<'a> {
    /// The views of every code block of `page`, in order.
    pub(crate) fn snippets(&self, page: Page<'a>) -> Vec<SnippetView<'a>> {
        let page_ref = page.reference();
        let all = page.snippets();
        // The entry the page is about, asked once and only for a page with a block it completes.
        let about = std::cell::OnceCell::new();
        all.iter()
            .map(|s| {
                let expected = expects_entry(s)
                    .then(|| about.get_or_init(|| self.about(page)).clone())
                    .flatten();
                let entry_claim = expected.as_ref().map(|e| &e.claim);
                let status = self
                    .records
                    .status_expecting(&page_ref, all, s, entry_claim);
                let role = role_of(page, s.index);
                SnippetView {
                    snippet: s,
                    evidence: Evidence::of(role, &[&status]),
                    status,
                    flags: self.flags(page, s),
                    expected,
                }
            })
            .collect()
    }

    /// What the runs of the runnable blocks `idx` of entry `e` say, in the words of `role`.
    pub(crate) fn part_evidence(&self, e: &'a Entry, idx: &[usize], role: Role) -> Evidence<'a> {
        let page = Page::Entry(e).reference();
        let statuses: Vec<Status<'a>> = idx
            .iter()
            .filter_map(|&i| e.snippets.get(i))
            .filter(|s| s.run.is_some())
            .map(|s| self.records.status(&page, &e.snippets, s))
            .collect();
        Evidence::of(role, &statuses.iter().collect::<Vec<_>>())
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
            let (part, code, role) = match link.kind {
                LinkKind::DeadEnd => {
                    let d = entry.dead_ends.iter().find(|d| d.number == number);
                    let code = d.map(|d| d.snippets.as_slice());
                    (Part::DeadEnd(d), code, Role::DeadEnd)
                }
                LinkKind::Applies => {
                    let w = entry.workarounds.iter().find(|w| w.number == number);
                    let code = w.map(|w| w.snippets.as_slice());
                    (Part::Workaround(w), code, Role::Workaround)
                }
                _ => continue,
            };
            out.push(Flag {
                link,
                entry,
                number,
                part,
                evidence: self.part_evidence(entry, code.unwrap_or_default(), role),
            });
        }
        out
    }
}

/// What block `index` of `page` stands for: an entry's workaround or dead end code, or an example.
fn role_of(page: Page<'_>, index: usize) -> Role {
    let Page::Entry(e) = page else {
        return Role::Example;
    };
    if e.workarounds.iter().any(|w| w.snippets.contains(&index)) {
        Role::Workaround
    } else if e.dead_ends.iter().any(|d| d.snippets.contains(&index)) {
        Role::DeadEnd
    } else {
        Role::Example
    }
}
