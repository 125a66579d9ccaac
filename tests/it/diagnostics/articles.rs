//! Articles: missing or malformed front matter keys, IDs that do not match the file or the rules.

use super::*;

#[test]
fn article_without_front_matter() {
    expect(
        "article-no-front-matter",
        Expect {
            at: "content/articles/bad.md:1:1",
            code: "E-front-matter",
            message: "an article must start with YAML front matter",
            line: Some("# An article without front matter"),
            hint: "begin the file with --- title: \"...\" date: \"YYYY-MM-DD\" id: \"...\" ---",
        },
    );
}

#[test]
fn article_missing_title() {
    expect(
        "missing-article-title",
        Expect {
            at: "content/articles/bad.md:1:1",
            code: "E-missing-key",
            message: "front matter has no `title`",
            line: Some("---"),
            hint: "add a line `title: ...` between the `---` lines",
        },
    );
}

#[test]
fn article_missing_date() {
    expect(
        "missing-article-date",
        Expect {
            at: "content/articles/bad.md:1:1",
            code: "E-missing-key",
            message: "front matter has no `date`",
            line: Some("---"),
            hint: "add a line `date: ...` between the `---` lines",
        },
    );
}

#[test]
fn article_missing_id() {
    expect(
        "missing-article-id",
        Expect {
            at: "content/articles/bad.md:1:1",
            code: "E-missing-key",
            message: "front matter has no `id`",
            line: Some("---"),
            hint: "add a line `id: ...` between the `---` lines",
        },
    );
}

#[test]
fn article_bad_date() {
    expect(
        "article-bad-date",
        Expect {
            at: "content/articles/bad.md:3:1",
            code: "E-date",
            message: "`date: 30/01/2025` is not a date",
            line: Some("date: \"30/01/2025\""),
            hint: "write the date as YYYY-MM-DD",
        },
    );
}

#[test]
fn article_unknown_key_suggests_the_known_one() {
    expect(
        "article-unknown-key",
        Expect {
            at: "content/articles/bad.md:5:1",
            code: "E-unknown-key",
            message: "unknown front matter key `tag`",
            line: Some("tag: [cuda]"),
            hint: "did you mean `tags`?",
        },
    );
}

#[test]
fn article_id_does_not_match_file_name() {
    expect(
        "id-path-article",
        Expect {
            at: "content/articles/bad.md:4:1",
            code: "E-id-path",
            message: "the id `another-name` does not match the file name `bad.md`",
            line: Some("id: \"another-name\""),
            hint: "rename the file to content/articles/another-name.md, or set `id: \"bad\"`",
        },
    );
}

#[test]
fn duplicate_article_id() {
    expect(
        "duplicate-id-article",
        Expect {
            at: "content/articles/old/good-article.md:4:1",
            code: "E-duplicate-id",
            message:
                "the article ID `good-article` is already used by content/articles/good-article.md",
            line: Some("id: \"good-article\""),
            hint: "give each file its own ID",
        },
    );
}

#[test]
fn article_id_breaks_the_id_rules() {
    expect(
        "id-chars-article",
        Expect {
            at: "content/articles/Why_CUDA.md:4:1",
            code: "E-id-chars",
            message: "invalid article ID `Why_CUDA`",
            line: Some("id: \"Why_CUDA\""),
            hint: "use lowercase letters, digits, `-` and `_`: `why_cuda`, and rename the file to match",
        },
    );
}
