//! Bad input: every case under tests/fixtures/bad/ run through `errbook check`, asserting what the
//! user sees (the `path:line:col` header, the message, the offending line in the snippet, the
//! hint) and the exit status. Also: the seed catalog checks clean, and no input makes errbook panic.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn fixture(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/bad")
        .join(case)
}

/// `errbook check --root DIR`: (exit code, stderr).
fn check(root: &Path) -> (i32, String) {
    let out = Command::cargo_bin("errbook")
        .unwrap()
        .arg("check")
        .arg("--root")
        .arg(root)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Whitespace runs to one space, so hints wrapped by the terminal renderer still match.
fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What one bad case must show.
struct Expect<'a> {
    /// `path:line:col`, the path relative to the site root.
    at: &'a str,
    code: &'a str,
    message: &'a str,
    /// The offending source line as the snippet shows it (None for a file with no text).
    line: Option<&'a str>,
    hint: &'a str,
}

fn expect(case: &str, e: Expect) {
    let (status, err) = check(&fixture(case));
    assert_eq!(status, 1, "{case}: exit status\n{err}");
    let header = format!("error[{}]: {}: {}\n", e.code, e.at, e.message);
    assert!(
        err.contains(&header),
        "{case}: expected header\n  {header}in\n{err}"
    );
    // Exactly one diagnostic: the case is reported once, without follow-on noise.
    assert_eq!(
        err.matches("error[").count(),
        1,
        "{case}: one diagnostic expected\n{err}"
    );
    if let Some(line) = e.line {
        // The snippet shows the line with its number in the gutter: ` 27 │ 2. Upgrade ...`.
        let lineno = e.at.split(':').nth(1).unwrap();
        let shown = format!("{lineno} │ {line}\n");
        assert!(
            err.contains(&shown),
            "{case}: expected source line\n  {shown}in\n{err}"
        );
    }
    let help = err
        .find("help: ")
        .map(|i| squash(&err[i..]))
        .unwrap_or_default();
    assert!(
        help.contains(&squash(e.hint)),
        "{case}: expected hint\n  {}\nin\n{err}",
        e.hint
    );
    assert!(
        err.contains("check: 1 error, 0 warnings in "),
        "{case}: summary line\n{err}"
    );
}

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
fn entry_missing_id() {
    expect(
        "missing-entry-id",
        Expect {
            at: "content/errors/demo/bad.md:1:1",
            code: "E-missing-key",
            message: "the entry has no `- **ID:**` bullet",
            line: Some("# ValueError: demo fixture error message"),
            hint: "add the bullet - **ID:** `demo/bad` under the title",
        },
    );
}

#[test]
fn entry_missing_category() {
    expect(
        "missing-entry-category",
        Expect {
            at: "content/errors/demo/bad.md:1:1",
            code: "E-missing-key",
            message: "the entry has no `- **Category:**` bullet",
            line: Some("# ValueError: demo fixture error message"),
            hint: "add `- **Category:** config_error`",
        },
    );
}

#[test]
fn entry_id_does_not_match_path() {
    expect(
        "id-path-entry",
        Expect {
            at: "content/errors/demo/bad.md:3:12",
            code: "E-id-path",
            message:
                "the ID `demo/other-name` does not match the file path, which implies `demo/bad`",
            line: Some("- **ID:** `demo/other-name`"),
            hint: "set the ID to `demo/bad`, or move the file to content/errors/demo/other-name.md",
        },
    );
}

#[test]
fn entry_domain_does_not_match_id() {
    expect(
        "domain-mismatch",
        Expect {
            at: "content/errors/demo/bad.md:4:15",
            code: "E-id-path",
            message: "Domain `pytorch` does not match the ID's domain `demo`",
            line: Some("- **Domain:** pytorch"),
            hint: "write `- **Domain:** demo`",
        },
    );
}

#[test]
fn fix_rate_over_100() {
    expect(
        "percent-fix-rate",
        Expect {
            at: "content/errors/demo/bad.md:8:17",
            code: "E-percent",
            message: "Fix Rate 140% is not between 0% and 100%",
            line: Some("- **Fix Rate:** 140%"),
            hint: "a rate is a percentage of reports: 0 to 100",
        },
    );
}

#[test]
fn fix_rate_not_a_number() {
    expect(
        "percent-fix-rate-text",
        Expect {
            at: "content/errors/demo/bad.md:8:17",
            code: "E-percent",
            message: "Fix Rate `high` is not a percentage",
            line: Some("- **Fix Rate:** high"),
            hint: "write it as `NN%`, between 0% and 100%",
        },
    );
}

