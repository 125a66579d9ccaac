//! YAML for front matter, bounded: the block is read as events from yaml-rust2's parser (which
//! keeps its own state on the heap, so deep nesting cannot overflow the stack) and built into
//! values here, under limits no front matter needs to reach:
//!
//! - `MAX_BYTES` of YAML (checked by the caller, which knows where the block is);
//! - `MAX_DEPTH` levels of nested lists and mappings;
//! - `MAX_NODES` values in all, aliases counted at the size of what they repeat, so a "billion
//!   laughs" alias bomb of a few hundred bytes stops at the limit instead of taking gigabytes.
//!
//! Every key keeps where it is written, so diagnostics point at it exactly. A key written twice,
//! a key that is not a scalar, an alias to no anchor and a second document are errors.

use std::collections::{HashMap, HashSet};
use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

pub(crate) const MAX_BYTES: usize = 64 * 1024;
pub(crate) const MAX_DEPTH: usize = 32;
pub(crate) const MAX_NODES: usize = 10_000;

/// A YAML value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    Int(i64),
    /// A float, as written.
    Float(String),
    Str(String),
    List(Vec<Value>),
    /// Keys in the order written, each with its byte offset in the YAML text.
    Map(Vec<(String, usize, Value)>),
}

/// Why the YAML was refused, and where (a byte offset in the YAML text).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct YamlError {
    pub offset: usize,
    pub message: String,
    /// A key written twice: its name (the error's offset is the second one).
    pub duplicate: Option<String>,
}

/// Parse `text` (one YAML document); `Ok(None)` when it holds no value at all.
pub(crate) fn load(text: &str) -> Result<Option<Value>, YamlError> {
    let at = Offsets::new(text);
    let mut b = Builder::default();
    let mut parser = Parser::new_from_str(text);
    loop {
        let (ev, mark) = parser.next_token().map_err(|e| YamlError {
            offset: at.of(e.marker()),
            message: e.info().to_string(),
            duplicate: None,
        })?;
        let pos = at.of(&mark);
        if b.event(ev, pos)? {
            return Ok(b.root);
        }
    }
}

/// Char index (what yaml-rust2's markers count) to byte offset.
struct Offsets<'a> {
    text: &'a str,
    /// Byte offset of every char; empty when the text is ASCII (index = offset).
    starts: Vec<usize>,
}

impl<'a> Offsets<'a> {
    fn new(text: &'a str) -> Self {
        let starts = if text.is_ascii() {
            Vec::new()
        } else {
            text.char_indices().map(|(i, _)| i).collect()
        };
        Offsets { text, starts }
    }

    fn of(&self, m: &Marker) -> usize {
        if self.starts.is_empty() {
            m.index().min(self.text.len())
        } else {
            self.starts
                .get(m.index())
                .copied()
                .unwrap_or(self.text.len())
        }
    }
}

/// A list or mapping being read.
enum Open {
    List {
        items: Vec<Value>,
        anchor: usize,
    },
    Map {
        entries: Vec<(String, usize, Value)>,
        /// The keys so far, to find one written twice.
        seen: HashSet<String>,
        /// The key read, waiting for its value.
        key: Option<(String, usize)>,
        anchor: usize,
    },
}

#[derive(Default)]
struct Builder {
    open: Vec<Open>,
    /// Anchored values and their sizes in nodes.
    anchors: HashMap<usize, (Value, usize)>,
    /// Nodes made so far, aliases counted at their full size.
    nodes: usize,
    /// The size of each open collection so far.
    sizes: Vec<usize>,
    root: Option<Value>,
    documents: usize,
}

