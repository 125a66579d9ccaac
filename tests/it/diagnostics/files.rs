//! Files that are not usable text, and code blocks with bad run attributes.

use super::*;

#[test]
fn not_utf8() {
    // The bad byte is 0xE9 (Latin-1 é) after `# ValueError: caf`; the line is shown lossily.
    let raw = std::fs::read(fixture("encoding").join("content/errors/demo/bad.md")).unwrap();
    assert!(
        std::str::from_utf8(&raw).is_err(),
        "the fixture must stay non-UTF-8 (.gitattributes keeps it binary)"
    );
    expect(
        "encoding",
        Expect {
            at: "content/errors/demo/bad.md:1:18",
            code: "E-encoding",
            message: "the file is not valid UTF-8 (byte 0xE9 at offset 17)",
            line: Some("# ValueError: caf\u{FFFD} au lait"),
            hint: "save the file as UTF-8",
        },
    );
}

#[test]
fn empty_file() {
    expect(
        "empty",
        Expect {
            at: "content/errors/demo/bad.md:1:1",
            code: "E-empty",
            message: "the file is empty",
            line: None,
            hint: "start an entry with `# <error message>` or an article with front matter; `errbook new` writes a template",
        },
    );
}

#[test]
fn blank_file_is_empty() {
    expect(
        "blank",
        Expect {
            at: "content/articles/bad.md:1:1",
            code: "E-empty",
            message: "the file is empty",
            line: None,
            hint: "`errbook new` writes a template",
        },
    );
}

#[test]
fn snippet_unknown_attribute() {
    expect(
        "snippet-attribute",
        Expect {
            at: "content/articles/snip.md:8:15",
            code: "E-snippet-attr",
            message: "unknown code block attribute `gpu`",
            line: Some("```python run gpu=2"),
            hint: "did you mean `gpus`?",
        },
    );
}

#[test]
fn snippet_after_names_no_block() {
    expect(
        "snippet-after",
        Expect {
            at: "content/articles/chain.md:12:1",
            code: "E-snippet-after",
            message: "`after=setpu` names no earlier code block of this page",
            line: Some("```python run after=setpu"),
            hint: "did you mean `setup`?",
        },
    );
}
