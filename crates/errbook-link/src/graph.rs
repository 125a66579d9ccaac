//! The link graph as data: its nodes (entries, articles, workarounds, dead ends, code blocks),
//! links with their kind, origin, score and evidence, the candidates left out for review, and
//! the query methods every later stage reads the graph through (answered from an index of the
//! links by their ends). How the graph is built is `link::link_with`'s job, not this file's.

use super::Evidence;
use errbook_core::model::{PageKind, PageRef};
use serde::Serialize;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::sync::OnceLock;

/// One end of a link.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Node {
    Entry {
        id: String,
    },
    Article {
        id: String,
    },
    /// 1-based workaround number of an entry.
    Workaround {
        entry: String,
        number: usize,
    },
    DeadEnd {
        entry: String,
        number: usize,
    },
    /// A code block of a page (0-based index among the page's blocks).
    Snippet {
        page: PageRef,
        index: usize,
    },
}

impl Node {
    /// The node of a whole page: its entry or article.
    pub(crate) fn for_page(page: &PageRef) -> Node {
        let id = page.id.clone();
        match page.kind {
            PageKind::Entry => Node::Entry { id },
            PageKind::Article => Node::Article { id },
        }
    }

    /// The page a node is shown on (a workaround or dead end: its entry's page).
    pub(crate) fn page(&self) -> PageRef {
        let (kind, id) = match self {
            Node::Entry { id } => (PageKind::Entry, id),
            Node::Workaround { entry, .. } | Node::DeadEnd { entry, .. } => {
                (PageKind::Entry, entry)
            }
            Node::Article { id } => (PageKind::Article, id),
            Node::Snippet { page, .. } => return page.clone(),
        };
        PageRef {
            kind,
            id: id.clone(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkKind {
    /// article -> entry: the article discusses the error.
    Discusses,
    /// snippet -> workaround: the code applies the workaround.
    Applies,
    /// snippet -> dead end: the code does what the dead end says fails.
    DeadEnd,
    /// entry <-> entry: related errors.
    Related,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// Written by the author (front matter or a Markdown link).
    Explicit,
    /// Inferred and scored above the threshold.
    Inferred,
    /// Inferred and confirmed by the author in `links: {confirm: [...]}`.
    Confirmed,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Link {
    pub from: Node,
    pub to: Node,
    pub kind: LinkKind,
    pub origin: Origin,
    /// 0..=1 (explicit links: 1).
    pub score: f64,
    pub evidence: Vec<Evidence>,
}

impl Link {
    /// A link the author's word makes: score 1, no evidence.
    pub(crate) fn stated(from: Node, to: Node, kind: LinkKind, origin: Origin) -> Link {
        Link {
            from,
            to,
            kind,
            origin,
            score: 1.0,
            evidence: vec![],
        }
    }
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Graph {
    pub links: Vec<Link>,
    /// Inferred candidates left out (below the threshold, or rejected by an author), for
    /// `errbook check --links`. Not part of the site.
    #[serde(skip)]
    pub review: Vec<Review>,
    /// The threshold the inferred links passed.
    #[serde(skip)]
    pub threshold: f64,
    /// Index of `links` by their ends, built on the first query (after `link_with` has sorted them;
    /// `sort` drops it).
    #[serde(skip)]
    ends: OnceLock<Ends>,
}

/// Why an inferred candidate is not in the graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Left {
    BelowThreshold,
    Rejected,
}

#[derive(Debug, Clone, Serialize)]
pub struct Review {
    pub link: Link,
    pub why: Left,
}

/// Links by the node at either end, as positions in `Graph::links` (so in its order): page
/// rendering asks "what points at this workaround?" for every block of every page, and a scan of
/// all links per question made large catalogs quadratic. Keyed by the hash of the node (or entry
/// ID), not the node itself: `serve` builds the index again after every update, and cloning and
/// SipHashing ~30,000 nodes was a tenth of one. A key's positions may hold another node's links
/// (a hash shared by two nodes); every query checks the link's end.
#[derive(Debug, Clone, Default)]
struct Ends {
    from: FastMap<u64, Vec<u32>>,
    to: FastMap<u64, Vec<u32>>,
    /// Links with an end on an entry (the entry, its workarounds, dead ends or code).
    entry: FastMap<u64, Vec<u32>>,
    hasher: foldhash::fast::RandomState,
}

/// How far the best inferred entry of an article must score above the next for the article to
/// be about it (`Graph::primary_entry`).
const CLEAR_FIRST: f64 = 0.2;

/// A hash map with foldhash's fast hasher (seeded per process).
pub(crate) type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// The entry a node belongs to, if any.
fn entry_of(n: &Node) -> Option<&str> {
    match n {
        Node::Entry { id } => Some(id),
        Node::Workaround { entry, .. } | Node::DeadEnd { entry, .. } => Some(entry),
        Node::Snippet { page, .. } if page.kind == PageKind::Entry => Some(&page.id),
        Node::Snippet { .. } | Node::Article { .. } => None,
    }
}

/// The positions an index holds for a key (none when it holds none).
fn positions(at: Option<&Vec<u32>>) -> &[u32] {
    at.map(Vec::as_slice).unwrap_or(&[])
}

impl Graph {
    fn ends(&self) -> &Ends {
        self.ends.get_or_init(|| {
            let hasher = foldhash::fast::RandomState::default();
            let mut e = Ends::default();
            for (i, l) in self.links.iter().enumerate() {
                let i = i as u32;
                e.from.entry(hasher.hash_one(&l.from)).or_default().push(i);
                e.to.entry(hasher.hash_one(&l.to)).or_default().push(i);
                let (a, b) = (entry_of(&l.from), entry_of(&l.to));
                for id in a.into_iter().chain(b.filter(|b| Some(*b) != a)) {
                    let at = e.entry.entry(hasher.hash_one(id)).or_default();
                    // Both ends on entries whose IDs share a hash: the link once.
                    if at.last() != Some(&i) {
                        at.push(i);
                    }
                }
            }
            e.hasher = hasher;
            e
        })
    }

    /// The hash `Ends` keys `x` by.
    fn key(&self, x: impl Hash) -> u64 {
        self.ends().hasher.hash_one(x)
    }

    /// The links at `positions`, in that order.
    fn links_at<'a>(&'a self, positions: &'a [u32]) -> impl Iterator<Item = &'a Link> + 'a {
        positions.iter().map(|&i| &self.links[i as usize])
    }

    /// Links whose `from` (or `to`) is `node`, in graph order.
    fn at(&self, node: Node, from: bool) -> impl Iterator<Item = &Link> + '_ {
        let e = self.ends();
        let m = if from { &e.from } else { &e.to };
        self.links_at(positions(m.get(&self.key(&node))))
            .filter(move |l| if from { l.from == node } else { l.to == node })
    }

    /// Links of `kind` whose `from` (or `to`) is `node`, in graph order.
    fn kind_at(&self, node: Node, from: bool, kind: LinkKind) -> impl Iterator<Item = &Link> + '_ {
        self.at(node, from).filter(move |l| l.kind == kind)
    }

    /// Articles discussing an entry, best first.
    pub fn articles_for_entry<'a>(&'a self, entry: &'a str) -> impl Iterator<Item = &'a Link> + 'a {
        let node = Node::Entry { id: entry.into() };
        self.kind_at(node, false, LinkKind::Discusses)
            .filter(|l| matches!(l.from, Node::Article { .. }))
    }

    /// Entries an article discusses, best first.
    pub fn entries_for_article<'a>(
        &'a self,
        article: &'a str,
    ) -> impl Iterator<Item = &'a Link> + 'a {
        let node = Node::Article { id: article.into() };
        self.kind_at(node, true, LinkKind::Discusses)
    }

