//! Any bytes as a pasted search query (a message, a log, a traceback) against the index of the
//! search fixture: the query reader (normalise) and the ranking (rank).
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

/// The fixture's index and its configured weak score.
fn index() -> &'static (errbook_search::Index, f64) {
    static INDEX: OnceLock<(errbook_search::Index, f64)> = OnceLock::new();
    INDEX.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/search");
        let cfg = errbook_core::Config::load(&root).expect("the search fixture's book.toml");
        let a = errbook_site::analyse(&root, &cfg, true).expect("the search fixture");
        (errbook_search::build(&a.catalog, &a.graph), cfg.search.weak_score)
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (idx, weak) = index();
    let answer = errbook_search::search(idx, &text, 10, *weak);
    assert!(answer.hits.len() <= 10);
});
