//! Text left from a template of `errbook new`: an error at each placeholder phrase still in a
//! file, so a page is not published with "replace this line..." in it. The phrases are the
//! templates' own (crates/errbook-scaffold/src/*.md; a test there keeps the two in step).

use errbook_core::diag::{Code, Diagnostic};
use std::path::Path;
use std::sync::Arc;

/// The placeholder phrases of the templates, each distinctive enough not to occur in real text.
pub const PHRASES: &[&str] = &[
    "replace this line with the error message exactly as it is printed",
    "Why this error happens, in a few sentences",
    "What to do, in one sentence",
    "What people try that does not help",
    "The reader's question, and the short answer first.",
    "Why it happens and what to do about it.",
    "print(\"replace me\")",
];

/// An `E-placeholder` error for each placeholder phrase in `src` (one per phrase).
pub fn find(path: &Path, src: &Arc<str>) -> Vec<Diagnostic> {
    PHRASES
        .iter()
        .filter_map(|p| src.find(p).map(|at| (at, p)))
        .map(|(at, p)| {
            Diagnostic::at(
                Code::Placeholder,
                path,
                src,
                at,
                p.len(),
                "this is still the template's text",
            )
            .label("placeholder")
            .hint("write what this page says here (the template of `errbook new` left it)")
        })
        .collect()
}
