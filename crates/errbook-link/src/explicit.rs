//! Explicit references, checked: article `errors:`, entry `related:`, `links: {confirm, reject}`
//! in front matter, and Markdown links to other content (`@/errors/pytorch/x.md`, `@/pytorch/x`,
//! `../errors/pytorch/x.md`). A reference to nothing is an `E-link` error at file:line:col with
//! the closest existing IDs as a hint.

use super::resolve::{relative_target, resolve_href_from};
use super::{Link, LinkKind, Node, Origin};
use errbook_core::diag::{did_you_mean, Code, Diagnostic, Diagnostics};
use errbook_core::model::{Catalog, LinkOverrides, Page};
use errbook_parse::load::SourceFile;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// What a `links:` key names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    Entry(String),
    Article(String),
    Workaround(String, usize),
    DeadEnd(String, usize),
}

/// One `links: {confirm|reject}` item: `[<snippet-id> ->] <target>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Key {
    pub snippet: Option<String>,
    pub target: Target,
}

/// Parse a `links:` item. Targets: an entry ID (`pytorch/x`), an article ID, either as a
/// content path (`@/errors/pytorch/x.md`), an entry's workaround or dead end
/// (`pytorch/x#workaround-2`, `pytorch/x#dead-end-3`), optionally for one code block of this
/// page (`snippet-2 -> pytorch/x#dead-end-3`, by the block's id).
pub(crate) fn parse_key(catalog: &Catalog, raw: &str) -> Result<Key, (String, Option<String>)> {
    let (snippet, target) = match raw.split_once("->") {
        Some((s, t)) => (Some(s.trim().to_string()), t.trim()),
        None => (None, raw.trim()),
    };
    let (path, frag) = match target.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (target, None),
    };
    let id = content_id(path);
    let entry_ids = || catalog.entries.iter().map(|e| e.id.as_str());
    if let Some(e) = catalog.entry(&id) {
        let t = match frag {
            None => Target::Entry(e.id.clone()),
            Some(f) => {
                let part = |p: &str| f.strip_prefix(p).and_then(|n| n.parse::<usize>().ok());
                if let Some(n) = part("workaround-") {
                    if !e.workarounds.iter().any(|w| w.number == n) {
                        return Err((
                            format!("`{id}` has no workaround {n}"),
                            Some(format!("it has {} workaround(s)", e.workarounds.len())),
                        ));
                    }
                    Target::Workaround(e.id.clone(), n)
                } else if let Some(n) = part("dead-end-") {
                    if !e.dead_ends.iter().any(|d| d.number == n) {
                        return Err((
                            format!("`{id}` has no dead end {n}"),
                            Some(format!("it has {} dead end(s)", e.dead_ends.len())),
                        ));
                    }
                    Target::DeadEnd(e.id.clone(), n)
                } else {
                    return Err((
                        format!("`#{f}` names no part of `{id}`"),
                        Some("write `#workaround-N` or `#dead-end-N`".into()),
                    ));
                }
            }
        };
        if snippet.is_some() && matches!(t, Target::Entry(_)) {
            return Err((
                "a code block can only be linked to a workaround or a dead end".into(),
                Some(format!("write `{}#workaround-N` or `#dead-end-N`", e.id)),
            ));
        }
        return Ok(Key { snippet, target: t });
    }
    if let Some(a) = catalog.article(&id) {
        if frag.is_none() && snippet.is_none() {
            return Ok(Key {
                snippet: None,
                target: Target::Article(a.id.clone()),
            });
        }
    }
    let near = did_you_mean(
        &id,
        entry_ids().chain(catalog.articles.iter().map(|a| a.id.as_str())),
    );
    Err((format!("`{target}` names no entry or article"), hint(&near)))
}

/// `@/errors/pytorch/x.md`, `content/errors/pytorch/x.md`, `errors/pytorch/x`, `pytorch/x`
/// -> `pytorch/x`; `@/articles/a.md` -> `a`.
pub(crate) fn content_id(path: &str) -> String {
    let p = path.trim();
    let p = p.strip_prefix("@/").unwrap_or(p);
    let p = p.strip_prefix("content/").unwrap_or(p);
    let p = p.strip_suffix(".md").unwrap_or(p);
    let p = p
        .strip_prefix("errors/")
        .or_else(|| p.strip_prefix("articles/"))
        .unwrap_or(p);
    p.to_string()
}

