//! `errbook-claims-eval`: how well errbook reads what a catalog's code blocks claim, and what
//! its articles are about. It runs `errbook claims --root <set> --format json` on a labelled set
//! (bench/claims: book.toml, content/ and labels.toml) and prints, for the tuning part, the
//! held-out part and both, overall, by kind of article and by label: the share of blocks whose
//! claim is right, the share given a claim where the text makes none (invented), the share of
//! complete blocks errbook can run; and, from a build's api/links.json, the precision and
//! recall of article-to-entry links.
//!
//!     cargo run --bin errbook-claims-eval -- bench/claims
//!     cargo run --bin errbook-claims-eval -- bench/claims --misses tune
//!     cargo run --bin errbook-claims-eval -- bench/claims --errbook path/to/errbook --json
//!
//! Kept out of the library: it is a tool of this repository, like `errbook-search-eval`.

mod labels;
mod links;
mod score;

use clap::Parser;
use errbook_eval_split::Part;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// Measure errbook's reading of claims and links on a labelled set.
#[derive(Parser, Debug)]
#[command(name = "errbook-claims-eval", version)]
struct Args {
    /// The labelled set: book.toml, content/ and labels.toml.
    dir: PathBuf,
    /// The errbook binary to measure; by default the one built beside this tool, else the
    /// one on PATH.
    #[arg(long, value_name = "PATH")]
    errbook: Option<PathBuf>,
    /// Also list the blocks and links of this part that errbook got wrong.
    #[arg(long, value_enum)]
    misses: Option<Part>,
    /// Print every figure as JSON instead of tables.
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// The errbook to measure: the argument, else `errbook` beside this tool's binary (the same
/// target folder), else `errbook` on PATH.
fn errbook_binary(arg: Option<&Path>) -> PathBuf {
    if let Some(p) = arg {
        return p.to_path_buf();
    }
    let beside = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(|d| d.join("errbook")))
        .filter(|p| p.is_file());
    beside.unwrap_or_else(|| PathBuf::from("errbook"))
}

/// `errbook claims --format json` of the set, parsed.
fn claims_json(errbook: &Path, dir: &Path) -> Result<serde_json::Value, String> {
    let o = Command::new(errbook)
        .arg("--root")
        .arg(dir)
        .args(["claims", "--format", "json"])
        .output()
        .map_err(|e| format!("{}: {e}", errbook.display()))?;
    let out = String::from_utf8_lossy(&o.stdout);
    serde_json::from_str(&out).map_err(|e| {
        format!(
            "`{} claims --format json` gave no JSON object ({e}; exit {:?}): {}",
            errbook.display(),
            o.status.code(),
            String::from_utf8_lossy(&o.stderr)
                .chars()
                .take(400)
                .collect::<String>()
        )
    })
}

fn run(args: &Args) -> Result<(), String> {
    let articles = labels::read(&args.dir)?;
    let errbook = errbook_binary(args.errbook.as_deref());
    let said = score::said(&claims_json(&errbook, &args.dir)?);
    let cases = score::cases(&articles, &said);
    let linked = links::built(&errbook, &args.dir)?;
    let reports: Vec<_> = Part::ALL
        .iter()
        .map(|w| {
            let r = score::report(&cases, |s| w.keeps(s));
            let l = links::score(&articles, &linked, |s| w.keeps(s));
            (*w, r, l)
        })
        .collect();
    if args.json {
        let mut parts = serde_json::Map::new();
        for (w, r, (l, _)) in &reports {
            let v = json!({
                "all": r.all, "by_kind": r.by_kind, "by_label": r.by_label,
                "claims_right": r.all.right_share(),
                "invented": r.all.invented_share(),
                "runnable": r.all.runnable_share(),
                "runnable_claimed": r.all.runnable_claimed_share(),
                "links": l, "links_precision": l.precision(), "links_recall": l.recall(),
            });
            parts.insert(w.name().to_string(), v);
        }
        let misses: Vec<&score::Case> = cases
            .iter()
            .filter(|c| args.misses.is_some_and(|w| w.keeps(c.split)) && c.missed())
            .collect();
        let v = json!({
            "errbook": errbook.display().to_string(),
            "articles": articles.len(), "blocks": cases.len(),
            "splits": parts, "misses": misses,
        });
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return Ok(());
    }
    println!(
        "errbook claims ({}) on {} blocks of {} articles in {}\n",
        errbook.display(),
        cases.len(),
        articles.len(),
        args.dir.display()
    );
    for (w, r, (l, _)) in &reports {
        println!("{}", score::table(&format!("{} part", w.name()), r));
        println!(
            "  links: {} articles, precision {:.1}%, recall {:.1}% ({} right, {} extra, {} missing)\n",
            l.articles,
            100.0 * l.precision(),
            100.0 * l.recall(),
            l.true_pos,
            l.false_pos,
            l.false_neg
        );
    }
    if let Some(w) = args.misses {
        print_misses(w, &cases, &reports);
    }
    Ok(())
}

fn print_misses(w: Part, cases: &[score::Case], reports: &[(Part, score::Report, LinksOf)]) {
    println!("Blocks read wrong or not runnable ({}):", w.name());
    for c in cases.iter().filter(|c| w.keeps(c.split) && c.missed()) {
        let want = format!(
            "{}{}",
            c.want.name(),
            if c.complete { ", complete" } else { "" }
        );
        match &c.got {
            None => println!(
                "\n  {} #{} [{}]: want {want}; errbook lists no such block",
                c.page,
                c.block,
                c.split.name()
            ),
            Some(s) => {
                println!(
                    "\n  {} #{} [{}] (line {}): want {want}; got {} ({}, {:.2}), runnable {}{}",
                    c.page,
                    c.block,
                    c.split.name(),
                    s.line,
                    s.claim,
                    s.source,
                    s.confidence,
                    s.runnable,
                    s.why_not
                        .as_deref()
                        .map(|w| format!(": {w}"))
                        .unwrap_or_default()
                );
                for e in s.evidence.iter().take(4) {
                    println!("      {}", e.chars().take(140).collect::<String>());
                }
            }
        }
    }
    if let Some((_, _, (_, misses))) = reports.iter().find(|(x, _, _)| *x == w) {
        println!("\nArticle links wrong ({}):", w.name());
        for (a, extra, lost) in misses {
            println!("  {a}: linked but not about {extra:?}; about but not linked {lost:?}");
        }
    }
}

type LinksOf = (links::LinkCounts, Vec<links::LinkMiss>);
