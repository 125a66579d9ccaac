//! Render: pages of the site from views (`crate::view`), through the theme's Tera templates.
//! Rendering turns what a view holds into HTML; it asks nothing of the link graph or the
//! records, and does no I/O but reading the theme's templates once.
//!
//! One submodule per kind of output: `entry` and `article` pages, `lists` (home and the index
//! pages), `feeds` (sitemap, Atom), `api` (JSON) and `shards` (the entries' JSON by domain); `markdown`, `highlight` (with `parsed`, the
//! lines already parsed) and `snippet` are the pieces pages are made of; `href` the relative
//! links between them.

pub mod api;
pub mod article;
mod contrast;
pub mod entry;
pub mod feeds;
pub mod highlight;
mod href;
pub(crate) mod ids;
pub(crate) mod lists;
pub(crate) mod markdown;
mod parsed;
pub(crate) mod reading;
pub(crate) mod runs;
pub(crate) mod sanitize;
pub mod shards;
pub(crate) mod snippet;
mod syntaxes;
pub(crate) mod theme;
mod versions;
pub mod view;

use crate::view::{ArticleView, EntryView};
use errbook_core::config::Config;
use errbook_core::error::{Error, Result};
use errbook_core::model::Catalog;
use serde::Serialize;
use std::path::Path;

/// Everything a page needs, shared by all pages of one build.
pub struct Renderer<'a> {
    pub cfg: &'a Config,
    /// For content links in Markdown (`@/errors/...`) and the list pages.
    pub catalog: &'a Catalog,
    pub offline: bool,
    /// The theme, loaded once (`serve` keeps it between updates).
    pub look: std::sync::Arc<Look>,
    pub lists: lists::Lists<'a>,
    /// Highlighted code blocks that repeat across pages (empty: highlight every block).
    pub highlights: highlight::Memo,
}

/// The theme as pages are drawn with it: its templates, parsed, and its static files (embedded
/// default, overridden by the site's), for `theme/`. It depends on the site's root and
/// configuration only, so `serve` keeps it until the theme or book.toml changes.
pub struct Look {
    pub tera: tera::Tera,
    pub theme_files: std::collections::BTreeMap<String, Vec<u8>>,
}

impl Look {
    pub fn load(root: &Path, cfg: &Config) -> Result<Look> {
        let mut theme = theme::Theme::load(root, cfg)?;
        // The code's colours close the theme's stylesheet: a page links one file.
        let css = theme.statics.entry("style.css".to_string()).or_default();
        css.extend_from_slice(highlight::stylesheet()?.as_bytes());
        let mut tera = theme.tera()?;
        tera.autoescape_on(vec![".html", ".xml"]);
        tera.set_escape_fn(escape);
        Ok(Look {
            tera,
            theme_files: theme.statics,
        })
    }
}

/// One page being rendered: the renderer, and where the page is (for relative links).
pub(crate) struct PageCtx<'a> {
    pub r: &'a Renderer<'a>,
    /// Site path (`errors/pytorch/x/`, `404.html`).
    pub path: String,
}

impl PageCtx<'_> {
    /// A relative link from this page to a site path.
    pub(crate) fn href(&self, to: &str) -> String {
        href::href(&self.path, to, self.r.offline)
    }
}

/// The Content-Security-Policy of every page: scripts, styles and fonts only from the site's own
/// files (no inline script, handler, `javascript:` URL or `style` attribute), images also from
/// `data:` and HTTPS, nothing framed, no plugins (`object-src` falls back to `default-src`, so
/// it is not named), no `<base>`. Pages carry it as a
/// `<meta http-equiv>` (a static host sends no headers); `serve` also sends it as a header.
/// From `file://`, Chromium and Firefox count the bundle's own files as `'self'`.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
img-src 'self' data: https:; font-src 'self'; connect-src 'self'; form-action 'self'; \
base-uri 'none'";

/// The most characters of a page's `<meta name="description">`: about what search engines show
/// under a result.
pub(crate) const DESCRIPTION: usize = 160;

/// What every template gets (`base.html` uses it).
#[derive(Serialize)]
struct Base<'a> {
    site_title: &'a str,
    site_description: &'a str,
    page_title: String,
    description: String,
    /// Relative prefix back to the output root (`""`, `"../../"`).
    root: String,
    offline: bool,
    home: String,
    errors: String,
    articles: String,
    domains: String,
    search: String,
    edit_url: Option<String>,
    canonical: Option<String>,
    /// The page's Content-Security-Policy (`CSP`).
    csp: &'static str,
}

/// One output page: a site path and its template context.
pub(crate) struct Page {
    pub path: String,
    pub template: &'static str,
    pub title: String,
    pub description: String,
    pub source: Option<std::path::PathBuf>,
    pub ctx: tera::Context,
}