#[test]
fn success_rate_over_100() {
    expect(
        "percent-success",
        Expect {
            at: "content/errors/demo/bad.md:27:33",
            code: "E-percent",
            message: "success rate 150% is not between 0% and 100%",
            line: Some("2. **Upgrade the demo package** (150% success)"),
            hint: "a rate is a percentage of reports: 0 to 100",
        },
    );
}

#[test]
fn fail_rate_over_100_column_counts_characters() {
    // The line has an em dash (3 bytes, 1 character) before the rate: the column is 71, not 73.
    expect(
        "percent-fail",
        Expect {
            at: "content/errors/demo/bad.md:31:71",
            code: "E-percent",
            message: "failure rate 101% is not between 0% and 100%",
            line: Some(
                "- **Restart the machine** — the value is still wrong after a restart. (101% fail)",
            ),
            hint: "a rate is a percentage of reports: 0 to 100",
        },
    );
}

#[test]
fn version_table_wrong_header() {
    expect(
        "table-header",
        Expect {
            at: "content/errors/demo/bad.md:16:1",
            code: "E-table",
            message: "the version table's header is `Version | State | Since | Until`",
            line: Some("| Version | State | Since | Until |"),
            hint: "the header must be `| Version | Status | Introduced | Deprecated |`",
        },
    );
}

#[test]
fn version_table_wrong_cell_count() {
    expect(
        "table-cells",
        Expect {
            at: "content/errors/demo/bad.md:19:1",
            code: "E-table",
            message: "this row has 3 cells; the table has 4 columns",
            line: Some("| Demo 2.0 | active | — |"),
            hint: "write `| Version | Status | Introduced | Deprecated |`, `—` for an empty cell",
        },
    );
}

#[test]
fn workaround_without_summary() {
    expect(
        "workaround-no-summary",
        Expect {
            at: "content/errors/demo/bad.md:27:1",
            code: "E-workaround",
            message: "this workaround has no bold summary",
            line: Some("2. Upgrade the demo package (70% success)"),
            hint: "start the item with the summary in bold: `1. **Do this** (90% success)`",
        },
    );
}

#[test]
fn workaround_without_rate() {
    expect(
        "workaround-no-rate",
        Expect {
            at: "content/errors/demo/bad.md:27:1",
            code: "E-workaround",
            message: "this workaround has no success rate",
            line: Some("2. **Upgrade the demo package**"),
            hint: "end the summary line with `(NN% success)`",
        },
    );
}

#[test]
fn dead_end_without_rate() {
    expect(
        "dead-end-no-rate",
        Expect {
            at: "content/errors/demo/bad.md:31:1",
            code: "E-dead-end",
            message: "this dead end has no failure rate",
            line: Some("- **Restart the machine** — the value is still wrong after a restart."),
            hint: "end the line with `(NN% fail)`",
        },
    );
}

#[test]
fn unknown_section_did_you_mean() {
    // One diagnostic: the missing `## Workarounds` is the same mistake and is not reported twice.
    expect(
        "section-unknown",
        Expect {
            at: "content/errors/demo/bad.md:21:1",
            code: "E-section",
            message: "unknown section `Workaroundz`",
            line: Some("## Workaroundz"),
            hint: "did you mean `## Workarounds`?",
        },
    );
}

#[test]
fn section_given_twice() {
    expect(
        "section-twice",
        Expect {
            at: "content/errors/demo/bad.md:29:1",
            code: "E-section",
            message: "section `Root Cause` appears twice",
            line: Some("## Root Cause"),
            hint: "merge it with the one on line 10",
        },
    );
}

#[test]
fn unknown_metadata_key() {
    expect(
        "meta-unknown",
        Expect {
            at: "content/errors/demo/bad.md:7:3",
            code: "E-meta",
            message: "unknown metadata key `Severity`",
            line: Some("- **Severity:** high"),
            hint: "known keys: ID, Domain, Category, Error Code, Verification, Fix Rate; put other data in front matter",
        },
    );
}

#[test]
fn metadata_key_not_bold() {
    expect(
        "meta-malformed",
        Expect {
            at: "content/errors/demo/bad.md:5:1",
            code: "E-meta",
            message: "the `Category` bullet must have its key in bold",
            line: Some("- Category: config_error"),
            hint: "write `- **Category:** config_error`",
        },
    );
}

