//! Any bytes as the code of an article's examples, read for claims: the Python scanner, the
//! names and scopes, continuation across blocks, the cues of the prose around them.
#![no_main]
#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(code) = std::str::from_utf8(data) else {
        return;
    };
    // The bytes as the first example's code, again as the prose after it, and a second example
    // that uses names the first may define.
    let fence = "`".repeat(3);
    let text = format!(
        "---\ntitle: \"How to fuzz?\"\ndate: \"2025-01-30\"\nid: \"fuzz\"\n---\n\
         **Example 1: The Problematic Approach**\n\n{fence}python\n{code}\n{fence}\n\n\
         {code}\n\n**Example 2: Correct**\n\n{fence}python\n# ... as in Example 1 ...\nprint(data, model)\n{fence}\n"
    );
    common::parse(errbook_core::PageKind::Article, "content/articles/fuzz.md", &text);
});
