//! The entries' JSON folded into one file per domain (`build.entry_json = "domains"`):
//! `api/errors/<domain>.json` is `{"domain": ..., "entries": {"<id>": <entry JSON>, ...}}`, one
//! entry per line in ID order, written a piece at a time as a build renders the domain.

/// A shard's first bytes; then each entry's `line`, then `TAIL`.
pub fn head(domain: &str) -> Vec<u8> {
    let mut out = b"{\"domain\":".to_vec();
    out.extend_from_slice(&quote(domain));
    out.extend_from_slice(b",\"entries\":{");
    out
}

/// One entry of a shard (`first`: the shard's first entry), after `head` or the line before.
pub fn line(first: bool, id: &str, json: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(json.len() + id.len() + 8);
    out.extend_from_slice(if first { b"\n" } else { b",\n" });
    out.extend_from_slice(&quote(id));
    out.push(b':');
    out.extend_from_slice(json);
    out
}

/// A shard's last bytes.
pub const TAIL: &[u8] = b"\n}}\n";

/// `s` as a JSON string.
fn quote(s: &str) -> Vec<u8> {
    serde_json::to_vec(s).unwrap_or_else(|_| b"\"\"".to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(entries: &[(&str, &str)]) -> Vec<u8> {
        let mut out = head("np");
        for (i, (id, json)) in entries.iter().enumerate() {
            out.extend(line(i == 0, id, json.as_bytes()));
        }
        out.extend_from_slice(TAIL);
        out
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
}
