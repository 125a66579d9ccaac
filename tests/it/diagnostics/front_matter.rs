//! Front matter that is not valid YAML, or not a mapping, or not closed: located errors.

use super::*;

#[test]
fn front_matter_unterminated() {
    expect(
        "front-matter-unterminated",
        Expect {
            at: "content/articles/bad.md:1:1",
            code: "E-front-matter",
            message: "front matter is not terminated",
            line: Some("---"),
            hint: "close the YAML block with a line holding only `---`",
        },
    );
}

#[test]
fn front_matter_invalid_yaml() {
    expect(
        "front-matter-invalid-yaml",
        Expect {
            at: "content/articles/bad.md:5:14",
            code: "E-front-matter",
            message: "invalid YAML in front matter: while scanning a quoted scalar, found unexpected end of stream",
            line: Some("tags: [cuda, \"multiprocessing"),
            hint: "check indentation and quoting",
        },
    );
}

#[test]
fn front_matter_not_a_mapping() {
    expect(
        "front-matter-not-mapping",
        Expect {
            at: "content/articles/bad.md:2:1",
            code: "E-front-matter",
            message: "front matter must be a mapping of keys to values",
            line: Some("- just"),
            hint: "write one `key: value` per line",
        },
    );
}

#[test]
fn front_matter_unclosed_quote() {
    expect(
        "invalid-yaml",
        Expect {
            at: "content/articles/yaml.md:2:8",
            code: "E-front-matter",
            message: "invalid YAML in front matter: invalid indentation in quoted scalar",
            line: Some("title: \"Broken: [unclosed"),
            hint: "values holding `: ` or starting with a quote or backtick need quotes",
        },
    );
}

#[test]
fn front_matter_duplicate_key() {
    expect(
        "front-matter-duplicate-key",
        Expect {
            at: "content/articles/bad.md:4:1",
            code: "E-front-matter",
            message: "front matter gives `title` twice",
            line: Some("title: \"Second title\""),
            hint: "keep one `title:` line",
        },
    );
}
