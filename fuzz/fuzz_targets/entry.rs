//! Any bytes as an entry file: front matter, title, metadata, sections, version table,
//! workarounds, dead ends, code blocks and their attributes, and the diagnostics of all of it.
#![no_main]
#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        common::parse(errbook_core::PageKind::Entry, "content/errors/demo/x.md", text);
    }
});
