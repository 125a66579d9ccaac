//! Any bytes as a pasted search query (a message, a log, a traceback) against the index of the
//! search fixture: the query reader (normalise) and the ranking (rank).
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

fn index() -> &'static errbook::search::Index {
    static INDEX: OnceLock<errbook::search::Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/search");
        let cfg = errbook::Config::load(&root).expect("the search fixture's book.toml");
        let a = errbook::site::analyse(&root, &cfg, true).expect("the search fixture");
        errbook::search::build(&a.catalog, &a.graph)
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let answer = errbook::search::search(index(), &text, 10);
    assert!(answer.hits.len() <= 10);
});
