//! The repository's own catalog as readers see it with the records committed in verify/: the
//! workaround whose run failed says so wherever it is named (its entry, the articles applying it),
//! with the spawned child's error as the root cause; the dead end that actually works says that;
//! the seed articles as written show errbook's reading of each example and how many ran.

use crate::common::{build, read, repo};
use crate::verify_support::{section, text_of};

const ENTRY: &str = "errors/pytorch/dataset-worker-fork-cuda/index.html";

#[test]
fn the_seed_pages_say_what_the_records_found_in_readers_words() {
    let (_t, out) = build(&repo(), &[]);
    let html = read(&out, ENTRY);
    let all = text_of(&html);
    // The date is the newest record's; the rest is what the records say.
    let verified = all
        .find("Verified on H100 and H200, 2026-")
        .expect("the verification line");
    assert!(
        all[verified..].contains(": 1 of 3 workarounds works, 2 failed"),
        "{all}"
    );
    let w1 = section(&html, "workaround-1", &["workaround-2", "dead-ends"]);
    assert!(
        html.contains("<li class=\"fix-bad\" id=\"workaround-1\">"),
        "workaround 1 is marked"
    );
    let w1 = text_of(w1);
    // What errbook's runs found, then the catalog's figure, labelled as its claim.
    assert!(
        w1.contains("failed on H100 and H200 the catalog says: 95% success"),
        "{w1}"
    );
    let cause = w1
        .find("Root cause RuntimeError: An attempt has been made to start a new process")
        .unwrap_or_else(|| panic!("{w1}"));
    let then = w1
        .find("Reported as RuntimeError: DataLoader worker (pid(s) ")
        .unwrap_or_else(|| panic!("{w1}"));
    assert!(cause < then, "the root cause first");
    let d2 = text_of(section(&html, "dead-end-2", &["dead-end-3"]));
    assert!(d2.contains("actually works on H100 and H200"), "{d2}");
    assert!(
        !all.contains("Run: contradicted"),
        "no verdict word reads backwards"
    );

    // The articles as written: each example's claim is read from the text, and said to be read.
    let art = read(
        &out,
        "articles/why-does-torchutilsdatadataloader-with-cuda-and-numworkers-/index.html",
    );
    let text = text_of(&art);
    assert!(
        text.contains("Read as the failing case (\u{2018}The Problematic Approach\u{2019}; \u{2018}likely fail\u{2019})"),
        "{text}"
    );
    assert!(
        text.contains(
            "Read as the working case (\u{2018}robust\u{2019}; \u{2018}improved\u{2019})"
        ),
        "{text}"
    );
    assert!(
        !text.contains("The text claims"),
        "no claim is declared there: {text}"
    );
    assert!(text.contains(" of 3 code blocks ran"), "{text}");
    assert!(
        all.contains("8 of 11 code blocks ran; not run: block 3 (line 53): prose or pseudo-code"),
        "the entry's workaround blocks repeat the prose: {all}"
    );

    // An article that applies workaround 1 (its entry declared) shows that it failed when run.
    let declared = crate::common::seed_declaring_errors();
    let (_t2, out) = build(declared.path(), &[]);
    let art = read(
        &out,
        "articles/why-am-i-getting-a-cuda-initialization-error/index.html",
    );
    let text = text_of(&art);
    assert!(
        text.contains("✗ Applies workaround 1 of RuntimeError: Cannot re-initialize CUDA"),
        "{text}"
    );
    assert!(!text.contains("✓ Applies workaround 1"), "{text}");
    assert!(text.contains("✓ Applies workaround 3"), "{text}");
}
