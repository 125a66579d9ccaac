//! The index's files' shape: how it is cut (`Layout`), the stable hash that names its files and
//! their JSON; what `shards` and `tiers` both follow.

use std::collections::HashSet;

/// How the index is cut.
#[derive(Debug, Clone)]
pub struct Layout {
    /// About how many bytes of postings a run of terms holds, at least and at most. (Four
    /// times larger runs doubled a first query's bytes and spared it one file of twenty: its
    /// terms are spread over the alphabet, a run each.)
    pub run_min: usize,
    pub run_max: usize,
    /// Documents per document shard: a query reranks at most 24 documents, so it fetches at
    /// most 24 of these whatever the catalog's size. A query's best lie close together (entries
    /// in their files' order: an error's family shares a folder or a name's start), so fewer,
    /// larger shards cost a first query few bytes more and spare it requests: a browser opens
    /// at most six at a time to a host, and each round waits for its last.
    pub docs: usize,
    /// Articles per article shard.
    pub arts: usize,
    /// A term in more documents than this ships its postings in impact tiers (`tiers`)... Below
    /// it a whole list is at most about a run's bytes and does not grow with the catalog; each
    /// long term's tiers are files of their own, so a lower bound costs files on small sites.
    pub long: usize,
    /// ... the first of them this many postings, each next one twice as many.
    pub tier: usize,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout {
            run_min: 6 * 1024,
            run_max: 24 * 1024,
            docs: 512,
            arts: 64,
            long: 4096,
            tier: 256,
        }
    }
}

/// A 64-bit FNV-1a hash: stable across builds and platforms.
pub(super) fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The name of a run of terms that starts at `first`: a hash of it, with a suffix on the rare
/// clash with a name in `names` (never another run's file). The name is added to `names`.
pub(super) fn run_name(first: &str, names: &mut HashSet<String>) -> String {
    let mut name = format!("{:016x}", fnv(first));
    while !names.insert(name.clone()) {
        name.push('x');
    }
    name
}

/// Serialise to JSON; the values here are plain data, so this cannot fail in practice.
pub(super) fn json<T: serde::Serialize>(v: &T) -> Vec<u8> {
    serde_json::to_vec(v).unwrap_or_default()
}
