//! Judge what a run did against what the text claims: confirmed, contradicted, different error,
//! timed out, stopped by a limit, or an environment error (the machine failed the run: a module
//! that does not import, CUDA unavailable, a driver error), which says nothing about the text.
//! When the main process failed because a child died, the child's error is the root cause and
//! leads the finding. `errbook verify` judges a run as it records it; the site judges each
//! record again against the block's claim as it is now (`judge_record`), so a claim can change
//! without a rerun.

use super::record::{RaisedError, Record};
use super::verdict::Verdict;
use errbook_core::model::Claim;

/// What a run's output says was raised.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Raised {
    /// The main process's last exception (the one that ended it), if it printed one.
    pub final_error: Option<RaisedError>,
    /// Exceptions wrapped inside the final one, outermost first.
    pub wrapped: Vec<RaisedError>,
    /// Child processes' final exceptions, in output order.
    pub children: Vec<RaisedError>,
}

/// The facts of one finished run.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub exit_status: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    /// The sandbox limit that stopped the run (`memory (2048 MiB)`, `tasks (8192)`), if one did.
    pub limit: Option<String>,
    pub raised: Raised,
}

/// Messages that mean the machine could not give the run what it needs: no GPU, no driver, a
/// driver too old, a broken install. Compared in lower case.
const MACHINE: &[&str] = &[
    "no cuda gpus are available",
    "found no nvidia driver on your system",
    "nvidia driver on your system is too old",
    "cuda driver version is insufficient",
    "torch not compiled with cuda enabled",
    "no cuda-capable device is detected",
    "cuda driver initialization failed",
    "cudaerrornodevice",
    "cuda_error_no_device",
    "cudaerrorinsufficientdriver",
    "unsupported display driver / cuda driver combination",
    "forward compatibility was attempted on non supported hw",
    "system_driver_mismatch",
    "cannot open shared object file",
    "undefined symbol",
];

/// Why `e` is the machine's failure, not the program's, if it is.
fn machine_failure(e: &RaisedError) -> Option<String> {
    let short = e.exception.rsplit('.').next().unwrap_or(&e.exception);
    let m = e.message.to_lowercase();
    if short == "ModuleNotFoundError" || (short == "ImportError" && m.contains("no module named")) {
        return Some(format!("it could not import a module ({})", one_line(e)));
    }
    MACHINE
        .iter()
        .any(|p| m.contains(p))
        .then(|| format!("the machine could not run it ({})", one_line(e)))
}

impl Outcome {
    /// The main process failed (an exit status other than 0, or a signal).
    fn main_failed(&self) -> bool {
        self.exit_status != Some(0)
    }

    /// The main process failed, or a child process crashed.
    pub fn failed(&self) -> bool {
        self.main_failed() || !self.raised.children.is_empty()
    }

    /// Everything raised, the main process's final exception first.
    fn all(&self) -> impl Iterator<Item = &RaisedError> {
        self.raised
            .final_error
            .iter()
            .chain(&self.raised.wrapped)
            .chain(&self.raised.children)
    }

    /// What made the main process fail, when another process did: the original error inside a
    /// wrapper, else the first child that died before the main process failed.
    pub fn root_cause(&self) -> Option<&RaisedError> {
        self.raised
            .wrapped
            .last()
            .or_else(|| self.raised.children.first().filter(|_| self.main_failed()))
    }

    /// How the main process ended: `exited 1`, `was killed by signal 9`.
    fn end(&self) -> String {
        match (self.exit_status, self.signal) {
            (_, Some(sig)) => format!("was killed by signal {sig}"),
            (Some(c), _) => format!("exited {c}"),
            (None, None) => "ended".to_string(),
        }
    }

