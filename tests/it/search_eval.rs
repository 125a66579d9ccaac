//! The search's evaluation on real pastes (bench/search-eval): `errbook-search-eval --json` on
//! every paste, as a user would run it, failing below the floors set from its own figures (see
//! bench/search-eval/README.md). A floor is a little under what the search reaches, so that a
//! change that loses a few pastes is seen, and the figures themselves stay in the tool's output.

use serde_json::Value;

/// Floors over all pastes, and over the held-out part alone (looked at only as totals while
/// tuning). The figures they sit under (bench/search-eval/README.md): all pastes top-1 99.1%,
/// top-3 99.4%, right and confident 97.8%; held out top-1 96.9%, right and confident 95.9%;
/// the weakest kind (log lines) right and confident 95.1%; no confident wrong answer.
const TOP1: f64 = 0.98;
const TOP3: f64 = 0.98;
const RIGHT_CONFIDENT: f64 = 0.96;
const HELD_TOP1: f64 = 0.95;
const HELD_RIGHT_CONFIDENT: f64 = 0.94;
/// Each kind of paste (message, traceback, log line, prose) answered right and confidently.
const KIND_RIGHT_CONFIDENT: f64 = 0.93;

fn ratio(t: &Value, key: &str, of: &str) -> f64 {
    t[key].as_f64().unwrap_or(0.0) / t[of].as_f64().unwrap_or(1.0).max(1.0)
}

#[test]
fn search_answers_real_pastes_right_and_confidently() {
    let out = crate::common::tool("errbook-search-eval")
        .arg(crate::search_cases::eval_dir())
        .arg("--json")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert!(v["pastes"].as_u64().unwrap() >= 300);
    let all = &v["splits"]["all"]["all"];
    let held = &v["splits"]["held"]["all"];
    println!("all: {all}\nheld out: {held}");
    assert!(all["n"].as_u64().unwrap() >= 270 && all["negatives"].as_u64().unwrap() >= 20);
    for (name, got, floor) in [
        ("top-1", ratio(all, "top1", "n"), TOP1),
        ("top-3", ratio(all, "top3", "n"), TOP3),
        (
            "right and confident",
            ratio(all, "right_confident", "n"),
            RIGHT_CONFIDENT,
        ),
        ("held-out top-1", ratio(held, "top1", "n"), HELD_TOP1),
        (
            "held-out right and confident",
            ratio(held, "right_confident", "n"),
            HELD_RIGHT_CONFIDENT,
        ),
    ] {
        assert!(got >= floor, "{name}: {got:.3} below the floor {floor}");
    }
    assert_eq!(
        all["negatives_weak"], all["negatives"],
        "every error the catalog lacks must be answered weak"
    );
    assert_eq!(
        all["wrong_confident"].as_u64(),
        Some(0),
        "a wrong entry was answered confidently"
    );
    for kind in v["splits"]["all"]["by_kind"].as_array().unwrap() {
        let (name, t) = (&kind[0], &kind[1]);
        if t["n"].as_u64().unwrap_or(0) > 0 {
            let got = ratio(t, "right_confident", "n");
            assert!(
                got >= KIND_RIGHT_CONFIDENT,
                "{name}: right and confident {got:.3} below {KIND_RIGHT_CONFIDENT}"
            );
        }
    }
}
