//! The layers, checked: every module of the library imports only from the layers below it
//! (ARCHITECTURE.md), and the binary's commands use only the library's public face. A file that
//! names `crate::<module>` of its own layer or a higher one fails this test with the file, the
//! line and the rule.

use std::path::{Path, PathBuf};

/// The library's top-level modules, lowest first; modules on one line are siblings that may
/// not import each other.
const LAYERS: &[&[&str]] = &[
    &["core"],
    &["records"],
    &["load"],
    &["parse"],
    &["link"],
    &["view"],
    &["render", "search"],
    &["write"],
    &["site"],
    &["verify", "serve", "scaffold"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `crate::<name>` references in code (not in comments), with their 1-based lines.
fn crate_refs(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let after = &rest[i + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let is_path_start =
                i == 0 || !rest[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_');
            if is_path_start && !name.is_empty() {
                out.push((n + 1, name));
            } else if is_path_start && after.starts_with('{') {
                // `use crate::{a::b, c}`: the first name of each item.
                let inner = after[1..].split('}').next().unwrap_or("");
                for item in inner.split(',') {
                    let name: String = item
                        .trim()
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        out.push((n + 1, name));
                    }
                }
            }
            rest = after;
        }
    }
    out
}

#[test]
fn every_module_imports_only_from_layers_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut broken = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let top = top.trim_end_matches(".rs");
        if matches!(top, "lib" | "main" | "cmd") {
            continue;
        }
        let Some(mine) = layer_of(top) else {
            broken.push(format!("{}: module `{top}` is on no layer", rel.display()));
            continue;
        };
        let text = std::fs::read_to_string(f).unwrap();
        for (line, name) in crate_refs(&text) {
            if name == top {
                continue;
            }
            match layer_of(&name) {
                Some(l) if l < mine => {}
                Some(_) => broken.push(format!(
                    "{}:{line}: `{top}` (layer {mine}) uses `crate::{name}`, which is not below it",
                    rel.display()
                )),
                None => broken.push(format!(
                    "{}:{line}: `crate::{name}` is on no layer",
                    rel.display()
                )),
            }
        }
    }
    assert!(
        broken.is_empty(),
        "imports against the layers:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_binary_uses_only_the_library() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![src.join("main.rs")];
    rust_files(&src.join("cmd"), &mut files);
    let mut broken = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (line, name) in crate_refs(&text) {
            if name != "cmd" {
                broken.push(format!("{}:{line}: crate::{name}", f.display()));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "the binary reaches past the library's face:\n{}",
        broken.join("\n")
    );
}
