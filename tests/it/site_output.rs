//! The site built from the seed catalog: every page of DESIGN.md's URL list exists, every
//! internal link resolves, and the pages show what readers need.

use crate::common::*;

const ENTRY: &str = "errors/pytorch/dataset-worker-fork-cuda/index.html";

#[test]
fn every_page_of_the_contract_exists() {
    let (_t, out) = build(&repo(), &[]);
    let files = files(&out);
    for f in [
        "index.html",
        ENTRY,
        "articles/why-am-i-getting-a-cuda-initialization-error/index.html",
        "articles/how-to-use-multiprocessing-with-shared-memory-and/index.html",
        "articles/why-does-torchutilsdatadataloader-with-cuda-and-numworkers-/index.html",
        "domains/pytorch/index.html",
        "categories/config_error/index.html",
        "codes/cuda_error_not_initialized/index.html",
        "domains/index.html",
        "categories/index.html",
        "codes/index.html",
        "errors/index.html",
        "articles/index.html",
        "search/index.html",
        "api/catalog.json",
        "api/errors/pytorch.json",
        "api/links.json",
        "sitemap.xml",
        "feed.xml",
        "404.html",
        "theme/style.css",
    ] {
        assert!(files.contains(f), "missing {f}; have {files:#?}");
    }
}