pub(crate) fn hint(near: &[&str]) -> Option<String> {
    match near {
        [] => None,
        [one] => Some(format!("did you mean `{one}`?")),
        many => Some(format!(
            "did you mean one of: {}?",
            many.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Byte offset and length of `value` in the front matter of `src` under `key:` (the key's
/// position when the value cannot be found as written).
pub(crate) fn front_value_span(src: &str, key: &str, value: &str) -> (usize, usize) {
    let fm_end = front_matter_end(src);
    let fm = &src[..fm_end];
    let mut off = 0;
    let mut key_at = None;
    for line in fm.split_inclusive('\n') {
        if line.starts_with(key) && line[key.len()..].trim_start().starts_with(':') {
            key_at = Some(off);
            break;
        }
        off += line.len();
    }
    let Some(k) = key_at else { return (0, 3) };
    match fm[k..].find(value) {
        Some(i) => (k + i, value.len()),
        None => (k, key.len()),
    }
}

/// End of the leading `---` block (0 when there is none).
pub(crate) fn front_matter_end(src: &str) -> usize {
    errbook_parse::links::front_matter_end(src)
}

/// The explicit links of the catalog; every broken reference becomes an `E-link` diagnostic.
pub(crate) fn check(catalog: &Catalog, texts: &Texts<'_>, diags: &mut Diagnostics) -> Vec<Link> {
    let mut out = Vec::new();
    for page in pages(catalog) {
        out.extend(check_page(catalog, texts, page, diags));
    }
    dedup(&mut out);
    out
}

/// Every page whose references are checked, in the order `check` takes them: articles, then
/// entries, each in ID order.
pub(crate) fn pages(catalog: &Catalog) -> impl Iterator<Item = Page<'_>> + '_ {
    let articles = catalog.articles.iter().map(|a| Page::Article(a));
    articles.chain(catalog.entries.iter().map(|e| Page::Entry(e)))
}

/// The content files' texts by path, for diagnostics only: what is checked was taken out of the
/// text at parse time (`Entry::content_links`, the front matter's lists).
pub struct Texts<'a> {
    kept: HashMap<&'a Path, &'a Arc<str>>,
    /// Where to read a file again that is not kept (a build drops the texts after parse).
    root: Option<&'a Path>,
}

/// The texts of `files`, each file's text there.
pub fn texts(files: &[SourceFile]) -> Texts<'_> {
    texts_or_read(files, None)
}

/// The texts of `files`; a file not among them is read again under `root` when a diagnostic
/// needs its text.
pub fn texts_or_read<'a>(files: &'a [SourceFile], root: Option<&'a Path>) -> Texts<'a> {
    Texts {
        kept: files.iter().map(|f| (f.path.as_path(), &f.text)).collect(),
        root,
    }
}

impl Texts<'_> {
    /// The text of the file at `path` (relative to the site root); empty when it is neither kept
    /// nor readable as text any more (the diagnostic then points at its start).
    fn text(&self, path: &Path) -> Arc<str> {
        if let Some(t) = self.kept.get(path) {
            return Arc::clone(t);
        }
        let read = self.root.and_then(|root| {
            let bytes = std::fs::read(root.join(path)).ok()?;
            errbook_parse::load::check_text(path, bytes).ok()
        });
        read.unwrap_or_else(|| Arc::from(""))
    }

    /// Whether the file at `path` is known: kept, or to be read again.
    fn has(&self, path: &Path) -> bool {
        self.root.is_some() || self.kept.contains_key(path)
    }
}

/// The explicit links of one page (before `dedup`), its broken references in `diags`. Besides the
/// page itself, what this reads of the catalog is which pages exist, which did not parse, and
/// the numbers of entries' workarounds and dead ends (see `live::shape`).
pub(crate) fn check_page(
    catalog: &Catalog,
    texts: &Texts<'_>,
    page: Page<'_>,
    diags: &mut Diagnostics,
) -> Vec<Link> {
    if !texts.has(page.source()) {
        return Vec::new();
    }
    let at = Source {
        path: page.source(),
        texts,
    };
    let mut out = Vec::new();
    match page {
        Page::Article(a) => {
            for id in &a.errors {
                match catalog.entry(&content_id(id)) {
                    Some(e) => out.push(Link::stated(
                        Node::Article { id: a.id.clone() },
                        Node::Entry { id: e.id.clone() },
                        LinkKind::Discusses,
                        Origin::Explicit,
                    )),
                    // A file that did not parse reports its own errors, not those of its readers.
                    None if catalog.is_unparsed(&content_id(id)) => {}
                    None => diags.push(at.no_such_entry(catalog, "errors", id)),
                }
            }
            overrides(catalog, at, &a.links, diags);
        }
        Page::Entry(e) => {
            for id in &e.related {
                match catalog.entry(&content_id(id)) {
                    Some(o) if o.id != e.id => out.push(Link::stated(
                        Node::Entry { id: e.id.clone() },
                        Node::Entry { id: o.id.clone() },
                        LinkKind::Related,
                        Origin::Explicit,
                    )),
                    Some(_) => diags.push(at.self_related(id)),
                    None if catalog.is_unparsed(&content_id(id)) => {}
                    None => diags.push(at.no_such_entry(catalog, "related", id)),
                }
            }
            overrides(catalog, at, &e.links, diags);
        }
    }
    markdown_links(catalog, at, page, diags);
    out
}

/// Two explicit links between the same ends are one (two entries that name each other as
/// related: one link); the first is kept. Compared where they lie, by a hash of their ends and
/// then the ends themselves: a set of the ends' copies held a million links' names again, a
/// third of a gigabyte at a million entries.
pub(crate) fn dedup(links: &mut Vec<Link>) {
    /// What makes two links one: a related pair either way round, else the same two ends.
    #[derive(PartialEq, Eq, Hash)]
    enum Ends<'a> {
        Related(&'a str, &'a str),
        Other(&'a Node, &'a Node),
    }
    fn ends(l: &Link) -> Ends<'_> {
        match (&l.kind, &l.from, &l.to) {
            (LinkKind::Related, Node::Entry { id: a }, Node::Entry { id: b }) => {
                Ends::Related(a.min(b), a.max(b))
            }
            _ => Ends::Other(&l.from, &l.to),
        }
    }
    let hasher = foldhash::fast::FixedState::default();
    let mut order: Vec<(u64, usize)> = (links.iter().enumerate())
        .map(|(i, l)| (std::hash::BuildHasher::hash_one(&hasher, ends(l)), i))
        .collect();
    order.sort_unstable();
    let mut keep = vec![true; links.len()];
    // Within a run of one hash, in the links' order: a link with the ends of one kept before it
    // goes.
    for run in order.chunk_by(|a, b| a.0 == b.0) {
        for (k, &(_, i)) in run.iter().enumerate() {
            let seen = run[..k]
                .iter()
                .any(|&(_, j)| keep[j] && ends(&links[j]) == ends(&links[i]));
            keep[i] = !seen;
        }
    }
    let mut keep = keep.into_iter();
    links.retain(|_| keep.next().unwrap_or(true));
}

