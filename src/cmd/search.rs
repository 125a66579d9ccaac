//! `errbook search QUERY`: the site's ranking in the terminal. QUERY `-` reads stdin (a pasted
//! traceback). Prints the detected error and the top entries with ID, message, score and URL;
//! exits 1 when nothing matches well (no match, or a best match below `search.weak_score`).

use errbook::core::config::Config;
use errbook::search::{format, rank};
use errbook::Result;
use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

pub(crate) fn run(root: &Path, query: &str, limit: usize, json: bool) -> Result<ExitCode> {
    let cfg = Config::load(root)?;
    let text = if query == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| errbook::Error::Other(format!("reading stdin: {e}")))?;
        s
    } else {
        query.to_string()
    };
    let analysis = errbook::site::analyse(root, &cfg, true)?;
    let idx = format::build(&analysis);
    let answer = rank::search(&idx, &text, limit.max(1));
    let weak_score = cfg.search.weak_score;
    let good = answer.hits.first().is_some_and(|h| h.score >= weak_score);
    let url = |id: &str| format!("{}{}", cfg.site.base_url, errbook::core::urls::entry(id));

    if json {
        let results: Vec<serde_json::Value> = answer
            .hits
            .iter()
            .map(|h| {
                let (id, message, _) = &idx.docs[h.doc];
                serde_json::json!({
                    "id": id, "message": message,
                    "score": (h.score * 1000.0).round() / 1000.0,
                    "url": url(id),
                })
            })
            .collect();
        let v = serde_json::json!({
            "detected": {"exception": answer.detected.exception, "template": answer.detected.template},
            "terms": answer.terms,
            "weak": !good,
            "results": results,
        });
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        println!("Detected: {}", answer.detected.template);
        if answer.hits.is_empty() {
            println!("No entry matches.");
        } else if !good {
            println!(
                "Only weak matches (best score {:.2} < {:.2}); none of these is likely the answer:",
                answer.hits[0].score, weak_score
            );
        }
        for (k, h) in answer.hits.iter().enumerate() {
            let (id, message, _) = &idx.docs[h.doc];
            let tag = if h.score < weak_score { "  (weak)" } else { "" };
            println!("\n{:>2}. {id}  score {:.2}{tag}", k + 1, h.score);
            println!("    {message}");
            println!("    {}", url(id));
        }
    }
    Ok(if good {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
