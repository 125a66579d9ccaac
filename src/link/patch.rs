//! The graph after an edit, patched into the graph before it instead of made again: the kept
//! parts (`live`) are decided by reference, in the order `link_with` draws them and with the
//! same rules (a pair's first link wins, a later candidate of the pair lends its evidence to one
//! that has none, the authors' decisions), giving each link of the new graph as a `Recipe`. The
//! recipes are then compared with the graph before: a link that is the same stays where it was
//! (the graph's order is a function of each link's own content, so the links that stay are in
//! order), a link that went is taken out, and each new one is made and put in at its place. Only
//! what changed is cloned and sorted; a graph of ~15,000 links was cloned and sorted whole on
//! every update (most of `update: link`). The links taken out and the places of those put in
//! are kept (`Patch`): they tell the update what changed, and put the graph back when the
//! update fails.

use super::decide::{pair_hash, same_pair, Decisions};
use super::graph::FastMap;
use super::{Evidence, Graph, Link, Origin};
use std::cmp::Ordering;
use std::collections::hash_map::Entry;

/// A link of the new graph as it will be: the candidate (or explicit link) that drew it, and what
/// deciding changed of it.
struct Recipe<'a> {
    base: &'a Link,
    /// An author confirmed it (its origin becomes `Confirmed`).
    confirmed: bool,
    /// Evidence lent by a later candidate of the pair (the base had none).
    lent: Option<&'a [Evidence]>,
}

impl Recipe<'_> {
    fn evidence(&self) -> &[Evidence] {
        self.lent.unwrap_or(&self.base.evidence)
    }

    fn origin(&self) -> Origin {
        if self.confirmed {
            Origin::Confirmed
        } else {
            self.base.origin
        }
    }

    /// The link this recipe makes is `l`.
    fn is(&self, l: &Link) -> bool {
        let b = self.base;
        l.kind == b.kind
            && l.origin == self.origin()
            && l.score == b.score
            && l.from == b.from
            && l.to == b.to
            && l.evidence == self.evidence()
    }

    fn make(&self) -> Link {
        Link {
            from: self.base.from.clone(),
            to: self.base.to.clone(),
            kind: self.base.kind,
            origin: self.origin(),
            score: self.base.score,
            evidence: self.evidence().to_vec(),
        }
    }
}

/// Pairs to positions: a map by the pair's hash, and the rare positions whose hash another pair
/// holds there (latest last).
#[derive(Default)]
struct Pairs {
    at: FastMap<u64, usize>,
    shared: Vec<(u64, usize)>,
}

impl Pairs {
    /// Note `l` at `i`; a link of the same pair noted before gives its place up.
    fn note<'l>(&mut self, h: u64, i: usize, l: &Link, at: impl Fn(usize) -> &'l Link) {
        match self.at.entry(h) {
            Entry::Vacant(v) => {
                v.insert(i);
            }
            Entry::Occupied(mut o) => {
                if same_pair(at(*o.get()), l) {
                    o.insert(i);
                } else {
                    self.shared.push((h, i));
                }
            }
        }
    }

    fn find<'l>(&self, h: u64, c: &Link, at: impl Fn(usize) -> &'l Link) -> Option<usize> {
        let i = *self.at.get(&h)?;
        if same_pair(at(i), c) {
            return Some(i);
        }
        (self.shared.iter().rev())
            .find(|&&(x, j)| x == h && same_pair(at(j), c))
            .map(|&(_, j)| j)
    }
}

/// The new graph's links being decided, in the order they are drawn.
pub(super) struct Drawing<'a> {
    recipes: Vec<Recipe<'a>>,
    pairs: Pairs,
    hasher: foldhash::fast::RandomState,
}

impl<'a> Drawing<'a> {
    pub(super) fn new() -> Drawing<'a> {
        Drawing {
            recipes: Vec::new(),
            pairs: Pairs::default(),
            hasher: Default::default(),
        }
    }

    fn find(&self, c: &Link) -> Option<usize> {
        let h = pair_hash(&self.hasher, c);
        self.pairs.find(h, c, |i| self.recipes[i].base)
    }

    fn push(&mut self, base: &'a Link, confirmed: bool) {
        let h = pair_hash(&self.hasher, base);
        let i = self.recipes.len();
        self.recipes.push(Recipe {
            base,
            confirmed,
            lent: None,
        });
        let recipes = &self.recipes;
        self.pairs.note(h, i, base, |j| recipes[j].base);
    }

    /// Links as they are (explicit links): each one drawn.
    pub(super) fn take_all(&mut self, links: impl IntoIterator<Item = &'a Link>) {
        for l in links {
            self.push(l, false);
        }
    }

    /// `Decisions::apply_to` (the candidates left out are not kept).
    pub(super) fn apply(
        &mut self,
        decide: &Decisions<'_>,
        cands: impl IntoIterator<Item = &'a Link>,
        threshold: f64,
    ) {
        for c in cands {
            if let Some(i) = self.find(c) {
                let r = &mut self.recipes[i];
                if r.evidence().is_empty() {
                    r.lent = Some(&c.evidence);
                }
                continue;
            }
            match decide.on(c) {
                Some(false) => {}
                Some(true) => self.push(c, true),
                None if c.score >= threshold => self.push(c, false),
                None => {}
            }
        }
    }

    /// Each link of `links` whose pair is not drawn yet (`decide::push_new`).
    pub(super) fn add_new(&mut self, links: impl IntoIterator<Item = &'a Link>) {
        for l in links {
            if self.find(l).is_none() {
                self.push(l, false);
            }
        }
    }

    /// The links drawn so far, as their kind and ends go (evidence and origin may differ).
    pub(super) fn drawn(&self) -> impl Iterator<Item = &'a Link> + '_ {
        self.recipes.iter().map(|r| r.base)
    }

    /// The graph of the links drawn, patched into `old`.
    pub(super) fn patch(&self, old: Graph) -> (Graph, Patch) {
        let mut pairs = Pairs::default();
        for (j, l) in old.links.iter().enumerate() {
            let h = pair_hash(&self.hasher, l);
            pairs.note(h, j, l, |k| &old.links[k]);
        }
        let mut keep = vec![false; old.links.len()];
        let mut added: Vec<Link> = Vec::new();
        for r in &self.recipes {
            let h = pair_hash(&self.hasher, r.base);
            match pairs.find(h, r.base, |k| &old.links[k]) {
                Some(j) if !keep[j] && r.is(&old.links[j]) => keep[j] = true,
                _ => added.push(r.make()),
            }
        }
        let threshold = old.threshold;
        let mut kept = Vec::with_capacity(self.recipes.len());
        let mut removed = Vec::new();
        for (j, l) in old.links.into_iter().enumerate() {
            if keep[j] {
                kept.push(l);
            } else {
                removed.push((j, l));
            }
        }
        let (links, added) = merge(kept, added);
        let mut g = Graph::default();
        g.threshold = threshold;
        g.links = links;
        (g, Patch { removed, added })
    }
}