    /// The entry the article is about, where one stands clearly first: the one entry its
    /// author names (`errors:`, or a confirmed link), else the one inferred, else the best
    /// inferred when it scores `CLEAR_FIRST` above the next. None where several entries are
    /// named, or inferred with no clear first.
    pub fn primary_entry<'a>(&'a self, article: &'a str) -> Option<&'a Link> {
        let stated = |l: &&Link| matches!(l.origin, Origin::Explicit | Origin::Confirmed);
        let mut named = self.entries_for_article(article).filter(stated);
        if let Some(first) = named.next() {
            return named.next().is_none().then_some(first);
        }
        let mut inferred = self.entries_for_article(article);
        let first = inferred.next()?;
        match inferred.next() {
            Some(second) if first.score - second.score < CLEAR_FIRST => None,
            _ => Some(first),
        }
    }

    /// Code examples that apply workaround `number` of `entry`.
    pub fn snippets_for_workaround<'a>(
        &'a self,
        entry: &'a str,
        number: usize,
    ) -> impl Iterator<Item = &'a Link> + 'a {
        let entry = entry.into();
        self.kind_at(Node::Workaround { entry, number }, false, LinkKind::Applies)
    }

    /// Code examples that do what dead end `number` of `entry` says fails.
    pub fn snippets_for_dead_end<'a>(
        &'a self,
        entry: &'a str,
        number: usize,
    ) -> impl Iterator<Item = &'a Link> + 'a {
        let entry = entry.into();
        self.kind_at(Node::DeadEnd { entry, number }, false, LinkKind::DeadEnd)
    }

    /// Links from one snippet (workarounds it applies, dead ends it falls into).
    pub fn links_from_snippet<'a>(
        &'a self,
        page: &PageRef,
        index: usize,
    ) -> impl Iterator<Item = &'a Link> + 'a {
        let node = Node::Snippet {
            page: page.clone(),
            index,
        };
        self.at(node, true)
    }

    /// Entries related to an entry (either direction), best first.
    pub fn related<'a>(&'a self, entry: &'a str) -> impl Iterator<Item = (&'a str, &'a Link)> + 'a {
        let node = Node::Entry { id: entry.into() };
        let e = self.ends();
        let k = self.key(&node);
        // A key shared by another node: the match below keeps this entry's links only.
        let (from, to) = (positions(e.from.get(&k)), positions(e.to.get(&k)));
        let mut at: Vec<u32> = from.iter().chain(to).copied().collect();
        at.sort_unstable();
        at.dedup();
        at.into_iter().filter_map(move |i| {
            let l = &self.links[i as usize];
            if l.kind != LinkKind::Related {
                return None;
            }
            match (&l.from, &l.to) {
                (Node::Entry { id: a }, Node::Entry { id: b }) if a == entry => {
                    Some((b.as_str(), l))
                }
                (Node::Entry { id: a }, Node::Entry { id: b }) if b == entry => {
                    Some((a.as_str(), l))
                }
                _ => None,
            }
        })
    }

    /// Sort links deterministically: by kind, then score (best first), then endpoints.
    pub(crate) fn sort(&mut self) {
        self.sort_by_ends(|l| format!("{:?}{:?}", l.from, l.to).into_boxed_str());
    }

    /// `sort`, `key` giving the text a link's ends sort by, `format!("{:?}{:?}", from, to)`
    /// (or something ordered as it is). It is asked once per link: written on every comparison,
    /// it took a tenth of a large catalog's link stage. The links' order is sorted, then they
    /// are moved into it in place: a second list of the links (with their keys) beside the
    /// first was the link stage's peak on a large catalog.
    pub(crate) fn sort_by_ends<K: Ord>(&mut self, key: impl FnMut(&Link) -> K) {
        self.ends = OnceLock::new();
        let keys: Vec<K> = self.links.iter().map(key).collect();
        let links = &self.links;
        let mut order: Vec<u32> = (0..links.len() as u32).collect();
        order.sort_by(|&x, &y| {
            let (a, b) = (&links[x as usize], &links[y as usize]);
            (a.kind as u8)
                .cmp(&(b.kind as u8))
                .then(b.score.total_cmp(&a.score))
                .then_with(|| keys[x as usize].cmp(&keys[y as usize]))
        });
        drop(keys);
        permute(&mut self.links, order);
    }
}