/// A content file being checked: its path, and where its text is for diagnostics.
#[derive(Clone, Copy)]
struct Source<'a> {
    path: &'a Path,
    texts: &'a Texts<'a>,
}

impl Source<'_> {
    /// `E-link` at the front matter item `id` under `key:`, which names no entry.
    fn no_such_entry(self, catalog: &Catalog, key: &str, id: &str) -> Diagnostic {
        let src = self.texts.text(self.path);
        let (o, l) = front_value_span(&src, key, id);
        let msg = format!("`{key}:` names `{id}`, which is no entry of the catalog");
        let d = Diagnostic::at(Code::Link, self.path, &src, o, l, msg).label("no such entry");
        let entry_ids = catalog.entries.iter().map(|e| e.id.as_str());
        match hint(&did_you_mean(&content_id(id), entry_ids)) {
            Some(h) => d.hint(h),
            None => d,
        }
    }

    /// The entry's `related:` item `id` names the entry itself.
    fn self_related(self, id: &str) -> Diagnostic {
        let src = self.texts.text(self.path);
        let (o, l) = front_value_span(&src, "related", id);
        let msg = "an entry is not related to itself";
        Diagnostic::at(Code::SelfRelated, self.path, &src, o, l, msg).hint("remove this item")
    }
}

/// Check the `links: {confirm, reject}` items of one page.
fn overrides(catalog: &Catalog, at: Source<'_>, links: &LinkOverrides, diags: &mut Diagnostics) {
    for (which, items) in [("confirm", &links.confirm), ("reject", &links.reject)] {
        for raw in items.iter().filter(|r| !names_unparsed(catalog, r)) {
            if let Err((msg, hint)) = parse_key(catalog, raw) {
                let src = at.texts.text(at.path);
                let (o, l) = front_value_span(&src, "links", raw);
                let msg = format!("`links: {which}` item `{raw}`: {msg}");
                let d =
                    Diagnostic::at(Code::Link, at.path, &src, o, l, msg).label("broken reference");
                diags.push(match hint {
                    Some(h) => d.hint(h),
                    None => d,
                });
            }
        }
    }
}

