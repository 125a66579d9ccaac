//! The claims reader's evaluation (bench/claims): `errbook-claims-eval --json` on the labelled
//! set, measuring the `errbook` under test, failing below the floors on the held-out part (the
//! articles whose id hashes there; never looked at while tuning). The figures themselves are in
//! bench/claims/README.md and in the tool's output.

use serde_json::Value;

/// Floors on the held-out part. Runnable and the links meet the goals, and are floored
/// there. Claims right and invented do not yet (goals: right >= 0.95, invented <= 0.02): their
/// floors are a little under what the claims reader reaches (held out right 71.8%, invented
/// 9.5%, up from 64.1% and 9.5% when this set was made; bench/claims/README.md), to be raised
/// as the reading improves.
const CLAIMS_RIGHT: f64 = 0.70;
const INVENTED_AT_MOST: f64 = 0.10;
const RUNNABLE: f64 = 0.90;
const LINKS_PRECISION: f64 = 0.90;
const LINKS_RECALL: f64 = 0.90;

#[test]
fn claims_and_links_are_read_right_on_the_held_out_articles() {
    let out = crate::common::tool("errbook-claims-eval")
        .arg(crate::common::repo().join("bench/claims"))
        .arg("--errbook")
        .arg(assert_cmd::cargo::cargo_bin("errbook"))
        .args(["--json", "--misses", "held"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "errbook-claims-eval could not measure (does `errbook claims --format json` exist?): {err}"
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["blocks"].as_u64().unwrap() >= 150, "{}", v["blocks"]);
    let held = &v["splits"]["held"];
    assert!(held["all"]["n"].as_u64().unwrap() >= 30, "{}", held["all"]);
    assert_eq!(held["all"]["missing"], 0, "errbook left blocks out");
    let misses = serde_json::to_string_pretty(&v["misses"]).unwrap_or_default();
    let got = |k: &str| held[k].as_f64().unwrap();
    for (name, value, floor) in [
        ("claims right", got("claims_right"), CLAIMS_RIGHT),
        ("complete blocks runnable", got("runnable"), RUNNABLE),
        ("links precision", got("links_precision"), LINKS_PRECISION),
        ("links recall", got("links_recall"), LINKS_RECALL),
    ] {
        assert!(
            value >= floor,
            "held out, {name}: {value:.3} below the floor {floor}\n{misses}"
        );
    }
    let invented = got("invented");
    assert!(
        invented <= INVENTED_AT_MOST,
        "held out, claims invented where the text makes none: {invented:.3} above \
         {INVENTED_AT_MOST}\n{misses}"
    );
}
