//! The integration tests, in one test binary (`cargo test` links it once). Each module is a
//! scenario or a family of them; most drive the `errbook` binary on a fixture catalog under
//! tests/fixtures/ and assert on what users see.

mod common;
mod runs;
mod search_cases;

mod cli_new;
mod determinism;
mod diagnostics;
mod incremental;
mod layers;
mod link_explicit;
mod link_quality;
mod parse_seed;
mod sandbox;
mod search_accuracy;
mod search_cli;
mod search_parity;
mod serve;
mod site_output;
mod slurm;
mod ssh;
mod synth;
mod verify;
