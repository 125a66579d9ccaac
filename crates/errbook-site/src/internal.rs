//! `check`'s links within the site: every link and image written in content that does not leave
//! the site (`#anchor` on the page itself, `/errors/x/y/` from the site's root, `../b/` and
//! `img/x.png` relative to the page, `@/...` content links with a `#fragment`) is resolved the
//! way a browser resolves it from the page's address, and checked against the site as rendered
//! in memory: the file must be there, and a fragment must be an `id` of that page. What a
//! fragment may name is what the theme and the Markdown writer made, so it is read from the
//! rendered pages, not guessed. Nothing is written.

use super::analysis::Analysis;
use super::build::{catalog_files, jobs, run_job, Job, Wanted};
use errbook_core::config::Config;
use errbook_core::diag::{did_you_mean, Code, Diagnostic};
use errbook_core::error::Result;
use errbook_core::model::Catalog;
use errbook_core::urls;
use errbook_link::written::Written;
use errbook_records::RecordSet;
use errbook_render::view::Resolver;
use errbook_render::Renderer;
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// Every broken link or image within the site, as `E-link` diagnostics.
pub(super) fn check(
    root: &Path,
    cfg: &Config,
    analysis: &Analysis,
    records: &RecordSet,
) -> Result<Vec<Diagnostic>> {
    let written: Vec<Written> = errbook_link::written::all(&analysis.files)
        .into_iter()
        .filter(|w| within_site(&w.url))
        .collect();
    let cat = &analysis.catalog;
    let pages: HashMap<&Path, String> = cat
        .pages()
        .map(|p| (p.source(), urls::page(&p.reference())))
        .collect();
    if !written.iter().any(|w| pages.contains_key(w.path.as_path())) {
        return Ok(Vec::new());
    }
    let site = Site::render(root, cfg, analysis, records)?;
    let mut out = Vec::new();
    for w in &written {
        let Some(page) = pages.get(w.path.as_path()) else {
            continue; // a draft, or a file that did not parse (it reports its own errors)
        };
        if let Some(d) = site.check(cat, page, w) {
            out.push(d);
        }
    }
    Ok(out)
}

/// Whether `url` stays within the site: no scheme (`https:`, `mailto:`), not `//host/`.
fn within_site(url: &str) -> bool {
    if url.is_empty() || url.starts_with("//") {
        return false;
    }
    let before = url.split(['/', '?', '#']).next().unwrap_or("");
    !before.contains(':')
}

/// The site as rendered: every file's path, and the ids of each page (by site path).
struct Site {
    files: HashSet<String>,
    ids: HashMap<String, HashSet<String>>,
}

impl Site {
    /// Render every page in memory (as `build` would, hosted) and list every other file.
    fn render(root: &Path, cfg: &Config, analysis: &Analysis, records: &RecordSet) -> Result<Site> {
        use rayon::prelude::*;
        let cat = &analysis.catalog;
        let look = std::sync::Arc::new(super::theme::load(root, cfg)?);
        let r = Renderer::with_look(look, cfg, cat, false);
        let resolver = Resolver::new(cat, &analysis.graph, records);
        let pages: Vec<(String, HashSet<String>, Option<String>)> = jobs(cat, r.lists.pages.len())
            .par_iter()
            .map(|j| {
                let out = run_job(&r, &resolver, j)?;
                // Where the entry's JSON is (its own file, its domain's, or none).
                let json = match j {
                    Job::Entry(i) => cat
                        .entries
                        .get(*i)
                        .and_then(|e| urls::entry_json_in(&e.id, cfg.build.entry_json)),
                    _ => None,
                };
                Ok((out.path, ids_of(&out.html), json))
            })
            .collect::<Result<_>>()?;
        let paths: Vec<String> = pages.iter().map(|p| p.0.clone()).collect();
        let mut files: HashSet<String> = paths.iter().map(|p| urls::file_of(p)).collect();
        files.extend(pages.iter().filter_map(|p| p.2.clone()));
        let extra = catalog_files(cfg, &resolver, &paths, false, Wanted::ALL)?;
        files.extend(extra.into_iter().map(|f| f.path));
        files.extend(r.look.theme_files.keys().map(|k| format!("theme/{k}")));
        files.extend(static_files(&root.join("static")));
        let ids = pages.into_iter().map(|(p, ids, _)| (p, ids)).collect();
        Ok(Site { files, ids })
    }

    /// The diagnostic for `w`, written on the page at site path `page`, if it is broken.
    fn check(&self, cat: &Catalog, page: &str, w: &Written) -> Option<Diagnostic> {
        let (path, frag) = target(cat, page, w)?;
        let Some(path) = path else {
            let msg = format!("the link `{}` leads out of the site", w.url);
            let hint = "a page's address is a folder (`/articles/<id>/`): count the `../` from \
                        there, or link from the site's root (`/errors/<domain>/<slug>/`)";
            return Some(self.diag(w, msg, "too many `../`", Some(hint.into())));
        };
        if unparsed_page(cat, &path) {
            return None; // that page's file reports its own errors
        }
        if !self.exists(&path) {
            return Some(self.missing(w, &path));
        }
        let frag = frag.filter(|f| !f.is_empty())?;
        let ids = self.ids_of_page(&path)?;
        if ids.contains(&frag) {
            return None;
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
        Some(self.diag(w, msg, "no such anchor", Some(hint)))
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
        let pages = self.ids.keys().map(String::as_str);
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
    fn exists(&self, path: &str) -> bool {
        if path.is_empty() || path.ends_with('/') {
            return self.files.contains(&format!("{path}index.html"));
        }
        self.files.contains(path) || self.files.contains(&format!("{path}/index.html"))
    }

    /// The ids of the page at `path`, when it is one errbook rendered.
    fn ids_of_page(&self, path: &str) -> Option<&HashSet<String>> {
        let folder = path.strip_suffix("index.html").unwrap_or(path);
        [path.to_string(), folder.to_string(), format!("{path}/")]
            .iter()
            .find_map(|p| self.ids.get(p))
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
fn static_files(dir: &Path) -> Vec<String> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let rel = e.path().strip_prefix(dir).ok()?;
            Some(rel.to_string_lossy().replace('\\', "/"))
        })
        .collect()
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
