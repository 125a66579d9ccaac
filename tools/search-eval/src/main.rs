//! `errbook-search-eval`: how well `errbook search` (the same ranking as the browser's) answers
//! real pastes. It reads a catalog folder with a `pastes.txt` beside its `book.toml` (real
//! messages, tracebacks, log lines and reports, each labelled with the entry that answers it or
//! `-` for an error the catalog lacks, its kind and its source), ranks every paste and prints
//! top-1, top-3, right-and-confident and negatives-answered-weak, by kind, for the tuning part,
//! the held-out part and both.
//!
//!     cargo run --release --bin errbook-search-eval -- bench/search-eval
//!     cargo run --release --bin errbook-search-eval -- bench/search-eval --misses tune
//!     cargo run --release --bin errbook-search-eval -- bench/search-eval --time-on CATALOG
//!
//! It also times every paste (`timing`): against the evaluation catalog, and with `--time-on`
//! against a larger catalog (the 10,000-entry one `errbook-synth` writes).
//!
//! Kept out of the library: it is a tool of this repository, like `errbook-synth`.

mod pastes;
mod score;
mod timing;

use clap::Parser;
use errbook_eval_split::Part;
use std::path::PathBuf;
use std::process::ExitCode;

/// Measure the search on labelled real pastes.
#[derive(Parser, Debug)]
#[command(name = "errbook-search-eval", version)]
struct Args {
    /// The evaluation catalog: book.toml, content/ and pastes.txt.
    dir: PathBuf,
    /// Also list the pastes of this split that were not answered right and confidently.
    #[arg(long, value_enum)]
    misses: Option<Part>,
    /// Print every figure as JSON instead of tables.
    #[arg(long)]
    json: bool,
    /// Also time every paste against this catalog's index (a folder with book.toml), such as
    /// the 10,000-entry catalog of scripts/search-bench.sh.
    #[arg(long, value_name = "DIR")]
    time_on: Option<PathBuf>,
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

fn run(args: &Args) -> Result<(), String> {
    let cfg = errbook_core::Config::load(&args.dir).map_err(|e| e.to_string())?;
    let searcher = errbook_site::Searcher::open(&args.dir, &cfg).map_err(|e| e.to_string())?;
    let pastes = pastes::read(&args.dir.join("pastes.txt"))?;
    let outcomes: Vec<score::Outcome> = pastes
        .iter()
        .map(|p| score::outcome(&searcher, p))
        .collect();
    let texts: Vec<&str> = pastes.iter().map(|p| p.text.as_str()).collect();
    let mut times = vec![(
        "the evaluation catalog".to_string(),
        timing::time(&searcher, &texts),
    )];
    if let Some(dir) = &args.time_on {
        let cfg = errbook_core::Config::load(dir).map_err(|e| e.to_string())?;
        let other = errbook_site::Searcher::open(dir, &cfg).map_err(|e| e.to_string())?;
        times.push((dir.display().to_string(), timing::time(&other, &texts)));
    }
    let reports = [
        (
            Part::Tune,
            score::report(&pastes, &outcomes, |s| Part::Tune.keeps(s)),
        ),
        (
            Part::Held,
            score::report(&pastes, &outcomes, |s| Part::Held.keeps(s)),
        ),
        (Part::All, score::report(&pastes, &outcomes, |_| true)),
    ];
    if args.json {
        print_json(args, &pastes, &outcomes, &reports, &times);
    } else {
        println!(
            "errbook search on {} pastes in {}; weak below {}\n",
            pastes.len(),
            args.dir.display(),
            cfg.search.weak_score
        );
        for (w, r) in &reports {
            let name = match w {
                Part::Tune => "tuning part",
                Part::Held => "held-out part",
                Part::All => "all pastes",
            };
            println!("{}", score::table(name, r));
        }
        println!("{}", timing::head());
        for (label, t) in &times {
            println!("{}", timing::line(label, t));
        }
        if let Some(w) = args.misses {
            println!();
            print_misses(w, &pastes, &outcomes);
        }
    }
    Ok(())
}

fn print_misses(w: Part, pastes: &[pastes::Paste], outcomes: &[score::Outcome]) {
    println!("Not answered right and confidently ({w:?}):");
    for (p, o) in pastes.iter().zip(outcomes) {
        let right = o.rank == Some(1) && o.confident;
        let negative_ok = p.want.is_none() && !o.confident;
        if !w.keeps(p.split) || right || negative_ok {
            continue;
        }
        println!(
            "\n  line {} [{} {}] want {}\n    got {:?}{}\n    detected: {}",
            p.line,
            p.kind.name(),
            p.split.name(),
            p.want.as_deref().unwrap_or("(weak)"),
            o.top,
            if o.confident { " confident" } else { " weak" },
            o.detected.chars().take(160).collect::<String>()
        );
    }
}

fn print_json(
    args: &Args,
    pastes: &[pastes::Paste],
    outcomes: &[score::Outcome],
    reports: &[(Part, score::Report)],
    times: &[(String, timing::Times)],
) {
    let mut splits = serde_json::Map::new();
    for (w, r) in reports {
        let key = format!("{w:?}").to_lowercase();
        splits.insert(key, serde_json::to_value(r).unwrap_or_default());
    }
    let cases: Vec<serde_json::Value> = pastes
        .iter()
        .zip(outcomes)
        .filter(|(p, _)| args.misses.is_some_and(|w| w.keeps(p.split)))
        .map(|(p, o)| {
            serde_json::json!({
                "line": p.line, "kind": p.kind.name(), "split": p.split.name(),
                "want": p.want, "source": p.source, "outcome": o,
            })
        })
        .collect();
    let times: Vec<serde_json::Value> = times
        .iter()
        .map(|(label, t)| serde_json::json!({ "catalog": label, "ms": t }))
        .collect();
    let v = serde_json::json!({
        "pastes": pastes.len(), "splits": splits, "cases": cases, "times": times,
    });
    println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
}
