//! Front matter: split the YAML block off a file, read it with the bounded reader of
//! `super::yaml` (at most 64 KiB, 32 levels, 10,000 values with aliases expanded), and read
//! typed keys from it, each problem located at the key as written.

use super::yaml::{self, Value};
use errbook_core::diag::{Code, Diagnostic, Diagnostics};
use std::path::Path;
use std::sync::Arc;

/// The YAML block of a file, if it has one.
pub(crate) struct FrontMatter<'a> {
    path: &'a Path,
    src: &'a Arc<str>,
    /// Byte offset of the opening `---` line.
    pub start: usize,
    /// Byte offset of the first YAML line (after the opening delimiter).
    yaml_start: usize,
    /// The parsed mapping (empty when the block is empty): key, its offset in the YAML text,
    /// value.
    map: Vec<(String, usize, Value)>,
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
    if yaml.len() > yaml::MAX_BYTES {
        diags.push(
            Diagnostic::at(
                Code::FrontMatter,
                path,
                src,
                0,
                3,
                format!(
                    "front matter is {} KiB; it may be at most {} KiB",
                    yaml.len().div_ceil(1024),
                    yaml::MAX_BYTES / 1024
                ),
            )
            .label("this block")
            .hint("front matter holds a few keys (title, id, tags, aliases); long text goes in the body"),
        );
        return None;
    }
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
    fn parse(&self, diags: &mut Diagnostics) -> Option<Vec<(String, usize, Value)>> {
        let d = match yaml::load(self.yaml) {
            Ok(Some(Value::Map(m))) => return Some(m),
            Ok(None | Some(Value::Null)) => return Some(Vec::new()),
            Ok(Some(_)) => Diagnostic::at(
                Code::FrontMatter,
                self.path,
                self.src,
                self.yaml_start,
                self.yaml.find('\n').unwrap_or(self.yaml.len()),
                "front matter must be a mapping of keys to values",
            )
            .hint("write one `key: value` per line"),
            Err(e) => self.invalid(&e),
        };
        diags.push(d);
        None
    }

    /// The diagnostic for YAML that does not parse or is refused: a duplicated key, or anything
    /// else, at the place the reader names.
    fn invalid(&self, e: &yaml::YamlError) -> Diagnostic {
        let offset = self.yaml_start + e.offset.min(self.yaml.len());
        if let Some(key) = &e.duplicate {
            return Diagnostic::at(
                Code::FrontMatter,
                self.path,
                self.src,
                offset,
                key.len(),
                format!("front matter gives `{key}` twice"),
            )
            .hint(format!("keep one `{key}:` line"));
        }
        let hint = if e.message.contains("alias") || e.message.contains("nested") {
            "front matter holds a few plain keys; write the values out instead of repeating them with aliases"
        } else {
            "check indentation and quoting; values holding `: ` or starting with a quote or backtick need quotes"
        };
        Diagnostic::at(
            Code::FrontMatter,
            self.path,
            self.src,
            offset,
            1,
            format!("invalid YAML in front matter: {}", e.message),
        )
        .hint(hint)
    }
}

impl<'a> FrontMatter<'a> {
    /// Byte offset and length of `key` in the file, for locating diagnostics (the opening
    /// `---` when the key is not written).
    pub(crate) fn key_span(&self, key: &str) -> (usize, usize) {
        match self.map.iter().find(|(k, _, _)| k == key) {
            Some((_, at, _)) => (self.yaml_start + at, key.len()),
            None => (self.start, 3),
        }
    }

    fn get(&self, key: &str) -> Option<&Value> {
        self.map
            .iter()
            .find(|(k, _, _)| k == key)
            .map(|(_, _, v)| v)
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
        match self.get(key) {
            None | Some(Value::Null) => {
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
        match self.get(key) {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::List(items)) => {
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
        match self.get(key) {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
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
    pub(crate) fn links(&self, diags: &mut Diagnostics) -> errbook_core::model::LinkOverrides {
        let mut out = errbook_core::model::LinkOverrides::default();
        match self.get("links") {
            None | Some(Value::Null) => {}
            Some(Value::Map(h)) => {
                for (k, _, v) in h {
                    let list = match v {
                        Value::List(items) => items.iter().filter_map(scalar).collect(),
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
        let mut keys: Vec<&String> = self.map.iter().map(|(k, _, _)| k).collect();
        keys.sort();
        for k in keys {
            if !known.contains(&k.as_str()) {
                let near = errbook_core::diag::did_you_mean(k, known.iter().copied());
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

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::Str(s) | Value::Float(s) => Some(s.clone()),
        Value::Int(i) => Some(i.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}
