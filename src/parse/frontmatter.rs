//! Front matter: split the YAML block off a file with gray_matter and read typed keys from it,
//! each problem located at the key's line.

use crate::core::diag::{line_bounds, line_col, Code, Diagnostic, Diagnostics};
use gray_matter::{engine::YAML, Matter, Pod};
use regex::Regex;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, LazyLock};

/// The YAML block of a file, if it has one.
pub(crate) struct FrontMatter<'a> {
    path: &'a Path,
    src: &'a Arc<str>,
    /// Byte offset of the opening `---` line.
    pub start: usize,
    /// Byte offset of the first YAML line (after the opening delimiter).
    yaml_start: usize,
    /// The YAML text.
    yaml: &'a str,
    /// Parsed mapping (empty when the block is empty).
    map: HashMap<String, Pod>,
}

/// Where the body starts once front matter is removed.
pub(crate) struct Split<'a> {
    pub front: Option<FrontMatter<'a>>,
    /// Byte offset of the body in the file.
    pub body_offset: usize,
}

/// Split front matter off `src`. Unterminated or invalid YAML, or YAML that is not a mapping, is a
/// diagnostic; then `None` is returned and the file is not parsed further.
pub(crate) fn split<'a>(
    path: &'a Path,
    src: &'a Arc<str>,
    diags: &mut Diagnostics,
) -> Option<Split<'a>> {
    let first_end = src.find('\n').unwrap_or(src.len());
    if src[..first_end].trim_end() != "---" {
        return Some(Split {
            front: None,
            body_offset: 0,
        });
    }
    let yaml_start = (first_end + 1).min(src.len());
    let Some((close_start, body_offset)) = find_close(src, yaml_start) else {
        diags.push(
            Diagnostic::at(
                Code::FrontMatter,
                path,
                src,
                0,
                3,
                "front matter is not terminated",
            )
            .label("opened here, never closed")
            .hint("close the YAML block with a line holding only `---`"),
        );
        return None;
    };
    let yaml = src.get(yaml_start..close_start).unwrap_or("");
    let block = Block {
        path,
        src,
        yaml,
        yaml_start,
    };
    let map = block.parse(diags)?;
    Some(Split {
        front: Some(FrontMatter {
            path,
            src,
            start: 0,
            yaml_start,
            yaml,
            map,
        }),
        body_offset,
    })
}

/// The closing `---` (or `...`) line at or after `from`: (its start, the offset after it).
fn find_close(src: &str, from: usize) -> Option<(usize, usize)> {
    let mut pos = from;
    while pos < src.len() {
        let end = src[pos..].find('\n').map(|i| pos + i).unwrap_or(src.len());
        let line = src[pos..end].trim_end();
        if line == "---" || line == "..." {
            return Some((pos, (end + 1).min(src.len())));
        }
        pos = end + 1;
    }
    None
}

/// The YAML text between the delimiters, and where it is in the file.
struct Block<'a> {
    path: &'a Path,
    src: &'a Arc<str>,
    yaml: &'a str,
    yaml_start: usize,
}

