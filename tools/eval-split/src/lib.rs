//! The tuning and held-out parts of an evaluation set (bench/search-eval, bench/claims): an
//! item's part comes from a hash of its key, so that it never changes with the item's order,
//! a library's version or the machine; and the parts a tool reports on (`--misses PART`).

use std::hash::Hasher;

/// Which part of a set an item belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Split {
    /// Read while tuning.
    Tune,
    /// Never looked at while tuning: the figures that count.
    Held,
}

impl Split {
    /// The part's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Split::Tune => "tune",
            Split::Held => "held out",
        }
    }
}

/// Share of items held out, in tenths.
const HELD_TENTHS: u64 = 3;

/// The part of the item whose key is `key`: FNV-1a (64 bits) of its bytes, which no Rust
/// release or crate version changes.
pub fn split(key: &str) -> Split {
    let mut h = fnv::FnvHasher::default();
    h.write(key.as_bytes());
    if h.finish() % 10 < HELD_TENTHS {
        Split::Held
    } else {
        Split::Tune
    }
}

/// A part a tool reports on: one of the two, or both.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Tune,
    Held,
    All,
}

impl Part {
    /// The three, in the order reports list them.
    pub const ALL: [Part; 3] = [Part::Tune, Part::Held, Part::All];

    /// Whether this part takes the items of `s`.
    pub fn keeps(self, s: Split) -> bool {
        match self {
            Part::Tune => s == Split::Tune,
            Part::Held => s == Split::Held,
            Part::All => true,
        }
    }

    /// The part's name in JSON reports.
    pub fn name(self) -> &'static str {
        match self {
            Part::Tune => "tune",
            Part::Held => "held",
            Part::All => "all",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The split of keys already in the sets must never move: these are parts they were given.
    #[test]
    fn parts_stay_where_they_were() {
        // FNV-1a 64 of "" is the offset basis, 0xcbf29ce484222325, whose remainder mod 10 is 7.
        let mut h = fnv::FnvHasher::default();
        h.write(b"");
        assert_eq!(h.finish(), 0xcbf2_9ce4_8422_2325);
        assert_eq!(split(""), Split::Tune);
        let held = (0..1000).filter(|i| split(&format!("k{i}")) == Split::Held);
        let n = held.count();
        assert!((250..350).contains(&n), "{n} of 1000 held out");
    }
}
