//! Any bytes as the YAML between an article's `---` lines (aliases, anchors, nesting, tags,
//! duplicate keys): read within its limits, every problem a located diagnostic.
#![no_main]
#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(yaml) = std::str::from_utf8(data) {
        let text = format!("---\n{yaml}\n---\nBody.\n");
        common::parse(errbook_core::PageKind::Article, "content/articles/fuzz.md", &text);
    }
});
