//! The ids of one rendered Markdown fragment (headings, bold labels, footnotes): every one is
//! generated here, unique within the fragment, safe in an attribute, a URL fragment and a CSS
//! selector, and never one the theme uses (`RESERVED`) or one of the anchors the page makes
//! itself. The sanitiser keeps these ids and drops every other.

use std::collections::{HashMap, HashSet};

/// The ids of one rendered fragment: every one is generated here, unique, and none is one the
/// theme uses.
#[derive(Default)]
pub(crate) struct Ids {
    pub used: HashSet<String>,
    /// The next suffix to try for a base (`why` -> `why-1`, `why-2`...), so repeats stay linear.
    next: HashMap<String, usize>,
    /// Footnote names to their ids (a reference and its definition share one).
    footnotes: HashMap<String, String>,
}

/// Ids of the page frame and the entry template, and those the theme's scripts look up.
const RESERVED: &[&str] = &[
    "main",
    "message",
    "search-input",
    "search-results",
    "search-page-form",
    "search-page-input",
    "search-page-detected",
    "search-page-results",
    "root-cause",
    "versions",
    "workarounds",
    "dead-ends",
    "reproduction",
    "notes",
    "see-also",
    "discussed-in",
    "related",
    "errbook-errors",
];

/// Whether a heading may not take `id`: the theme has it, or it has the form of an anchor the
/// page makes (`workaround-2`, `dead-end-1`, `code-ex1`, `fn-note`, search result `sr-3`).
fn reserved(id: &str) -> bool {
    let numbered = |prefix: &str| {
        id.strip_prefix(prefix)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    RESERVED.contains(&id)
        || numbered("workaround-")
        || numbered("dead-end-")
        || numbered("sr-")
        || id.starts_with("code-")
        || id.starts_with("fn-")
}

impl Ids {
    /// `base`, or `base-1`, `base-2`... when it is taken or reserved.
    pub(crate) fn claim(&mut self, base: String, check_reserved: bool) -> String {
        let free = |used: &HashSet<String>, id: &str| {
            !(used.contains(id) || (check_reserved && reserved(id)))
        };
        if free(&self.used, &base) {
            self.used.insert(base.clone());
            return base;
        }
        let n = self.next.entry(base.clone()).or_insert(1);
        loop {
            let id = format!("{base}-{n}");
            *n += 1;
            if free(&self.used, &id) {
                self.used.insert(id.clone());
                return id;
            }
        }
    }

    /// A heading's id: the one written after it (`{#id}`) when it is a plain anchor, else the
    /// anchor of what was written or of the heading's text.
    pub(crate) fn heading(&mut self, explicit: Option<&str>, text: &str) -> String {
        let base = match explicit {
            Some(id) if is_plain_id(id) => id.to_string(),
            Some(id) => anchor(id),
            None => anchor(text),
        };
        self.claim(base, true)
    }

    /// A footnote's id (`fn-` and the anchor of its name), the same for every use of the name.
    pub(crate) fn footnote(&mut self, name: &str) -> String {
        if let Some(id) = self.footnotes.get(name) {
            return id.clone();
        }
        let id = self.claim(format!("fn-{}", anchor(name)), false);
        self.footnotes.insert(name.to_string(), id.clone());
        id
    }
}

/// Letters, digits, `-` and `_`, starting with a letter or digit: safe in an attribute, a URL
/// fragment and a CSS selector as it is.
fn is_plain_id(id: &str) -> bool {
    id.len() <= 128
        && id.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// A heading anchor: lowercase words joined by `-` (`1. Explanation:` -> `1-explanation`).
pub(crate) fn anchor(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if (c.is_whitespace() || c == '-' || c == '_')
            && !out.ends_with('-')
            && !out.is_empty()
        {
            out.push('-');
        }
    }
    let t = out.trim_end_matches('-');
    if t.is_empty() {
        "section".into()
    } else {
        t.to_string()
    }
}