/// Put `v` in `order` (the item at `i` becomes the one at `order[i]`), one cycle of the
/// permutation at a time, by swaps.
fn permute<T>(v: &mut [T], mut order: Vec<u32>) {
    for start in 0..v.len() {
        let mut i = start;
        loop {
            let src = order[i] as usize;
            order[i] = i as u32;
            if src == start || src == i {
                break;
            }
            v.swap(i, src);
            i = src;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn about(entry: &str, origin: Origin, score: f64) -> Link {
        Link {
            score,
            ..Link::stated(
                Node::Article { id: "a".into() },
                Node::Entry { id: entry.into() },
                LinkKind::Discusses,
                origin,
            )
        }
    }

    fn primary(links: Vec<Link>) -> Option<String> {
        let mut g = Graph {
            links,
            ..Graph::default()
        };
        g.sort();
        g.primary_entry("a").map(|l| match &l.to {
            Node::Entry { id } => id.clone(),
            other => format!("{other:?}"),
        })
    }

    #[test]
    fn an_article_is_about_the_entry_that_stands_clearly_first() {
        use Origin::{Confirmed, Explicit, Inferred};
        assert_eq!(primary(vec![]), None);
        assert_eq!(
            primary(vec![about("x/a", Inferred, 0.66)]),
            Some("x/a".into())
        );
        let clear = vec![about("x/a", Inferred, 0.87), about("x/b", Inferred, 0.5)];
        assert_eq!(primary(clear), Some("x/a".into()));
        let close = vec![about("x/a", Inferred, 0.87), about("x/b", Inferred, 0.8)];
        assert_eq!(primary(close), None, "no clear first");
        // The author's word wins over inference, and two entries named have no first.
        let named = vec![about("x/b", Explicit, 1.0), about("x/a", Inferred, 0.95)];
        assert_eq!(primary(named), Some("x/b".into()));
        let two = vec![about("x/a", Explicit, 1.0), about("x/b", Confirmed, 0.7)];
        assert_eq!(primary(two), None);
    }

    #[test]
    fn a_permutation_put_in_place_is_the_list_in_that_order() {
        let orders: [&[u32]; 5] = [&[], &[0], &[1, 0], &[2, 0, 1], &[3, 1, 4, 0, 2, 5]];
        for order in orders {
            let mut v: Vec<u32> = (0..order.len() as u32).map(|x| x * 10).collect();
            let want: Vec<u32> = order.iter().map(|&i| v[i as usize]).collect();
            super::permute(&mut v, order.to_vec());
            assert_eq!(v, want, "{order:?}");
        }
    }
}
