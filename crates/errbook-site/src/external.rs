//! `check --external`: fetch every link out of the catalog and report the ones that are gone.
//! Politely, as lychee and Zola's checker do: one connection per host at a time with a pause
//! between requests, several hosts at once, HEAD first (GET where a server refuses HEAD), and a
//! cache of the links that answered, so a second check within a day asks nothing again.
//!
//! A link that answers "not found" or names no host is an error (`E-external-link`); one that
//! could not be confirmed this time (a time-out, a rate limit, a server error) is a warning.

use super::Analysis;
use errbook_core::diag::{Code, Diagnostic};
use errbook_link::external::External;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How to check.
#[derive(Debug, Clone)]
pub struct ExternalOptions {
    /// Where answers are remembered between runs (none: ask every time).
    pub cache: Option<PathBuf>,
    /// How long a link that answered stays trusted.
    pub max_age: Duration,
    /// Hosts checked at once.
    pub hosts_at_once: usize,
    /// Limit of one request.
    pub timeout: Duration,
    /// Pause between two requests to one host.
    pub pause: Duration,
}

impl Default for ExternalOptions {
    fn default() -> Self {
        ExternalOptions {
            cache: None,
            max_age: Duration::from_secs(24 * 3600),
            hosts_at_once: 8,
            timeout: Duration::from_secs(15),
            pause: Duration::from_millis(250),
        }
    }
}

/// What one URL did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Answer {
    Ok,
    /// Gone: a 4xx status (but 429), or a host that does not resolve or refuses.
    Broken(String),
    /// Not confirmed this time: a time-out, 429, a 5xx status.
    Unsure(String),
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Cached {
    answer: Answer,
    /// Seconds since the Unix epoch.
    checked: u64,
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Check every external link of `analysis`; diagnostics at each link of a URL that failed.
pub fn check_external(analysis: &Analysis, opts: &ExternalOptions) -> Vec<Diagnostic> {
    let links = errbook_link::external::links(&analysis.files);
    let mut cache: BTreeMap<String, Cached> = opts
        .cache
        .as_ref()
        .and_then(|p| std::fs::read(p).ok())
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let fresh = |c: &Cached| {
        c.answer == Answer::Ok && now().saturating_sub(c.checked) < opts.max_age.as_secs()
    };
    let mut todo: Vec<String> = links.iter().map(|l| l.url.clone()).collect();
    todo.sort();
    todo.dedup();
    todo.retain(|u| !cache.get(u).is_some_and(fresh));
    for (url, answer) in fetch_all(&todo, opts) {
        let checked = now();
        cache.insert(url, Cached { answer, checked });
    }
    if let Some(p) = &opts.cache {
        if let Ok(bytes) = serde_json::to_vec_pretty(&cache) {
            let _ = errbook_core::fs::write_atomic(p, &bytes);
        }
    }
    links
        .iter()
        .filter_map(|l| diagnostic(l, &cache.get(&l.url)?.answer))
        .collect()
}

fn diagnostic(l: &External, answer: &Answer) -> Option<Diagnostic> {
    let (code, why) = match answer {
        Answer::Ok => return None,
        Answer::Broken(why) => (Code::ExternalBroken, why),
        Answer::Unsure(why) => (Code::ExternalUnsure, why),
    };
    let hint = match code {
        Code::ExternalBroken => {
            "fix or remove the link (an archived copy can stand in for a page that is gone)"
        }
        _ => "it may answer later; `check --external` asks again on its next run",
    };
    let msg = format!("the link `{}` {why}", l.url);
    Some(Diagnostic::at(code, &l.path, &l.src, l.at.0, l.at.1, msg).hint(hint))
}

/// The host part of a URL (`example.org` of `https://example.org/a`), for politeness.
fn host_of(url: &str) -> String {
    url.parse::<ureq::http::Uri>()
        .ok()
        .and_then(|u| u.authority().map(|a| a.as_str().to_ascii_lowercase()))
        .unwrap_or_default()
}

/// Fetch `urls`: hosts in parallel, each host's URLs one after another.
fn fetch_all(urls: &[String], opts: &ExternalOptions) -> Vec<(String, Answer)> {
    let mut by_host: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for u in urls {
        by_host.entry(host_of(u)).or_default().push(u.clone());
    }
    let queue = Mutex::new(by_host.into_values().collect::<Vec<_>>());
    let out = Mutex::new(Vec::new());
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(opts.timeout))
        .user_agent(concat!(
            "errbook/",
            env!("CARGO_PKG_VERSION"),
            " (link check)"
        ))
        .build()
        .into();
    std::thread::scope(|s| {
        for _ in 0..opts.hosts_at_once.max(1) {
            s.spawn(|| {
                while let Some(group) = queue.lock().ok().and_then(|mut q| q.pop()) {
                    check_host(&agent, &group, opts.pause, &out);
                }
            });
        }
    });
    out.into_inner().unwrap_or_default()
}

/// The URLs of one host, one after another with a pause between them.
fn check_host(
    agent: &ureq::Agent,
    group: &[String],
    pause: Duration,
    out: &Mutex<Vec<(String, Answer)>>,
) {
    for (k, url) in group.iter().enumerate() {
        if k > 0 {
            std::thread::sleep(pause);
        }
        let a = fetch(agent, url);
        if let Ok(mut o) = out.lock() {
            o.push((url.clone(), a));
        }
    }
}

/// One URL: HEAD, then GET where the server will not answer HEAD.
fn fetch(agent: &ureq::Agent, url: &str) -> Answer {
    let status = match agent.head(url).call() {
        Ok(r) if matches!(r.status().as_u16(), 403 | 405 | 501) => agent.get(url).call(),
        other => other,
    };
    match status {
        Ok(r) => {
            let code = r.status().as_u16();
            match code {
                200..=399 => Answer::Ok,
                429 => Answer::Unsure("is rate limited (429)".into()),
                500..=599 => Answer::Unsure(format!("answered with a server error ({code})")),
                _ => Answer::Broken(format!("answered {code}")),
            }
        }
        Err(ureq::Error::Timeout(_)) => Answer::Unsure("did not answer in time".into()),
        Err(e) => Answer::Broken(format!("could not be reached: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_read_from_urls() {
        assert_eq!(host_of("https://Example.org/a?b"), "example.org");
        assert_eq!(host_of("http://127.0.0.1:8080/x"), "127.0.0.1:8080");
        assert_eq!(host_of("not a url"), "");
    }
}
