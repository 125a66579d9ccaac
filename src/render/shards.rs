//! The entries' JSON folded into one file per domain (`build.entry_json = "domains"`):
//! `api/errors/<domain>.json` is `{"domain": ..., "entries": {"<id>": <entry JSON>, ...}}`, one
//! entry per line in ID order, so that `serve` replaces one entry's line without reading the
//! others back as JSON (`splice`). A full build and any sequence of splices give the same bytes.

use std::collections::BTreeMap;

/// The shard of `domain`: `entries` are (ID, compact JSON of the entry) in ID order.
pub(crate) fn shard<'a>(
    domain: &str,
    entries: impl IntoIterator<Item = (&'a str, &'a [u8])>,
) -> Vec<u8> {
    let mut out = head(domain);
    for (k, (id, json)) in entries.into_iter().enumerate() {
        out.extend_from_slice(&line(k == 0, id, json));
    }
    out.extend_from_slice(TAIL);
    out
}

/// A shard's first bytes; then each entry's `line`, then `TAIL`: `shard` a piece at a time,
/// for a build that writes a large domain's file as its entries are rendered.
pub(crate) fn head(domain: &str) -> Vec<u8> {
    let mut out = b"{\"domain\":".to_vec();
    out.extend_from_slice(&quote(domain));
    out.extend_from_slice(b",\"entries\":{");
    out
}

/// One entry of a shard (`first`: the shard's first entry), after `head` or the line before.
pub(crate) fn line(first: bool, id: &str, json: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(json.len() + id.len() + 8);
    out.extend_from_slice(if first { b"\n" } else { b",\n" });
    out.extend_from_slice(&quote(id));
    out.push(b':');
    out.extend_from_slice(json);
    out
}

/// A shard's last bytes.
pub(crate) const TAIL: &[u8] = b"\n}}\n";

/// `s` as a JSON string.
fn quote(s: &str) -> Vec<u8> {
    serde_json::to_vec(s).unwrap_or_else(|_| b"\"\"".to_vec())
}

/// The entries of a shard `shard` made, borrowed from its bytes, in ID order; `None` when the
/// bytes are not such a shard.
fn entries(bytes: &[u8]) -> Option<Vec<(&str, &[u8])>> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut lines = text.lines();
    let head = lines.next()?;
    if !(head.starts_with("{\"domain\":") && head.ends_with(",\"entries\":{")) {
        return None;
    }
    let mut out: Vec<(&str, &[u8])> = Vec::new();
    for line in lines {
        if line == "}}" {
            // Written in ID order; a file edited by hand is put back in order (the last line of
            // an ID wins, as a map would have it).
            if !out.windows(2).all(|w| w[0].0 < w[1].0) {
                out.reverse();
                out.sort_by(|a, b| a.0.cmp(b.0));
                out.dedup_by(|a, b| a.0 == b.0);
            }
            return Some(out);
        }
        let line = line.strip_suffix(',').unwrap_or(line);
        // The key is an entry ID: a JSON string without escapes (IDs are [a-z0-9_-/]).
        let rest = line.strip_prefix('"')?;
        let (id, json) = rest.split_once("\":")?;
        out.push((id, json.as_bytes()));
    }
    None
}

/// Whether the shard `old` already holds every entry of `changes` as it is (none of them
/// removed): then splicing them in would give the same bytes.
pub(crate) fn holds(old: &[u8], changes: &BTreeMap<String, Option<Vec<u8>>>) -> bool {
    let Ok(text) = std::str::from_utf8(old) else {
        return false;
    };
    changes.iter().all(|(id, json)| {
        let Some(Ok(json)) = json.as_deref().map(std::str::from_utf8) else {
            return false;
        };
        let line = format!("\n{}:{json}", String::from_utf8_lossy(&quote(id)));
        text.match_indices(&line).any(|(at, _)| {
            let rest = &text[at + line.len()..];
            rest.starts_with(",\n") || rest.starts_with("\n}}")
        })
    })
}

