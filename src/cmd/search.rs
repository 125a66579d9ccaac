//! `errbook search QUERY`: the site's ranking in the terminal. QUERY `-` reads stdin (a pasted
//! traceback). Prints the detected error and the top entries with ID, message, score and URL;
//! exits 1 when nothing matches well (no match, or a best match below `search.weak_score`).

use errbook_core::{Config, Result};
use errbook_site::Answer;
use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

pub(crate) fn run(root: &Path, query: &str, limit: usize, json: bool) -> Result<ExitCode> {
    let cfg = Config::load(root)?;
    let text = if query == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| errbook_core::Error::system("reading stdin", e))?;
        s
    } else {
        query.to_string()
    };
    let answer = errbook_site::search(root, &cfg, &text, limit)?;
    if json {
        print_json(&answer);
    } else {
        print_text(&answer);
    }
    Ok(if answer.confident() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_json(a: &Answer) {
    let results: Vec<serde_json::Value> = a
        .hits
        .iter()
        .map(|h| {
            serde_json::json!({
                "id": h.id, "message": h.message,
                "score": (h.score * 1000.0).round() / 1000.0,
                "url": h.url,
            })
        })
        .collect();
    let v = serde_json::json!({
        "detected": {"exception": a.detected.exception, "template": a.detected.template},
        "terms": a.terms,
        "weak": !a.confident(),
        "results": results,
    });
    println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
}

fn print_text(a: &Answer) {
    println!("Detected: {}", a.detected.template);
    if a.hits.is_empty() {
        println!("No entry matches.");
    } else if !a.confident() {
        println!(
            "Only weak matches (best score {:.2} < {:.2}); none of these is likely the answer:",
            a.hits[0].score, a.weak_score
        );
    }
    for (k, h) in a.hits.iter().enumerate() {
        let tag = if h.score < a.weak_score {
            "  (weak)"
        } else {
            ""
        };
        println!("\n{:>2}. {}  score {:.2}{tag}", k + 1, h.id, h.score);
        println!("    {}", h.message);
        println!("    {}", h.url);
    }
}
