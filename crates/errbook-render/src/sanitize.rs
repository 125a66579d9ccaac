//! The one gate between content and the page: every piece of HTML made from content (Markdown
//! bodies and the raw HTML they may hold) goes through ammonia with an allowlist of tags,
//! attributes, classes and URL schemes before it reaches a template.
//!
//! What the allowlist keeps: ammonia's default tags (text, lists, tables, images, details) with
//! their harmless attributes, the classes errbook's own Markdown writer emits (heading anchors,
//! bold labels, footnotes, table alignment, GitHub's alert callouts), and the `id`s the writer generated for this fragment,
//! nothing else: an `id` written in raw HTML is dropped, so content cannot take the ids the theme
//! and its scripts use. Everything that runs is gone: `<script>`, `<style>`, event handlers,
//! `style` attributes, `javascript:`/`data:`/`vbscript:` URLs, forms, frames, SVG and MathML.
//! Links keep no `target` and get no `rel`: nothing can open a window.

use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::LazyLock;

thread_local! {
    /// The ids the Markdown writer generated for the fragment being cleaned on this thread.
    /// ammonia's attribute filter must be `'static`, so the set is handed over here.
    static GENERATED_IDS: RefCell<HashSet<String>> = RefCell::new(HashSet::new());
}

/// The classes errbook's Markdown writer emits, by tag; content may use them too (harmless).
const CLASSES: &[(&str, &[&str])] = &[
    ("a", &["anchor"]),
    ("sup", &["footnote-reference", "footnote-definition-label"]),
    (
        "div",
        &[
            "footnote-definition",
            "markdown-alert",
            "markdown-alert-note",
            "markdown-alert-tip",
            "markdown-alert-important",
            "markdown-alert-warning",
            "markdown-alert-caution",
        ],
    ),
    ("p", &["label", "markdown-alert-title"]),
    ("th", &["align-left", "align-center", "align-right"]),
    ("td", &["align-left", "align-center", "align-right"]),
];

static CLEANER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
    let mut b = ammonia::Builder::default();
    b.link_rel(None)
        .strip_comments(true)
        .add_generic_attributes(["id"])
        .add_tag_attributes("a", ["aria-label"])
        .rm_url_schemes(["data", "javascript", "vbscript"])
        .allowed_classes(
            CLASSES
                .iter()
                .map(|(tag, cs)| (*tag, cs.iter().copied().collect()))
                .collect(),
        )
        .attribute_filter(|_element, attr, value| {
            if attr != "id" {
                return Some(value.into());
            }
            let ours = GENERATED_IDS.with(|ids| ids.borrow().contains(value));
            ours.then(|| value.into())
        });
    b
});

/// `html` with everything outside the allowlist removed; `ids`: the ids the caller generated
/// for it (headings, labels, footnotes), the only ones kept.
pub(crate) fn clean(html: &str, ids: &HashSet<String>) -> String {
    GENERATED_IDS.with(|g| {
        let mut g = g.borrow_mut();
        g.clear();
        g.extend(ids.iter().cloned());
    });
    let out = CLEANER.clean(html).to_string();
    GENERATED_IDS.with(|g| g.borrow_mut().clear());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(list: &[&str]) -> HashSet<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn scripts_handlers_and_bad_urls_go() {
        let dirty = r#"<p onclick="x()">a<script>alert(1)</script><img src=x onerror=alert(1)>
<a href="javascript:alert(1)">j</a><a href="data:text/html,<script>alert(1)</script>">d</a>
<a href=" JaVaScRiPt:alert(1)">k</a><iframe src="/"></iframe><svg onload=alert(1)></svg>
<style>body{}</style><p style="color:red">s</p><form action="/"><input></form></p>"#;
        let out = clean(dirty, &HashSet::new());
        for bad in [
            "script",
            "onerror",
            "onclick",
            "javascript",
            "data:",
            "iframe",
            "svg",
            "style",
            "form",
            "input",
            "alert(1)<",
        ] {
            assert!(!out.to_lowercase().contains(bad), "{bad} in {out}");
        }
        assert!(out.contains("<img src=\"x\">"), "{out}");
    }

    #[test]
    fn only_generated_ids_stay() {
        let out = clean(
            r##"<h2 id="why">Why</h2><p id="search-input">x</p><a class="anchor evil" href="#why">#</a>"##,
            &ids(&["why"]),
        );
        assert_eq!(
            out,
            r##"<h2 id="why">Why</h2><p>x</p><a class="anchor" href="#why">#</a>"##
        );
        // The set is per call: the next fragment does not inherit it.
        assert_eq!(
            clean(r#"<h2 id="why">W</h2>"#, &HashSet::new()),
            "<h2>W</h2>"
        );
    }

    #[test]
    fn ordinary_markup_is_kept() {
        let html = "<p>A <a href=\"../x/\">link</a>, <code>code</code> and <em>more</em>.</p>\n<ul>\n<li>one</li>\n</ul>\n";
        assert_eq!(clean(html, &HashSet::new()), html);
    }

    /// Markup made of the pieces script injection is made of.
    const HOSTILE: &str = r#"(<(script|img|a|svg|math|style|iframe|p|b|form|object|x)|>|</|[ /="'`]|on(error|load|click)|(java|vb)script:|data:|&#x?[0-9a-f]{1,3};?|[\t\n\x00]|alert\(1\)|href|src|id|style|[a-z]{1,4}){0,60}"#;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// Whatever markup goes in, nothing that runs comes out: no script or style element, no
        /// handler, no script URL, no id the caller did not generate.
        #[test]
        fn nothing_that_runs_survives(html in HOSTILE) {
            let out = clean(&html, &HashSet::new()).to_ascii_lowercase();
            let attr = regex::Regex::new(r"\son[a-z]*=|\sstyle=|\sid=").unwrap();
            let url = regex::Regex::new(r#"(href|src)="\s*(javascript|vbscript|data):"#).unwrap();
            for tag in regex::Regex::new(r"<[a-z][^>]*>").unwrap().find_iter(&out) {
                let t = tag.as_str();
                proptest::prop_assert!(!t.starts_with("<script") && !t.starts_with("<style"), "{t}");
                proptest::prop_assert!(!attr.is_match(t), "{t}");
                proptest::prop_assert!(!url.is_match(t), "{t}");
            }
        }
    }
}