    /// How the run ended, in words, the root cause first.
    pub fn describe(&self) -> String {
        if self.timed_out {
            return "ran past its time limit and was killed".into();
        }
        let with = |e: Option<&RaisedError>| e.map(|e| format!(" with {}", one_line(e)));
        let fin = with(self.raised.final_error.as_ref()).unwrap_or_default();
        let end = self.end();
        if let Some(w) = self.raised.wrapped.last() {
            let outer = with(self.raised.final_error.as_ref())
                .map(|s| format!(", reported{s}"))
                .unwrap_or_default();
            return format!("{end} with {}{outer}", one_line(w));
        }
        if let Some(c) = self.root_cause() {
            return format!(
                "{} failed with {}; then the main process {end}{fin}",
                child_words(&c.origin),
                one_line(c)
            );
        }
        let kids = &self.raised.children;
        match kids.first() {
            None => format!("{end}{fin}"),
            Some(c) => format!(
                "{end}{fin}, but {} child process{} crashed ({}: {})",
                kids.len(),
                if kids.len() > 1 { "es" } else { "" },
                c.origin,
                one_line(c)
            ),
        }
    }
}

/// A child process in a sentence: `a child process it spawned` (one that died while
/// `multiprocessing` started it), `its child process Process-1`.
pub fn child_words(origin: &str) -> String {
    match origin {
        "spawned" => "a child process it spawned".to_string(),
        name => format!("its child process {name}"),
    }
}

/// `Exception: message` on one line, whitespace squashed, at most 200 characters of message,
/// without a final period (the sentence it goes in has its own).
pub fn one_line(e: &RaisedError) -> String {
    let m = squash(&e.message);
    let mut m: String = m.chars().take(200).collect();
    if squash(&e.message).chars().count() > 200 {
        m.push('\u{2026}');
    }
    let m = m.trim_end_matches('.');
    if m.is_empty() {
        e.exception.clone()
    } else {
        format!("{}: {m}", e.exception)
    }
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Does `e` match the claimed exception type and message fragment?
fn matches(e: &RaisedError, exception: Option<&str>, fragment: Option<&str>) -> bool {
    let type_ok = exception.is_none_or(|want| {
        let short = |s: &str| s.rsplit('.').next().unwrap_or(s).to_string();
        e.exception == want || short(&e.exception) == short(want)
    });
    let msg_ok = fragment.is_none_or(|f| squash(&e.message).contains(&squash(f)));
    type_ok && msg_ok
}

/// Where the error of a failing claim comes from, for the finding's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// The text: an author's declaration, or errbook's reading of the page.
    Text,
    /// The entry the block's article is about: its text reads the block as failing and names
    /// no error, so the entry's is expected (`entry_claim`).
    Entry,
}

/// The verdict and a sentence saying why.
pub fn verdict(claim: &Claim, o: &Outcome) -> (Verdict, String) {
    verdict_on(claim, Basis::Text, o)
}

/// `verdict`, the claim's error resting on `basis`.
fn verdict_on(claim: &Claim, basis: Basis, o: &Outcome) -> (Verdict, String) {
    // A run that failed at a limit says nothing about the text: the host gave it too little.
    if let Some(limit) = o.limit.as_ref().filter(|_| o.failed() || o.timed_out) {
        return (
            Verdict::StoppedByLimit,
            format!(
                "Stopped by its sandbox's {limit} limit: it {}.",
                o.describe()
            ),
        );
    }
    // A limit first: a fork bomb held at its task limit spins until its time is up.
    if let Some(limit) = &o.limit {
        let how = o.describe();
        return (
            Verdict::StoppedByLimit,
            format!("The sandbox stopped it at its {limit} limit: it {how}."),
        );
    }
    if o.timed_out {
        return (Verdict::TimedOut, format!("The run {}.", o.describe()));
    }
    let how = o.describe();
    if let Claim::Fails { exception, message } = claim {
        // An error the machine caused confirms a claim only where the claim quotes its words.
        let hit = o.failed()
            && o.all().any(|e| {
                matches(e, exception.as_deref(), message.as_deref())
                    && (message.is_some() || machine_failure(e).is_none())
            });
        if hit {
            let with = match basis {
                Basis::Text => "",
                Basis::Entry => ", with the error of the entry it is about",
            };
            return (
                Verdict::Confirmed,
                format!("Failed as claimed{with}: it {how}."),
            );
        }
    }
    if let Some(why) = o
        .failed()
        .then(|| o.all().find_map(machine_failure))
        .flatten()
    {
        return (
            Verdict::EnvironmentError,
            format!("Environment error: {why}. This says nothing about the text."),
        );
    }
    match claim {
        Claim::Runs if !o.failed() => (Verdict::Confirmed, format!("Ran cleanly: it {how}.")),
        Claim::Runs => (
            Verdict::Contradicted,
            format!("Claimed to run cleanly, but {}.", but(o, &how)),
        ),
        Claim::Fails { .. } if !o.failed() => (
            Verdict::Contradicted,
            format!("Claimed to fail, but it {how} and no child process crashed."),
        ),
        Claim::Fails {
            exception: None,
            message: None,
        } => (Verdict::Confirmed, format!("Failed as claimed: it {how}.")),
        Claim::Fails { exception, message } => {
            let said = match basis {
                Basis::Text => format!("Claimed: {}; but", claim.describe()),
                Basis::Entry => format!(
                    "Failed differently: expected the error of the entry it is about ({}), but",
                    named(exception.as_deref(), message.as_deref())
                ),
            };
            (Verdict::DifferentError, format!("{said} {}.", but(o, &how)))
        }
    }
}

