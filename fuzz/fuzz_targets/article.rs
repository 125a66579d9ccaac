//! Any bytes as an article file: front matter, the Markdown body, labels and code blocks.
#![no_main]
#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        common::parse(errbook_core::PageKind::Article, "content/articles/fuzz.md", text);
    }
});