impl Builder {
    /// Take one event; true at the end of the stream.
    fn event(&mut self, ev: Event, pos: usize) -> Result<bool, YamlError> {
        match ev {
            Event::StreamEnd => return Ok(true),
            Event::DocumentStart => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(err(
                        pos,
                        "front matter holds one YAML document, not several",
                    ));
                }
            }
            Event::Scalar(v, style, anchor, _tag) => {
                self.value(scalar(v, style), 1, anchor, pos)?;
            }
            Event::Alias(id) => {
                let Some((v, size)) = self.anchors.get(&id).cloned() else {
                    return Err(err(pos, "an alias (`*name`) to no anchor"));
                };
                self.value(v, size, 0, pos)?;
            }
            Event::SequenceStart(anchor, _) => self.start(
                Open::List {
                    items: Vec::new(),
                    anchor,
                },
                pos,
            )?,
            Event::MappingStart(anchor, _) => self.start(
                Open::Map {
                    entries: Vec::new(),
                    seen: HashSet::new(),
                    key: None,
                    anchor,
                },
                pos,
            )?,
            Event::SequenceEnd | Event::MappingEnd => self.end(pos)?,
            Event::StreamStart | Event::DocumentEnd | Event::Nothing => {}
        }
        Ok(false)
    }

    fn start(&mut self, open: Open, pos: usize) -> Result<(), YamlError> {
        if self.open.len() >= MAX_DEPTH {
            return Err(err(
                pos,
                &format!("lists and mappings nested more than {MAX_DEPTH} deep"),
            ));
        }
        self.count(1, pos)?;
        self.open.push(open);
        self.sizes.push(1);
        Ok(())
    }

    fn end(&mut self, pos: usize) -> Result<(), YamlError> {
        let (Some(open), Some(size)) = (self.open.pop(), self.sizes.pop()) else {
            return Ok(());
        };
        let (v, anchor) = match open {
            Open::List { items, anchor } => (Value::List(items), anchor),
            Open::Map {
                entries, anchor, ..
            } => (Value::Map(entries), anchor),
        };
        // The collection itself was counted when it opened.
        self.place(v, size, anchor, pos)
    }

    /// A scalar or alias of `size` nodes.
    fn value(&mut self, v: Value, size: usize, anchor: usize, pos: usize) -> Result<(), YamlError> {
        self.count(size, pos)?;
        self.place(v, size, anchor, pos)
    }

    fn count(&mut self, size: usize, pos: usize) -> Result<(), YamlError> {
        self.nodes = self.nodes.saturating_add(size);
        if self.nodes > MAX_NODES {
            return Err(err(
                pos,
                &format!("more than {MAX_NODES} values (aliases count as what they repeat)"),
            ));
        }
        Ok(())
    }

    /// Put a finished value where it belongs: the root, a list's next item, a key or a value.
    fn place(&mut self, v: Value, size: usize, anchor: usize, pos: usize) -> Result<(), YamlError> {
        if anchor > 0 {
            self.anchors.insert(anchor, (v.clone(), size));
        }
        if let Some(s) = self.sizes.last_mut() {
            *s = s.saturating_add(size);
        }
        match self.open.last_mut() {
            None => self.root = Some(v),
            Some(Open::List { items, .. }) => items.push(v),
            Some(Open::Map {
                entries, seen, key, ..
            }) => match key.take() {
                None => *key = Some((key_text(v, pos)?, pos)),
                Some((k, at)) => {
                    if !seen.insert(k.clone()) {
                        return Err(YamlError {
                            offset: at,
                            message: format!("`{k}` is given twice"),
                            duplicate: Some(k),
                        });
                    }
                    entries.push((k, at, v));
                }
            },
        }
        Ok(())
    }
}

fn err(offset: usize, message: &str) -> YamlError {
    YamlError {
        offset,
        message: message.to_string(),
        duplicate: None,
    }
}