impl Block<'_> {
    /// The mapping (empty for an empty block), or `None` and the diagnostic that says why.
    fn parse(&self, diags: &mut Diagnostics) -> Option<HashMap<String, Pod>> {
        // gray_matter parses the block; we give it the block alone so its line numbers are ours.
        let parsed = Matter::<YAML>::new().parse::<Pod>(&format!("---\n{}---\n", self.yaml));
        let d = match parsed {
            Ok(p) => match p.data {
                Some(Pod::Hash(h)) => return Some(h),
                None | Some(Pod::Null) => return Some(HashMap::new()),
                Some(_) => Diagnostic::at(
                    Code::FrontMatter,
                    self.path,
                    self.src,
                    self.yaml_start,
                    self.yaml.find('\n').unwrap_or(self.yaml.len()),
                    "front matter must be a mapping of keys to values",
                )
                .hint("write one `key: value` per line"),
            },
            Err(e) => self.invalid(&e.to_string()),
        };
        diags.push(d);
        None
    }

    /// The diagnostic for YAML that does not parse: a duplicated key, or anything else.
    fn invalid(&self, msg: &str) -> Diagnostic {
        let msg = msg.trim_start_matches("Deserialize error:").trim();
        let (offset, what) = yaml_error_offset(msg, self.yaml, self.yaml_start);
        let src = self.src;
        if let Some(c) = DUP_RE.captures(&what) {
            let key = &c[1];
            let (ls, _) = line_bounds(src, line_col(src, offset).0);
            return Diagnostic::at(
                Code::FrontMatter,
                self.path,
                src,
                ls,
                key.len(),
                format!("front matter gives `{key}` twice"),
            )
            .hint(format!("keep one `{key}:` line"));
        }
        Diagnostic::at(Code::FrontMatter, self.path, src, offset, 1, format!("invalid YAML in front matter: {what}"))
            .hint("check indentation and quoting; values holding `: ` or starting with a quote or backtick need quotes")
    }
}

/// yaml-rust2 says `String("title"): duplicated key in mapping`.
static DUP_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^String\("((?:[^"\\]|\\.)*)"\): duplicated key"#).expect("static regex")
});
static AT_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:at byte \d+ )?line (\d+) column (\d+)").expect("static regex")
});

/// yaml-rust2 reports `... at byte B line L column C` (1-based, counted in the YAML text alone:
/// gray_matter strips the `---` line before parsing); turn that into a file offset.
fn yaml_error_offset(msg: &str, yaml: &str, yaml_start: usize) -> (usize, String) {
    if let Some(c) = AT_RE.captures(msg) {
        let line: usize = c[1].parse().unwrap_or(1);
        let col: usize = c[2].parse().unwrap_or(1);
        let what = msg[..c.get(0).map(|m| m.start()).unwrap_or(msg.len())]
            .trim()
            .trim_end_matches(" at")
            .to_string();
        let (ls, le) = line_bounds(yaml, line.max(1));
        let within = yaml[ls..le]
            .char_indices()
            .nth(col.saturating_sub(1))
            .map(|(i, _)| i)
            .unwrap_or(le - ls);
        return (yaml_start + ls + within, what);
    }
    (yaml_start, msg.to_string())
}

impl<'a> FrontMatter<'a> {
    /// Byte offset and length of `key:` in the file, for locating diagnostics.
    pub(crate) fn key_span(&self, key: &str) -> (usize, usize) {
        let mut off = 0;
        for line in self.yaml.split_inclusive('\n') {
            if let Some(rest) = line.strip_prefix(key) {
                if rest.trim_start().starts_with(':') {
                    return (self.yaml_start + off, key.len());
                }
            }
            off += line.len();
        }
        (self.start, 3)
    }

