//! `errbook claims [PATH...]`: every code block of the pages under PATH (all by default) with the
//! claim errbook reads or the author declared, its evidence, needs, continuation, whether it can
//! run and its verdicts; `--format json` prints one object (`{"blocks": [...]}`, a shape other
//! tools read); `--write` writes the inferred readings into the Markdown as attributes.

use errbook_core::{Config, Result};
use errbook_site::BlockClaim;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Content files or folders to read (every page when none).
    paths: Vec<PathBuf>,
    /// How to print: for people, or one JSON object.
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
    /// Write each inferred claim of a block that can run into its fence's info string (it is
    /// declared from then on), and say which files changed.
    #[arg(long)]
    write: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq)]
enum Format {
    Human,
    Json,
}

pub(crate) fn run(root: &Path, args: Args) -> Result<ExitCode> {
    let cfg = Config::load(root)?;
    let list = errbook_site::claims(root, &cfg, &args.paths)?;
    let blocks = &list.blocks;
    if args.write {
        let changed = errbook_site::write_claims(root, blocks)?;
        for f in &changed {
            println!("wrote claims into {}", f.display());
        }
        println!("{} file(s) changed", changed.len());
        return Ok(ExitCode::SUCCESS);
    }
    match args.format {
        Format::Json => {
            println!(
                "{}",
                serde_json::to_string_pretty(&list).unwrap_or_default()
            );
        }
        Format::Human => print_human(blocks),
    }
    Ok(ExitCode::SUCCESS)
}

fn print_human(blocks: &[BlockClaim]) {
    let mut page = "";
    for b in blocks {
        if b.page != page {
            page = &b.page;
            println!("{page}");
        }
        let claim = match (&b.error, b.claim) {
            (Some(e), _) => {
                let mut s = format!(
                    "fails with {}",
                    e.exception.as_deref().unwrap_or("an error")
                );
                if let Some(m) = &e.message {
                    s.push_str(&format!(" \u{201c}{m}\u{201d}"));
                }
                s
            }
            (None, "runs") => "runs cleanly".to_string(),
            _ => "no claim".to_string(),
        };
        let lang = if b.lang.is_empty() {
            "no language"
        } else {
            &b.lang
        };
        println!(
            "  block {} (line {}, {lang}): {claim} [{}, confidence {:.2}]",
            b.block, b.line, b.source, b.confidence
        );
        for e in &b.evidence {
            println!("      line {}: \u{201c}{}\u{201d}", e.line, clean(&e.text));
        }
        if !b.continues.is_empty() {
            let c: Vec<String> = b.continues.iter().map(|c| c.to_string()).collect();
            println!("      runs after the definitions of block {}", c.join(", "));
        }
        match (&b.why_not, b.runnable) {
            (Some(why), _) => println!("      not run: {}", clean(why)),
            (None, true) => println!("      runs on {} GPU(s)", b.gpus),
            (None, false) => {}
        }
        for v in &b.verdicts {
            println!("      {}: {}", v.environment, v.verdict.word());
        }
    }
}

/// Text from the catalog without control characters before it reaches a terminal.
fn clean(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).collect()
}
