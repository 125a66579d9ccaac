//! Markdown links to other content, resolved to site paths: Zola-style `@/errors/pytorch/x.md`,
//! `@/articles/a.md`, a bare ID `@/pytorch/x`, and relative links to content files
//! (`../errors/pytorch/x.md`). Render asks here for every content link it writes; `explicit` reports the
//! ones that name nothing. Site paths themselves are `errbook_core::urls`'s.

use errbook_core::model::{Catalog, Page};
use errbook_core::urls;
use std::path::{Component, Path, PathBuf};

/// The path part of `dest` when it is a relative link to a Markdown file (no scheme, not
/// rooted), else `None`.
fn relative_md(dest: &str) -> Option<&str> {
    let path = dest.split('#').next().unwrap_or(dest);
    let md = path.ends_with(".md") && !path.contains("://") && !path.starts_with('/');
    md.then_some(path)
}

/// Resolve a Markdown link to other content (Zola-style `@/errors/pytorch/x.md`,
/// `@/articles/a.md`, or a bare ID `@/pytorch/x`) to the target's site path (`errors/pytorch/x/`,
/// see `errbook_core::urls`), keeping a `#fragment`. `None` when `href` is not a content link or names
/// nothing that exists (the link stage reports those).
///
/// Relative links to content files (`../errors/pytorch/x.md` from an article,
/// `../../articles/a.md` from an entry) resolve too; for links relative to the same folder use
/// `resolve_href_from`, which knows the linking file.
pub fn resolve_href(catalog: &Catalog, href: &str) -> Option<String> {
    let rest = match href.strip_prefix("@/") {
        Some(r) => r,
        None => {
            relative_md(href)?;
            let mut p = href;
            while let Some(r) = p.strip_prefix("../").or_else(|| p.strip_prefix("./")) {
                p = r;
            }
            if !(p.starts_with("errors/") || p.starts_with("articles/")) {
                return None;
            }
            p
        }
    };
    let (path, frag) = match rest.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (rest, None),
    };
    let path = path.trim_start_matches("content/");
    let path = path.strip_suffix(".md").unwrap_or(path);
    let page = if let Some(id) = path.strip_prefix("errors/") {
        catalog.entry(id).map(Page::Entry)
    } else if let Some(id) = path.strip_prefix("articles/") {
        catalog.article(id).map(Page::Article)
    } else {
        (catalog.entry(path).map(Page::Entry)).or_else(|| catalog.article(path).map(Page::Article))
    }?;
    let site = urls::page(&page.reference());
    Some(match frag {
        Some(f) => format!("{site}#{f}"),
        None => site,
    })
}

/// `resolve_href`, also for relative links to content from the page whose source is `source`
/// (`../errors/pytorch/x.md` from `content/articles/a.md`).
pub fn resolve_href_from(catalog: &Catalog, source: &Path, href: &str) -> Option<String> {
    if href.starts_with("@/") {
        return resolve_href(catalog, href);
    }
    let rel = relative_target(source, href)?;
    let frag = href
        .split_once('#')
        .map(|(_, f)| format!("#{f}"))
        .unwrap_or_default();
    resolve_href(catalog, &format!("@/{rel}.md{frag}"))
}

/// Resolve a relative Markdown link from the file at `source` (`../errors/pytorch/x.md`) to a
/// content ID path (`errors/pytorch/x`), when it points into content/ at a `.md` file.
pub(crate) fn relative_target(source: &Path, dest: &str) -> Option<String> {
    let path = relative_md(dest)?;
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
}
