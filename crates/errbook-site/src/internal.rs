//! `check`'s links within the site: every link and image written in content that does not leave
//! the site (`#anchor` on the page itself, `/errors/x/y/` from the site's root, `../b/` and
//! `img/x.png` relative to the page, `@/...` content links with a `#fragment`) is resolved the
//! way a browser resolves it from the page's address, and checked against the site as `serve`
//! would answer it (a `Snapshot`, each page made when a link names one of its anchors): the
//! file must be there, and a fragment must be an `id` of that page. What a fragment may name is
//! what the theme and the Markdown writer made, so it is read from the rendered pages, not
//! guessed. Nothing is written.

use super::analysis::Analysis;
use super::snapshot::Snapshot;
use errbook_core::config::Config;
use errbook_core::diag::{did_you_mean, Code, Diagnostic};
use errbook_core::error::Result;
use errbook_core::model::Catalog;
use errbook_core::urls;
use errbook_link::written::Written;
use errbook_records::RecordSet;
use errbook_render::Look;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Every broken link or image within the site written in the files `links_of` (all when
/// `None`), as `E-link` diagnostics; the theme is read when `look` is not given. The analysis
/// comes back once the site it gives has been asked.
pub(super) fn check(
    root: &Path,
    cfg: &Config,
    analysis: Analysis,
    (records, look): (Arc<RecordSet>, Option<Arc<Look>>),
    links_of: Option<&[PathBuf]>,
) -> Result<(Analysis, Vec<Diagnostic>)> {
    let files: Vec<_> = match links_of {
        None => analysis.files.clone(),
        Some(only) => (analysis.files.iter())
            .filter(|f| only.contains(&f.path))
            .cloned()
            .collect(),
    };
    let written: Vec<Written> = errbook_link::written::all(&files)
        .into_iter()
        .filter(|w| within_site(&w.url))
        .collect();
    // The site path of each page whose links are checked (not of every page: a keystroke's
    // check asks for the open files').
    let pages: HashMap<PathBuf, String> = (analysis.catalog.pages())
        .filter(|p| links_of.is_none_or(|only| only.iter().any(|f| f == p.source())))
        .map(|p| (p.source().to_path_buf(), urls::page(&p.reference())))
        .collect();
    if !written.iter().any(|w| pages.contains_key(&w.path)) {
        return Ok((analysis, Vec::new()));
    }
    let look = match look {
        Some(look) => look,
        None => Arc::new(super::theme::load(root, cfg)?),
    };
    let now = std::time::Instant::now();
    let (root, cfg) = (root.to_path_buf(), cfg.clone());
    let snapshot = Snapshot::new(root, cfg, analysis, (records, look), now);
    let site = Site {
        statics: static_files(&snapshot.root().join("static")).collect(),
        snapshot: &snapshot,
        ids: RefCell::default(),
    };
    let cat = &snapshot.analysis().catalog;
    let mut out = Vec::new();
    for w in &written {
        let Some(page) = pages.get(&w.path) else {
            continue; // a draft, or a file that did not parse (it reports its own errors)
        };
        if let Some(d) = site.check(cat, page, w)? {
            out.push(d);
        }
    }
    drop(site);
    Ok((snapshot.into_analysis(), out))
}

/// Whether `url` stays within the site: no scheme (`https:`, `mailto:`), not `//host/`.
fn within_site(url: &str) -> bool {
    if url.is_empty() || url.starts_with("//") {
        return false;
    }
    let before = url.split(['/', '?', '#']).next().unwrap_or("");
    !before.contains(':')
}

/// The site as `serve` would answer it, its `static/` files, and the ids of each page asked
/// so far (by site path).
struct Site<'a> {
    snapshot: &'a Snapshot,
    statics: HashSet<String>,
    ids: RefCell<HashMap<String, HashSet<String>>>,
}

