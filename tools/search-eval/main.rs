//! `errbook-search-eval`: how well `errbook search` (the same ranking as the browser's) answers
//! real pastes. It reads a catalog folder with a `pastes.txt` beside its `book.toml` (real
//! messages, tracebacks, log lines and reports, each labelled with the entry that answers it or
//! `-` for an error the catalog lacks, its kind and its source), ranks every paste and prints
//! top-1, top-3, right-and-confident and negatives-answered-weak, by kind, for the tuning part,
//! the held-out part and both.
//!
//!     cargo run --release --bin errbook-search-eval -- bench/search-eval
//!     cargo run --release --bin errbook-search-eval -- bench/search-eval --misses tune
//!
//! Kept out of the library: it is a tool of this repository, like `errbook-synth`.

mod pastes;
mod score;

use clap::Parser;
use pastes::Split;
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
    misses: Option<Which>,
    /// Print every figure as JSON instead of tables.
    #[arg(long)]
    json: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    Tune,
    Held,
    All,
}

impl Which {
    fn keeps(self, s: Split) -> bool {
        match self {
            Which::Tune => s == Split::Tune,
            Which::Held => s == Split::Held,
            Which::All => true,
        }
    }
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
    let cfg = errbook::Config::load(&args.dir).map_err(|e| e.to_string())?;
    let searcher = errbook::site::Searcher::open(&args.dir, &cfg).map_err(|e| e.to_string())?;
    let pastes = pastes::read(&args.dir.join("pastes.txt"))?;
    let t0 = std::time::Instant::now();
    let outcomes: Vec<score::Outcome> = pastes
        .iter()
        .map(|p| score::outcome(&searcher, p))
        .collect();
    let elapsed = t0.elapsed();
    let reports = [
        (
            Which::Tune,
            score::report(&pastes, &outcomes, |s| Which::Tune.keeps(s)),
        ),
        (
            Which::Held,
            score::report(&pastes, &outcomes, |s| Which::Held.keeps(s)),
        ),
        (Which::All, score::report(&pastes, &outcomes, |_| true)),
    ];
    if args.json {
        print_json(args, &pastes, &outcomes, &reports);
    } else {
        println!(
            "errbook search on {} pastes in {} ({:.1} ms each); weak below {}\n",
            pastes.len(),
            args.dir.display(),
            elapsed.as_secs_f64() * 1000.0 / pastes.len().max(1) as f64,
            cfg.search.weak_score
        );
        for (w, r) in &reports {
            let name = match w {
                Which::Tune => "tuning part",
                Which::Held => "held-out part",
                Which::All => "all pastes",
            };
            println!("{}", score::table(name, r));
        }
        if let Some(w) = args.misses {
            print_misses(w, &pastes, &outcomes);
        }
    }
    Ok(())
}

fn print_misses(w: Which, pastes: &[pastes::Paste], outcomes: &[score::Outcome]) {
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
    reports: &[(Which, score::Report)],
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
    let v = serde_json::json!({ "pastes": pastes.len(), "splits": splits, "cases": cases });
    println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
}
