//! The parser on the seed catalog, field by field.

use errbook_core::Config;
use errbook_core::{Claim, Entry};
use std::path::Path;

fn analysis() -> errbook_site::Analysis {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cfg = Config::load(root).unwrap();
    errbook_site::analyse(root, &cfg, true).unwrap()
}

#[test]
fn seed_catalog_has_no_errors() {
    let a = analysis();
    let errs: Vec<String> = a
        .diags
        .items
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.render(false))
        .collect();
    assert!(errs.is_empty(), "{}", errs.join("\n"));
    assert!(!a.catalog.entries.is_empty());
    assert!(a.catalog.articles.len() >= 3);
}

#[test]
fn seed_entry_fields() {
    let a = analysis();
    let e = a
        .catalog
        .entry("pytorch/dataset-worker-fork-cuda")
        .expect("seed entry");
    check_metadata(e);
    check_versions(e);
    check_workarounds(e);
    check_dead_ends(e);
}

/// The title line, the metadata bullets and the root cause.
fn check_metadata(e: &Entry) {
    assert_eq!(
        e.message,
        "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method."
    );
    assert_eq!(e.exception.as_deref(), Some("RuntimeError"));
    assert_eq!(e.domain, "pytorch");
    assert_eq!(e.slug, "dataset-worker-fork-cuda");
    assert_eq!(e.category, "config_error");
    assert_eq!(e.error_code.as_deref(), Some("CUDA_ERROR_NOT_INITIALIZED"));
    assert_eq!(e.verification, "ai_generated");
    assert_eq!(e.fix_rate, Some(90));
    assert!(e
        .root_cause
        .starts_with("The default 'fork' start method on Linux"));
    assert!(e
        .root_cause
        .ends_with("when DataLoader workers try to use CUDA."));
}

fn check_versions(e: &Entry) {
    let v: Vec<(&str, &str)> = e
        .versions
        .iter()
        .map(|r| (r.version.as_str(), r.status.as_str()))
        .collect();
    assert_eq!(
        v,
        vec![
            ("PyTorch 1.13.0", "active"),
            ("PyTorch 2.0.0", "active"),
            ("CUDA 11.7", "active"),
            ("CUDA 12.1", "active"),
            ("Ubuntu 20.04", "active"),
            ("Ubuntu 22.04", "active"),
        ]
    );
    assert!(e
        .versions
        .iter()
        .all(|r| r.introduced.is_none() && r.deprecated.is_none()));
}

/// Numbers, rates, summaries, and each workaround's code block.
fn check_workarounds(e: &Entry) {
    let w: Vec<(usize, u8)> = e
        .workarounds
        .iter()
        .map(|w| (w.number, w.success_rate))
        .collect();
    assert_eq!(w, vec![(1, 95), (2, 85), (3, 90)]);
    assert!(e.workarounds[0]
        .summary
        .starts_with("Set the start method to 'spawn' at the beginning of the script"));
    assert!(e.workarounds[0]
        .summary
        .ends_with("do not inherit the CUDA context."));
    assert!(e.workarounds[2]
        .summary
        .contains("if __name__ == '__main__': mp.set_start_method('spawn'); train()"));
    // Each workaround keeps its code block (the seed repeats the summary as text).
    for w in &e.workarounds {
        assert!(
            !w.snippets.is_empty(),
            "workaround {} lost its code",
            w.number
        );
        let first = &e.snippets[w.snippets[0]];
        assert_eq!(first.code.trim(), w.summary.trim());
    }
}

fn check_dead_ends(e: &Entry) {
    let d: Vec<(&str, u8)> = e
        .dead_ends
        .iter()
        .map(|d| (d.summary.as_str(), d.fail_rate))
        .collect();
    assert_eq!(
        d,
        vec![
            (
                "Set num_workers=0 in DataLoader to disable multiprocessing",
                60
            ),
            (
                "Move CUDA operations to after DataLoader workers are created",
                95
            ),
            ("Use torch.cuda.set_device(0) inside worker_init_fn", 90),
        ]
    );
    assert!(e.dead_ends[0]
        .reason
        .starts_with("This eliminates parallelism entirely"));
    assert!(e.dead_ends[2]
        .reason
        .ends_with("the context is already corrupted."));
}

#[test]
fn seed_articles_front_matter_and_snippets() {
    let a = analysis();
    let art = a
        .catalog
        .article("why-does-torchutilsdatadataloader-with-cuda-and-numworkers-")
        .expect("article 1");
    assert_eq!(
        art.title,
        "Why does `torch.utils.data.DataLoader` with CUDA and `num_workers > 0` produce CUDA initialization errors?"
    );
    assert_eq!(art.date, "2025-01-30");
    assert!(art
        .body
        .starts_with("The core issue underlying CUDA initialization errors"));
    assert_eq!(art.snippets.len(), 3);
    assert!(art.snippets.iter().all(|s| s.lang == "python"));
    assert_eq!(
        art.snippets[0].label.as_deref(),
        Some("Example 1:  The Problematic Approach")
    );
    assert!(art.snippets[0].shown().contains(
        "dataloader = DataLoader(dataset, batch_size=32, num_workers=4, pin_memory=True)"
    ));

    let b = a
        .catalog
        .article("why-am-i-getting-a-cuda-initialization-error")
        .expect("article 2");
    assert_eq!(b.snippets.len(), 3);
    assert!(b.snippets[1]
        .shown()
        .contains("mp.set_start_method('spawn')"));
    let c = a
        .catalog
        .article("how-to-use-multiprocessing-with-shared-memory-and")
        .expect("article 3");
    assert_eq!(c.snippets.len(), 3);
    assert_eq!(
        c.snippets[2].label.as_deref(),
        Some("Example 3: Simplified approach for smaller datasets")
    );
    let _ = Claim::Runs;
}