impl Site<'_> {
    /// The diagnostic for `w`, written on the page at site path `page`, if it is broken.
    fn check(&self, cat: &Catalog, page: &str, w: &Written) -> Result<Option<Diagnostic>> {
        let Some((path, frag)) = target(cat, page, w) else {
            return Ok(None);
        };
        let Some(path) = path else {
            let msg = format!("the link `{}` leads out of the site", w.url);
            let hint = "a page's address is a folder (`/articles/<id>/`): count the `../` from \
                        there, or link from the site's root (`/errors/<domain>/<slug>/`)";
            return Ok(Some(self.diag(w, msg, "too many `../`", Some(hint.into()))));
        };
        if unparsed_page(cat, &path) {
            return Ok(None); // that page's file reports its own errors
        }
        if !self.exists(&path)? {
            return Ok(Some(self.missing(w, &path)));
        }
        let Some(frag) = frag.filter(|f| !f.is_empty()) else {
            return Ok(None);
        };
        let Some(ids) = self.ids_of_page(&path)? else {
            return Ok(None);
        };
        if ids.contains(&frag) {
            return Ok(None);
        }
        let near = did_you_mean(&frag, ids.iter().map(String::as_str));
        let hint = match near.first() {
            Some(n) => format!("did you mean `#{n}`?"),
            None => "an anchor is the id of a heading: hover a heading on the page to see its `#`"
                .into(),
        };
        let on = if path == page {
            "this page".to_string()
        } else {
            format!("`/{path}`")
        };
        let msg = format!(
            "the link `{}` names `#{frag}`, which is no anchor of {on}",
            w.url
        );
        Ok(Some(self.diag(w, msg, "no such anchor", Some(hint))))
    }

    /// The link or image `w` leads to `path`, which the site does not have.
    fn missing(&self, w: &Written, path: &str) -> Diagnostic {
        if w.image {
            let msg = format!("the image `{}` is not in the site (no `/{path}`)", w.url);
            let hint = format!(
                "put the file at `static/{path}` (static/ is copied to the site as it is), or \
                 fix the path"
            );
            return self.diag(w, msg, "no such image", Some(hint));
        }
        let pages = self.snapshot.page_paths().iter().map(String::as_str);
        let hint = match did_you_mean(path, pages).first() {
            Some(n) => format!("did you mean `/{n}`?"),
            None => "link to content as `@/errors/<domain>/<slug>.md` or `@/articles/<id>.md`, \
                     which check resolves for you"
                .into(),
        };
        let msg = format!(
            "the link `{}` leads to no page of the site (`/{path}`)",
            w.url
        );
        self.diag(w, msg, "no such page", Some(hint))
    }

    fn diag(&self, w: &Written, msg: String, label: &str, hint: Option<String>) -> Diagnostic {
        let (o, l) = w.at;
        let d = Diagnostic::at(Code::Link, &w.path, &w.src, o, l, msg).label(label);
        match hint {
            Some(h) => d.hint(h),
            None => d,
        }
    }

    /// Whether the site has `path` (a folder: its index.html; a file: itself, or the folder of
    /// that name, which a server redirects to).
    fn exists(&self, path: &str) -> Result<bool> {
        let has = |rel: &str| -> Result<bool> {
            Ok(self.statics.contains(rel) || self.snapshot.file(rel)?.is_some())
        };
        if path.is_empty() || path.ends_with('/') {
            return has(&format!("{path}index.html"));
        }
        Ok(has(path)? || has(&format!("{path}/index.html"))?)
    }

    /// The ids of the page at `path`, when it is one errbook renders.
    fn ids_of_page(&self, path: &str) -> Result<Option<HashSet<String>>> {
        let folder = path.strip_suffix("index.html").unwrap_or(path);
        for p in [path.to_string(), folder.to_string(), format!("{path}/")] {
            if let Some(ids) = self.ids.borrow().get(&p) {
                return Ok(Some(ids.clone()));
            }
            if !self.snapshot.is_page(&p) {
                continue;
            }
            let Some(html) = self.snapshot.file(&urls::file_of(&p))? else {
                continue;
            };
            let ids = ids_of(&String::from_utf8_lossy(&html));
            self.ids.borrow_mut().insert(p, ids.clone());
            return Ok(Some(ids));
        }
        Ok(None)
    }
}