/// An expected error as a reader reads it: `RuntimeError: Cannot re-initialize CUDA`, or the
/// type or the words alone.
pub fn named(exception: Option<&str>, message: Option<&str>) -> String {
    match (exception, message) {
        (Some(x), Some(m)) => format!("{x}: {m}"),
        (Some(x), None) => x.to_string(),
        (None, Some(m)) => m.to_string(),
        (None, None) => "an error".to_string(),
    }
}

/// The claim that a block fails with the error of an entry whose title line is `message`
/// (`exception` its type): that type, and the words of the message's first sentence that
/// every run raising it prints (`message::constant_words`), as the entry's own reproduction
/// declares them. None where the entry gives neither.
pub fn entry_claim(message: &str, exception: Option<&str>) -> Option<Claim> {
    let rest = exception
        .and_then(|x| message.strip_prefix(x))
        .map(|r| r.trim_start_matches(':').trim_start())
        .unwrap_or(message);
    let words = super::message::constant_words(rest);
    if exception.is_none() && words.is_none() {
        return None;
    }
    Some(Claim::Fails {
        exception: exception.map(str::to_string),
        message: words,
    })
}

/// The subject of a finding's second half: "a child process it spawned ..." reads on its own,
/// anything else after "it".
fn but(o: &Outcome, how: &str) -> String {
    if o.raised.wrapped.is_empty() && o.root_cause().is_some() {
        how.to_string()
    } else {
        format!("it {how}")
    }
}

/// The verdict and finding of `rec` against `claim`, from the facts the record keeps. A run
/// that a sandbox limit stopped keeps its recorded verdict (the limit is said in its finding
/// only), as does a record whose run never started (no exit status, no signal, no time-out).
/// Against the claim it ran under, the recorded verdict stands; its finding is said again
/// from the facts where they give that verdict (in today's words: a message without the
/// warnings printed after it), else the recorded one stays.
pub fn judge_record(rec: &Record, claim: &Claim) -> (Verdict, String) {
    judge_record_on(rec, claim, Basis::Text)
}

/// `judge_record`, the claim's error resting on `basis`.
pub fn judge_record_on(rec: &Record, claim: &Claim, basis: Basis) -> (Verdict, String) {
    let started = rec.exit_status.is_some() || rec.signal.is_some() || rec.timed_out;
    if rec.verdict == Verdict::StoppedByLimit || !started {
        return (rec.verdict, rec.finding.clone());
    }
    let (v, finding) = verdict_on(claim, basis, &rec.outcome());
    if rec.claim == *claim && v != rec.verdict {
        return (rec.verdict, rec.finding.clone());
    }
    (v, finding)
}

impl Record {
    /// The run's facts as this record keeps them.
    pub fn outcome(&self) -> Outcome {
        Outcome {
            exit_status: self.exit_status,
            signal: self.signal,
            timed_out: self.timed_out,
            limit: None,
            raised: Raised {
                final_error: self.final_error(),
                wrapped: self
                    .wrapped
                    .iter()
                    .map(RaisedError::without_warnings)
                    .collect(),
                children: self
                    .children
                    .iter()
                    .map(RaisedError::without_warnings)
                    .collect(),
            },
        }
    }
}

#[cfg(test)]
mod tests;
