//! Top-1 accuracy of search on pasted real-world messages and tracebacks
//! (tests/fixtures/search/cases.txt) against a catalog of near-miss entries.

use errbook_core::Config;

use std::path::Path;

use crate::search_cases::cases;

/// Fail below this share of cases with the right entry first.
const BAR: f64 = 0.9;

#[test]
fn top1_accuracy_on_pasted_real_world_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/search");
    let cfg = Config::load(&root).unwrap();
    let analysis = errbook_site::analyse(&root, &cfg, true).unwrap();
    let idx = errbook_search::build(&analysis.catalog, &analysis.graph);
    let cases = cases(&root);
    assert!(cases.len() >= 30, "the case file has {} cases", cases.len());
    let mut right = 0;
    let mut confident = 0;
    for (want, text) in &cases {
        assert!(analysis.catalog.entry(want).is_some(), "no entry {want}");
        let a = errbook_search::search(&idx, text, 3, cfg.search.weak_score);
        let got: Vec<(&str, f64)> = a
            .hits
            .iter()
            .map(|h| (idx.docs[h.doc].0.as_str(), h.score))
            .collect();
        let ok = got.first().is_some_and(|g| g.0 == want);
        if ok {
            right += 1;
            if got[0].1 >= cfg.search.weak_score {
                confident += 1;
            }
        }
        println!(
            "{} {want:<40} <- {:?}\n     detected: {}",
            if ok { "ok  " } else { "MISS" },
            got,
            a.detected.template
        );
    }
    let acc = right as f64 / cases.len() as f64;
    println!(
        "top-1 accuracy: {right}/{} = {:.1}% ({confident} of them above the weak threshold {})",
        cases.len(),
        acc * 100.0,
        cfg.search.weak_score
    );
    assert!(acc >= BAR, "top-1 accuracy {acc:.3} below {BAR}");
}
