//! Site: one build of the whole site (`build`), the stages that only read (`analysis`), the
//! catalog kept in memory with its site made on request (`workspace`, for `serve`), `check` with its view of the records (`check`)
//! and of links within the site (`internal`),
//! and the terminal's search (`query`); the code blocks' claims as `errbook claims` lists them
//! (`claims`).

mod analysis;
mod build;
mod check;
mod claims;
mod external;
mod internal;
mod query;
mod snapshot;
mod theme;
mod workspace;

pub use analysis::{analyse, analyse_with, Analysis, Scope};
pub use build::{build, BuildOptions, BuildReport, OnProgress};
pub use check::{check, explain_links};
pub use claims::{
    attributes_to_write, claims, expect_entry_errors, write_claims, BlockClaim, ClaimList,
    NamedError, VerdictIn,
};
pub use external::{check_external, ExternalOptions};
pub use query::{search, Answer, Hit, Searcher};
pub use snapshot::Snapshot;
pub use workspace::Workspace;
