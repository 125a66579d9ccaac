//! Inference: one submodule per kind of link. Each returns candidates with their evidence and a
//! score in 0..=1; `link::link_with` applies the threshold, and `decide` the authors'
//! confirm/reject.

pub(crate) mod articles;
mod coded;
mod features;
pub(crate) mod index;
pub(crate) mod keys;
pub(crate) mod related;
mod scan;
pub(crate) mod snippets;
mod titled;
mod topic;
pub(crate) mod wanted;

/// Round to two decimals, as scores and weights are shown.
pub(crate) fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
