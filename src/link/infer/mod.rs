//! Inference: one submodule per kind of link. Each returns candidates with their evidence and a
//! score in 0..=1; `link::link` applies the threshold and the authors' confirm/reject.

pub mod articles;
pub mod related;
pub mod snippets;
