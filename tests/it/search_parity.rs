//! The browser's search (themes/default/static/search-rank.js, run in node) and the terminal's
//! (src/search) must agree: the same readings of a paste, query terms, ranking and scores, on
//! the real-world cases of the fixture catalog with typed queries (prefixes, typos, odd input),
//! and on every paste of the evaluation set against its catalog. The browser's search over the
//! site's shards (crates/errbook-search/src/shards.rs, fetched as each query needs them) must answer exactly
//! as over the whole index. Needs node: skipped, saying so, where it is missing; required where
//! ERRBOOK_TEST_NODE is set (.ci/run sets it after installing node).

use errbook_core::Config;

use std::path::{Path, PathBuf};
use std::process::Command;

const NODE_SCRIPT: &str = r#"
const fs = require("fs");
const path = require("path");
const s = require(process.argv[2]);
const idx = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const queries = JSON.parse(fs.readFileSync(process.argv[4], "utf8"));
const weak = Number(process.argv[5]);
const shardDir = process.argv[6];
const read = (name) => Promise.resolve(JSON.parse(fs.readFileSync(path.join(shardDir, name + ".json"), "utf8")));
(async () => {
  const out = [];
  for (const q of queries) {
    const a = s.search(idx, q, 5, weak);
    // The site's way: a fresh sharded view per query, so each loads only what it needs.
    const ix = s.sharded(await read("m"), read);
    const b = await s.query(ix, q, 5, weak);
    out.push({ exception: a.detected.exception, template: a.detected.template, terms: a.terms,
               readings: s.readings(q).map(r => r.template),
               hits: a.hits.map(h => [h.doc, h.score]),
               sharded: b.hits.map(h => [h.doc, h.score]), shardedTemplate: b.detected.template });
  }
  process.stdout.write(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
"#;

fn node() -> bool {
    let here = Command::new("node").arg("--version").output().is_ok();
    crate::common::gate("ERRBOOK_TEST_NODE", "node", here)
}

/// Small shards, so that a query's terms, prefixes and candidates span many of them, and
/// every term in more than `long` entries in impact tiers of 2, 4, 8... postings.
fn small(long: usize) -> errbook_search::Layout {
    errbook_search::Layout {
        run_min: 256,
        run_max: 1024,
        docs: 3,
        arts: 2,
        long,
        tier: 2,
    }
}

/// Run `queries` through both searches of the catalog at `root`; fail on any difference.
fn agree(root: &Path, queries: &[String]) {
    agree_cut(root, queries, &small(3));
}

/// `agree`, the shards cut as `layout` says.
fn agree_cut(root: &Path, queries: &[String], layout: &errbook_search::Layout) {
    let cfg = Config::load(root).unwrap();
    let analysis = errbook_site::analyse(root, &cfg, true).unwrap();
    let idx = errbook_search::build(&analysis.catalog, &analysis.graph);
    let dir = tempfile::tempdir().unwrap();
    let idx_path = dir.path().join("index.json");
    let q_path = dir.path().join("queries.json");
    let js_path = dir.path().join("run.js");
    std::fs::write(&idx_path, serde_json::to_vec(&idx).unwrap()).unwrap();
    std::fs::write(&q_path, serde_json::to_vec(&queries).unwrap()).unwrap();
    std::fs::write(&js_path, NODE_SCRIPT).unwrap();
    let shard_dir = dir.path().join("shards");
    write_shards(&idx, cfg.search, layout, &shard_dir);
    let weak = cfg.search.weak_score.to_string();
    let out = run_node(
        &js_path,
        &[
            idx_path.as_os_str(),
            q_path.as_os_str(),
            weak.as_ref(),
            shard_dir.as_os_str(),
        ],
    );
    let js: Vec<serde_json::Value> = serde_json::from_slice(&out).unwrap();
    assert_eq!(js.len(), queries.len());
    for (q, j) in queries.iter().zip(&js) {
        compare(&idx, q, j, cfg.search.weak_score);
    }
    println!("{} queries agree", queries.len());
}

/// Run the node script at `script` with the theme's search-rank.js, as a site ships it (the
/// numbers it shares with the Rust ranking put in), and `args`; its stdout.
fn run_node(script: &Path, args: &[&std::ffi::OsStr]) -> Vec<u8> {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let theme = std::fs::read_to_string(crate_dir.join("themes/default/static/search-rank.js"));
    let rank = errbook_search::fill_rank_script(&theme.unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let rank_path = dir.path().join("search-rank.js");
    std::fs::write(&rank_path, rank).unwrap();
    let index_js = crate_dir.join("themes/default/static/search-index.js");
    std::fs::copy(index_js, dir.path().join("search-index.js")).unwrap();
    let out = Command::new("node")
        .arg(script)
        .arg(&rank_path)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The index's shards, cut as `layout` says, as `NAME.json` files under `dir`.
fn write_shards(
    idx: &errbook_search::Index,
    search: errbook_core::SearchConfig,
    layout: &errbook_search::Layout,
    dir: &Path,
) {
    for (name, body) in errbook_search::shards(idx, search, layout) {
        let p = dir.join(format!("{name}.json"));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    }
}

fn compare(idx: &errbook_search::Index, q: &str, j: &serde_json::Value, weak: f64) {
    let a = errbook_search::search(idx, q, 5, weak);
    let readings: Vec<String> = serde_json::from_value(j["readings"].clone()).unwrap();
    let want: Vec<String> = errbook_search::readings(q)
        .into_iter()
        .map(|d| d.template)
        .collect();
    assert_eq!(readings, want, "readings of {q:?}");
    assert_eq!(
        j["template"],
        a.detected.template.as_str(),
        "template of {q:?}"
    );
    assert_eq!(
        j["exception"].as_str(),
        a.detected.exception.as_deref(),
        "exception of {q:?}"
    );
    let terms: Vec<String> = serde_json::from_value(j["terms"].clone()).unwrap();
    assert_eq!(terms, a.terms, "terms of {q:?}");
    // The shards, fetched as a query needs them, answer as the whole index does, to the bit.
    assert_eq!(j["sharded"], j["hits"], "sharded hits of {q:?}");
    assert_eq!(
        j["shardedTemplate"], j["template"],
        "sharded reading of {q:?}"
    );
    let hits: Vec<(usize, f64)> = serde_json::from_value(j["hits"].clone()).unwrap();
    assert_eq!(hits.len(), a.hits.len(), "hits of {q:?}");
    for (h, r) in hits.iter().zip(&a.hits) {
        assert_eq!(h.0, r.doc, "ranking of {q:?}: js {hits:?}");
        assert!(
            (h.1 - r.score).abs() < 1e-9,
            "score of {q:?}: js {} rust {}",
            h.1,
            r.score
        );
    }
}

#[test]
fn javascript_and_rust_search_agree() {
    if !node() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/search");
    let mut queries: Vec<String> = crate::search_cases::cases(&root)
        .into_iter()
        .map(|c| c.1)
        .collect();
    for q in [
        "fork cuda dataloader",
        "frok cuda datalodr",
        "datal",
        "cuda out of mem",
        "cuda",
        "nccl unhandld",
        "[Rank 3] Watchdog caught collective operation timeout",
        "2024-03-05 07:01:51,123 - ERROR - RuntimeError: CUDA error: device-side assert triggered",
        "ERROR:root:ValueError: Expected input batch_size (32) to match target batch_size (64).",
        "KeyError: 'a very long column name that surely differs from run to run'",
        "Segmentation fault at 0x7f3a2c001000 in libcudart.so.11.0 deadbeef12 c10d bf16",
        "“smart quotes” ‘x’ `tick` https://example.org/a?b=1 C:\\Users\\me\\x.py ~/a/b/c",
        "I don't know: \"RuntimeError: x y\" and 「ValueError: z」 报错：TypeError: w",
        "[rank1]: a\n[rank0]: ValueError: b\n[rank1]: KeyError: c\n",
        "",
        "   \n\n",
        "zzzz qqqq",
    ] {
        queries.push(q.to_string());
    }
    queries.extend(hostile());
    agree(&root, &queries);
}

/// Pastes past the reader's bounds (crates/errbook-search/src/clean.rs `bound`): longer than 20,000
/// characters (counted as code points in both languages, astral ones included), words longer
/// than 256, and the patterns that cost a backtracking engine most.
fn hostile() -> Vec<String> {
    vec![
        "𝒳 RuntimeError: CUDA error: out of memory ".repeat(600),
        format!(
            "ERROR: Unexpected bus error encountered in worker.\n{}RuntimeError: DataLoader worker (pid 7) is killed by signal: Bus error.",
            "  File \"/x/y.py\", line 3, in f\n".repeat(1200)
        ),
        format!("{}Error: x\n{} y", "é".repeat(300), "a".repeat(40_000)),
        "a_".repeat(15_000),
        "RuntimeError: x\n".repeat(2_000),
        "[rank0]: ".repeat(3_000),
        "'a' \"b\" `c` ".repeat(2_000),
        "0x".repeat(12_000),
    ]
}

#[test]
fn javascript_and_rust_agree_on_every_evaluation_paste() {
    if !node() {
        return;
    }
    let queries: Vec<String> = crate::search_cases::eval_pastes()
        .into_iter()
        .map(|c| c.1)
        .collect();
    assert!(queries.len() >= 300);
    agree(&crate::search_cases::eval_dir(), &queries);
}

/// A catalog errbook-synth generates in a temporary folder (kept while the folder lives): the
/// folder, the catalog's root, its config and its search index.
fn generated(
    entries: &str,
    articles: &str,
    seed: &str,
) -> (tempfile::TempDir, PathBuf, Config, errbook_search::Index) {
    let tmp = tempfile::tempdir().unwrap();
    let root = crate::common::synth_catalog(
        tmp.path(),
        &["--entries", entries, "--articles", articles, "--seed", seed],
    );
    let cfg = Config::load(&root).unwrap();
    let analysis = errbook_site::analyse(&root, &cfg, true).unwrap();
    let idx = errbook_search::build(&analysis.catalog, &analysis.graph);
    (tmp, root, cfg, idx)
}

/// A 300-entry generated catalog's index, its shards (terms in more than 24 entries in tiers)
/// under the folder's `shards`, and `script` written beside them to run with `run_node`.
fn generated_shards(script: &str) -> (tempfile::TempDir, errbook_search::Index, PathBuf, PathBuf) {
    let (tmp, _, cfg, idx) = generated("300", "10", "5");
    let dir = tmp.path().join("shards");
    write_shards(&idx, cfg.search, &small(24), &dir);
    let js = tmp.path().join("script.js");
    std::fs::write(&js, script).unwrap();
    (tmp, idx, dir, js)
}

const LONG_SCRIPT: &str = r#"
const fs = require("fs");
const path = require("path");
const s = require(process.argv[2]);
const dir = process.argv[3];
const read = (name) => Promise.resolve(JSON.parse(fs.readFileSync(path.join(dir, name + ".json"), "utf8")));
(async () => {
  const m = await read("m");
  const fail = (msg) => { console.error(msg); process.exit(1); };
  if (!m.long || !m.long.length) fail("the manifest names no long term");
  for (const [term, i, slot] of m.long) {
    // From the manifest alone: nothing missing, no run fetched.
    const ix = s.sharded(m, read);
    const n = ix.lower(term), t = ix.termAt(n), p = ix.tiered(n), df = ix.df(term);
    const missed = ix.missing();
    if (missed.length) fail(`${term}: the view asked for ${missed.join(", ")}`);
    // From its run, as a manifest without long terms has it: the same.
    const runs = s.sharded({ ...m, long: [] }, read);
    let r;
    for (let k = 0; k < 4; k++) {
      r = [runs.lower(term), runs.termAt(runs.lower(term)), runs.tiered(runs.lower(term)), runs.df(term)];
      const names = runs.missing();
      if (!names.length) break;
      await Promise.all(names.map(runs.load));
    }
    const got = JSON.stringify([n, t, p, df]), want = JSON.stringify(r);
    if (n !== i || got !== want || JSON.stringify(p) !== JSON.stringify(slot)) fail(`${term}: ${got}, its run says ${want}, the manifest ${i} ${JSON.stringify(slot)}`);
  }
  process.stdout.write(String(m.long.length));
})().catch((e) => { console.error(e); process.exit(1); });
"#;

/// The manifest names every long term with its number and slot, as its run has them, and the
/// browser's view finds them there without fetching a run: the commonest words of a paste
/// cost no file of terms.
#[test]
fn long_terms_come_from_the_manifest_as_their_runs_have_them() {
    if !node() {
        return;
    }
    let (_tmp, idx, dir, js) = generated_shards(LONG_SCRIPT);
    let out = run_node(&js, &[dir.as_os_str()]);
    let long: usize = String::from_utf8_lossy(&out).parse().unwrap();
    let want = (idx.post.iter()).filter(|p| p.len() / 2 > 24).count();
    assert_eq!(long, want, "every long term, and only those");
}

const FIRST_ROUND_SCRIPT: &str = r#"
const fs = require("fs");
const path = require("path");
const s = require(process.argv[2]);
const dir = process.argv[3];
const queries = JSON.parse(fs.readFileSync(process.argv[4], "utf8"));
const read = (name) => Promise.resolve(JSON.parse(fs.readFileSync(path.join(dir, name + ".json"), "utf8")));
(async () => {
  const m = await read("m");
  const long = new Map(m.long.map((l) => [l[0], l[2]]));
  let both = 0;
  for (const q of queries) {
    const ix = s.sharded(m, read);
    const a = s.search(ix, q, 5);
    const names = ix.missing();
    const runs = names.filter((n) => n.startsWith("t/"));
    const want = a.terms.filter((t) => long.has(t)).map((t) => s.tierFile(long.get(t), 0));
    const lacking = want.filter((n) => !names.includes(n));
    if (lacking.length) { console.error(`${q}: the first round asked for ${names.join(", ")}, not ${lacking.join(", ")}`); process.exit(1); }
    if (runs.length && want.length) both++;
  }
  process.stdout.write(String(both));
})().catch((e) => { console.error(e); process.exit(1); });
"#;

/// A paste's first round asks for the first file of every long term's tiers along with the
/// runs of its other words: the first pass reads those tiers whatever the runs hold, and a
/// round waits for the one before (at 100,000 entries 2.3 rounds a paste, not 3.0).
#[test]
fn a_first_round_asks_for_long_terms_tiers_with_the_runs() {
    if !node() {
        return;
    }
    let (tmp, idx, dir, js) = generated_shards(FIRST_ROUND_SCRIPT);
    let queries: Vec<&str> = idx.docs.iter().step_by(7).map(|d| d.1.as_str()).collect();
    let q_path = tmp.path().join("queries.json");
    std::fs::write(&q_path, serde_json::to_vec(&queries).unwrap()).unwrap();
    let out = run_node(&js, &[dir.as_os_str(), q_path.as_os_str()]);
    let both: usize = String::from_utf8_lossy(&out).parse().unwrap();
    // Not true for want of such pastes: most need a run and a long term's tiers at once.
    assert!(
        both * 2 > queries.len(),
        "{both} of {} pastes",
        queries.len()
    );
}

/// On a catalog large enough that a query's best two dozen are decided before the common terms'
/// tiers are all read (a generated one, with many entries sharing a message), the shards still
/// answer as the whole index: pasted messages and typed words, common terms in tiers.
#[test]
fn tiers_answer_as_whole_lists_on_a_larger_catalog() {
    if !node() {
        return;
    }
    let (_tmp, root, _, idx) = generated("600", "20", "3");
    let mut queries = Vec::new();
    for d in idx.docs.iter().step_by(23) {
        queries.push(d.1.clone());
        let words: Vec<&str> = d.1.split_whitespace().take(3).collect();
        let typed = words.join(" ").to_lowercase();
        let keep = typed.chars().count().saturating_sub(2);
        queries.push(typed.chars().take(keep).collect());
    }
    agree_cut(&root, &queries, &small(24));
}

const BOUNDED_SCRIPT: &str = r#"
const fs = require("fs");
const path = require("path");
const s = require(process.argv[2]);
const dir = process.argv[3];
const queries = JSON.parse(fs.readFileSync(process.argv[4], "utf8"));
const json = (name) => JSON.parse(fs.readFileSync(path.join(dir, name + ".json"), "utf8"));
(async () => {
  const m = json("m");
  if (m.exact !== false) { console.error("the manifest does not say exact: false"); process.exit(1); }
  // The tier files a query read past each long term's first (p/NAME-0).
  const deeper = async (manifest, q) => {
    const names = [];
    const ix = s.sharded(manifest, (name) => { names.push(name); return Promise.resolve(json(name)); });
    const a = await s.query(ix, q, 5);
    if (!a.hits.length) { console.error(`${q}: no hits`); process.exit(1); }
    return names.filter((n) => /^p\/.*-[1-9][0-9]*$/.test(n)).length;
  };
  let bounded = 0, exact = 0;
  for (const q of queries) {
    bounded += await deeper(m, q);
    const { exact: _, ...whole } = m;
    if (await deeper(whole, q)) exact++;
  }
  process.stdout.write(`${bounded} ${exact}`);
})().catch((e) => { console.error(e); process.exit(1); });
"#;

/// A site built with `search.exact = false` says so in its manifest, and a query there reads
/// each long term's first file of tiers and no deeper one, and still answers; the same shards
/// read as a site built exact (the default, which the manifest leaves unsaid) go deeper.
#[test]
fn a_site_built_inexact_reads_long_terms_first_tier_file_only() {
    let (tmp, _, cfg, idx) = generated("300", "10", "5");
    let dir = tmp.path().join("shards");
    let inexact = errbook_core::SearchConfig {
        exact: false,
        ..cfg.search
    };
    write_shards(&idx, inexact, &small(24), &dir);
    let exact_dir = tmp.path().join("exact");
    write_shards(&idx, cfg.search, &small(24), &exact_dir);
    let manifest = std::fs::read_to_string(exact_dir.join("m.json")).unwrap();
    assert!(
        !manifest.contains("\"exact\":"),
        "exact is the default, unsaid"
    );
    if !node() {
        return;
    }
    let js = tmp.path().join("script.js");
    std::fs::write(&js, BOUNDED_SCRIPT).unwrap();
    let queries: Vec<&str> = idx.docs.iter().step_by(7).map(|d| d.1.as_str()).collect();
    let q_path = tmp.path().join("queries.json");
    std::fs::write(&q_path, serde_json::to_vec(&queries).unwrap()).unwrap();
    let out = run_node(&js, &[dir.as_os_str(), q_path.as_os_str()]);
    let out = String::from_utf8_lossy(&out);
    let (bounded, exact) = out.split_once(' ').unwrap();
    assert_eq!(bounded, "0", "tier files read past the first, bounded");
    let exact: usize = exact.parse().unwrap();
    assert!(
        exact > 0,
        "no paste read a deeper tier when exact: the test shows nothing"
    );
}