/// A mapping key must be a scalar; its text.
fn key_text(v: Value, pos: usize) -> Result<String, YamlError> {
    match v {
        Value::Str(s) | Value::Float(s) => Ok(s),
        Value::Int(i) => Ok(i.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        Value::Null => Ok(String::new()),
        Value::List(_) | Value::Map(_) => Err(err(
            pos,
            "a key must be a plain word, not a list or mapping",
        )),
    }
}

/// A scalar as the YAML core schema reads it: quoted is text; plain may be null, a boolean or
/// a number.
fn scalar(v: String, style: TScalarStyle) -> Value {
    if style != TScalarStyle::Plain {
        return Value::Str(v);
    }
    match yaml_rust2::Yaml::from_str(&v) {
        yaml_rust2::Yaml::Null => Value::Null,
        yaml_rust2::Yaml::Boolean(b) => Value::Bool(b),
        yaml_rust2::Yaml::Integer(i) => Value::Int(i),
        yaml_rust2::Yaml::Real(r) => Value::Float(r),
        _ => Value::Str(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(text: &str) -> Vec<(String, usize, Value)> {
        match load(text).unwrap() {
            Some(Value::Map(m)) => m,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn reads_what_front_matter_holds_with_key_offsets() {
        let m = map("title: \"Why?\"\nid: x\ntags: [a, 2]\nn: 1.5\nok: true\nnone:\n");
        assert_eq!(m[0], ("title".into(), 0, Value::Str("Why?".into())));
        assert_eq!(m[1].1, 14);
        assert_eq!(
            m[2].2,
            Value::List(vec![Value::Str("a".into()), Value::Int(2)])
        );
        assert_eq!(m[3].2, Value::Float("1.5".into()));
        assert_eq!(m[4].2, Value::Bool(true));
        assert_eq!(m[5].2, Value::Null);
        assert_eq!(load("").unwrap(), None);
        // Offsets are bytes, also after non-ASCII text.
        assert_eq!(map("a: é\nb: 1\n")[1].1, "a: é\n".len());
    }

    #[test]
    fn an_alias_bomb_stops_at_the_limit() {
        let mut y = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for (i, prev) in ["a", "b", "c", "d", "e", "f", "g", "h"].iter().enumerate() {
            let name = (b'b' + i as u8) as char;
            y.push_str(&format!("{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
        }
        assert!(y.len() < 1000);
        let e = load(&y).unwrap_err();
        assert!(e.message.contains("more than 10000 values"), "{e:?}");
        // A few aliases are fine.
        let m = map("base: &b [x, y]\ntags: *b\n");
        assert_eq!(m[0].2, m[1].2);
    }

    #[test]
    fn depth_duplicates_and_odd_keys_are_errors() {
        let deep = format!("a: {}{}", "[".repeat(100), "]".repeat(100));
        assert!(load(&deep)
            .unwrap_err()
            .message
            .contains("nested more than"));
        let deep_block = format!("a:{}x", "\n- ".repeat(10));
        let nested = (0..40)
            .map(|i| format!("{}- ", " ".repeat(i * 2)))
            .collect::<Vec<_>>()
            .join("\n")
            + "x";
        assert!(load(&deep_block).is_ok());
        assert!(load(&nested).is_err());
        let dup = load("title: a\nid: b\ntitle: c\n").unwrap_err();
        assert_eq!((dup.duplicate.as_deref(), dup.offset), (Some("title"), 15));
        assert!(load("? [a]\n: b\n")
            .unwrap_err()
            .message
            .contains("plain word"));
        assert!(load("a: *nowhere\n").is_err());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// Any text of YAML's own characters: an answer or a located error, never a panic, and
        /// never more values than the limit.
        #[test]
        fn any_yaml_text_is_answered_within_the_limits(text in "([a-z]{1,3}|[-:\\[\\]{},&*!?|>'\"#%@` \n\t]|  |\n- |: ){0,120}") {
            match load(&text) {
                Ok(v) => proptest::prop_assert!(v.map_or(0, |v| size(&v)) <= MAX_NODES),
                Err(e) => proptest::prop_assert!(e.offset <= text.len()),
            }
        }
    }

    fn size(v: &Value) -> usize {
        match v {
            Value::List(items) => 1 + items.iter().map(size).sum::<usize>(),
            Value::Map(m) => 1 + m.iter().map(|(_, _, v)| 1 + size(v)).sum::<usize>(),
            _ => 1,
        }
    }
}
