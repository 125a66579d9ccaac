//! Records: what `errbook verify` found when it ran a snippet, kept in the repository so a
//! build without GPUs still shows it. `record` (the data), `verdict` (its words), `hash` (what
//! decides a run, and so a record's key), `set` (the records of a catalog and each snippet's
//! status), `store` (file names and writing).

pub(crate) mod hash;
pub(crate) mod record;
pub(crate) mod set;
pub(crate) mod store;
pub(crate) mod verdict;

pub use record::{Environment, RaisedError, Record};
pub(crate) use set::{RecordSet, Status};
pub use verdict::Verdict;