    /// The file this front matter is in.
    pub(crate) fn path(&self) -> &'a Path {
        self.path
    }

    /// A diagnostic at `key:` (or at the opening `---` when the key is not written).
    pub(crate) fn err(&self, key: &str, code: Code, msg: String) -> Diagnostic {
        let (o, l) = self.key_span(key);
        Diagnostic::at(code, self.path, self.src, o, l, msg)
    }

    /// A required string (numbers and dates are accepted and turned into text).
    pub(crate) fn required_str(&self, key: &str, diags: &mut Diagnostics) -> Option<String> {
        match self.map.get(key) {
            None | Some(Pod::Null) => {
                diags.push(
                    Diagnostic::at(
                        Code::MissingKey,
                        self.path,
                        self.src,
                        self.start,
                        3,
                        format!("front matter has no `{key}`"),
                    )
                    .label("in this front matter")
                    .hint(format!("add a line `{key}: ...` between the `---` lines")),
                );
                None
            }
            Some(p) => match scalar(p) {
                Some(s) if !s.trim().is_empty() => Some(s),
                Some(_) => {
                    diags.push(
                        self.err(key, Code::MissingKey, format!("`{key}` is empty"))
                            .hint(format!("give `{key}` a value")),
                    );
                    None
                }
                None => {
                    diags.push(
                        self.err(
                            key,
                            Code::KeyType,
                            format!("`{key}` must be a single value, not a list or mapping"),
                        )
                        .hint(format!("write `{key}: \"...\"`")),
                    );
                    None
                }
            },
        }
    }

    /// An optional list of strings; a single string is taken as a one-item list.
    pub(crate) fn str_list(&self, key: &str, diags: &mut Diagnostics) -> Vec<String> {
        match self.map.get(key) {
            None | Some(Pod::Null) => Vec::new(),
            Some(Pod::Array(items)) => {
                let mut out = Vec::new();
                for it in items {
                    match scalar(it) {
                        Some(s) => out.push(s),
                        None => diags.push(
                            self.err(
                                key,
                                Code::KeyType,
                                format!("`{key}` must be a list of strings"),
                            )
                            .hint(format!("write `{key}: [a, b]` or one `- item` per line")),
                        ),
                    }
                }
                out
            }
            Some(p) => match scalar(p) {
                Some(s) => vec![s],
                None => {
                    diags.push(
                        self.err(
                            key,
                            Code::KeyType,
                            format!("`{key}` must be a list of strings"),
                        )
                        .hint(format!("write `{key}: [a, b]`")),
                    );
                    Vec::new()
                }
            },
        }
    }

    /// An optional `true`/`false` (absent: false).
    pub(crate) fn flag(&self, key: &str, diags: &mut Diagnostics) -> bool {
        match self.map.get(key) {
            None | Some(Pod::Null) => false,
            Some(Pod::Boolean(b)) => *b,
            Some(_) => {
                diags.push(
                    self.err(key, Code::KeyType, format!("`{key}` must be true or false"))
                        .hint(format!("write `{key}: true`")),
                );
                false
            }
        }
    }

    /// `links: {confirm: [...], reject: [...]}`.
    pub(crate) fn links(&self, diags: &mut Diagnostics) -> crate::core::model::LinkOverrides {
        let mut out = crate::core::model::LinkOverrides::default();
        match self.map.get("links") {
            None | Some(Pod::Null) => {}
            Some(Pod::Hash(h)) => {
                for (k, v) in h {
                    let list = match v {
                        Pod::Array(items) => items.iter().filter_map(scalar).collect(),
                        other => scalar(other).into_iter().collect(),
                    };
                    match k.as_str() {
                        "confirm" => out.confirm = list,
                        "reject" => out.reject = list,
                        _ => diags.push(
                            self.err(
                                "links",
                                Code::UnknownKey,
                                format!("`links` has an unknown key `{k}`"),
                            )
                            .hint("`links` takes `confirm: [...]` and `reject: [...]`"),
                        ),
                    }
                }
            }
            Some(_) => diags.push(
                self.err("links", Code::KeyType, "`links` must be a mapping".into())
                    .hint("write `links: {reject: [some/entry-id]}`"),
            ),
        }
        out
    }

    /// Report keys not in `known` as errors, with the closest known key as a hint.
    pub(crate) fn check_unknown(&self, known: &[&str], diags: &mut Diagnostics) {
        let mut keys: Vec<&String> = self.map.keys().collect();
        keys.sort();
        for k in keys {
            if !known.contains(&k.as_str()) {
                let near = crate::core::diag::did_you_mean(k, known.iter().copied());
                let hint = match near.first() {
                    Some(n) => format!("did you mean `{n}`? known keys: {}", known.join(", ")),
                    None => format!("known keys: {}", known.join(", ")),
                };
                diags.push(
                    self.err(
                        k,
                        Code::UnknownKey,
                        format!("unknown front matter key `{k}`"),
                    )
                    .hint(hint),
                );
            }
        }
    }
}

fn scalar(p: &Pod) -> Option<String> {
    match p {
        Pod::String(s) => Some(s.clone()),
        Pod::Integer(i) => Some(i.to_string()),
        Pod::Float(f) => Some(f.to_string()),
        Pod::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}
