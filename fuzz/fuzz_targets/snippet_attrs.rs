//! Any bytes as the info strings of an article's code blocks, one block per line: the language
//! and the run attributes (`run expect=... match="..." gpus= timeout= env= id= after=`), with
//! `after=` chains between the blocks.
#![no_main]
#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let mut body = String::new();
        for line in text.lines() {
            // A backtick would end the fence's info string; it is not an attribute.
            let info = line.replace('`', "'");
            body.push_str(&format!("```{info}\nprint(1)\n```\n\n"));
        }
        common::parse(errbook_core::PageKind::Article, "content/articles/fuzz.md", &common::article(&body));
    }
});
