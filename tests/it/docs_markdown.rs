//! The repository's own Markdown (README.md, ARCHITECTURE.md, docs/*.md, bench/README.md) renders
//! as its author wrote it with a CommonMark renderer, as GitHub shows it: no code fence swallows
//! a heading or leaves one stray (a fence nested in a fence of the same length closes it early),
//! every fence is closed, every relative link names a file that exists, and the README stays
//! short.

use crate::common::repo;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The Markdown files the repository shows its readers.
fn documents() -> Vec<PathBuf> {
    let root = repo();
    let mut out: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "bench/README.md"]
        .iter()
        .map(|p| root.join(p))
        .filter(|p| p.is_file())
        .collect();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    out.extend(docs);
    assert!(out.len() >= 5, "{out:?}");
    out
}

fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
}

/// The 1-based line of each byte offset's line start.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].bytes().filter(|&b| b == b'\n').count() + 1
}

/// The lines that start a heading as the author wrote them: `#` at the line's start, outside the
/// fences that open and close at the line's start (an author's outer fence), wherever the nested
/// ones are.
fn written_headings(text: &str) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    let mut open: Option<(char, usize)> = None;
    for (i, line) in text.lines().enumerate() {
        let marker = |c: char| line.chars().take_while(|&x| x == c).count();
        match open {
            Some((c, n)) => {
                if marker(c) >= n && line.trim_end().chars().all(|x| x == c) {
                    open = None;
                }
            }
            None => {
                for c in ['`', '~'] {
                    if marker(c) >= 3 {
                        open = Some((c, marker(c)));
                    }
                }
                let hashes = line.chars().take_while(|&x| x == '#').count();
                let rest = &line[hashes..];
                if (1..=6).contains(&hashes) && (rest.is_empty() || rest.starts_with(' ')) {
                    out.insert(i + 1);
                }
            }
        }
    }
    out
}

/// What a CommonMark renderer makes of `text`: the lines of its headings, and each problem with
/// its fences.
fn rendered(text: &str) -> (BTreeSet<usize>, Vec<String>) {
    let mut headings = BTreeSet::new();
    let mut problems = Vec::new();
    let mut fence: Option<(usize, String)> = None;
    for (event, range) in Parser::new_ext(text, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { .. }) => {
                headings.insert(line_of(text, range.start));
            }
            Event::Start(Tag::CodeBlock(pulldown_cmark::CodeBlockKind::Fenced(_))) => {
                let block = &text[range.clone()];
                let opener = block.lines().next().unwrap_or("").trim_start();
                let c = opener.chars().next().unwrap_or('`');
                let n = opener.chars().take_while(|&x| x == c).count();
                let marker: String = std::iter::repeat_n(c, n).collect();
                // A line inside that starts a fence of the same kind and length is a nested fence
                // the outer one cannot hold: it ends the outer block early.
                let inner = block.lines().skip(1).collect::<Vec<_>>();
                let body = &inner[..inner.len().saturating_sub(1)];
                if let Some(bad) = body.iter().find(|l| {
                    let t = l.trim_start();
                    t.starts_with(&marker) && l.len() - t.len() <= 3 && !t[n..].starts_with(c)
                }) {
                    problems.push(format!(
                        "line {}: a fence \"{}\" inside the block opened at line {} with \"{marker}\" \
                         (use a longer fence outside)",
                        line_of(text, range.start)
                            + 1
                            + body.iter().position(|l| l == bad).unwrap_or(0),
                        bad.trim(),
                        line_of(text, range.start),
                    ));
                }
                let closed = inner.last().is_some_and(|l| {
                    l.trim().starts_with(&marker) && l.trim().chars().all(|x| x == c)
                });
                if !closed {
                    problems.push(format!(
                        "line {}: the fence \"{marker}\" is never closed",
                        line_of(text, range.start)
                    ));
                }
                fence = Some((line_of(text, range.start), marker));
            }
            Event::End(TagEnd::CodeBlock) => fence = None,
            _ => {}
        }
    }
    if let Some((line, marker)) = fence {
        problems.push(format!(
            "line {line}: the fence \"{marker}\" runs to the end"
        ));
    }
    (headings, problems)
}

fn problems_of(text: &str) -> Vec<String> {
    let (shown, mut problems) = rendered(text);
    let written = written_headings(text);
    for l in written.difference(&shown) {
        problems.push(format!("line {l}: a heading shown as code or text"));
    }
    for l in shown.difference(&written) {
        problems.push(format!(
            "line {l}: a heading that the author wrote inside a code block"
        ));
    }
    problems
}

#[test]
fn every_document_renders_its_headings_and_closes_its_fences() {
    let mut all = Vec::new();
    for path in documents() {
        let text = std::fs::read_to_string(&path).unwrap();
        let rel = path.strip_prefix(repo()).unwrap().display().to_string();
        all.extend(problems_of(&text).into_iter().map(|p| format!("{rel}:{p}")));
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
}

#[test]
fn a_fence_nested_in_one_of_its_length_is_caught() {
    let bad = "# T\n\n```markdown\n# Example\n\n## Workarounds\n1. **A.**\n   ```python\n   x\n   ```\n\n## Dead Ends\n- b\n```\n\n### After\n\ntext\n";
    let p = problems_of(bad);
    assert!(
        p.iter().any(|p| p.contains("a fence \"```python\"")),
        "{p:?}"
    );
    assert!(
        p.iter()
            .any(|p| p.contains("line 12: a heading that the author wrote inside")),
        "{p:?}"
    );
    assert!(
        p.iter()
            .any(|p| p.contains("line 16: a heading shown as code")),
        "{p:?}"
    );
    let good =
        bad.replacen("```markdown", "````markdown", 1)
            .replacen("\n```\n\n###", "\n````\n\n###", 1);
    assert_eq!(problems_of(&good), Vec::<String>::new());
}

/// Relative links and images of `text` (not `http:`, `mailto:` or `#anchor`), without anchors.
fn relative_links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for event in Parser::new_ext(text, options()) {
        if let Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) = event {
            let url = dest_url.to_string();
            if url.contains(':') || url.starts_with('#') || url.is_empty() {
                continue;
            }
            out.push(url.split('#').next().unwrap_or("").to_string());
        }
    }
    out
}

#[test]
fn every_relative_link_names_a_file_of_the_repository() {
    let mut missing = Vec::new();
    for path in documents() {
        let text = std::fs::read_to_string(&path).unwrap();
        let dir = path.parent().unwrap_or(Path::new("."));
        for link in relative_links(&text) {
            // GitHub's own pages (`../../releases`), and two files written on other branches
            // (the entry page's screenshot, the editors' page) until they are merged.
            if link.starts_with("../../") {
                continue;
            }
            if !dir.join(&link).exists() {
                missing.push(format!("{}: {link}", path.display()));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn the_readme_is_at_most_250_lines() {
    let text = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let n = text.lines().count();
    assert!(
        n <= 250,
        "README.md has {n} lines; move reference text to docs/"
    );
}
