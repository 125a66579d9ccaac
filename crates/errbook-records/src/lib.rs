//! Records: what `errbook verify` found when it ran a snippet, kept in the repository so a
//! build without GPUs still shows it. `record` (the data), `env` (an environment's key and
//! words), `verdict` (its words, by the role of the code block), `hash` (what decides a run,
//! and so a record's key), `judge` (a run's facts against a claim), `message` (what an
//! exception's message is: not the warnings printed after it), `set` (the records of a catalog
//! and each snippet's status), `store` (file names and writing).

mod env;
pub mod hash;
pub mod judge;
pub mod message;
pub(crate) mod record;
pub(crate) mod set;
pub mod store;
pub(crate) mod verdict;

pub use record::{Environment, RaisedError, Record};
pub use set::{Judged, RecordSet, Status};
pub use verdict::Verdict;
pub use verdict::{Reading, Role};
