//! Explicit references, checked: article `errors:`, entry `related:`, `links: {confirm, reject}`
//! in front matter, and Markdown links to other content (`@/errors/pytorch/x.md`, `@/pytorch/x`,
//! `../errors/pytorch/x.md`). A reference to nothing is an `E-link` error at file:line:col with
//! the closest existing IDs as a hint.

use super::{Link, LinkKind, Node, Origin};
use crate::core::diag::{did_you_mean, Code, Diagnostic, Diagnostics};
use crate::core::model::{Catalog, LinkOverrides, PageKind};
use crate::load::SourceFile;
use pulldown_cmark::{Event, Parser, Tag};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// What a `links:` key names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Entry(String),
    Article(String),
    Workaround(String, usize),
    DeadEnd(String, usize),
}

/// One `links: {confirm|reject}` item: `[<snippet-id> ->] <target>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    pub snippet: Option<String>,
    pub target: Target,
}

/// Parse a `links:` item. Targets: an entry ID (`pytorch/x`), an article ID, either as a
/// content path (`@/errors/pytorch/x.md`), an entry's workaround or dead end
/// (`pytorch/x#workaround-2`, `pytorch/x#dead-end-3`), optionally for one code block of this
/// page (`snippet-2 -> pytorch/x#dead-end-3`, by the block's id).
pub fn parse_key(catalog: &Catalog, raw: &str) -> Result<Key, (String, Option<String>)> {
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
pub fn content_id(path: &str) -> String {
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

pub fn hint(near: &[&str]) -> Option<String> {
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
pub fn front_value_span(src: &str, key: &str, value: &str) -> (usize, usize) {
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
pub fn front_matter_end(src: &str) -> usize {
    let first_end = src.find('\n').unwrap_or(src.len());
    if src[..first_end].trim_end() != "---" {
        return 0;
    }
    let mut pos = first_end + 1;
    while pos < src.len() {
        let end = src[pos..].find('\n').map(|i| pos + i).unwrap_or(src.len());
        let line = src[pos..end].trim_end();
        if line == "---" || line == "..." {
            return (end + 1).min(src.len());
        }
        pos = end + 1;
    }
    0
}

/// The explicit links of the catalog; every broken reference becomes an `E-link` diagnostic.
pub fn check(catalog: &Catalog, files: &[SourceFile], diags: &mut Diagnostics) -> Vec<Link> {
    let by_path: HashMap<&Path, &Arc<str>> =
        files.iter().map(|f| (f.path.as_path(), &f.text)).collect();
    let mut out = Vec::new();
    let entry_ids = || catalog.entries.iter().map(|e| e.id.as_str());
    for a in &catalog.articles {
        let Some(src) = by_path.get(a.source.as_path()) else {
            continue;
        };
        for id in &a.errors {
            let cid = content_id(id);
            match catalog.entry(&cid) {
                Some(e) => out.push(Link {
                    from: Node::Article { id: a.id.clone() },
                    to: Node::Entry { id: e.id.clone() },
                    kind: LinkKind::Discusses,
                    origin: Origin::Explicit,
                    score: 1.0,
                    evidence: vec![],
                }),
                None => {
                    let (o, l) = front_value_span(src, "errors", id);
                    let mut d = Diagnostic::at(
                        Code::Link,
                        &a.source,
                        src,
                        o,
                        l,
                        format!("`errors:` names `{id}`, which is no entry of the catalog"),
                    )
                    .label("no such entry");
                    if let Some(h) = hint(&did_you_mean(&cid, entry_ids())) {
                        d = d.hint(h);
                    }
                    diags.push(d);
                }
            }
        }
        overrides(catalog, &a.source, src, &a.links, diags);
        markdown_links(catalog, &a.source, src, diags);
    }
    for e in &catalog.entries {
        let Some(src) = by_path.get(e.source.as_path()) else {
            continue;
        };
        for id in &e.related {
            let cid = content_id(id);
            match catalog.entry(&cid) {
                Some(o) if o.id != e.id => out.push(Link {
                    from: Node::Entry { id: e.id.clone() },
                    to: Node::Entry { id: o.id.clone() },
                    kind: LinkKind::Related,
                    origin: Origin::Explicit,
                    score: 1.0,
                    evidence: vec![],
                }),
                Some(_) => {
                    let (o, l) = front_value_span(src, "related", id);
                    diags.push(
                        Diagnostic::at(
                            Code::SelfRelated,
                            &e.source,
                            src,
                            o,
                            l,
                            "an entry is not related to itself",
                        )
                        .hint("remove this item"),
                    );
                }
                None => {
                    let (o, l) = front_value_span(src, "related", id);
                    let mut d = Diagnostic::at(
                        Code::Link,
                        &e.source,
                        src,
                        o,
                        l,
                        format!("`related:` names `{id}`, which is no entry of the catalog"),
                    )
                    .label("no such entry");
                    if let Some(h) = hint(&did_you_mean(&cid, entry_ids())) {
                        d = d.hint(h);
                    }
                    diags.push(d);
                }
            }
        }
        overrides(catalog, &e.source, src, &e.links, diags);
        markdown_links(catalog, &e.source, src, diags);
    }
    // Two explicit links between the same entries (both name each other) are one.
    let mut seen = std::collections::HashSet::new();
    out.retain(|l| match (&l.kind, &l.from, &l.to) {
        (LinkKind::Related, Node::Entry { id: a }, Node::Entry { id: b }) => {
            let k = if a < b {
                (a.clone(), b.clone())
            } else {
                (b.clone(), a.clone())
            };
            seen.insert(k)
        }
        _ => seen.insert((format!("{:?}", l.from), format!("{:?}", l.to))),
    });
    out
}

/// Check the `links: {confirm, reject}` items of one page.
fn overrides(
    catalog: &Catalog,
    path: &Path,
    src: &Arc<str>,
    links: &LinkOverrides,
    diags: &mut Diagnostics,
) {
    for (which, items) in [("confirm", &links.confirm), ("reject", &links.reject)] {
        for raw in items {
            if let Err((msg, hint)) = parse_key(catalog, raw) {
                let (o, l) = front_value_span(src, "links", raw);
                let mut d = Diagnostic::at(
                    Code::Link,
                    path,
                    src,
                    o,
                    l,
                    format!("`links: {which}` item `{raw}`: {msg}"),
                )
                .label("broken reference");
                if let Some(h) = hint {
                    d = d.hint(h);
                }
                diags.push(d);
            }
        }
    }
}

/// Resolve a relative Markdown link from the file at `source` (`../errors/pytorch/x.md`) to a
/// content ID path (`errors/pytorch/x`), when it points into content/ at a `.md` file.
pub fn relative_target(source: &Path, dest: &str) -> Option<String> {
    let path = dest.split('#').next().unwrap_or(dest);
    if !path.ends_with(".md") || path.contains("://") || path.starts_with('/') {
        return None;
    }
    let mut out = PathBuf::new();
    for c in source.parent()?.join(path).components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    let s = out.to_string_lossy().replace('\\', "/");
    s.strip_prefix("content/")
        .map(|r| r.strip_suffix(".md").unwrap_or(r).to_string())
}

/// Markdown links to content: `@/...` and relative `.md` links must name something that exists.
fn markdown_links(catalog: &Catalog, path: &Path, src: &Arc<str>, diags: &mut Diagnostics) {
    let start = front_matter_end(src);
    let body = &src[start..];
    if !body.contains("@/") && !body.contains(".md") {
        return;
    }
    for (ev, range) in
        Parser::new_ext(body, crate::parse::snippet::markdown_options()).into_offset_iter()
    {
        let dest = match ev {
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. }) => dest_url.to_string(),
            _ => continue,
        };
        let (ok, wanted) = if dest.starts_with("@/") {
            (super::resolve_href(catalog, &dest).is_some(), dest.clone())
        } else if let Some(rel) = relative_target(path, &dest) {
            let frag = dest.split_once('#').map(|(_, f)| format!("#{f}"));
            let href = format!("@/{rel}.md{}", frag.unwrap_or_default());
            (super::resolve_href(catalog, &href).is_some(), rel)
        } else {
            continue;
        };
        if ok {
            continue;
        }
        let seg = &body[range.clone()];
        let at = start + range.start + seg.find(&dest).unwrap_or(0);
        let len = if seg.contains(&dest) {
            dest.len()
        } else {
            seg.len()
        };
        let id = content_id(&wanted);
        let candidates = catalog
            .entries
            .iter()
            .map(|e| e.id.as_str())
            .chain(catalog.articles.iter().map(|a| a.id.as_str()));
        let near = did_you_mean(&id, candidates);
        let mut d = Diagnostic::at(
            Code::Link,
            path,
            src,
            at,
            len,
            format!("the link `{dest}` points to no entry or article"),
        )
        .label("broken link");
        let h = match near.first() {
            Some(n) => {
                let p = match catalog.entry(n) {
                    Some(_) => format!("@/errors/{n}.md"),
                    None => format!("@/articles/{n}.md"),
                };
                format!("did you mean `{p}`?")
            }
            None => {
                "link to content as `@/errors/<domain>/<slug>.md` or `@/articles/<id>.md`".into()
            }
        };
        d = d.hint(h);
        diags.push(d);
    }
}

/// The page a file is, for explain and overrides.
pub fn page_of(catalog: &Catalog, file: &Path) -> Option<(PageKind, String)> {
    if let Some(e) = catalog.entries.iter().find(|e| e.source == file) {
        return Some((PageKind::Entry, e.id.clone()));
    }
    catalog
        .articles
        .iter()
        .find(|a| a.source == file)
        .map(|a| (PageKind::Article, a.id.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_links() {
        assert_eq!(
            relative_target(
                Path::new("content/articles/a.md"),
                "../errors/pytorch/x.md#dead-end-1"
            )
            .as_deref(),
            Some("errors/pytorch/x")
        );
        assert_eq!(
            relative_target(Path::new("content/errors/pytorch/a.md"), "b.md").as_deref(),
            Some("errors/pytorch/b")
        );
        assert_eq!(
            relative_target(Path::new("content/articles/a.md"), "x.png"),
            None
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
