//! Articles that name an error code many entries share: every entry of the code gets the same
//! candidate, made once for them all, and still reaches each place it reached when it was made
//! per entry. Drives `errbook build` (api/links.json) and `errbook check --links`.

use serde_json::Value;
use std::path::Path;

/// Entries sharing `CUDA_ERROR_SHARED_POOL`: their messages have nothing in common with the
/// article, which names only the code and their (dotted) exception type.
const SHARED: usize = 30;

fn entry(id: &str, message: &str, code: &str) -> String {
    format!(
        "# {message}\n\n\
         - **ID:** `{id}`\n- **Domain:** cuda\n- **Category:** memory\n\
         - **Error Code:** `{code}`\n- **Verification:** human_verified\n- **Fix Rate:** 90%\n\n\
         ## Root Cause\n\nA cause.\n\n\
         ## Workarounds\n\n1. **Do the other thing.** (90% success)\n"
    )
}

/// Spelled-out numbers, so that no two shared entries' messages share a trigram with the
/// article or with each other's distinct words.
fn word(i: usize) -> String {
    const W: &[&str] = &[
        "amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "heron", "indigo", "juniper",
    ];
    format!("{}{}", W[i % 10], W[i / 10 % 10])
}

fn catalog(root: &Path) {
    let repo = crate::common::repo();
    crate::common::copy_tree(&repo.join("themes"), &root.join("themes"));
    std::fs::copy(repo.join("book.toml"), root.join("book.toml")).unwrap();
    let dir = root.join("content/errors/cuda");
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..SHARED {
        let w = word(i);
        let msg = format!("torch.cuda.OutOfMemoryError: pool {w} ran dry while {w} waited");
        let id = format!("cuda/shared-{i:02}");
        let text = entry(&id, &msg, "CUDA_ERROR_SHARED_POOL");
        std::fs::write(dir.join(format!("shared-{i:02}.md")), text).unwrap();
    }
    let lonely = entry(
        "cuda/lonely",
        "RuntimeError: a lonely code stood on its own",
        "CUDA_ERROR_LONELY_CODE",
    );
    std::fs::write(dir.join("lonely.md"), lonely).unwrap();
    std::fs::create_dir_all(root.join("content/articles")).unwrap();
    std::fs::write(
        root.join("content/articles/pools.md"),
        "---\ntitle: \"Pools that run dry\"\ndate: \"2025-03-01\"\nid: \"pools\"\n\
         errors:\n  - \"cuda/shared-07\"\nlinks:\n  reject: [\"cuda/shared-03\"]\n---\n\
         The driver answers `CUDA_ERROR_SHARED_POOL` and PyTorch raises \
         `torch.cuda.OutOfMemoryError` when the pool is gone.\n\n\
         ## CUDA_ERROR_LONELY_CODE\n\nThat one stands apart.\n",
    )
    .unwrap();
}

fn discusses(links: &[Value], to: &str) -> Option<Value> {
    links
        .iter()
        .find(|l| l["kind"] == "discusses" && l["from"]["id"] == "pools" && l["to"]["id"] == to)
        .cloned()
}

#[test]
fn a_shared_code_reaches_drawn_links_and_review_but_links_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    catalog(root);

    let (_out_tmp, out) = crate::common::build(root, &[]);
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("api/links.json")).unwrap())
            .unwrap();
    let links = json["links"].as_array().unwrap();
    // The written link takes the evidence the shared code gives its entry.
    let written = discusses(links, "cuda/shared-07").expect("the written link");
    assert_eq!(written["origin"], "explicit", "{written}");
    let ev = written["evidence"].to_string();
    assert!(ev.contains("CUDA_ERROR_SHARED_POOL"), "{written}");
    // A code of one entry, in a heading, links it.
    let lonely = discusses(links, "cuda/lonely").expect("the lonely code's entry");
    assert_eq!(lonely["origin"], "inferred", "{lonely}");
    // No other entry of the shared code is linked.
    let shared: Vec<_> = (links.iter())
        .filter(|l| l["kind"] == "discusses" && l["from"]["id"] == "pools")
        .filter_map(|l| l["to"]["id"].as_str())
        .filter(|id| id.starts_with("cuda/shared-"))
        .collect();
    assert_eq!(shared, ["cuda/shared-07"]);

    // Reviewed, every other entry of the shared code is a candidate left out: below the
    // threshold (code and exception type), or rejected by the author.
    let o = crate::common::errbook()
        .arg("--root")
        .arg(root)
        .args(["check", "--links", "content/articles/pools.md"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    let head = format!("2 link(s), {} candidate(s) left out", SHARED - 1);
    assert!(text.contains(&head), "{text}");
    assert_eq!(
        text.matches("below threshold").count(),
        SHARED - 2,
        "{text}"
    );
    assert!(
        text.contains(
            "article pools discusses cuda/shared-03\n    score 0.22, rejected by the author"
        ),
        "{text}"
    );
    for i in (0..SHARED).filter(|&i| i != 3 && i != 7) {
        let line =
            format!("article pools discusses cuda/shared-{i:02}\n    score 0.22, below threshold");
        assert!(text.contains(&line), "{line}\n{text}");
    }
}
