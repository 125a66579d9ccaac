//! sitemap.xml (every page, absolute URLs from `site.base_url`) and feed.xml (Atom, articles
//! newest first). Hosted builds only need absolute URLs here; pages link relatively.
//!
//! Both are written with quick-xml's writer, which escapes text and attributes; what no escape
//! can carry in XML 1.0 (control characters other than tab and newlines, U+FFFE, U+FFFF) is
//! replaced first, and URLs are percent-encoded, so the files are well-formed whatever the
//! titles, the configuration and the file names hold.

use crate::core::config::Config;
use crate::core::error::{Error, Result};
use crate::core::model::Catalog;
use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};
use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::Writer;
use std::borrow::Cow;
use std::io;

const SITEMAP_NS: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";
const ATOM_NS: &str = "http://www.w3.org/2005/Atom";
/// What a URL may not hold as it is: controls, space, and what RFC 3986 reserves outside paths.
const URL_ESCAPE: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'<')
    .add(b'>')
    .add(b'`')
    .add(b'{')
    .add(b'}')
    .add(b'|')
    .add(b'\\')
    .add(b'^');

/// `paths`: site paths of every HTML page. One `<url><loc>...</loc></url>` a line, without
/// indentation: a large site has tens of thousands of them.
pub(crate) fn sitemap(cfg: &Config, paths: &[String]) -> Result<String> {
    let newline = || Event::Text(BytesText::from_escaped("\n"));
    document(None, |w| {
        w.write_event(newline())?;
        w.create_element("urlset")
            .with_attribute(("xmlns", SITEMAP_NS))
            .write_inner_content(|w| {
                w.write_event(newline())?;
                for p in paths.iter().filter(|p| *p != "404.html") {
                    let loc = url(&cfg.site.base_url, p);
                    w.create_element("url").write_inner_content(|w| {
                        text_element(w, "loc", &loc)?;
                        Ok(())
                    })?;
                    w.write_event(newline())?;
                }
                Ok(())
            })?;
        Ok(())
    })
}

pub(crate) fn atom(cfg: &Config, cat: &Catalog) -> Result<String> {
    let mut arts: Vec<_> = cat.articles.iter().collect();
    arts.sort_by(|a, b| b.date.cmp(&a.date).then(a.id.cmp(&b.id)));
    let base = url(&cfg.site.base_url, "");
    let updated = arts
        .first()
        .map(|a| a.date.as_str())
        .unwrap_or("1970-01-01");
    let author = if cfg.site.author.is_empty() {
        &cfg.site.title
    } else {
        &cfg.site.author
    };
    document(Some(2), |w| {
        w.create_element("feed")
            .with_attribute(("xmlns", ATOM_NS))
            .write_inner_content(|w| {
                text_element(w, "title", &cfg.site.title)?;
                text_element(w, "subtitle", &cfg.site.description)?;
                link(w, None, &base)?;
                link(w, Some("self"), &format!("{base}feed.xml"))?;
                text_element(w, "id", &base)?;
                text_element(w, "updated", &format!("{updated}T00:00:00Z"))?;
                w.create_element("author")
                    .write_inner_content(|w| text_element(w, "name", author))?;
                for a in arts.iter().take(50) {
                    let href = url(&cfg.site.base_url, &crate::core::urls::article(&a.id));
                    let summary = a
                        .body
                        .lines()
                        .map(str::trim)
                        .find(|l| !l.is_empty() && !l.starts_with('#'))
                        .unwrap_or("");
                    w.create_element("entry").write_inner_content(|w| {
                        text_element(w, "title", &a.title)?;
                        link(w, None, &href)?;
                        text_element(w, "id", &href)?;
                        text_element(w, "updated", &format!("{}T00:00:00Z", a.date))?;
                        text_element(w, "summary", summary)
                    })?;
                }
                Ok(())
            })?;
        Ok(())
    })
}

/// An XML document: the declaration, then what `body` writes, indented by `indent` spaces a
/// level (`None`: as `body` writes it).
fn document(
    indent: Option<usize>,
    body: impl FnOnce(&mut Writer<Vec<u8>>) -> io::Result<()>,
) -> Result<String> {
    let mut w = match indent {
        Some(n) => Writer::new_with_indent(Vec::new(), b' ', n),
        None => Writer::new(Vec::new()),
    };
    let write = |w: &mut Writer<Vec<u8>>| -> io::Result<()> {
        w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
        body(w)
    };
    write(&mut w).map_err(|e| Error::Other(format!("XML: {e}")))?;
    let mut bytes = w.into_inner();
    bytes.push(b'\n');
    String::from_utf8(bytes).map_err(|e| Error::Other(format!("XML: {e}")))
}

fn text_element(w: &mut Writer<Vec<u8>>, name: &str, text: &str) -> io::Result<()> {
    w.create_element(name)
        .write_text_content(BytesText::new(&xml_chars(text)))?;
    Ok(())
}

/// An Atom `<link href="..."/>`, with its `rel` if any.
fn link(w: &mut Writer<Vec<u8>>, rel: Option<&str>, href: &str) -> io::Result<()> {
    let mut el = w.create_element("link");
    if let Some(r) = rel {
        el = el.with_attribute(("rel", r));
    }
    el.with_attribute(("href", xml_chars(href).as_ref()))
        .write_empty()?;
    Ok(())
}

/// `base` joined with the site path `path`, both percent-encoded where a URL needs it.
fn url(base: &str, path: &str) -> String {
    format!(
        "{}{}",
        utf8_percent_encode(base, URL_ESCAPE),
        utf8_percent_encode(path, URL_ESCAPE)
    )
}

/// `s` with the characters XML 1.0 cannot hold, even escaped, replaced by U+FFFD.
fn xml_chars(s: &str) -> Cow<'_, str> {
    let allowed = |c: char| {
        matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{FFFE}' && c != '\u{FFFF}')
    };
    if s.chars().all(allowed) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .map(|c| if allowed(c) { c } else { '\u{FFFD}' })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_xml_cannot_hold_is_replaced_or_escaped() {
        assert_eq!(xml_chars("a\u{1}b\u{FFFF}\tc"), "a\u{FFFD}b\u{FFFD}\tc");
        assert_eq!(
            url("http://x.org/a b/", "errors/é/"),
            "http://x.org/a%20b/errors/%C3%A9/"
        );
        let mut cfg = Config::default();
        cfg.site.title = "A & B <c> \u{7}\"'".into();
        cfg.site.base_url = "http://x.org/?a=1&b=\"2\"/".into();
        let xml = atom(&cfg, &Catalog::default()).unwrap();
        assert!(
            xml.contains("<title>A &amp; B &lt;c&gt; \u{FFFD}&quot;&apos;</title>"),
            "{xml}"
        );
        assert!(
            xml.contains("href=\"http://x.org/?a=1&amp;b=%222%22/\""),
            "{xml}"
        );
    }

    #[test]
    fn the_sitemap_has_one_url_a_line() {
        let cfg = Config::default();
        let paths = [
            "index.html".to_string(),
            "errors/a/b/index.html".to_string(),
        ];
        let xml = sitemap(&cfg, &paths).unwrap();
        let lines: Vec<&str> = xml.lines().collect();
        assert_eq!(lines.len(), 5, "{xml}");
        assert!(lines[0].starts_with("<?xml"), "{xml}");
        assert!(lines[1].starts_with("<urlset xmlns="), "{xml}");
        assert!(lines[2].starts_with("<url><loc>") && lines[2].ends_with("</loc></url>"));
        assert!(lines[3].contains("errors/a/b/"), "{xml}");
        assert_eq!(lines[4], "</urlset>");
    }
}
