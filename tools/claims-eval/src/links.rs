//! Article-to-entry links: what errbook's build writes to `api/links.json` (`discusses` links,
//! declared or inferred) against the entries each article is labelled as being about.

use crate::labels::Article;
use errbook_eval_split::Split;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// Every article's linked entries, from a build of `root` with `errbook` into a scratch folder.
pub(crate) fn built(
    errbook: &Path,
    root: &Path,
) -> Result<BTreeMap<String, BTreeSet<String>>, String> {
    let out = tempfile::tempdir().map_err(|e| e.to_string())?;
    let o = Command::new(errbook)
        .arg("--root")
        .arg(root)
        .arg("build")
        .arg("--dest-dir")
        .arg(out.path())
        .output()
        .map_err(|e| format!("{}: {e}", errbook.display()))?;
    if !o.status.success() {
        return Err(format!(
            "errbook build failed: {}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    let path = out.path().join("api/links.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(discusses(&v))
}

/// `discusses` links of a links.json, by article.
fn discusses(v: &Value) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for l in v["links"].as_array().into_iter().flatten() {
        if l["kind"] != "discusses" || l["from"]["type"] != "article" {
            continue;
        }
        if let (Some(a), Some(e)) = (l["from"]["id"].as_str(), l["to"]["id"].as_str()) {
            out.entry(a.to_string()).or_default().insert(e.to_string());
        }
    }
    out
}

/// Precision and recall of the links of some articles.
#[derive(Debug, Default, Clone, Serialize)]
pub(crate) struct LinkCounts {
    pub articles: usize,
    pub true_pos: usize,
    pub false_pos: usize,
    pub false_neg: usize,
}

impl LinkCounts {
    pub(crate) fn precision(&self) -> f64 {
        crate::score::share(self.true_pos, self.true_pos + self.false_pos)
    }
    pub(crate) fn recall(&self) -> f64 {
        crate::score::share(self.true_pos, self.true_pos + self.false_neg)
    }
}

/// One article's wrong links: (article, linked but not labelled, labelled but not linked).
pub(crate) type LinkMiss = (String, Vec<String>, Vec<String>);

pub(crate) fn score(
    articles: &[Article],
    got: &BTreeMap<String, BTreeSet<String>>,
    keep: impl Fn(Split) -> bool,
) -> (LinkCounts, Vec<LinkMiss>) {
    let mut c = LinkCounts::default();
    let mut misses = Vec::new();
    let none = BTreeSet::new();
    for a in articles
        .iter()
        .filter(|a| keep(errbook_eval_split::split(&a.id)))
    {
        let want: BTreeSet<String> = a.entries.iter().cloned().collect();
        let have = got.get(&a.id).unwrap_or(&none);
        c.articles += 1;
        c.true_pos += want.intersection(have).count();
        let extra: Vec<String> = have.difference(&want).cloned().collect();
        let lost: Vec<String> = want.difference(have).cloned().collect();
        c.false_pos += extra.len();
        c.false_neg += lost.len();
        if !extra.is_empty() || !lost.is_empty() {
            misses.push((a.id.clone(), extra, lost));
        }
    }
    (c, misses)
}
