//! URLs of the site (DESIGN.md "Site URLs"), in one place: every stage that names a page
//! (render, link, index, sitemap) asks here, so hosted and offline builds agree.
//!
//! A *site path* is relative to the output root and ends in `/` for a page (`errors/pytorch/x/`).
//! `href` turns it into a link that works from a given page: relative (so the same files work
//! under any base URL and from file://), and naming `index.html` in offline bundles.
//! An *anchor* is a fragment within a page, written without its `#`.

use crate::model::{PageKind, PageRef};

/// The site path of an entry page: `errors/<domain>/<slug>/`.
pub fn entry(id: &str) -> String {
    format!("errors/{id}/")
}

/// The site path of an article page: `articles/<id>/`.
pub fn article(id: &str) -> String {
    format!("articles/{id}/")
}

/// The site path of a page, entry or article.
pub fn page(page: &PageRef) -> String {
    match page.kind {
        PageKind::Entry => entry(&page.id),
        PageKind::Article => article(&page.id),
    }
}

/// The fragment (without `#`) of workaround `n` (1-based) on its entry's page.
pub fn workaround_anchor(n: usize) -> String {
    format!("workaround-{n}")
}

/// The fragment (without `#`) of dead end `n` (1-based) on its entry's page.
pub fn dead_end_anchor(n: usize) -> String {
    format!("dead-end-{n}")
}

/// The fragment (without `#`) of the code block with ID `id` on its page.
pub fn code_anchor(id: &str) -> String {
    format!("code-{id}")
}

pub fn domain(d: &str) -> String {
    format!("domains/{}/", slug(d))
}

pub fn category(c: &str) -> String {
    format!("categories/{}/", slug(c))
}

pub fn code(c: &str) -> String {
    format!("codes/{}/", slug(c))
}

/// The JSON of one entry: `api/errors/<domain>/<slug>.json`.
pub fn entry_json(id: &str) -> String {
    format!("api/errors/{id}.json")
}

/// The domain part of an entry ID (`pytorch` of `pytorch/x`): the folder its file is in.
pub fn id_domain(id: &str) -> &str {
    id.split_once('/').map_or(id, |(d, _)| d)
}

/// The JSON of the entries of one domain (the ID's first part): `api/errors/<domain>.json`.
pub fn domain_json(domain: &str) -> String {
    format!("api/errors/{domain}.json")
}

/// Where the JSON of entry `id` is under `build.entry_json`: its own file, its domain's file,
/// or nowhere.
pub fn entry_json_in(id: &str, mode: crate::config::EntryJson) -> Option<String> {
    use crate::config::EntryJson;
    match mode {
        EntryJson::Files => Some(entry_json(id)),
        EntryJson::Domains => Some(domain_json(id_domain(id))),
        EntryJson::None => None,
    }
}

/// A URL path segment from free text: lowercase ASCII letters, digits, `-` and `_`.
pub fn slug(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.trim().chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let t = out.trim_matches('-');
    if t.is_empty() {
        "-".to_string()
    } else {
        t.to_string()
    }
}

/// The prefix that leads from the page at `from` (a site path) back to the output root:
/// `""` for the home page, `"../../"` for `errors/pytorch/`.
pub fn root_prefix(from: &str) -> String {
    let depth = from
        .trim_end_matches('/')
        .split('/')
        .filter(|s| !s.is_empty())
        .count();
    let depth = if from.ends_with('/') || from.is_empty() {
        depth
    } else {
        depth.saturating_sub(1)
    };
    "../".repeat(depth)
}

/// A link from the page at site path `from` to site path `to` (a page ending in `/`, or a file).
/// Offline bundles name `index.html`, because file:// shows no directory index.
pub fn href(from: &str, to: &str, offline: bool) -> String {
    let mut s = root_prefix(from);
    s.push_str(to);
    if offline && (to.is_empty() || to.ends_with('/')) {
        s.push_str("index.html");
    } else if s.is_empty() {
        s.push_str("./");
    }
    s
}

/// The file a site path is written to: `errors/x/` -> `errors/x/index.html`.
pub fn file_of(path: &str) -> String {
    if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_links_from_any_depth() {
        assert_eq!(href("", "errors/pytorch/x/", false), "errors/pytorch/x/");
        assert_eq!(href("errors/pytorch/x/", "", false), "../../../");
        assert_eq!(href("errors/pytorch/x/", "", true), "../../../index.html");
        assert_eq!(
            href("articles/a/", "errors/p/s/", true),
            "../../errors/p/s/index.html"
        );
        assert_eq!(
            href("404.html", "theme/style.css", false),
            "theme/style.css"
        );
        assert_eq!(href("", "", false), "./");
    }

    #[test]
    fn slugs() {
        assert_eq!(slug("config_error"), "config_error");
        assert_eq!(
            slug("CUDA_ERROR_NOT_INITIALIZED"),
            "cuda_error_not_initialized"
        );
        assert_eq!(slug(" a b/c "), "a-b-c");
        assert_eq!(file_of("errors/x/"), "errors/x/index.html");
    }

    #[test]
    fn pages_and_anchors() {
        let a = PageRef {
            kind: PageKind::Article,
            id: "a".into(),
        };
        assert_eq!(page(&a), article("a"));
        let e = PageRef {
            kind: PageKind::Entry,
            id: "pytorch/x".into(),
        };
        assert_eq!(page(&e), "errors/pytorch/x/");
        assert_eq!(workaround_anchor(2), "workaround-2");
        assert_eq!(dead_end_anchor(3), "dead-end-3");
        assert_eq!(code_anchor("ex1"), "code-ex1");
    }
}