/// The graph's order (`Graph::sort`): kind, score (best first), then the ends' text.
fn order(a: &Link, ka: &str, b: &Link, kb: &str) -> Ordering {
    (a.kind as u8)
        .cmp(&(b.kind as u8))
        .then(b.score.total_cmp(&a.score))
        .then_with(|| ka.cmp(kb))
}

fn ends_key(l: &Link) -> String {
    format!("{:?}{:?}", l.from, l.to)
}

/// `kept` (in the graph's order) with `added` put in at their places; the positions of the
/// added ones.
fn merge(kept: Vec<Link>, added: Vec<Link>) -> (Vec<Link>, Vec<usize>) {
    let mut added: Vec<(String, Link)> = added.into_iter().map(|l| (ends_key(&l), l)).collect();
    added.sort_by(|(ka, a), (kb, b)| order(a, ka, b, kb));
    // Where each goes among the kept ones (in order, as they are sorted).
    let at: Vec<usize> = (added.iter())
        .map(|(ka, a)| kept.partition_point(|k| order(k, &ends_key(k), a, ka) == Ordering::Less))
        .collect();
    let mut links = Vec::with_capacity(kept.len() + added.len());
    let mut positions = Vec::with_capacity(added.len());
    let mut next = at.iter().zip(added).peekable();
    for (i, l) in kept.into_iter().enumerate() {
        while let Some((_, (_, a))) = next.next_if(|(&p, _)| p == i) {
            positions.push(links.len());
            links.push(a);
        }
        links.push(l);
    }
    for (_, (_, a)) in next {
        positions.push(links.len());
        links.push(a);
    }
    (links, positions)
}

/// What a patch changed: the links taken out (with their places in the graph before) and the
/// places of the links put in (in the graph after).
#[derive(Debug, Default)]
pub(crate) struct Patch {
    removed: Vec<(usize, Link)>,
    added: Vec<usize>,
}

impl Patch {
    /// The links the patch took out.
    pub(crate) fn removed(&self) -> impl Iterator<Item = &Link> {
        self.removed.iter().map(|(_, l)| l)
    }

    /// The links the patch put into `g` (the graph it made).
    pub(crate) fn added<'g>(&'g self, g: &'g Graph) -> impl Iterator<Item = &'g Link> + 'g {
        self.added.iter().filter_map(|&i| g.links.get(i))
    }

    /// Nothing changed.
    pub(crate) fn is_empty(&self) -> bool {
        self.removed.is_empty() && self.added.is_empty()
    }

    /// The graph before, from `g`, the graph this patch made.
    pub(crate) fn undo(self, g: Graph) -> Graph {
        let mut before = Graph::default();
        before.threshold = g.threshold;
        let n = g.links.len() + self.removed.len() - self.added.len();
        let mut links = Vec::with_capacity(n);
        let mut added = self.added.iter().peekable();
        let mut removed = self.removed.into_iter().peekable();
        for (i, l) in g.links.into_iter().enumerate() {
            if added.next_if(|&&a| a == i).is_some() {
                continue;
            }
            while let Some((_, r)) = removed.next_if(|(j, _)| *j == links.len()) {
                links.push(r);
            }
            links.push(l);
        }
        links.extend(removed.map(|(_, r)| r));
        before.links = links;
        before
    }
}

/// The graph before an update, as the update keeps it: whole (the graph was made again), or as
/// the patch that made the new one from it.
#[derive(Debug)]
pub(crate) enum Before {
    Whole(Graph),
    Patched(Patch),
}

impl Default for Before {
    fn default() -> Before {
        Before::Whole(Graph::default())
    }
}

impl Before {
    /// The graph before, from `now`, the graph after.
    pub(crate) fn undo(self, now: Graph) -> Graph {
        match self {
            Before::Whole(g) => g,
            Before::Patched(p) => p.undo(now),
        }
    }
}