/// Whether a `links:` item names a page whose file did not parse.
fn names_unparsed(catalog: &Catalog, raw: &str) -> bool {
    let target = raw.split_once("->").map_or(raw, |(_, t)| t).trim();
    let path = target.split('#').next().unwrap_or(target);
    catalog.is_unparsed(&content_id(path))
}

/// Markdown links to content: `@/...` and relative `.md` links must name something that exists.
fn markdown_links(catalog: &Catalog, at: Source<'_>, page: Page<'_>, diags: &mut Diagnostics) {
    for l in page.content_links() {
        let dest = &*l.dest;
        let wanted = if dest.starts_with("@/") {
            dest.to_string()
        } else if let Some(rel) = relative_target(at.path, dest) {
            rel
        } else {
            continue;
        };
        let unparsed = catalog.is_unparsed(&content_id(&wanted));
        if unparsed || resolve_href_from(catalog, at.path, dest).is_some() {
            continue;
        }
        diags.push(broken_link(catalog, at, l.at, l.len, dest, &wanted));
    }
}

/// `E-link` at `dest`, a Markdown link to content (`wanted`) that names nothing.
fn broken_link(
    catalog: &Catalog,
    at: Source<'_>,
    offset: usize,
    len: usize,
    dest: &str,
    wanted: &str,
) -> Diagnostic {
    let candidates = (catalog.entries.iter().map(|e| e.id.as_str()))
        .chain(catalog.articles.iter().map(|a| a.id.as_str()));
    let near = did_you_mean(&content_id(wanted), candidates);
    let h = match near.first() {
        Some(n) => {
            let p = match catalog.entry(n) {
                Some(_) => format!("@/errors/{n}.md"),
                None => format!("@/articles/{n}.md"),
            };
            format!("did you mean `{p}`?")
        }
        None => "link to content as `@/errors/<domain>/<slug>.md` or `@/articles/<id>.md`".into(),
    };
    let msg = format!("the link `{dest}` points to no entry or article");
    let src = at.texts.text(at.path);
    Diagnostic::at(Code::Link, at.path, &src, offset, len, msg)
        .label("broken link")
        .hint(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dedup_keeps_the_first_link_of_each_pair_of_ends() {
        let entry = |id: &str| Node::Entry { id: id.into() };
        let article = |id: &str| Node::Article { id: id.into() };
        let link = |from, to, kind| Link::stated(from, to, kind, Origin::Explicit);
        let mut links = vec![
            link(entry("p/a"), entry("p/b"), LinkKind::Related),
            link(article("x"), entry("p/a"), LinkKind::Discusses),
            // The same pair the other way round: one link.
            link(entry("p/b"), entry("p/a"), LinkKind::Related),
            link(article("x"), entry("p/b"), LinkKind::Discusses),
            link(article("x"), entry("p/a"), LinkKind::Discusses),
            // Other ends, reversed, are other links.
            link(entry("p/a"), article("x"), LinkKind::Discusses),
        ];
        dedup(&mut links);
        let ends: Vec<_> = links
            .iter()
            .map(|l| (l.from.clone(), l.to.clone()))
            .collect();
        assert_eq!(
            ends,
            vec![
                (entry("p/a"), entry("p/b")),
                (article("x"), entry("p/a")),
                (article("x"), entry("p/b")),
                (entry("p/a"), article("x")),
            ]
        );
    }

    #[test]
    fn value_span_in_front_matter() {
        let src = "---\ntitle: t\nerrors: [pytorch/a, pytorch/b]\n---\nbody pytorch/b\n";
        let (o, l) = front_value_span(src, "errors", "pytorch/b");
        assert_eq!(&src[o..o + l], "pytorch/b");
        assert!(o < 40);
    }
}
