//! Bad input, as users meet it: `errbook check` on each broken fixture under tests/fixtures/bad/
//! prints a compiler-style diagnostic (code, file:line:col, message, the offending line, a hint)
//! and exits 1; nothing panics; `build` on bad input writes nothing.

mod common;
use common::*;

struct Case {
    fixture: &'static str,
    code: &'static str,
    location: &'static str,
    message: &'static str,
    /// A piece of the offending source line as shown under the header ("" when the file has no
    /// usable text to show).
    shown: &'static str,
    hint: &'static str,
}

const CASES: &[Case] = &[
    Case {
        fixture: "unterminated-front-matter",
        code: "E-front-matter",
        location: "content/articles/open.md:1:1",
        message: "front matter is not terminated",
        shown: "1 │ ---",
        hint: "close the YAML block with a line holding only `---`",
    },
    Case {
        fixture: "invalid-yaml",
        code: "E-front-matter",
        location: "content/articles/yaml.md:2:8",
        message: "invalid YAML in front matter",
        shown: "2 │ title: \"Broken: [unclosed",
        hint: "need quotes",
    },
    Case {
        fixture: "missing-keys",
        code: "E-missing-key",
        location: "content/articles/partial.md:1:1",
        message: "front matter has no `date`",
        shown: "1 │ ---",
        hint: "add a line `date: ...`",
    },
    Case {
        fixture: "missing-keys",
        code: "E-missing-key",
        location: "content/articles/partial.md:1:1",
        message: "front matter has no `id`",
        shown: "1 │ ---",
        hint: "add a line `id: ...`",
    },
    Case {
        fixture: "id-path-mismatch",
        code: "E-id-path",
        location: "content/errors/pytorch/dataset-worker-fork-cuda.md:3:12",
        message: "the ID `pytorch/worker-fork` does not match the file path, which implies `pytorch/dataset-worker-fork-cuda`",
        shown: "3 │ - **ID:** `pytorch/worker-fork`",
        hint: "move the file to content/errors/",
    },
    Case {
        fixture: "duplicate-ids",
        code: "E-duplicate-id",
        location: "content/articles/guides/fine.md:4:1",
        message: "the article ID `fine` is already used by content/articles/fine.md",
        shown: "4 │ id: \"fine\"",
        hint: "give each file its own ID",
    },
    Case {
        fixture: "percent-out-of-range",
        code: "E-percent",
        location: "content/errors/pytorch/dataset-worker-fork-cuda.md:8:17",
        message: "Fix Rate 140% is not between 0% and 100%",
        shown: "8 │ - **Fix Rate:** 140%",
        hint: "0 to 100",
    },
    Case {
        fixture: "percent-out-of-range",
        code: "E-percent",
        location: "content/errors/pytorch/dataset-worker-fork-cuda.md:31:",
        message: "success rate 185% is not between 0% and 100%",
        shown: "(185% success)",
        hint: "0 to 100",
    },
    Case {
        fixture: "version-table",
        code: "E-table",
        location: "content/errors/pytorch/dataset-worker-fork-cuda.md:16:1",
        message: "the version table's header is `Version | State | Introduced | Deprecated`",
        shown: "16 │ | Version | State | Introduced | Deprecated |",
        hint: "`| Version | Status | Introduced | Deprecated |`",
    },
    Case {
        fixture: "version-table-cells",
        code: "E-table",
        location: "content/errors/pytorch/dataset-worker-fork-cuda.md:20:1",
        message: "this row has 3 cells; the table has 4 columns",
        shown: "20 │ | CUDA 11.7 | active | — |",
        hint: "`—` for an empty cell",
    },
    Case {
        fixture: "workaround-without-summary",
        code: "E-workaround",
        location: "content/errors/pytorch/dataset-worker-fork-cuda.md:31:1",
        message: "this workaround has no bold summary",
        shown: "31 │ 2. (85% success)",
        hint: "`1. **Do this** (90% success)`",
    },
    Case {
        fixture: "unknown-section",
        code: "E-section",
        location: "content/errors/pytorch/dataset-worker-fork-cuda.md:40:1",
        message: "unknown section `Dead Endz`",
        shown: "40 │ ## Dead Endz",
        hint: "did you mean `## Dead Ends`?",
    },
    Case {
        fixture: "unknown-metadata",
        code: "E-meta",
        location: "content/errors/pytorch/dataset-worker-fork-cuda.md:9:3",
        message: "unknown metadata key `Severity`",
        shown: "9 │ - **Severity:** high",
        hint: "known keys: ID, Domain, Category",
    },
    Case {
        fixture: "not-utf8",
        code: "E-encoding",
        location: "content/articles/latin1.md:2:12",
        message: "the file is not valid UTF-8 (byte 0xE9 at offset 15)",
        shown: "",
        hint: "iconv -f latin1 -t utf-8",
    },
    Case {
        fixture: "empty-file",
        code: "E-empty",
        location: "content/articles/empty.md:1:1",
        message: "the file is empty",
        shown: "",
        hint: "`errbook new`",
    },
    Case {
        fixture: "bad-date",
        code: "E-date",
        location: "content/articles/dated.md:3:1",
        message: "`date: 30/01/2025` is not a date",
        shown: "3 │ date: \"30/01/2025\"",
        hint: "YYYY-MM-DD",
    },
    Case {
        fixture: "snippet-attribute",
        code: "E-snippet-attr",
        location: "content/articles/snip.md:8:15",
        message: "unknown code block attribute `gpu`",
        shown: "8 │ ```python run gpu=2",
        hint: "did you mean `gpus`?",
    },
    Case {
        fixture: "snippet-after",
        code: "E-snippet-after",
        location: "content/articles/chain.md:12:1",
        message: "`after=setpu` names no earlier code block of this page",
        shown: "12 │ ```python run after=setpu",
        hint: "did you mean `setup`?",
    },
];

