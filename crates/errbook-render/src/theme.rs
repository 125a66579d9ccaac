//! The theme: the default theme is embedded in the binary (themes/default at build time), so the
//! binary alone builds a site; a site's own `themes/<name>/` overrides it file by file. A
//! template there (`templates/entry.html`) replaces that one template and keeps the rest; a file
//! under `static/` replaces or adds that file of `theme/` in the output.

use errbook_core::config::Config;
use errbook_core::error::{Error, IoContext, Result};
use include_dir::{include_dir, Dir};
use std::collections::BTreeMap;
use std::path::Path;

static DEFAULT: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../themes/default");

/// The theme's files, relative to its `templates/` and `static/` folders, with their bytes.
pub(crate) struct Theme {
    pub templates: BTreeMap<String, String>,
    pub statics: BTreeMap<String, Vec<u8>>,
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

/// A template without the whitespace of its source that shows nothing on a page: indentation,
/// blank lines, the line break after a line of Tera tags only (`{% if x %}`), and line breaks
/// next to the tag of an element that starts a block of its own (`</div>`, `<section>`), where
/// HTML draws no space. Other line breaks stay, so words and inline elements keep the space
/// between them; lines inside `<pre>` and `<textarea>`, where whitespace shows, are kept as
/// they are.
fn compact(template: &str) -> String {
    let mut out = String::with_capacity(template.len());
    let mut verbatim = false;
    let mut lines = template.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        if verbatim {
            out.push_str(line);
        } else if !line.trim().is_empty() {
            let text = line.trim();
            out.push_str(text);
            let next = lines.peek().map_or("", |l| l.trim_start());
            let silent = only_tags(text) || ends_block(text) || starts_block(next);
            if line.ends_with('\n') && !silent {
                out.push('\n');
            }
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

/// Elements that make a block of their own (or draw nothing), so that whitespace next to their
/// tags is never drawn. `li`, `dt`, `dd` and table cells are left out: a theme's CSS may set
/// them inline, where a space between two of them shows.
const BLOCKS: &[&str] = &[
    "article",
    "blockquote",
    "body",
    "div",
    "dl",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "html",
    "link",
    "main",
    "meta",
    "nav",
    "ol",
    "p",
    "script",
    "section",
    "table",
    "tbody",
    "thead",
    "title",
    "tr",
    "ul",
];

/// Whether `text` (a trimmed line) is Tera tags and comments only: `{% ... %}`, `{# ... #}`.
fn only_tags(text: &str) -> bool {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return true;
        }
        let close = if rest.starts_with("{%") {
            "%}"
        } else if rest.starts_with("{#") {
            "#}"
        } else {
            return false;
        };
        match rest.find(close) {
            Some(i) => rest = &rest[i + 2..],
            None => return false,
        }
    }
}

/// Whether `text` begins with the start or end tag of a block element (`<div`, `</section>`).
fn starts_block(text: &str) -> bool {
    let Some(tag) = text.strip_prefix('<') else {
        return false;
    };
    is_block(tag.strip_prefix('/').unwrap_or(tag))
}

/// Whether `text` ends with a block element's end tag, or a start tag of one that holds no
/// text right after it (`</div>`, `<section id="x">`). A line wholly under a Tera condition
/// (`{% if d %}<meta ...>{% endif %}`) counts by its element: drawn or not, it needs no space.
fn ends_block(text: &str) -> bool {
    let core = strip_trailing_tags(text);
    if core.len() != text.len() && !strip_leading_tags(text).starts_with('<') {
        return false;
    }
    if !core.ends_with('>') {
        return false;
    }
    let Some(open) = core.rfind('<') else {
        return false;
    };
    let tag = &core[open + 1..];
    // Not a tag's end inside Tera or an attribute value (`a > b`): the `<` must open this tag.
    !tag.contains(['{', '}', '"']) && is_block(tag.strip_prefix('/').unwrap_or(tag))
}

/// `text` without the Tera tags (`{% ... %}`) it ends with.
fn strip_trailing_tags(text: &str) -> &str {
    let mut rest = text.trim_end();
    while rest.ends_with("%}") {
        match rest.rfind("{%") {
            Some(i) => rest = rest[..i].trim_end(),
            None => break,
        }
    }
    rest
}

/// `text` without the Tera tags (`{% ... %}`) it starts with.
fn strip_leading_tags(text: &str) -> &str {
    let mut rest = text.trim_start();
    while rest.starts_with("{%") {
        match rest.find("%}") {
            Some(i) => rest = rest[i + 2..].trim_start(),
            None => break,
        }
    }
    rest
}

/// Whether the tag text after `<` or `</` names a block element.
fn is_block(tag: &str) -> bool {
    let end = tag
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(tag.len());
    let name = tag[..end].to_ascii_lowercase();
    BLOCKS.contains(&name.as_str())
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
        // The file walkdir could not read, or the folder; its I/O error.
        let item = item.map_err(|e| Error::Io {
            path: e.path().unwrap_or(dir).to_path_buf(),
            source: e.into(),
        })?;
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
    fn templates_lose_their_indentation_but_not_inline_line_breaks_or_pre() {
        let t = "<ul>\n  <li>a</li>\n\n    <li>b\n    c</li>\n</ul>\n<pre>\n  kept\n\n  as is</pre>\n  <p>x</p>\n";
        assert_eq!(
            compact(t),
            "<ul><li>a</li>\n<li>b\nc</li></ul><pre>\n  kept\n\n  as is</pre>\n<p>x</p>"
        );
        assert_eq!(
            compact("<textarea>\n  x\n</textarea>"),
            "<textarea>\n  x\n</textarea>"
        );
    }

    #[test]
    fn tera_tag_lines_and_block_tags_keep_no_line_break_and_inline_ones_do() {
        let t = "{% if a %}\n  <div>\n<span>x</span>\n{{ y }}\n  {% endif %} {# c #}\n</div>\n<a href=\"q\">\nword\n<label>l</label>\n<input>\n";
        assert_eq!(
            compact(t),
            "{% if a %}<div><span>x</span>\n{{ y }}\n{% endif %} {# c #}</div><a href=\"q\">\nword\n<label>l</label>\n<input>\n"
        );
        // A `>` inside a value or a Tera expression is no tag's end.
        assert_eq!(compact("<b title=\"<p>\">\nx"), "<b title=\"<p>\">\nx");
        assert_eq!(compact("{{ a }}<p>\nx"), "{{ a }}<p>x");
        // A line under a condition: without a space when it is an element wholly, with one
        // when it may end in text.
        assert_eq!(
            compact("{% if d %}<meta x>{% endif %}\n<b>"),
            "{% if d %}<meta x>{% endif %}<b>"
        );
        assert_eq!(
            compact("w{% if d %}<p>p</p>{% endif %}\nv"),
            "w{% if d %}<p>p</p>{% endif %}\nv"
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