#[test]
fn every_internal_link_resolves() {
    let (_t, out) = build(&repo(), &[]);
    let broken = broken_links(&out, false);
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn offline_bundle_names_files_and_leaves_nothing_out() {
    let (_t, out) = build(&repo(), &["--offline"]);
    let broken = broken_links(&out, true);
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    let home = read(&out, "index.html");
    assert!(home.contains("href=\"errors/index.html\""), "{home}");
}

#[test]
fn entry_page_shows_message_metadata_table_and_ranked_fixes() {
    let (_t, out) = build(&repo(), &[]);
    let html = read(&out, ENTRY);
    assert!(html.contains(
        "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the &#39;spawn&#39; start method."
    ));
    // Its copy button is made by site.js, as the code blocks' are.
    assert!(html.contains("<h1 class=\"message\" id=\"message\">"));
    assert!(
        read(&out, "theme/site.js").contains("\"#message\""),
        "copy button"
    );
    for needle in [
        "<code>pytorch/dataset-worker-fork-cuda</code>",
        "<code>config_error</code>",
        "<code>CUDA_ERROR_NOT_INITIALIZED</code>",
        "<dt>Fix rate (the catalog's claim)<dd>90%",
        // Every row says "active": one line, not a table.
        "PyTorch 2.0.0, CUDA 11.7, CUDA 12.1, Ubuntu 20.04 and Ubuntu 22.04: all active",
        "Why it fails:",
        "the catalog says: 60% fail",
    ] {
        assert!(html.contains(needle), "entry page lacks {needle}");
    }
    // Workarounds ranked by what their recorded runs found, then by success rate: 3 works
    // (90%), 1 (95%) and 2 (85%) failed when run.
    let pos = |s: &str| html.find(s).unwrap_or_else(|| panic!("no {s}"));
    assert!(pos("id=\"workaround-3\"") < pos("id=\"workaround-1\""));
    assert!(pos("id=\"workaround-1\"") < pos("id=\"workaround-2\""));
    // The catalog's figure is words labelled as its claim, never a bar beside a verdict.
    assert!(
        html.contains("<span class=\"claimed\">the catalog says: 95% success</span>"),
        "success rate"
    );
    assert!(!html.contains("class=\"rate"), "no rate bar");
    assert!(
        html.contains("<h3>Workaround 1</h3>"),
        "each workaround is a heading"
    );
}

#[test]
fn article_page_has_metadata_toc_and_highlighted_code() {
    let (_t, out) = build(&repo(), &[]);
    let html = read(
        &out,
        "articles/why-am-i-getting-a-cuda-initialization-error/index.html",
    );
    assert!(html.contains("<time datetime=\"2025-01-30\">2025-01-30</time>"));
    assert!(html.contains("class=\"toc\""), "table of contents");
    // One short class per kind of token (keyword, string...), coloured by theme/style.css.
    assert!(html.contains("<b class=k>import </b>"), "highlighted");
    let css = read(&out, "theme/style.css");
    assert!(css.contains("\npre.code .k{color:#"), "{css}");
    assert!(
        css.contains(":root[data-theme=dark] pre.code .k{color:#"),
        "{css}"
    );
    assert_eq!(
        html.matches("rel=\"stylesheet\"").count(),
        1,
        "one stylesheet"
    );
    assert!(
        html.contains(
            "<p class=\"label\" id=\"example-1-incorrect-initialization-error-prone\"><strong>Example 1: Incorrect Initialization (Error Prone)</strong></p>"
        ),
        "bold labels get anchors"
    );
    assert!(
        html.contains("href=\"#example-1-incorrect-initialization-error-prone\""),
        "and a TOC line"
    );
}

/// A search result says what to do: the seed entry's document carries its verified workaround
/// and where it ran, in the reader's words (the page's script shows it under the message).
#[test]
fn search_documents_carry_the_verified_workaround() {
    let (_t, out) = build(&repo(), &[]);
    let docs: Vec<serde_json::Value> =
        serde_json::from_str(&read(&out, "search/d/0.json")).unwrap();
    let seed = (docs.iter())
        .find(|d| d[0] == "pytorch/dataset-worker-fork-cuda")
        .expect("the seed entry's document");
    let hint = seed[5]
        .as_str()
        .unwrap_or_else(|| panic!("no hint: {seed}"));
    assert!(
        hint.starts_with("Works here (H100 and H200): Wrap the training code"),
        "{hint}"
    );
}

#[test]
fn machine_readable_outputs_parse() {
    // The articles' entry declared: links.json then holds links to it.
    let declared = seed_declaring_errors();
    let (_t, out) = build(declared.path(), &[]);
    let cat: serde_json::Value = serde_json::from_str(&read(&out, "api/catalog.json")).unwrap();
    assert_eq!(cat["entries"][0]["id"], "pytorch/dataset-worker-fork-cuda");
    assert_eq!(cat["articles"].as_array().unwrap().len(), 3);
    // Each entry's page and JSON are where the patterns at the top say, from its ID.
    for e in cat["entries"].as_array().unwrap() {
        let id = e["id"].as_str().unwrap();
        assert!(e.get("url").is_none() && e.get("json").is_none(), "{e}");
        let domain = id.split('/').next().unwrap();
        let at = |key: &str| {
            (cat[key].as_str().unwrap())
                .replace("{id}", id)
                .replace("{domain}", domain)
        };
        assert!(
            out.join(at("entry_url")).join("index.html").is_file(),
            "{id}"
        );
        assert!(out.join(at("entry_json")).is_file(), "{id}");
    }
    // By default an entry's JSON is in its domain's file (1.07 files a page, not 2).
    let d: serde_json::Value =
        serde_json::from_str(&read(&out, "api/errors/pytorch.json")).unwrap();
    let e = &d["entries"]["pytorch/dataset-worker-fork-cuda"];
    assert_eq!(e["entry"]["workarounds"][0]["success_rate"], 95);
    assert_eq!(e["entry"]["dead_ends"][1]["fail_rate"], 95);
    // Its page's URL is its ID's, and its links are in links.json: neither is repeated here.
    assert!(e.get("url").is_none() && e.get("links").is_none(), "{e}");
    let links: serde_json::Value = serde_json::from_str(&read(&out, "api/links.json")).unwrap();
    let own = serde_json::json!({"type": "entry", "id": "pytorch/dataset-worker-fork-cuda"});
    assert!(links["links"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["from"] == own || l["to"] == own));
    assert!(e["entry"]["message"]
        .as_str()
        .unwrap()
        .starts_with("RuntimeError"));
    // What the file's path already says, where the Markdown is, and what is empty are left out.
    for key in ["id", "domain", "slug", "source"] {
        assert!(e["entry"].get(key).is_none(), "{key}");
    }
    assert!(e["entry"]["workarounds"][0].get("line").is_none());
    assert!(e["entry"]["snippets"][0].get("line").is_none());
    let mut stack = vec![e];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::Object(o) => {
                for (k, x) in o {
                    let empty = x.is_null()
                        || x.as_str() == Some("")
                        || x.as_array().is_some_and(|a| a.is_empty())
                        || x.as_object().is_some_and(|o| o.is_empty());
                    assert!(!empty, "{k}: {x}");
                    stack.push(x);
                }
            }
            serde_json::Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    let sitemap = read(&out, "sitemap.xml");
    assert!(sitemap.contains(
        "<loc>https://errbook.example.org/errors/pytorch/dataset-worker-fork-cuda/</loc>"
    ));
    assert!(!sitemap.contains("404"));
    let feed = read(&out, "feed.xml");
    assert!(feed.contains("<feed xmlns=\"http://www.w3.org/2005/Atom\">"));
    assert_eq!(feed.matches("<entry>").count(), 3);
}

#[test]
fn no_page_requests_anything_outside_the_site() {
    let (_t, out) = build(&repo(), &[]);
    for f in files(&out).iter().filter(|f| f.ends_with(".html")) {
        let html = read(&out, f);
        for l in links_of(&html) {
            assert!(
                !(l.starts_with("http") || l.starts_with("//"))
                    || l.starts_with("https://errbook.example.org/")
                    || l.contains("/edit/"),
                "{f} links outside: {l}"
            );
        }
        assert!(!html.contains("<script src=\"http"), "{f}");
    }
}

#[test]
fn failed_build_leaves_previous_output_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    std::fs::create_dir_all(site.join("content/errors/pytorch")).unwrap();
    std::fs::copy(repo().join("book.toml"), site.join("book.toml")).unwrap();
    let src =
        std::fs::read_to_string(repo().join("content/errors/pytorch/dataset-worker-fork-cuda.md"))
            .unwrap();
    let entry = site.join("content/errors/pytorch/dataset-worker-fork-cuda.md");
    std::fs::write(&entry, &src).unwrap();
    // The theme comes from the repo.
    let theme = site.join("themes");
    copy_dir(&repo().join("themes"), &theme);
    let out = tmp.path().join("out");
    errbook()
        .arg("--root")
        .arg(&site)
        .args(["build", "-d"])
        .arg(&out)
        .assert()
        .success();
    let before: Vec<(String, Vec<u8>)> = files(&out)
        .into_iter()
        .map(|f| {
            let b = std::fs::read(out.join(&f)).unwrap();
            (f, b)
        })
        .collect();
    std::fs::write(
        &entry,
        src.replace("**Fix Rate:** 90%", "**Fix Rate:** 190%"),
    )
    .unwrap();
    let o = errbook()
        .arg("--root")
        .arg(&site)
        .args(["build", "-d"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("dataset-worker-fork-cuda.md:8:"), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    let after: Vec<(String, Vec<u8>)> = files(&out)
        .into_iter()
        .map(|f| {
            let b = std::fs::read(out.join(&f)).unwrap();
            (f, b)
        })
        .collect();
    assert!(before == after, "the old output changed");
    // No staging folder is left behind (the build's lock file stays, as a lock file does).
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .filter(|n| !n.to_string_lossy().ends_with(".lock"))
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    for e in walkdir::WalkDir::new(from)
        .into_iter()
        .filter_map(Result::ok)
    {
        let rel = e.path().strip_prefix(from).unwrap();
        let dest = to.join(rel);
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

/// `build.entry_json = "none"`: no file per entry, no link to one, no `json` in catalog.json;
/// the catalog and the link graph stay.
#[test]
fn entry_json_can_be_left_out() {
    let t = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("content"), &t.path().join("content"));
    let cfg = std::fs::read_to_string(repo().join("book.toml")).unwrap();
    std::fs::write(
        t.path().join("book.toml"),
        cfg.replace("[build]\n", "[build]\nentry_json = \"none\"\n"),
    )
    .unwrap();
    let (_o, out) = build(t.path(), &[]);
    assert!(!out.join("api/errors").exists());
    assert!(out.join("api/links.json").is_file());
    let html = read(&out, ENTRY);
    assert!(!html.contains("This entry as JSON"));
    assert!(broken_links(&out, false).is_empty());
    let cat: serde_json::Value = serde_json::from_str(&read(&out, "api/catalog.json")).unwrap();
    assert_eq!(cat["entries"][0]["id"], "pytorch/dataset-worker-fork-cuda");
    assert!(cat.get("entry_json").is_none(), "no pattern for entry JSON");
    assert_eq!(cat["entry_url"], "errors/{id}/");
}

/// `search.exact = false` is written into the search index's manifest, which the page's search
/// reads (tests/it/search_parity.rs checks what it does there); left out, the manifest says
/// nothing of it.
#[test]
fn search_exact_false_reaches_the_manifest() {
    let t = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("content"), &t.path().join("content"));
    let cfg = std::fs::read_to_string(repo().join("book.toml")).unwrap();
    std::fs::write(t.path().join("book.toml"), &cfg).unwrap();
    let (_o, out) = build(t.path(), &[]);
    let m: serde_json::Value = serde_json::from_str(&read(&out, "search/m.json")).unwrap();
    assert!(m.get("exact").is_none(), "exact, the default, unsaid");
    std::fs::write(
        t.path().join("book.toml"),
        format!("{cfg}\n[search]\nexact = false\n"),
    )
    .unwrap();
    let (_o, out) = build(t.path(), &[]);
    let m: serde_json::Value = serde_json::from_str(&read(&out, "search/m.json")).unwrap();
    assert_eq!(m["exact"], false);
}

/// An alias worded exactly as the message is no other wording: the page does not show it again
/// under "Also worded as"; the others stay.
#[test]
fn an_alias_that_is_the_message_is_not_shown_again() {
    let t = tempfile::tempdir().unwrap();
    copy_tree(&repo().join("content"), &t.path().join("content"));
    std::fs::copy(repo().join("book.toml"), t.path().join("book.toml")).unwrap();
    let f = t
        .path()
        .join("content/errors/pytorch/dataset-worker-fork-cuda.md");
    let text = std::fs::read_to_string(&f).unwrap();
    let message = text.lines().next().unwrap().trim_start_matches("# ");
    let front = format!(
        "---\naliases:\n  - \"{}\"\n  - \"CUDA cannot be initialized again in a forked child\"\n---\n",
        message
    );
    std::fs::write(&f, format!("{front}{text}")).unwrap();
    let (_o, out) = build(t.path(), &[]);
    let html = read(&out, ENTRY);
    let aliases = html
        .split("<p class=\"aliases\">")
        .nth(1)
        .and_then(|s| s.split("</p>").next())
        .expect("an Also worded as line");
    assert!(aliases.contains("CUDA cannot be initialized again in a forked child"));
    assert!(!aliases.contains("re-initialize"), "{aliases}");
}