impl<'a> Renderer<'a> {
    /// A renderer with a theme already loaded.
    pub fn with_look(
        look: std::sync::Arc<Look>,
        cfg: &'a Config,
        catalog: &'a Catalog,
        offline: bool,
    ) -> Renderer<'a> {
        Renderer {
            cfg,
            catalog,
            offline,
            look,
            lists: lists::Lists::new(catalog),
            highlights: highlight::Memo::default(),
        }
    }

    pub(crate) fn page_ctx(&'a self, path: String) -> PageCtx<'a> {
        PageCtx { r: self, path }
    }

    /// Render one page to HTML (the base context is added to its own, which is not copied).
    pub(crate) fn render(&self, page: Page) -> Result<String> {
        let p = self.page_ctx(page.path.clone());
        let root = if page.path == "404.html" && !self.offline {
            // 404.html is served at any depth: link from the site's base path.
            base_path(&self.cfg.site.base_url)
        } else {
            errbook_core::urls::root_prefix(&page.path)
        };
        let href = |to: &str| {
            if page.path == "404.html" && !self.offline {
                format!("{root}{to}")
            } else {
                p.href(to)
            }
        };
        let base = Base {
            site_title: &self.cfg.site.title,
            site_description: &self.cfg.site.description,
            page_title: page.title.clone(),
            description: page.description.clone(),
            root: root.clone(),
            offline: self.offline,
            home: href(""),
            errors: href("errors/"),
            articles: href("articles/"),
            domains: href("domains/"),
            search: href("search/"),
            edit_url: match (&self.cfg.site.edit_url, &page.source) {
                _ if self.offline => None,
                (Some(t), Some(s)) => Some(t.replace("{path}", &s.to_string_lossy())),
                _ => None,
            },
            canonical: (!self.offline && page.path != "404.html")
                .then(|| format!("{}{}", self.cfg.site.base_url, page.path)),
            csp: CSP,
        };
        let mut ctx = page.ctx;
        ctx.insert("base", &base);
        ctx.insert("root", &root);
        ctx.insert("offline", &self.offline);
        self.look.tera.render(page.template, &ctx).map_err(|e| {
            Error::Template(format!(
                "{} ({}): {}",
                page.template,
                page.path,
                tera_chain(&e)
            ))
        })
    }
}

/// HTML escaping for templates: the five characters that matter, nothing else (Tera's default
/// also escapes `/`, which makes every URL unreadable in the source).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    escape_into(&mut out, s, true);
    out
}

/// `s` escaped at the end of `out`: `&`, `<` and `>`, and with `quotes` also `"` and `'` (what
/// an attribute needs; code's text needs only the first three). The text between two
/// characters to escape is copied whole (they are all ASCII, so every cut falls between
/// characters).
pub(crate) fn escape_into(out: &mut String, s: &str, quotes: bool) {
    let mut from = 0;
    for (i, b) in s.bytes().enumerate() {
        let entity = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' if quotes => "&quot;",
            b'\'' if quotes => "&#39;",
            _ => continue,
        };
        out.push_str(&s[from..i]);
        out.push_str(entity);
        from = i + 1;
    }
    out.push_str(&s[from..]);
}

/// The path part of the base URL (`https://x.org/errbook/` -> `/errbook/`).
fn base_path(base_url: &str) -> String {
    let after_scheme = base_url
        .split_once("://")
        .map(|(_, r)| r)
        .unwrap_or(base_url);
    match after_scheme.find('/') {
        Some(i) => after_scheme[i..].to_string(),
        None => "/".to_string(),
    }
}

/// Tera's error with its causes, which hold the useful part.
fn tera_chain(e: &tera::Error) -> String {
    use std::error::Error as _;
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

impl Renderer<'_> {
    /// An entry's page: (site path, HTML).
    pub fn entry(&self, v: &EntryView<'_>) -> Result<(String, String)> {
        self.finish(entry::page(self, v)?)
    }

    /// An article's page: (site path, HTML).
    pub fn article(&self, v: &ArticleView<'_>) -> Result<(String, String)> {
        self.finish(article::page(self, v)?)
    }

    /// List page `i` of `self.lists.pages`: (site path, HTML).
    pub fn list(&self, i: usize) -> Result<(String, String)> {
        let lp = self
            .lists
            .pages
            .get(i)
            .ok_or_else(|| Error::Bug(format!("no list page {i}")))?;
        self.finish(self.lists.page(self, lp)?)
    }

    fn finish(&self, page: Page) -> Result<(String, String)> {
        let path = page.path.clone();
        let html = self.render(page)?;
        Ok((path, html))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn escape_replaces_the_five_characters_and_keeps_the_rest() {
        assert_eq!(
            super::escape("é<a href=\"x\">'&'</a>✓"),
            "é&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;✓"
        );
        assert_eq!(super::escape(""), "");
        assert_eq!(super::escape("plain / text"), "plain / text");
        assert_eq!(super::escape("<<"), "&lt;&lt;");
    }
}