fn check(fixture: &str) -> (Option<i32>, String) {
    let o = errbook()
        .arg("--root")
        .arg(repo().join("tests/fixtures/bad").join(fixture))
        .arg("check")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn every_bad_input_gets_a_located_diagnostic_with_a_hint() {
    let mut failures = Vec::new();
    for c in CASES {
        let (code, err) = check(c.fixture);
        let header = format!("error[{}]: {}", c.code, c.location);
        // This case's diagnostic: the one whose header line has its location and message.
        let found = err
            .split("error[")
            .skip(1)
            .map(|d| format!("error[{d}"))
            .find(|d| {
                let first = d.lines().next().unwrap_or("");
                first.starts_with(&header) && first.contains(c.message)
            });
        let Some(d) = found else {
            failures.push(format!(
                "{}: no `{header}: {}` in:\n{err}",
                c.fixture, c.message
            ));
            continue;
        };
        let d = d.as_str();
        for (what, needle) in [
            ("message", c.message),
            ("source line", c.shown),
            ("hint", c.hint),
        ] {
            if !d.contains(needle) {
                failures.push(format!("{}: {what} `{needle}` missing in:\n{d}", c.fixture));
            }
        }
        if code != Some(1) {
            failures.push(format!("{}: exit status {code:?}, want 1", c.fixture));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_fixture_is_covered_and_none_panics() {
    let dir = repo().join("tests/fixtures/bad");
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            CASES.iter().any(|c| c.fixture == name),
            "fixture {name} has no case"
        );
        for cmd in [&["check"][..], &["build", "-d", "/dev/null/never"][..]] {
            let o = errbook()
                .arg("--root")
                .arg(dir.join(&name))
                .args(cmd)
                .output()
                .unwrap();
            assert_ne!(o.status.code(), Some(101), "{name} {cmd:?} panicked");
            assert_eq!(o.status.code(), Some(1), "{name} {cmd:?}");
        }
    }
}

#[test]
fn bad_build_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let o = errbook()
        .arg("--root")
        .arg(repo().join("tests/fixtures/bad/unknown-section"))
        .args(["build", "-d"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("nothing was written"), "{err}");
    assert!(!out.exists());
    assert_eq!(
        std::fs::read_dir(tmp.path()).unwrap().count(),
        0,
        "no staging left"
    );
}

#[test]
fn the_seed_catalog_checks_clean() {
    let o = errbook()
        .arg("--root")
        .arg(repo())
        .arg("check")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("check: ok"), "{err}");
}

#[test]
fn new_scaffolds_valid_files_and_never_overwrites() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("book.toml"), "").unwrap();
    let new = |args: &[&str]| {
        errbook()
            .arg("--root")
            .arg(tmp.path())
            .arg("new")
            .args(args)
            .output()
            .unwrap()
    };
    let o = new(&["error", "cuda/out-of-memory"]);
    assert!(o.status.success());
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        "content/errors/cuda/out-of-memory.md"
    );
    let o = new(&["article", "why-oom"]);
    assert!(o.status.success());
    let art = std::fs::read_to_string(tmp.path().join("content/articles/why-oom.md")).unwrap();
    let today = chrono::Local::now().format("%Y-%m-%d").to_string();
    assert!(art.contains(&format!("date: \"{today}\"")), "{art}");

    // Both parse clean.
    let o = errbook()
        .arg("--root")
        .arg(tmp.path())
        .arg("check")
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    // No overwrite, and the file is untouched.
    std::fs::write(tmp.path().join("content/articles/why-oom.md"), "mine").unwrap();
    let o = new(&["article", "why-oom"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("already exists"));
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("content/articles/why-oom.md")).unwrap(),
        "mine"
    );

    // Invalid IDs are refused with a hint.
    let o = new(&["error", "NoSlash"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("hint: an entry ID is `domain/slug`"));
}
