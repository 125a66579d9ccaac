//! Structured entries: metadata bullets, sections, version tables, workaround and dead-end lists,
//! IDs against the path.

use super::*;

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
fn root_cause_prose_without_its_heading_is_one_error() {
    expect(
        "root-cause-no-heading",
        Expect {
            at: "content/errors/demo/bad.md:10:1",
            code: "E-section",
            message: "the entry has no `## Root Cause` heading above this text",
            line: Some("A demo cause, written for the test fixtures."),
            hint:
                "add a `## Root Cause` line before it: prose after the metadata is the root cause",
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
fn alias_worded_as_the_message_or_an_earlier_alias_is_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    crate::common::copy_tree(&fixture("entry-unknown-front-key"), tmp.path());
    let file = tmp.path().join("content/errors/demo/bad.md");
    crate::common::replace_in(
        &file,
        "aliases: [\"ValueError: demo\"]\nseverity: high\n",
        "aliases:\n  - \"valueerror:  demo fixture error message\"\n  - \"RuntimeError: other\"\n  - \"RuntimeError: other\"\n  - \"ValueError: demo\"\n",
    );
    let (status, err) = check(tmp.path());
    assert_eq!(status, 0, "warnings only\n{err}");
    assert!(
        err.contains("warning[W-alias]: content/errors/demo/bad.md:2:1: the alias `valueerror:  demo fixture error message` is worded as the entry's message"),
        "{err}"
    );
    assert!(
        err.contains("warning[W-alias]: content/errors/demo/bad.md:2:1: the alias `RuntimeError: other` is worded as alias 2"),
        "{err}"
    );
    assert_eq!(err.matches("warning[W-alias]").count(), 2, "{err}");
    assert!(
        squash(&err)
            .contains("remove it: the search finds the entry by its message and every alias"),
        "{err}"
    );
}
