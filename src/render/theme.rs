//! The theme: the default theme is embedded in the binary (themes/default at build time), so the
//! binary alone builds a site; a site's own `themes/<name>/` overrides it file by file. A
//! template there (`templates/entry.html`) replaces that one template and keeps the rest; a file
//! under `static/` replaces or adds that file of `theme/` in the output.

use crate::core::config::Config;
use crate::core::error::{Error, IoContext, Result};
use include_dir::{include_dir, Dir};
use std::collections::BTreeMap;
use std::path::Path;

static DEFAULT: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/themes/default");

/// The theme's files, relative to its `templates/` and `static/` folders, with their bytes.
pub(crate) struct Theme {
    pub(crate) templates: BTreeMap<String, String>,
    pub(crate) statics: BTreeMap<String, Vec<u8>>,
}

impl Theme {
    /// The embedded default theme, with the site's theme folder (if any) laid over it.
    pub(crate) fn load(root: &Path, cfg: &Config) -> Result<Theme> {
        let mut t = Theme {
            templates: BTreeMap::new(),
            statics: BTreeMap::new(),
        };
        for (rel, bytes) in embedded("templates") {
            let text = String::from_utf8(bytes.to_vec())
                .map_err(|_| Error::Template(format!("embedded template {rel} is not UTF-8")))?;
            t.templates.insert(rel, text);
        }
        for (rel, bytes) in embedded("static") {
            t.statics.insert(rel, bytes.to_vec());
        }
        let dir = cfg.theme_dir(root);
        if cfg.site.theme != "default" && !dir.is_dir() {
            return Err(Error::Template(format!(
                "book.toml names the theme `{}`, but {} does not exist",
                cfg.site.theme,
                dir.display()
            )));
        }
        for (rel, bytes) in on_disk(&dir.join("templates"))? {
            let text = String::from_utf8(bytes)
                .map_err(|_| Error::Template(format!("{}: not UTF-8", dir.join(&rel).display())))?;
            t.templates.insert(rel, text);
        }
        for (rel, bytes) in on_disk(&dir.join("static"))? {
            t.statics.insert(rel, bytes);
        }
        Ok(t)
    }

    /// The Tera templates: every `.html` template, by its path under `templates/`.
    pub(crate) fn tera(&self) -> Result<tera::Tera> {
        let mut tera = tera::Tera::default();
        let html = self.templates.iter().filter(|(k, _)| k.ends_with(".html"));
        let html: Vec<(&str, String)> = html.map(|(k, v)| (k.as_str(), compact(v))).collect();
        tera.add_raw_templates(html.iter().map(|(k, v)| (*k, v.as_str())))
            .map_err(|e| Error::Template(super::tera_chain(&e)))?;
        Ok(tera)
    }
}

/// A template without the indentation and blank lines of its source: they reach every page as
/// whitespace that shows nothing. A line break stays where there was one, so words and inline
/// elements keep the space between them; lines inside `<pre>` and `<textarea>`, where
/// whitespace shows, are kept as they are.
fn compact(template: &str) -> String {
    let mut out = String::with_capacity(template.len());
    let mut verbatim = false;
    for line in template.split_inclusive('\n') {
        if verbatim {
            out.push_str(line);
        } else if !line.trim().is_empty() {
            out.push_str(line.trim_start());
        }
        let lower = line.to_ascii_lowercase();
        let last = |tags: &[&str]| tags.iter().filter_map(|t| lower.rfind(t)).max();
        let opened = last(&["<pre>", "<pre ", "<textarea"]);
        let closed = last(&["</pre", "</textarea"]);
        verbatim = match (opened, closed) {
            (Some(o), c) => c.is_none_or(|c| o > c),
            (None, Some(_)) => false,
            (None, None) => verbatim,
        };
    }
    out
}

/// The embedded files under `sub` (recursively), as (path under `sub`, bytes).
fn embedded(sub: &str) -> Vec<(String, &'static [u8])> {
    let mut out = Vec::new();
    if let Some(d) = DEFAULT.get_dir(sub) {
        walk(d, Path::new(sub), &mut out);
    }
    out
}

fn walk(d: &'static Dir<'static>, base: &Path, out: &mut Vec<(String, &'static [u8])>) {
    for f in d.files() {
        if let Ok(rel) = f.path().strip_prefix(base) {
            out.push((rel.to_string_lossy().replace('\\', "/"), f.contents()));
        }
    }
    for sub in d.dirs() {
        walk(sub, base, out);
    }
}

/// The files under `dir` (recursively; none when it does not exist), as (relative path, bytes).
fn on_disk(dir: &Path) -> Result<Vec<(String, Vec<u8>)>> {
    let mut out = Vec::new();
    if !dir.is_dir() {
        return Ok(out);
    }
    for item in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let item = item.map_err(|e| Error::Other(format!("{}: {e}", dir.display())))?;
        if !item.file_type().is_file() {
            continue;
        }
        let rel = item.path().strip_prefix(dir).unwrap_or(item.path());
        let bytes = std::fs::read(item.path()).at(item.path())?;
        out.push((rel.to_string_lossy().replace('\\', "/"), bytes));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_theme_is_embedded_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let t = Theme::load(tmp.path(), &Config::default()).unwrap();
        for name in [
            "base.html",
            "entry.html",
            "article.html",
            "list.html",
            "404.html",
        ] {
            assert!(t.templates.contains_key(name), "{name}");
        }
        for name in ["style.css", "site.js", "search.js", "favicon.svg"] {
            assert!(t.statics.contains_key(name), "{name}");
        }
        t.tera().unwrap();
    }

    #[test]
    fn templates_lose_their_indentation_but_not_their_line_breaks_or_pre() {
        let t = "<ul>\n  <li>a</li>\n\n    <li>b\n    c</li>\n</ul>\n<pre>\n  kept\n\n  as is</pre>\n  <p>x</p>\n";
        assert_eq!(
            compact(t),
            "<ul>\n<li>a</li>\n<li>b\nc</li>\n</ul>\n<pre>\n  kept\n\n  as is</pre>\n<p>x</p>\n"
        );
        assert_eq!(
            compact("<textarea>\n  x\n</textarea>"),
            "<textarea>\n  x\n</textarea>"
        );
    }

    #[test]
    fn a_site_template_overrides_that_one_template() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("themes/default/templates");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("404.html"), "{% extends \"base.html\" %}MINE").unwrap();
        let t = Theme::load(tmp.path(), &Config::default()).unwrap();
        assert!(t.templates["404.html"].contains("MINE"));
        assert!(
            t.templates["entry.html"].contains("extends"),
            "the rest stays"
        );
    }
}
