//! Site: one build of the whole site (`build`), the stages that only read (`analysis`),
//! incremental rebuilds for `serve` (`rebuild`), and `check`'s view of the records (`check`).

pub mod analysis;
pub mod build;
pub mod check;
pub mod rebuild;
pub mod search;

pub use analysis::{analyse, Analysis};
pub use build::{build, BuildOptions, BuildReport};
