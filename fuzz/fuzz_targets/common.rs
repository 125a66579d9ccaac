//! What the fuzz targets share: parsing one file as the build does, and rendering every
//! diagnostic it gives (the renderer must not panic on any location either).
#![allow(dead_code)]

use errbook_core::PageKind;
use errbook_parse::load::SourceFile;
use std::sync::Arc;

/// Parse `text` as the file at `path`, and render each diagnostic as `check` prints it.
pub fn parse(kind: PageKind, path: &str, text: &str) {
    let f = SourceFile {
        kind,
        path: path.into(),
        text: Arc::from(text),
    };
    let (_parsed, diags) = errbook_parse::parse_file(&f, 300);
    for d in &diags.items {
        let shown = d.render(false);
        assert!(!shown.is_empty());
    }
}

/// An article around `body`, with valid front matter.
pub fn article(body: &str) -> String {
    format!("---\ntitle: \"Fuzz\"\nid: fuzz\ndate: \"2025-01-01\"\n---\n{body}")
}
