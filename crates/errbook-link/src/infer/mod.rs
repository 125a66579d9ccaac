//! Inference: one submodule per kind of link. Each returns candidates with their evidence and a
//! score in 0..=1; `link::link_with` applies the threshold, and `decide` the authors'
//! confirm/reject.

pub mod articles;
mod coded;
mod features;
pub mod index;
pub mod keys;
pub mod related;
mod scan;
pub mod snippets;
pub mod wanted;

/// Round to two decimals, as scores and weights are shown.
pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
