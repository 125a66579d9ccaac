//! The labels of bench/claims (`labels.toml`): per article its kind (from a public thread or in
//! the seeds' generated style), its sources, the entries it is about, and for each fenced block
//! in file order what its text claims and whether it is complete. Which articles are held out
//! is decided by a hash of the article's id, so that one article's blocks stay on one side.

use serde::Deserialize;
use std::path::Path;

/// What a block's text claims happens when it runs as presented.
#[derive(
    Deserialize, serde::Serialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Claim {
    Fails,
    Runs,
    None,
}

impl Claim {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Claim::Fails => "fails",
            Claim::Runs => "runs",
            Claim::None => "none",
        }
    }

    /// errbook's word for a claim (`fails`, `runs`, `none`; anything else is no claim).
    pub(crate) fn parse(s: &str) -> Claim {
        match s {
            "fails" => Claim::Fails,
            "runs" => Claim::Runs,
            _ => Claim::None,
        }
    }
}

/// Where an article comes from.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Kind {
    /// Written from a public thread (a question with failing code, answers with fixes).
    Thread,
    /// Written in the seed articles' generated style.
    Generated,
}

impl Kind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Thread => "real thread",
            Kind::Generated => "generated",
        }
    }
}

/// One labelled block.
#[derive(Deserialize, Debug, Clone)]
pub(crate) struct Block {
    pub claim: Claim,
    /// A reader could run it as it stands (after the page's earlier blocks where it uses
    /// their names).
    pub complete: bool,
}

/// One labelled article.
#[derive(Deserialize, Debug, Clone)]
pub(crate) struct Article {
    pub id: String,
    pub kind: Kind,
    #[serde(default)]
    pub sources: Vec<String>,
    /// The entries the article is about (`domain/slug`).
    pub entries: Vec<String>,
    pub blocks: Vec<Block>,
}

#[derive(Deserialize)]
struct File {
    article: Vec<Article>,
}

/// The labels of the set in `dir` (`dir/labels.toml`), checked against its articles: every
/// labelled article exists and has as many fences as labels.
pub(crate) fn read(dir: &Path) -> Result<Vec<Article>, String> {
    let path = dir.join("labels.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file: File = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    for a in &file.article {
        if a.kind == Kind::Thread && !a.sources.iter().any(|s| s.starts_with("https://")) {
            return Err(format!(
                "{}: an article from a thread names no source",
                a.id
            ));
        }
        let md = dir.join("content/articles").join(format!("{}.md", a.id));
        let body = std::fs::read_to_string(&md).map_err(|e| format!("{}: {e}", md.display()))?;
        let fences = body
            .lines()
            .filter(|l| l.trim_start().starts_with("```"))
            .count()
            / 2;
        if fences != a.blocks.len() {
            return Err(format!(
                "{}: {fences} fenced blocks, {} labels",
                md.display(),
                a.blocks.len()
            ));
        }
    }
    Ok(file.article)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_parse() {
        assert_eq!(Claim::parse("fails"), Claim::Fails);
        assert_eq!(Claim::parse("maybe"), Claim::None);
    }
}
