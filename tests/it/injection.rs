//! Script injection without a browser: the catalog of tests/fixtures/xss (each payload of
//! payloads.txt in every field, see generate.py) builds, and no page it makes holds anything
//! that runs: only the theme's own scripts, no `on*=` handler, no `style` attribute, no script
//! URL. feed.xml and sitemap.xml stay well-formed XML whatever the titles, names and
//! configuration hold. (tests/browser/injection.test.mjs opens the same pages in Chromium.)

use crate::common::{files, read, repo};
use std::path::{Path, PathBuf};

fn payload_count() -> usize {
    std::fs::read_to_string(repo().join("tests/fixtures/xss/payloads.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with(";;"))
        .count()
}

/// The xss fixture with the theme, in `dir/site`.
fn xss_site(dir: &Path) -> PathBuf {
    let site = dir.join("site");
    for (from, to) in [
        (repo().join("tests/fixtures/xss"), site.clone()),
        (repo().join("themes"), site.join("themes")),
    ] {
        crate::common::copy_tree(&from, &to);
    }
    site
}

#[test]
fn the_catalog_has_one_entry_and_one_article_per_payload() {
    let n = payload_count();
    assert!(n >= 60, "only {n} payloads");
    let content = repo().join("tests/fixtures/xss/content");
    let count = |d: &str| std::fs::read_dir(content.join(d)).unwrap().count();
    assert_eq!(
        (count("errors/xss"), count("articles")),
        (n, n),
        "run python3 tests/fixtures/xss/generate.py after editing payloads.txt"
    );
}

/// Each `<script>` tag that is not one of the theme's own.
fn foreign_scripts(html: &str) -> Vec<String> {
    const THEME_SCRIPTS: &[&str] = &["site.js", "search-index.js", "search-rank.js", "search.js"];
    html.match_indices("<script")
        .filter_map(|(at, _)| {
            let tag = &html[at..html[at..].find('>').map_or(html.len(), |e| at + e + 1)];
            let theme = tag
                .strip_prefix("<script src=\"")
                .and_then(|t| {
                    t.strip_suffix("\" defer>")
                        .or_else(|| t.strip_suffix("\">"))
                })
                .and_then(|src| src.rsplit_once("theme/"))
                .is_some_and(|(_, name)| THEME_SCRIPTS.contains(&name));
            (!theme).then(|| format!("a script not the theme's: {tag}"))
        })
        .collect()
}

/// What in `html` could run: "kind: the tag". Tags are read attribute by attribute (errbook's
/// pages quote every value with `"`), so text that merely looks like a handler inside a value
/// is not one.
fn runnable(html: &str) -> Vec<String> {
    let tag = regex::Regex::new(r"(?s)<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:\x22[^\x22]*\x22|'[^']*'|[^\s>]+))?)*)\s*/?>").unwrap();
    let attr = regex::Regex::new(
        r"(?s)\s+([^\s=>/]+)(?:\s*=\s*(?:\x22([^\x22]*)\x22|'([^']*)'|([^\s>]+)))?",
    )
    .unwrap();
    const URL_ATTRS: &[&str] = &[
        "href",
        "src",
        "action",
        "formaction",
        "xlink:href",
        "srcset",
        "background",
        "poster",
        "data",
    ];
    const ACTIVE: &[&str] = &[
        "iframe", "frame", "frameset", "object", "embed", "base", "style", "math", "form", "input",
        "textarea", "button", "select", "template", "video", "audio", "source", "marquee", "link",
    ];
    let mut found = Vec::new();
    found.extend(foreign_scripts(html));
    let body = html.split_once("<body>").map_or(html, |(_, b)| b);
    for t in tag.captures_iter(html) {
        let whole = t.get(0).map_or("", |m| m.as_str());
        let name = t[1].to_ascii_lowercase();
        for a in attr.captures_iter(&t[2]) {
            let key = a[1].to_ascii_lowercase();
            let value = a
                .get(2)
                .or(a.get(3))
                .or(a.get(4))
                .map_or("", |m| m.as_str());
            if key.starts_with("on") {
                found.push(format!("handler: {whole}"));
            }
            if key == "style" {
                found.push(format!("style attribute: {whole}"));
            }
            if URL_ATTRS.contains(&key.as_str()) {
                let v: String = value
                    .replace("&#x9;", "")
                    .replace("&#10;", "")
                    .chars()
                    .filter(|c| !c.is_ascii_whitespace() && !c.is_ascii_control())
                    .collect::<String>()
                    .to_ascii_lowercase();
                if ["javascript:", "vbscript:", "data:", "livescript:"]
                    .iter()
                    .any(|s| v.starts_with(s))
                {
                    found.push(format!("script URL: {whole}"));
                }
            }
        }
        if name == "meta" && whole.to_ascii_lowercase().contains("http-equiv=\"refresh") {
            found.push(format!("refresh: {whole}"));
        }
    }
    // Active elements in the body: only the theme's search forms and copy buttons are allowed.
    for t in tag.captures_iter(body) {
        let whole = t.get(0).map_or("", |m| m.as_str());
        let name = t[1].to_ascii_lowercase();
        let theirs = whole.contains("class=\"searchbox\"")
            || whole.contains("id=\"search-")
            || whole.contains("class=\"copy")
            || (name == "button" && whole == "<button type=\"submit\">");
        if ACTIVE.contains(&name.as_str()) && !theirs {
            found.push(format!("element: {whole}"));
        }
        if name == "svg" {
            found.push(format!("element: {whole}"));
        }
    }
    found
}

#[test]
fn no_page_of_the_payload_catalog_holds_anything_that_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let site = xss_site(tmp.path());
    for offline in [false, true] {
        let out = tmp.path().join(if offline { "offline" } else { "hosted" });
        let o = crate::common::errbook()
            .arg("--root")
            .arg(&site)
            .arg("build")
            .arg("-d")
            .arg(&out)
            .args(offline.then_some("--offline"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let pages: Vec<String> = files(&out)
            .into_iter()
            .filter(|f| f.ends_with(".html"))
            .collect();
        assert!(pages.len() > 2 * payload_count(), "{} pages", pages.len());
        let mut found = Vec::new();
        for p in &pages {
            let html = read(&out, p);
            assert!(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'self';"), "{p}: no CSP");
            found.extend(runnable(&html).into_iter().map(|f| format!("{p}: {f}")));
        }
        assert!(
            found.is_empty(),
            "{} findings (offline: {offline}):\n{}",
            found.len(),
            found[..found.len().min(30)].join("\n")
        );
        if !offline {
            for xml in ["feed.xml", "sitemap.xml"] {
                let text = read(&out, xml);
                roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{xml}: {e}\n{text}"));
            }
        }
    }
}

#[test]
fn the_detector_finds_what_runs() {
    let page = "<script src=\"../theme/site.js\" defer></script><script src=\"theme/search.js\" defer></script><p>\
        <img src=x onerror=alert(1)><a href=\" java\tscript:alert(1)\">x</a><b style=\"x\">b</b></p>";
    assert_eq!(runnable(page).len(), 3, "{:?}", runnable(page));
    assert_eq!(runnable("<script></script>").len(), 1);
    assert_eq!(
        runnable("<script src=\"x/theme/evil.js\" defer></script>").len(),
        1
    );
}

#[test]
fn feed_and_sitemap_stay_well_formed_whatever_the_names_hold() {
    let tmp = tempfile::tempdir().unwrap();
    let site = crate::search_cli::site_copy(tmp.path());
    std::fs::write(
        site.join("book.toml"),
        "[site]\ntitle = \"A & B <c> \\u0001 ]]> \\\"q\\\"\"\nbase_url = \"https://x.org/a b/?q=1&r=<2>\"\nauthor = \"\\u000b\"\ndescription = \"\\ud7ff \\ufffe\"\n",
    )
    .unwrap();
    let article = site.join("content/articles/ctl.md");
    std::fs::write(
        &article,
        "---\ntitle: \"Control \\x01\\x0c chars ]]> & <tags> \\uFFFF\"\ndate: \"2025-02-01\"\nid: ctl\n---\nA summary with \\x07 a bell & <b>markup</b> ]]>\n",
    )
    .unwrap();
    let out = tmp.path().join("out");
    let o = crate::common::errbook()
        .arg("--root")
        .arg(&site)
        .arg("build")
        .arg("-d")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for xml in ["feed.xml", "sitemap.xml"] {
        let text = read(&out, xml);
        let doc =
            roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{xml}: {e}\n{text}"));
        if xml == "feed.xml" {
            let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
            assert_eq!(title.text(), Some("A & B <c> \u{FFFD} ]]> \"q\""));
        } else {
            let loc = doc
                .descendants()
                .find(|n| n.has_tag_name("loc"))
                .unwrap()
                .text()
                .unwrap();
            assert!(
                loc.starts_with("https://x.org/a%20b/?q=1&r=%3C2%3E/"),
                "{loc}"
            );
        }
    }
}
