//! `check` on links within the site: anchors on the page and on other pages, root-absolute and
//! relative links, images. Each broken one is an `E-link` at its file:line:col with a hint; the
//! good ones pass; a site with only good ones checks clean.

use crate::common::errbook;
use std::path::Path;

use crate::common::INIT_ARTICLE as ARTICLE;

/// A new catalog (`errbook init`) whose article gets `lines` appended, and an image in static/.
fn catalog(dir: &Path, lines: &str) {
    crate::common::init(dir);
    std::fs::create_dir_all(dir.join("static/img")).unwrap();
    std::fs::write(dir.join("static/img/graph.png"), b"\x89PNG").unwrap();
    let art = dir.join(ARTICLE);
    let mut text = std::fs::read_to_string(&art).unwrap();
    text.push('\n');
    text.push_str(lines);
    std::fs::write(&art, text).unwrap();
}

fn check(dir: &Path) -> (bool, serde_json::Value, String) {
    let o = errbook()
        .arg("--root")
        .arg(dir)
        .args(["check", "--format", "json"])
        .output()
        .unwrap();
    let json = serde_json::from_slice(&o.stdout).unwrap_or(serde_json::Value::Null);
    let human = errbook()
        .arg("--root")
        .arg(dir)
        .arg("check")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&human.stderr).into_owned();
    (o.status.success(), json, text)
}

const GOOD: &str = "\
Good: [top](#1-explanation), [entry's root cause](@/errors/python/recursion-depth-exceeded.md#root-cause),
[its first workaround](/errors/python/recursion-depth-exceeded/#workaround-1),
[relative](../../errors/python/recursion-depth-exceeded/), [home](/), [search](/search/),
[feed](/feed.xml), ![graph](/img/graph.png), ![graph again](../../img/graph.png),
[out](https://example.org/#x), [mail](mailto:a@example.org), <someone@example.org>,
<https://example.org/auto>, [query](/search/?q=cuda), [a folder without its slash](/errors).
";

#[test]
fn good_links_within_the_site_pass() {
    let tmp = tempfile::tempdir().unwrap();
    catalog(tmp.path(), GOOD);
    let (ok, json, text) = check(tmp.path());
    assert!(ok, "{text}\n{json}");
    assert_eq!(json["errors"], 0, "{json}");
}

#[test]
fn every_class_of_broken_link_is_located() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = "\
[same page](#no-such-section)
[other page](@/errors/python/recursion-depth-exceeded.md#no-such-part)
[root-absolute](/errors/nope/missing/)
[root anchor](/errors/python/recursion-depth-exceeded/#nowhere)
[relative](../nope/)
![missing image](img/missing.png)
[climbs out](../../../../x/)
";
    catalog(tmp.path(), &format!("{GOOD}\n{bad}"));
    let (ok, json, text) = check(tmp.path());
    assert!(!ok, "broken links fail check: {text}");
    let diags = json["diagnostics"].as_array().unwrap();
    let links: Vec<&serde_json::Value> = diags.iter().filter(|d| d["code"] == "E-link").collect();
    assert_eq!(links.len(), 7, "{json}");
    let src = std::fs::read_to_string(tmp.path().join(ARTICLE)).unwrap();
    let first = src
        .lines()
        .position(|l| l == "[same page](#no-such-section)")
        .unwrap()
        + 1;
    let expect = [
        ("#no-such-section", "no anchor of this page"),
        (
            "#no-such-part",
            "no anchor of `/errors/python/recursion-depth-exceeded/`",
        ),
        ("/errors/nope/missing/", "leads to no page of the site"),
        ("#nowhere", "no anchor of"),
        ("../nope/", "leads to no page of the site (`/articles/nope/`)"),
        (
            "img/missing.png",
            "is not in the site (no `/articles/why-does-my-recursive-function-fail/img/missing.png`)",
        ),
        ("../../../../x/", "leads out of the site"),
    ];
    for (i, (d, (what, says))) in links.iter().zip(expect).enumerate() {
        let msg = d["message"].as_str().unwrap();
        assert!(msg.contains(what) && msg.contains(says), "{i}: {msg}");
        assert_eq!(d["path"].as_str().unwrap(), ARTICLE, "{d}");
        assert_eq!(d["line"].as_u64().unwrap() as usize, first + i, "{d}");
        let col = src.lines().nth(first + i - 1).unwrap().find('(').unwrap() + 2;
        assert_eq!(d["column"].as_u64().unwrap() as usize, col, "{d}");
        assert!(d["hint"].is_string(), "every one has a hint: {d}");
    }
    // The human output shows where, and a hint that helps.
    assert!(text.contains("no such anchor"), "{text}");
    assert!(
        text.contains("static/articles/why-does-my-recursive-function-fail/img/missing.png"),
        "{text}"
    );
}
