//! The repository's own catalog as readers see it with the records committed in verify/: the
//! workaround whose run failed says so wherever it is named (its entry, the articles applying it),
//! with the spawned child's error as the root cause; the dead end that actually works says that;
//! the two-GPU runs of the CUDA-initialization article still show.

use crate::common::{build, read, repo};
use crate::verify_support::{section, text_of};

const ENTRY: &str = "errors/pytorch/dataset-worker-fork-cuda/index.html";

#[test]
fn the_seed_pages_say_what_the_records_found_in_readers_words() {
    let (_t, out) = build(&repo(), &[]);
    let html = read(&out, ENTRY);
    let all = text_of(&html);
    assert!(
        all.contains("Verified on H100 and H200, 2026-11-26: 1 of 3 workarounds works, 2 failed"),
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
        .find("Reported as RuntimeError: DataLoader worker (pid(s) 22) exited unexpectedly")
        .unwrap_or_else(|| panic!("{w1}"));
    assert!(cause < then, "the root cause first");
    let d2 = text_of(section(&html, "dead-end-2", &["dead-end-3"]));
    assert!(d2.contains("actually works on H100 and H200"), "{d2}");
    assert!(
        !all.contains("Run: contradicted"),
        "no verdict word reads backwards"
    );

    // An article that applies workaround 1 shows that it failed when run, no check mark.
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
    // The two-GPU runs of that article keep showing until a two-GPU host runs them again.
    assert!(text.contains("2× H200, driver 580.159.04"), "{text}");
}