#[test]
fn entry_unknown_front_matter_key() {
    expect(
        "entry-unknown-front-key",
        Expect {
            at: "content/errors/demo/bad.md:3:1",
            code: "E-unknown-key",
            message: "unknown front matter key `severity`",
            line: Some("severity: high"),
            hint: "known keys: aliases, tags, related, links",
        },
    );
}

#[test]
fn entry_without_title_line() {
    expect(
        "title-missing",
        Expect {
            at: "content/errors/demo/bad.md:1:1",
            code: "E-title",
            message: "an entry must start with its error message as a `# ` title line",
            line: Some("Error: ValueError: demo fixture error message"),
            hint: "write the message on the first line: `# RuntimeError: ...`",
        },
    );
}

#[test]
fn stray_text_before_sections() {
    expect(
        "stray-text",
        Expect {
            at: "content/errors/demo/bad.md:10:1",
            code: "E-stray",
            message: "text between the title and the first section cannot be placed",
            line: Some("Some prose that belongs in Root Cause."),
            hint: "put prose under `## Root Cause`",
        },
    );
}

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

#[test]
fn entry_outside_a_domain_folder() {
    expect(
        "entry-outside-domain",
        Expect {
            at: "content/errors/bad.md:1:1",
            code: "E-id-path",
            message: "an entry file must be at content/errors/<domain>/<slug>.md",
            line: Some("# ValueError: demo fixture error message"),
            hint: "move the file to content/errors/demo/bad.md",
        },
    );
}

