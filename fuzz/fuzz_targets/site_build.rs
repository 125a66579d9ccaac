//! The whole build on a generated catalog: the fuzzer's bytes become a few entries and articles
//! laid out as the catalog writes them (so most of them parse), with the fuzzer's text in every
//! field; the site is built, hosted or offline, with the repository's theme.
//!
//! Beyond "no panic": a build either fails on its content (a diagnostic) or writes pages in
//! which no content runs: no `<script>` but the theme's, no `on*=` attribute, no script URL.
#![no_main]

use arbitrary::Arbitrary;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

#[derive(Arbitrary, Debug)]
struct Catalog {
    entries: Vec<Entry>,
    articles: Vec<Article>,
    offline: bool,
}

#[derive(Arbitrary, Debug)]
struct Entry {
    front: Option<String>,
    title: String,
    category: String,
    code: String,
    fix_rate: u8,
    root_cause: String,
    versions: Vec<(String, String)>,
    workarounds: Vec<(String, u8, String, Option<(String, String)>)>,
    dead_ends: Vec<(String, String, u8)>,
    notes: Option<String>,
    related: Vec<u8>,
}

#[derive(Arbitrary, Debug)]
struct Article {
    title: String,
    tags: Vec<String>,
    errors: Vec<u8>,
    body: String,
    code: Vec<(String, String)>,
}

/// A value for a one-line field: no newline.
fn line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

fn yaml(s: &str) -> String {
    // A JSON string is a YAML double-quoted scalar.
    format!("{s:?}").replace("\\'", "'")
}

impl Entry {
    fn text(&self, n: usize, ids: &[String]) -> String {
        let mut t = String::new();
        let related: Vec<&str> = self.related.iter().filter_map(|&i| ids.get(i as usize % ids.len().max(1)).map(|s| s.as_str())).collect();
        if self.front.is_some() || !related.is_empty() {
            t.push_str("---\n");
            if let Some(f) = &self.front {
                t.push_str(&format!("aliases: [{}]\ntags: [{}]\n", yaml(f), yaml(f)));
            }
            if !related.is_empty() {
                t.push_str(&format!("related: [{}]\n", related.join(", ")));
            }
            t.push_str("---\n");
        }
        t.push_str(&format!("# {}\n\n- **ID:** `fz/e{n}`\n- **Domain:** fz\n", line(&self.title)));
        t.push_str(&format!("- **Category:** {}\n- **Error Code:** {}\n", line(&self.category), line(&self.code)));
        t.push_str(&format!("- **Verification:** fuzz\n- **Fix Rate:** {}%\n\n", self.fix_rate));
        t.push_str(&format!("## Root Cause\n{}\n\n", self.root_cause));
        if !self.versions.is_empty() {
            t.push_str("## Version Compatibility\n| Version | Status | Introduced | Deprecated |\n|---|---|---|---|\n");
            for (v, s) in self.versions.iter().take(8) {
                t.push_str(&format!("| {} | {} | — | — |\n", line(v), line(s)));
            }
            t.push('\n');
        }
        t.push_str("## Workarounds\n");
        for (i, (summary, rate, detail, code)) in self.workarounds.iter().take(6).enumerate() {
            t.push_str(&format!("{}. **{}** ({}% success)\n", i + 1, line(summary), rate));
            if !detail.is_empty() {
                t.push_str(&format!("   {}\n", detail.replace('\n', "\n   ")));
            }
            if let Some((info, code)) = code {
                t.push_str(&format!("   ```{}\n   {}\n   ```\n", line(info), code.replace('\n', "\n   ")));
            }
        }
        if !self.dead_ends.is_empty() {
            t.push_str("\n## Dead Ends\n");
            for (summary, reason, rate) in self.dead_ends.iter().take(6) {
                t.push_str(&format!("- **{}** — {} ({}% fail)\n", line(summary), line(reason), rate));
            }
        }
        if let Some(n) = &self.notes {
            t.push_str(&format!("\n## Notes\n{n}\n"));
        }
        t
    }
}

impl Article {
    fn text(&self, n: usize, ids: &[String]) -> String {
        let errors: Vec<&str> = self.errors.iter().filter_map(|&i| ids.get(i as usize % ids.len().max(1)).map(|s| s.as_str())).collect();
        let tags: Vec<String> = self.tags.iter().take(6).map(|t| yaml(t)).collect();
        let mut t = format!(
            "---\ntitle: {}\ndate: \"2025-01-0{}\"\nid: a{n}\ntags: [{}]\nerrors: [{}]\n---\n{}\n",
            yaml(&self.title),
            n % 9 + 1,
            tags.join(", "),
            errors.join(", "),
            self.body
        );
        for (info, code) in self.code.iter().take(6) {
            t.push_str(&format!("\n```{}\n{}\n```\n", line(info), code.replace("```", "'''")));
        }
        t
    }
}

