//! Each labelled block against what `errbook claims --format json` says of it, and the figures:
//! claims right, claims invented (a claim where the text makes none), complete blocks errbook
//! can run, counted overall, by kind of article and by label.

use crate::labels::{Article, Claim, Kind};
use errbook_eval_split::Split;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// What errbook said of one block.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Said {
    pub claim: String,
    pub source: String,
    pub runnable: bool,
    pub why_not: Option<String>,
    pub line: u64,
    pub evidence: Vec<String>,
    pub confidence: f64,
}

/// errbook's blocks by (page, block number), from its JSON.
pub(crate) fn said(json: &Value) -> HashMap<(String, u64), Said> {
    let mut out = HashMap::new();
    for b in json["blocks"].as_array().into_iter().flatten() {
        let (Some(page), Some(n)) = (b["page"].as_str(), b["block"].as_u64()) else {
            continue;
        };
        let evidence = b["evidence"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| format!("{}: {}", e["line"], e["text"].as_str().unwrap_or("")))
            .collect();
        let s = Said {
            claim: b["claim"].as_str().unwrap_or("none").to_string(),
            source: b["source"].as_str().unwrap_or("").to_string(),
            runnable: b["runnable"].as_bool().unwrap_or(false),
            why_not: b["why_not"].as_str().map(str::to_string),
            line: b["line"].as_u64().unwrap_or(0),
            evidence,
            confidence: b["confidence"].as_f64().unwrap_or(0.0),
        };
        out.insert((page.to_string(), n), s);
    }
    out
}

/// One labelled block and errbook's answer.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Case {
    pub page: String,
    pub block: usize,
    #[serde(skip)]
    pub kind: Kind,
    #[serde(skip)]
    pub split: Split,
    pub want: Claim,
    pub complete: bool,
    /// None: errbook listed no such block.
    pub got: Option<Said>,
}

impl Case {
    pub(crate) fn got_claim(&self) -> Claim {
        self.got
            .as_ref()
            .map_or(Claim::None, |s| Claim::parse(&s.claim))
    }
    pub(crate) fn right(&self) -> bool {
        self.got.is_some() && self.got_claim() == self.want
    }
    pub(crate) fn invented(&self) -> bool {
        self.want == Claim::None && self.got_claim() != Claim::None
    }
    pub(crate) fn runnable(&self) -> bool {
        self.got.as_ref().is_some_and(|s| s.runnable)
    }
    /// Wrong claim, or a complete block with a claim that errbook cannot run.
    pub(crate) fn missed(&self) -> bool {
        !self.right() || (self.complete && self.want != Claim::None && !self.runnable())
    }
}

/// Every labelled block with errbook's answer.
pub(crate) fn cases(articles: &[Article], said: &HashMap<(String, u64), Said>) -> Vec<Case> {
    let mut out = Vec::new();
    for a in articles {
        let page = format!("articles/{}", a.id);
        let split = errbook_eval_split::split(&a.id);
        for (i, b) in a.blocks.iter().enumerate() {
            let n = i + 1;
            out.push(Case {
                got: said.get(&(page.clone(), n as u64)).cloned(),
                page: page.clone(),
                block: n,
                kind: a.kind,
                split,
                want: b.claim,
                complete: b.complete,
            });
        }
    }
    out
}

/// Counts over some blocks.
#[derive(Debug, Default, Clone, Serialize)]
pub(crate) struct Counts {
    /// Blocks.
    pub n: usize,
    /// Blocks errbook did not list.
    pub missing: usize,
    /// Claim as labelled.
    pub right: usize,
    /// Blocks whose text makes no claim, and those errbook gave one.
    pub no_claim: usize,
    pub invented: usize,
    /// Blocks with a claim errbook read as no claim; fails read as runs or the reverse.
    pub unread: usize,
    pub flipped: usize,
    /// Complete blocks, and those errbook can run.
    pub complete: usize,
    pub runnable: usize,
    /// Complete blocks with a claim, and those errbook can run.
    pub complete_claimed: usize,
    pub runnable_claimed: usize,
}

impl Counts {
    fn add(&mut self, c: &Case) {
        self.n += 1;
        self.missing += usize::from(c.got.is_none());
        self.right += usize::from(c.right());
        if c.want == Claim::None {
            self.no_claim += 1;
            self.invented += usize::from(c.invented());
        } else if c.got_claim() == Claim::None {
            self.unread += 1;
        } else if c.got_claim() != c.want {
            self.flipped += 1;
        }
        if c.complete {
            self.complete += 1;
            self.runnable += usize::from(c.runnable());
            if c.want != Claim::None {
                self.complete_claimed += 1;
                self.runnable_claimed += usize::from(c.runnable());
            }
        }
    }

    pub(crate) fn right_share(&self) -> f64 {
        share(self.right, self.n)
    }
    pub(crate) fn invented_share(&self) -> f64 {
        share(self.invented, self.no_claim)
    }
    pub(crate) fn runnable_share(&self) -> f64 {
        share(self.runnable, self.complete)
    }
    pub(crate) fn runnable_claimed_share(&self) -> f64 {
        share(self.runnable_claimed, self.complete_claimed)
    }
}

pub(crate) fn share(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// The figures of one part: overall, by kind, by label.
#[derive(Debug, Default, Clone, Serialize)]
pub(crate) struct Report {
    pub all: Counts,
    pub by_kind: BTreeMap<&'static str, Counts>,
    pub by_label: BTreeMap<&'static str, Counts>,
}

pub(crate) fn report(cases: &[Case], keep: impl Fn(Split) -> bool) -> Report {
    let mut r = Report::default();
    for c in cases.iter().filter(|c| keep(c.split)) {
        r.all.add(c);
        r.by_kind.entry(c.kind.name()).or_default().add(c);
        r.by_label.entry(c.want.name()).or_default().add(c);
    }
    r
}

fn pct(x: f64) -> String {
    format!("{:5.1}%", 100.0 * x)
}

/// A table of one part's figures.
pub(crate) fn table(name: &str, r: &Report) -> String {
    let mut s = format!(
        "{name}\n  {:<14} {:>6} {:>8} {:>9} {:>9} {:>10}\n",
        "blocks", "n", "right", "invented", "runnable", "run/claim"
    );
    let row = |label: &str, c: &Counts| {
        format!(
            "  {:<14} {:>6} {:>8} {:>9} {:>9} {:>10}\n",
            label,
            c.n,
            pct(c.right_share()),
            if c.no_claim > 0 {
                pct(c.invented_share())
            } else {
                "-".into()
            },
            if c.complete > 0 {
                pct(c.runnable_share())
            } else {
                "-".into()
            },
            if c.complete_claimed > 0 {
                pct(c.runnable_claimed_share())
            } else {
                "-".into()
            },
        )
    };
    s.push_str(&row("all", &r.all));
    for (k, c) in &r.by_kind {
        s.push_str(&row(k, c));
    }
    for (k, c) in &r.by_label {
        s.push_str(&row(&format!("labelled {k}"), c));
    }
    if r.all.missing > 0 {
        s.push_str(&format!(
            "  ({} block(s) not listed by errbook)\n",
            r.all.missing
        ));
    }
    s
}
