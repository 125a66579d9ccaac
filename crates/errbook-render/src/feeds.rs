//! sitemap.xml (every page, absolute URLs from `site.base_url`; past what one sitemap file may
//! hold, an index of `sitemap-N.xml` files) and feed.xml (Atom, articles newest first). Hosted
//! builds only need absolute URLs here; pages link relatively.
//!
//! Both are written with quick-xml's writer, which escapes text and attributes; what no escape
//! can carry in XML 1.0 (control characters other than tab and newlines, U+FFFE, U+FFFF) is
//! replaced first, and URLs are percent-encoded, so the files are well-formed whatever the
//! titles, the configuration and the file names hold.

use errbook_core::config::Config;
use errbook_core::error::{Error, Result};
use errbook_core::model::Catalog;
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

/// What one sitemap file may hold (sitemaps.org): 50,000 URLs and 50 MiB.
const SITEMAP_URLS: usize = 50_000;
const SITEMAP_BYTES: usize = 50 * 1024 * 1024;

/// The sitemap's files, name and text: `sitemap.xml` alone while every page fits one file;
/// past that, `sitemap.xml` is a sitemap index naming `sitemap-1.xml`, `sitemap-2.xml`, ...,
/// each within the protocol's limits. `paths`: site paths of every HTML page.
pub fn sitemaps(cfg: &Config, paths: &[String]) -> Result<Vec<(String, String)>> {
    sitemaps_within(cfg, paths, SITEMAP_URLS, SITEMAP_BYTES)
}

fn sitemaps_within(
    cfg: &Config,
    paths: &[String],
    most_urls: usize,
    most_bytes: usize,
) -> Result<Vec<(String, String)>> {
    let paths: Vec<&String> = paths.iter().filter(|p| *p != "404.html").collect();
    let mut parts = Vec::new();
    let mut rest: &[&String] = &paths;
    while !rest.is_empty() || parts.is_empty() {
        // As many as the count allows, halved while the file is too large (a URL is short;
        // this only halves for pathological base URLs).
        let mut n = rest.len().min(most_urls.max(1));
        let mut xml = sitemap(cfg, &rest[..n])?;
        while xml.len() > most_bytes && n > 1 {
            n /= 2;
            xml = sitemap(cfg, &rest[..n])?;
        }
        parts.push(xml);
        rest = &rest[n..];
    }
    if parts.len() == 1 {
        return Ok(vec![("sitemap.xml".to_string(), parts.remove(0))]);
    }
    let names: Vec<String> = (1..=parts.len())
        .map(|i| format!("sitemap-{i}.xml"))
        .collect();
    let mut out = vec![("sitemap.xml".to_string(), sitemap_index(cfg, &names)?)];
    out.extend(names.into_iter().zip(parts));
    Ok(out)
}

/// One `<url><loc>...</loc></url>` a line, without indentation: a large site has tens of
/// thousands of them.
fn sitemap(cfg: &Config, paths: &[&String]) -> Result<String> {
    list(cfg, "urlset", "url", paths)
}

/// The index of the sitemap's files (`names`, site paths).
fn sitemap_index(cfg: &Config, names: &[String]) -> Result<String> {
    let names: Vec<&String> = names.iter().collect();
    list(cfg, "sitemapindex", "sitemap", &names)
}

/// `<outer>` holding one `<inner><loc>...</loc></inner>` a line, one for each of `paths`.
fn list(cfg: &Config, outer: &str, inner: &str, paths: &[&String]) -> Result<String> {
    let newline = || Event::Text(BytesText::from_escaped("\n"));
    document(None, |w| {
        w.write_event(newline())?;
        w.create_element(outer)
            .with_attribute(("xmlns", SITEMAP_NS))
            .write_inner_content(|w| {
                w.write_event(newline())?;
                for p in paths {
                    let loc = url(&cfg.site.base_url, p);
                    w.create_element(inner).write_inner_content(|w| {
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

pub fn atom(cfg: &Config, cat: &Catalog) -> Result<String> {
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
                    let href = url(&cfg.site.base_url, &errbook_core::urls::article(&a.id));
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
    write(&mut w).map_err(|e| Error::encode("XML", e))?;
    let mut bytes = w.into_inner();
    bytes.push(b'\n');
    String::from_utf8(bytes).map_err(|e| Error::encode("XML", e))
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
        let files = sitemaps(&cfg, &paths).unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].0, "sitemap.xml");
        let xml = &files[0].1;
        let lines: Vec<&str> = xml.lines().collect();
        assert_eq!(lines.len(), 5, "{xml}");
        assert!(lines[0].starts_with("<?xml"), "{xml}");
        assert!(lines[1].starts_with("<urlset xmlns="), "{xml}");
        assert!(lines[2].starts_with("<url><loc>") && lines[2].ends_with("</loc></url>"));
        assert!(lines[3].contains("errors/a/b/"), "{xml}");
        assert_eq!(lines[4], "</urlset>");
    }

    #[test]
    fn a_sitemap_past_the_limits_is_an_index_of_files_within_them() {
        let mut cfg = Config::default();
        cfg.site.base_url = "https://x.org/".into();
        let paths: Vec<String> = (0..7).map(|i| format!("errors/a/e{i}/")).collect();
        let files = sitemaps_within(&cfg, &paths, 3, usize::MAX).unwrap();
        let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(
            names,
            [
                "sitemap.xml",
                "sitemap-1.xml",
                "sitemap-2.xml",
                "sitemap-3.xml"
            ]
        );
        let index = &files[0].1;
        assert!(index.contains("<sitemapindex xmlns="), "{index}");
        assert!(
            index.contains("<sitemap><loc>https://x.org/sitemap-3.xml</loc></sitemap>"),
            "{index}"
        );
        let counts: Vec<usize> = (files[1..].iter())
            .map(|f| f.1.matches("<url>").count())
            .collect();
        assert_eq!(counts, [3, 3, 1]);
        // Every page once, in order.
        let all: String = files[1..].iter().map(|f| f.1.as_str()).collect();
        let mut at = 0;
        for p in &paths {
            let i = all[at..].find(p.as_str()).expect(p);
            at += i + p.len();
        }
        // A byte limit halves a part until it fits.
        let one = sitemaps_within(&cfg, &paths[..1], 3, usize::MAX).unwrap();
        let small = one[0].1.len() + 5;
        let files = sitemaps_within(&cfg, &paths, 3, small).unwrap();
        assert_eq!(files.len(), 8, "one URL a file");
        assert!(files[1..].iter().all(|f| f.1.len() <= small));
        // No page at all is still one (empty) sitemap.
        assert_eq!(sitemaps(&cfg, &[]).unwrap().len(), 1);
    }
}