#[test]
fn entry_id_from_path_breaks_the_id_rules() {
    expect(
        "id-chars-entry",
        Expect {
            at: "content/errors/demo/Bad_Name.md:3:12",
            code: "E-id-chars",
            message: "invalid error ID `demo/Bad_Name` (the file path gives it)",
            line: Some("- **ID:** `demo/Bad_Name`"),
            hint: "use lowercase letters, digits, `-` and `_`: `demo/bad_name`, and rename the file to match",
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

#[test]
fn every_fixture_has_a_test() {
    // A fixture folder nobody asserts on is a case nobody checks.
    let src = include_str!("diagnostics.rs");
    for d in std::fs::read_dir(fixture("")).unwrap() {
        let name = d.unwrap().file_name().into_string().unwrap();
        assert!(
            src.contains(&format!("\"{name}\"")),
            "tests/fixtures/bad/{name} has no test in tests/diagnostics.rs"
        );
    }
}

#[test]
fn seed_catalog_checks_clean() {
    let (status, err) = check(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert_eq!(status, 0, "{err}");
    assert!(!err.contains("error["), "{err}");
    assert!(err.contains("check: ok, "), "{err}");
}

#[test]
fn good_fixture_base_checks_clean() {
    // The good files every bad fixture carries are themselves clean: each case fails for its
    // own file only. Take one fixture and drop its bad file.
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&fixture("percent-fix-rate"), tmp.path());
    std::fs::remove_file(tmp.path().join("content/errors/demo/bad.md")).unwrap();
    let (status, err) = check(tmp.path());
    assert_eq!(status, 0, "{err}");
    assert!(
        err.contains("check: ok, 0 warnings in 2 files (1 entry and 1 article parsed)"),
        "{err}"
    );
}

#[test]
fn no_fixture_makes_errbook_panic_and_build_writes_nothing() {
    for d in std::fs::read_dir(fixture("")).unwrap() {
        let dir = d.unwrap().path();
        let (status, err) = check(&dir);
        assert_ne!(status, 101, "{}: check panicked\n{err}", dir.display());
        assert!(!err.contains("panicked"), "{}: {err}", dir.display());
        assert_eq!(
            status,
            1,
            "{}: bad input must fail check\n{err}",
            dir.display()
        );
        // build stops before writing anything: no output, no staging folder beside it.
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("site");
        let (status, err) = build(&dir, &out);
        assert_ne!(status, 101, "{}: build panicked\n{err}", dir.display());
        assert_eq!(status, 1, "{}: build on bad input\n{err}", dir.display());
        assert!(err.contains("nothing was written"), "{err}");
        assert_eq!(
            std::fs::read_dir(tmp.path()).unwrap().count(),
            0,
            "{}: build left files behind",
            dir.display()
        );
    }
}

/// `errbook --root ROOT build -d OUT`: (exit code, stderr).
fn build(root: &Path, out: &Path) -> (i32, String) {
    let o = Command::cargo_bin("errbook")
        .unwrap()
        .arg("--root")
        .arg(root)
        .args(["build", "-d"])
        .arg(out)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path().strip_prefix(dir).unwrap().to_path_buf(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn failed_build_leaves_the_previous_output_whole() {
    // A good site (a fixture without its bad file, plus the repo's theme) builds; then a broken
    // file is added and the build into the same folder fails, leaving every byte as it was.
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("src");
    copy_dir(&fixture("section-unknown"), &site);
    let bad = std::fs::read(site.join("content/errors/demo/bad.md")).unwrap();
    std::fs::remove_file(site.join("content/errors/demo/bad.md")).unwrap();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("themes"),
        &site.join("themes"),
    );
    let out = tmp.path().join("site");
    let (status, err) = build(&site, &out);
    assert_eq!(status, 0, "the good site must build\n{err}");
    let before = snapshot(&out);
    assert!(
        before.contains_key(Path::new("errors/demo/good-entry/index.html")),
        "{:?}",
        before.keys().collect::<Vec<_>>()
    );
    let beside_before = std::fs::read_dir(tmp.path()).unwrap().count();

    std::fs::write(site.join("content/errors/demo/bad.md"), bad).unwrap();
    let (status, err) = build(&site, &out);
    assert_eq!(status, 1, "{err}");
    assert!(
        err.contains(
            "error[E-section]: content/errors/demo/bad.md:21:1: unknown section `Workaroundz`"
        ),
        "{err}"
    );
    assert!(err.contains("nothing was written"), "{err}");
    let after = snapshot(&out);
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>(),
        "the set of output files changed"
    );
    for (path, bytes) in &before {
        assert!(after[path] == *bytes, "{} changed", path.display());
    }
    assert_eq!(
        std::fs::read_dir(tmp.path()).unwrap().count(),
        beside_before,
        "the failed build left a folder beside the output"
    );
}

/// The parser on every prefix, every one-line deletion and every one-line duplication of the seed
/// files and the fixtures: diagnostics, never a panic.
#[test]
fn mangled_input_never_panics() {
    use errbook::core::model::PageKind;
    use errbook::load::SourceFile;
    use std::sync::Arc;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut originals: Vec<(PageKind, PathBuf, String)> = Vec::new();
    for base in [root.to_path_buf(), fixture("percent-fix-rate")] {
        for (kind, rel) in errbook::load::content_paths(&base).unwrap() {
            let text = std::fs::read_to_string(base.join(&rel)).unwrap();
            originals.push((kind, rel, text));
        }
    }
    let mut tried = 0;
    for (kind, rel, text) in &originals {
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let mut variants: Vec<String> = Vec::new();
        for i in 0..lines.len() {
            variants.push(lines[..i].concat());
            let mut del = lines.clone();
            del.remove(i);
            variants.push(del.concat());
            let mut dup = lines.clone();
            dup.insert(i, lines[i]);
            variants.push(dup.concat());
        }
        // Byte-level cuts inside lines too (at character boundaries).
        for (i, _) in text.char_indices().step_by(13) {
            variants.push(text[..i].to_string());
        }
        for v in variants {
            if v.trim().is_empty() {
                continue;
            }
            let f = SourceFile {
                kind: *kind,
                path: rel.clone(),
                text: Arc::from(v.as_str()),
                mtime: None,
            };
            let r = std::panic::catch_unwind(|| errbook::parse::parse_file(&f, 300));
            assert!(r.is_ok(), "{} panicked on this input:\n{v}", rel.display());
            tried += 1;
        }
    }
    assert!(tried > 500, "only {tried} variants tried");
}

fn copy_dir(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.unwrap();
        let rel = e.path().strip_prefix(from).unwrap();
        let dst = to.join(rel);
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&dst).unwrap();
        } else {
            std::fs::copy(e.path(), &dst).unwrap();
        }
    }
}

#[test]
fn bad_book_toml_fails_check_with_its_location() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("book.toml"), "[site]\ntitel = \"x\"\n").unwrap();
    let (status, err) = check(tmp.path());
    assert_eq!(status, 1, "{err}");
    assert!(err.contains("error[E-config]: "), "{err}");
    assert!(err.contains("line 2, column 1"), "{err}");
    assert!(err.contains("unknown field `titel`"), "{err}");
    assert!(
        err.contains("check: 1 error in book.toml; the content was not checked"),
        "{err}"
    );
}