/// A site folder with the repository's theme, made once; each run rewrites its content.
fn site() -> &'static Path {
    static SITE: OnceLock<PathBuf> = OnceLock::new();
    SITE.get_or_init(|| {
        let dir = tempfile::Builder::new().prefix("errbook-fuzz-").tempdir().expect("tempdir").keep();
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        copy(&repo.join("themes"), &dir.join("themes"));
        std::fs::write(dir.join("book.toml"), "").expect("book.toml");
        dir
    })
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read theme").flatten() {
        let p = e.path();
        if p.is_dir() {
            copy(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}

/// A `<script>` tag of the theme's own (site.js, search-index.js, search-rank.js, search.js), as
/// base.html writes it
/// (site.js in the head without `defer`, so that the chosen colour theme applies before drawing).
fn theme_script(tag: &str) -> bool {
    tag.strip_prefix("<script src=\"")
        .and_then(|t| t.strip_suffix("\" defer>").or_else(|| t.strip_suffix("\">")))
        .and_then(|src| src.rsplit_once("theme/"))
        .is_some_and(|(_, name)| ["site.js", "search-index.js", "search-rank.js", "search.js"].contains(&name))
}

/// Pages in which no content runs: the theme's scripts only, no handler, no script URL.
fn check_pages(out: &Path) {
    let tag = regex::Regex::new(r"(?is)<[a-z][^>]*>").expect("regex");
    let handler = regex::Regex::new(r#"(?i)\s on[a-z]+\s*="#).expect("regex");
    let url = regex::Regex::new(r#"(?i)(href|src|action|formaction)\s*=\s*"([^"]*)""#).expect("regex");
    let mut stack = vec![out.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read output").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "html") {
                continue;
            }
            let html = std::fs::read_to_string(&p).expect("read page");
            for (at, _) in html.match_indices("<script") {
                let t = &html[at..html[at..].find('>').map_or(html.len(), |e| at + e + 1)];
                assert!(theme_script(t), "{}: a script not the theme's: {t}", p.display());
            }
            for t in tag.find_iter(&html) {
                let t = t.as_str();
                assert!(!handler.is_match(&t.replace(['\t', '\n', '\r', '\u{c}', '/'], " ")), "{}: handler in {t}", p.display());
                for c in url.captures_iter(t) {
                    let v: String = c[2].chars().filter(|c| !c.is_ascii_whitespace() && !c.is_ascii_control()).collect::<String>().to_ascii_lowercase();
                    assert!(
                        !(v.starts_with("javascript:") || v.starts_with("vbscript:") || v.starts_with("data:")),
                        "{}: script URL in {t}",
                        p.display()
                    );
                }
            }
        }
    }
}

libfuzzer_sys::fuzz_target!(|cat: Catalog| {
    let root = site();
    let content = root.join("content");
    let _ = std::fs::remove_dir_all(&content);
    std::fs::create_dir_all(content.join("errors/fz")).expect("mkdir");
    std::fs::create_dir_all(content.join("articles")).expect("mkdir");
    let ids: Vec<String> = (0..cat.entries.len().min(6)).map(|n| format!("fz/e{n}")).collect();
    for (n, e) in cat.entries.iter().take(6).enumerate() {
        std::fs::write(content.join(format!("errors/fz/e{n}.md")), e.text(n, &ids)).expect("write");
    }
    for (n, a) in cat.articles.iter().take(6).enumerate() {
        std::fs::write(content.join(format!("articles/a{n}.md")), a.text(n, &ids)).expect("write");
    }
    let cfg = errbook_core::Config::load(root).expect("config");
    let opts = errbook_site::BuildOptions {
        dest: root.join("out"),
        offline: cat.offline,
        single_thread: true,
        no_infer: false,
        // Draft pages too: more of the build runs on the fuzzer's text.
        drafts: true,
        progress: None,
    };
    match errbook_site::build(root, &cfg, &opts) {
        Ok(_) => check_pages(&root.join("out")),
        Err(errbook_core::Error::Content { diags, .. }) => {
            for d in &diags.items {
                let _ = d.render(false);
            }
        }
        Err(e) => panic!("the build failed on something other than content: {e}"),
    }
});