/// Where `w` leads from the page at site path `page`: the site path (`None`: above the site's
/// root) and the fragment; `None` when there is nothing to check (a content link that names
/// nothing, which the link stage reports, or a bare `#`).
fn target(cat: &Catalog, page: &str, w: &Written) -> Option<(Option<String>, Option<String>)> {
    let url = w.url.as_str();
    let is_content = url.starts_with("@/")
        || (!url.starts_with('/') && url.split(['#', '?']).next()?.ends_with(".md"));
    let (resolved, base) = if is_content {
        (errbook_link::resolve_href_from(cat, &w.path, url)?, "")
    } else {
        (url.to_string(), page)
    };
    let (rest, frag) = match resolved.split_once('#') {
        Some((p, f)) => (p, Some(decode(f))),
        None => (resolved.as_str(), None),
    };
    let path = rest.split('?').next().unwrap_or(rest);
    if path.is_empty() && frag.is_none() {
        return None;
    }
    if path.is_empty() {
        return Some((Some(page.to_string()), frag));
    }
    Some((join(base, path), frag))
}

/// `path` resolved against the folder `base` (a site path ending in `/`) as a browser does;
/// a `/`-rooted `path` starts from the site's root. `None` when it climbs above the root.
fn join(base: &str, path: &str) -> Option<String> {
    let (mut parts, rel): (Vec<String>, &str) = match path.strip_prefix('/') {
        Some(r) => (Vec::new(), r),
        None => {
            let dir = base.rsplit_once('/').map_or("", |(d, _)| d);
            let parts = dir.split('/').filter(|s| !s.is_empty()).map(String::from);
            (parts.collect(), path)
        }
    };
    let segs: Vec<&str> = rel.split('/').collect();
    for (i, seg) in segs.iter().enumerate() {
        let last = i + 1 == segs.len();
        match *seg {
            "." | "" if !last => {}
            ".." => {
                parts.pop()?;
                if last {
                    parts.push(String::new());
                }
            }
            "." => parts.push(String::new()),
            s => parts.push(decode(s)),
        }
    }
    Some(parts.join("/"))
}

fn decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

/// Whether `path` is the page of an entry or article whose file did not parse.
fn unparsed_page(cat: &Catalog, path: &str) -> bool {
    let id = path
        .strip_prefix("errors/")
        .or_else(|| path.strip_prefix("articles/"))
        .map(|p| p.trim_end_matches("index.html").trim_end_matches('/'));
    id.is_some_and(|id| cat.is_unparsed(id))
}

/// The values of the `id` attributes of `html`.
fn ids_of(html: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut rest = html;
    while let Some(i) = rest.find(" id=\"") {
        let after = &rest[i + 5..];
        let Some(end) = after.find('"') else { break };
        out.insert(unescape(&after[..end]));
        rest = &after[end..];
    }
    out
}

/// An attribute value as the browser reads it (the writers escape only these).
fn unescape(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The site paths of the files under `dir` (the site's static/), copied as they are.
fn static_files(dir: &Path) -> impl Iterator<Item = String> + '_ {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
        .filter_map(move |e| {
            let rel = e.path().strip_prefix(dir).ok()?;
            Some(rel.to_string_lossy().replace('\\', "/"))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_resolve_as_a_browser_resolves_them() {
        let page = "articles/a/";
        assert_eq!(join(page, "x.png").as_deref(), Some("articles/a/x.png"));
        assert_eq!(join(page, "../b/").as_deref(), Some("articles/b/"));
        assert_eq!(join(page, "../../").as_deref(), Some(""));
        assert_eq!(join(page, "../..").as_deref(), Some(""));
        assert_eq!(join(page, "/errors/a/b/").as_deref(), Some("errors/a/b/"));
        assert_eq!(
            join(page, "./img/a%20b.png").as_deref(),
            Some("articles/a/img/a b.png")
        );
        assert_eq!(join(page, "../../../x"), None);
        assert_eq!(
            join("404.html", "theme/x.css").as_deref(),
            Some("theme/x.css")
        );
    }

    #[test]
    fn links_out_are_not_checked_here() {
        for out in ["https://a.test/", "mailto:a@b.c", "//cdn.test/x.js", ""] {
            assert!(!within_site(out), "{out}");
        }
        for within in [
            "#a",
            "/errors/x/",
            "../b/",
            "x.png",
            "@/errors/a/b.md",
            "a/b:c",
        ] {
            assert!(within_site(within), "{within}");
        }
    }

    #[test]
    fn ids_are_read_from_the_html() {
        let ids = ids_of(r#"<h2 id="why">W</h2><p id="a&amp;b">x</p><div data-id="no">"#);
        assert_eq!(ids.len(), 2);
        assert!(ids.contains("why") && ids.contains("a&b"));
    }
}
