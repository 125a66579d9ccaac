//! The kept index against the whole one, on this repository's catalog (and copies of its
//! entry with texts of other lengths): the files of a kept
//! index made from nothing are the site's search files, and after each edit (an entry's text,
//! its message, an entry gone) the files as they stand after applying its writes and removals
//! are what the whole index cut into shards gives.

use super::{Changed, LiveIndex};
use crate::core::config::Config;
use crate::core::diag::Diagnostics;
use crate::core::model::Catalog;
use crate::link::Graph;
use crate::search::layout::Layout;
use crate::search::{format, shards};
use std::collections::BTreeMap;

fn catalog() -> (Catalog, Graph) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut diags = Diagnostics::default();
    let files = crate::load::load_all(root, &mut diags).expect("the repository's content");
    let cfg = Config::default();
    let mut cat = crate::parse::parse_all(&files, cfg.verify.timeout_s, &mut diags);
    let graph = crate::link::link_with(&cat, &files, &cfg, true, None, false, &mut diags);
    // Copies of the first entry with texts of other lengths, so that averages matter and
    // documents share terms.
    let first = cat.entries[0].clone();
    for k in 0..40 {
        let mut e = first.clone();
        e.id = format!("{}-{k:02}", first.id);
        e.root_cause = format!("{} {}", first.root_cause, "worker fork ".repeat(k % 7));
        cat.entries.push(e);
    }
    cat.sort();
    (cat, graph)
}

/// The search settings of these tests: a weak score of 0.3.
fn search() -> crate::core::config::SearchConfig {
    crate::core::config::SearchConfig {
        weak_score: 0.3,
        ..Default::default()
    }
}

fn whole(cat: &Catalog, graph: &Graph, offline: bool, lay: &Layout) -> BTreeMap<String, Vec<u8>> {
    shards::shards(&format::build(cat, graph), search(), lay)
        .into_iter()
        .map(|(name, body)| shards::out_file(&name, body, offline))
        .map(|f| (f.path, f.bytes))
        .collect()
}

/// The site's layout, and one cut small so that many terms are long, in tiers of two.
fn layouts() -> [Layout; 2] {
    let small = Layout {
        run_min: 256,
        run_max: 1024,
        docs: 3,
        arts: 2,
        long: 3,
        tier: 2,
    };
    [Layout::default(), small]
}

fn changed(id: &str) -> Changed {
    let mut c = Changed::default();
    c.entries.insert(id.to_string());
    c
}

#[test]
fn kept_index_writes_what_the_whole_index_gives() {
    for (offline, lay) in [false, true]
        .into_iter()
        .flat_map(|o| layouts().map(|l| (o, l)))
    {
        let (mut cat, graph) = catalog();
        assert!(!cat.entries.is_empty());
        // Three entries share a rare term: one more makes it long in the small layout, and a
        // long term's frequency leaves the documents' shards (which then change).
        for e in cat.entries.iter_mut().rev().take(3) {
            e.message = format!("CrossError: crossterm in {}", e.id);
        }
        let (mut live, files) =
            LiveIndex::all_files_cut(&cat, &graph, search(), offline, lay.clone());
        assert!(files.remove.is_empty());
        let mut site: BTreeMap<String, Vec<u8>> =
            files.write.into_iter().map(|f| (f.path, f.bytes)).collect();
        assert_eq!(site, whole(&cat, &graph, offline, &lay));
        let tiered = site.keys().any(|p| p.starts_with("search/p/"));
        assert_eq!(tiered, lay.long < 10, "long terms shipped in tiers");

        let id = cat.entries[0].id.clone();
        let edits: [&dyn Fn(&mut Catalog); 4] = [
            &|c| {
                c.entries[0]
                    .root_cause
                    .push_str(" Quuxterm appears here, twice quuxterm.")
            },
            &|c| c.entries[0].message = "CrossError: crossterm here too".to_string(),
            &|c| c.entries[0].message = "ZebraError: striped failure".to_string(),
            &|c| {
                c.entries.remove(0);
            },
        ];
        for edit in edits {
            edit(&mut cat);
            let up = live.update(&cat, &graph, &changed(&id), search(), offline, true);
            for p in up.remove {
                assert!(site.remove(&p).is_some(), "{p} removed but not there");
            }
            site.extend(up.write.into_iter().map(|f| (f.path, f.bytes)));
            assert_eq!(site, whole(&cat, &graph, offline, &lay));
        }
    }
}
