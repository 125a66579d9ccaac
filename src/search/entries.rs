//! The entries' files (`d/K`), what a query's second pass and its results read of each entry:
//! `[id, message, [articles], [aliases], [df...]]`. Each entry is written against the one
//! before it: entries come in their files' order, so neighbours often share a folder, a name's
//! start, a message's start and its words. A row is `[i, id, m, message, [articles], [aliases],
//! df]`: `i` and `m` say how much of the entry before's id and message this one's start repeats
//! (in UTF-16 units, as JavaScript's `slice` counts), `id` and `message` the rest; `df` is 0
//! where it repeats the entry before's list. search-index.js (`entries`) reads them back.
//!
//! A paste at 100,000 generated entries reads about five of these files of 512 entries, for the
//! two dozen it reranks: written whole they were 0.7 MB of its 1.3 MB of JSON, and Chromium's
//! time on a file grows with its bytes.

use serde::Serialize;

/// One entry as its file holds it.
pub(super) struct Entry<'a> {
    pub(super) id: &'a str,
    pub(super) message: &'a str,
    pub(super) arts: &'a [u32],
    pub(super) aliases: &'a [String],
    /// The document frequency of each distinct term of its message, then of each alias.
    pub(super) dfs: Vec<usize>,
}

#[derive(Serialize)]
struct Row<'a>(
    usize,
    &'a str,
    usize,
    &'a str,
    &'a [u32],
    &'a [String],
    Df<'a>,
);

#[derive(Serialize)]
#[serde(untagged)]
enum Df<'a> {
    Same(u8),
    List(&'a [usize]),
}

/// How much of `b`'s start repeats `a`'s, whole characters: in UTF-16 units and in bytes.
fn shared(a: &str, b: &str) -> (usize, usize) {
    let (mut units, mut bytes) = (0, 0);
    for (x, y) in a.chars().zip(b.chars()) {
        if x != y {
            break;
        }
        units += x.len_utf16();
        bytes += x.len_utf8();
    }
    (units, bytes)
}

/// The JSON of a file of entries, in order.
pub(super) fn file(entries: &[Entry<'_>]) -> Vec<u8> {
    let rows: Vec<Row<'_>> = entries
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let before = k.checked_sub(1).map(|b| &entries[b]);
            let (iu, ib) = before.map_or((0, 0), |b| shared(b.id, e.id));
            let (mu, mb) = before.map_or((0, 0), |b| shared(b.message, e.message));
            let df = match before {
                Some(b) if b.dfs == e.dfs => Df::Same(0),
                _ => Df::List(&e.dfs),
            };
            Row(iu, &e.id[ib..], mu, &e.message[mb..], e.arts, e.aliases, df)
        })
        .collect();
    super::layout::json(&rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry<'a>(id: &'a str, message: &'a str, dfs: &[usize]) -> Entry<'a> {
        Entry {
            id,
            message,
            arts: &[],
            aliases: &[],
            dfs: dfs.to_vec(),
        }
    }

    #[test]
    fn each_entry_is_written_against_the_one_before() {
        let es = [
            entry("cuda/oom-1", "CUDA out of memory", &[3, 4]),
            entry("cuda/oom-2", "CUDA out of memory (2)", &[3, 4]),
            entry("nccl/x", "NCCL error", &[5]),
        ];
        let got = String::from_utf8(file(&es)).unwrap();
        assert_eq!(
            got,
            r#"[[0,"cuda/oom-1",0,"CUDA out of memory",[],[],[3,4]],[9,"2",18," (2)",[],[],0],[0,"nccl/x",0,"NCCL error",[],[],[5]]]"#
        );
    }

    #[test]
    fn shared_starts_are_counted_as_javascript_counts_and_end_on_a_character() {
        // "é" is one UTF-16 unit and two bytes; "𝄞" two units and four bytes; "é" and "è"
        // share their first byte but not a character.
        assert_eq!(shared("é𝄞a", "é𝄞b"), (3, 6));
        assert_eq!(shared("é", "è"), (0, 0));
        let es = [entry("a", "x é", &[1]), entry("b", "x è", &[2])];
        let got = String::from_utf8(file(&es)).unwrap();
        assert!(got.ends_with(r#"[0,"b",2,"è",[],[],[2]]]"#), "{got}");
    }
}