/// The shard of `domain` after setting (`Some`) or removing (`None`) the entries of `changes`
/// in `old` (the shard as written before, or nothing). `None` when no entry is left. The
/// entries that did not change are copied as they are, in one pass.
pub(crate) fn splice(
    domain: &str,
    old: Option<&[u8]>,
    changes: &BTreeMap<String, Option<Vec<u8>>>,
) -> Option<Vec<u8>> {
    let kept = old.and_then(entries).unwrap_or_default();
    let mut all: Vec<(&str, &[u8])> = Vec::with_capacity(kept.len() + changes.len());
    let mut kept = kept.into_iter().peekable();
    for (id, json) in changes {
        while let Some(k) = kept.next_if(|k| k.0 < id.as_str()) {
            all.push(k);
        }
        kept.next_if(|k| k.0 == id.as_str());
        if let Some(j) = json {
            all.push((id, j));
        }
    }
    all.extend(kept);
    if all.is_empty() {
        return None;
    }
    Some(shard(domain, all))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(entries: &[(&str, &str)]) -> Vec<u8> {
        shard("np", entries.iter().map(|(i, j)| (*i, j.as_bytes())))
    }

    #[test]
    fn a_shard_is_json_keyed_by_id() {
        let bytes = full(&[("np/a", r#"{"x":"a\nb"}"#), ("np/b", "{}")]);
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(v["domain"], "np");
        assert_eq!(v["entries"]["np/a"]["x"], "a\nb");
        assert_eq!(v["entries"]["np/b"], serde_json::json!({}));
        let empty: serde_json::Value = serde_json::from_slice(&full(&[])).unwrap();
        assert_eq!(empty["entries"], serde_json::json!({}));
    }

    #[test]
    fn splices_give_what_a_full_build_gives() {
        let old = full(&[("np/a", "{\"v\":1}"), ("np/c", "{\"v\":3}")]);
        let mut changes = BTreeMap::new();
        changes.insert("np/a".to_string(), Some(b"{\"v\":10}".to_vec()));
        changes.insert("np/b".to_string(), Some(b"{\"v\":2}".to_vec()));
        changes.insert("np/c".to_string(), None);
        let spliced = splice("np", Some(&old), &changes).unwrap();
        assert_eq!(
            spliced,
            full(&[("np/a", "{\"v\":10}"), ("np/b", "{\"v\":2}")])
        );
        // A new domain, and a domain whose last entry went away.
        assert_eq!(
            splice("np", None, &changes).unwrap(),
            full(&[("np/a", "{\"v\":10}"), ("np/b", "{\"v\":2}")])
        );
        let mut gone = BTreeMap::new();
        gone.insert("np/a".to_string(), None);
        assert_eq!(splice("np", Some(&full(&[("np/a", "{}")])), &gone), None);
    }

    #[test]
    fn a_shard_out_of_order_is_put_back_in_order() {
        let old = b"{\"domain\":\"np\",\"entries\":{\n\"np/c\":{\"v\":3},\n\"np/a\":{\"v\":1},\n\"np/c\":{\"v\":4}\n}}\n";
        let mut changes = BTreeMap::new();
        changes.insert("np/b".to_string(), Some(b"{\"v\":2}".to_vec()));
        let want = full(&[
            ("np/a", "{\"v\":1}"),
            ("np/b", "{\"v\":2}"),
            ("np/c", "{\"v\":4}"),
        ]);
        assert_eq!(splice("np", Some(old), &changes).unwrap(), want);
    }

    #[test]
    fn a_shard_holds_its_entries_as_they_are() {
        let old = full(&[("np/a", "{\"v\":1}"), ("np/ab", "{\"v\":2}")]);
        let change = |id: &str, v: Option<&str>| {
            let mut c = BTreeMap::new();
            c.insert(id.to_string(), v.map(|v| v.as_bytes().to_vec()));
            c
        };
        assert!(holds(&old, &change("np/a", Some("{\"v\":1}"))));
        assert!(holds(&old, &change("np/ab", Some("{\"v\":2}"))));
        assert!(!holds(&old, &change("np/a", Some("{\"v\":2}"))));
        assert!(
            !holds(&old, &change("np/a", Some("{\"v\":"))),
            "a prefix of the line"
        );
        assert!(!holds(&old, &change("np/b", Some("{\"v\":1}"))));
        assert!(!holds(&old, &change("np/a", None)));
    }
}
