//! What the runs of a code block, or of all the runnable blocks of a workaround or dead end, say
//! together: one verdict where every environment agrees, the environments that disagree, or
//! nothing yet (never run, changed since, or only the machine failed). Each environment counts
//! once: its most telling run (a finding over a time-out over a confirmation). Runs that are not
//! evidence (environment errors, limits) are kept to show, never counted.

use errbook_records::{Judged, Reading, Record, Role, Status, Verdict};

/// What the runs say together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// No run that is evidence for the code as it is now.
    Unverified,
    /// Every environment's run gave this verdict.
    Agree(Verdict),
    /// Environments gave different verdicts.
    Disagree,
}

/// One environment's verdict on the block(s).
#[derive(Debug, Clone)]
pub struct Machine<'a> {
    /// The environment's key.
    pub key: String,
    /// Its most telling run, judged against the block's claim as it is now.
    pub run: Judged<'a>,
    /// The reader's words for that run.
    pub reading: Reading,
}

#[derive(Debug, Clone)]
pub struct Evidence<'a> {
    pub role: Role,
    /// Per environment, ordered by key.
    pub machines: Vec<Machine<'a>>,
    /// Fresh runs that are not evidence (the machine or a limit stopped them).
    pub not_evidence: Vec<Judged<'a>>,
    /// The newest run of an earlier version, when no run of this version is evidence.
    pub stale: Option<Judged<'a>>,
    pub outcome: Outcome,
}

/// How telling a verdict is when one environment ran several blocks: a finding over a time-out
/// over a confirmation.
fn weight(v: Verdict) -> u8 {
    match v {
        Verdict::Contradicted | Verdict::DifferentError => 3,
        Verdict::TimedOut => 2,
        Verdict::Confirmed => 1,
        _ => 0,
    }
}

impl<'a> Evidence<'a> {
    /// The evidence of the statuses of one block or of the runnable blocks of a part.
    pub(crate) fn of(role: Role, statuses: &[&Status<'a>]) -> Evidence<'a> {
        let mut machines: Vec<Machine<'a>> = Vec::new();
        let mut not_evidence = Vec::new();
        let mut stale = None;
        for st in statuses {
            match st {
                Status::Fresh(runs) => {
                    for r in runs {
                        if r.verdict.is_evidence() {
                            add(&mut machines, role, r);
                        } else {
                            not_evidence.push(r.clone());
                        }
                    }
                }
                Status::Stale(r) => stale = stale.or(Some(r.clone())),
                Status::Missing => {}
            }
        }
        machines.sort_by(|a, b| a.key.cmp(&b.key));
        let outcome = match machines.first() {
            None => Outcome::Unverified,
            Some(m) if machines.iter().all(|x| x.run.verdict == m.run.verdict) => {
                Outcome::Agree(m.run.verdict)
            }
            Some(_) => Outcome::Disagree,
        };
        Evidence {
            role,
            machines,
            not_evidence,
            stale: if outcome == Outcome::Unverified {
                stale
            } else {
                None
            },
            outcome,
        }
    }

    /// The machines, as readers name them, each once and in order: `H100`, `H200`.
    pub(crate) fn machine_names(&self) -> Vec<String> {
        names(self.machines.iter().map(|m| m.run.record))
    }

    /// Each reader's word with the machines that gave it: `[("works", "ok", ["H100"]), ...]`.
    pub(crate) fn by_word(&self) -> Vec<(Reading, Vec<String>)> {
        let mut out: Vec<(Reading, Vec<String>)> = Vec::new();
        for m in &self.machines {
            let name = m.run.env.machine();
            match out.iter_mut().find(|(r, _)| *r == m.reading) {
                Some((_, names)) if !names.contains(&name) => names.push(name),
                Some(_) => {}
                None => out.push((m.reading, vec![name])),
            }
        }
        out
    }

    /// The reading all machines share (`Agree`), if they do.
    pub(crate) fn reading(&self) -> Option<Reading> {
        match self.outcome {
            Outcome::Agree(_) => self.machines.first().map(|m| m.reading),
            _ => None,
        }
    }

    /// Where a workaround stands in its list: what works first, then what works in some
    /// environments, then what was not run (or only timed out), then what failed.
    pub(crate) fn rank(&self) -> u8 {
        match self.outcome {
            Outcome::Agree(Verdict::Confirmed) => 0,
            Outcome::Disagree => 1,
            Outcome::Agree(v) if v.is_finding() => 3,
            _ => 2,
        }
    }
}

/// Put run `r` in its environment's place, keeping the most telling run per environment.
fn add<'a>(machines: &mut Vec<Machine<'a>>, role: Role, r: &Judged<'a>) {
    let key = r.env.key();
    let reading = r.verdict.reading(role, &r.claim);
    match machines.iter_mut().find(|m| m.key == key) {
        Some(m) if weight(r.verdict) > weight(m.run.verdict) => {
            m.run = r.clone();
            m.reading = reading;
        }
        Some(_) => {}
        None => machines.push(Machine {
            key,
            run: r.clone(),
            reading,
        }),
    }
}

/// The machine names of `runs`, each once, sorted.
pub(crate) fn names<'a>(runs: impl Iterator<Item = &'a Record>) -> Vec<String> {
    let mut v: Vec<String> = runs.map(|r| r.env.machine()).collect();
    v.sort();
    v.dedup();
    v
}
