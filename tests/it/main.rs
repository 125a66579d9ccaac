//! The integration tests, in one test binary (`cargo test` links it once). Each module is a
//! scenario or a family of them; most drive the `errbook` binary on a fixture catalog under
//! tests/fixtures/ and assert on what users see.

mod common;
mod runs;
mod search_cases;

mod build_progress;
mod cascade;
mod check_formats;
mod claims;
mod claims_entry;
mod claims_eval;
mod cli_conventions;
mod cli_new;
mod crash;
mod debug_output;
mod determinism;
mod diagnostics;
mod docs_markdown;
mod drafts;
mod examples_across_entries;
mod external_links;
mod init;
mod injection;
mod internal_links;
mod link_codes;
mod link_explicit;
mod link_quality;
mod lsp;
mod markdown_gfm;
mod output_folder;
mod parse_seed;
mod sandbox;
mod search_accuracy;
mod search_cli;
mod search_eval;
mod search_parity;
mod search_pastes;
mod seed_links;
mod serve;
mod serve_hostile;
mod site_output;
mod slurm;
mod ssh;
mod synth;
mod verify;
mod verify_evidence;
mod verify_packing;
mod verify_seed;
mod verify_support;
