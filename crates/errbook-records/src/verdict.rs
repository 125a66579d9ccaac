//! The verdict of a run and every word it is shown with: the record's key, the reader's word
//! (which depends on what the code block stands for: a workaround "works", a dead end "fails as
//! described"), the page's CSS class and the terminal's mark. This table is the only place that
//! turns a verdict into words; the site, `check` and `verify` all ask here.

use errbook_core::model::Claim;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The run did what the text claims.
    Confirmed,
    /// The run did the opposite (claimed to run, failed; claimed to fail, ran).
    Contradicted,
    /// Claimed to fail with one error, failed with another.
    DifferentError,
    /// The run passed its time limit and was killed.
    TimedOut,
    /// The machine, not the text: a declared package did not import, CUDA was unavailable, the
    /// driver failed, the interpreter could not start. Never counted against the catalog.
    EnvironmentError,
    /// The sandbox stopped the run at one of its limits (memory, processes, output).
    StoppedByLimit,
}

/// What a code block stands for on its page; it decides the reader's words for a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Any other runnable block: a reproduction, an article's example, a setup block.
    Example,
    /// The code of an entry's workaround.
    Workaround,
    /// The code of an entry's dead end.
    DeadEnd,
}

/// How one verdict is written in each place that shows it.
struct Words {
    /// In records and JSON (`different_error`).
    key: &'static str,
    /// For readers, of a block that is neither a workaround nor a dead end.
    word: &'static str,
    /// CSS class of the page's verdict chip: ok, bad, warn, muted.
    class: &'static str,
    /// `errbook verify`'s progress mark.
    mark: &'static str,
}

/// A verdict as a reader sees it on a page: the words (of one block, and of several: "works",
/// "2 of 3 workarounds work") and its chip's CSS class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    pub word: &'static str,
    pub plural: &'static str,
    pub class: &'static str,
}

impl Verdict {
    fn words(self) -> Words {
        let w = |key, word, class, mark| Words {
            key,
            word,
            class,
            mark,
        };
        match self {
            Verdict::Confirmed => w("confirmed", "confirmed", "ok", "ok"),
            Verdict::Contradicted => w("contradicted", "contradicted", "bad", "FIND"),
            Verdict::DifferentError => w("different_error", "different error", "bad", "FIND"),
            Verdict::TimedOut => w("timed_out", "timed out", "warn", "TIME"),
            Verdict::EnvironmentError => {
                w("environment_error", "environment error", "muted", "ENV")
            }
            Verdict::StoppedByLimit => w("stopped_by_limit", "stopped by a limit", "warn", "LIMIT"),
        }
    }
    /// As records and JSON write it.
    pub fn as_str(self) -> &'static str {
        self.words().key
    }
    /// As readers and the terminal's summary read it, for a block with no particular role.
    pub fn word(self) -> &'static str {
        self.words().word
    }
    /// The CSS class of its chip on a page.
    pub(crate) fn class(self) -> &'static str {
        self.words().class
    }
    /// `errbook verify`'s mark for a finished run.
    pub fn mark(self) -> &'static str {
        self.words().mark
    }
    /// A finding: the run disagrees with the text.
    pub fn is_finding(self) -> bool {
        matches!(self, Verdict::Contradicted | Verdict::DifferentError)
    }
    /// Evidence about the text: what the code did, as opposed to what the machine or the sandbox
    /// did to it. Only evidence is counted for or against a claim, and only evidence replaces
    /// evidence on disk.
    pub fn is_evidence(self) -> bool {
        matches!(
            self,
            Verdict::Confirmed
                | Verdict::Contradicted
                | Verdict::DifferentError
                | Verdict::TimedOut
        )
    }

    /// The words a reader sees for this verdict of a block in `role` whose text claims `claim`:
    /// one vocabulary for every page kind (entries and articles), saying what the code did here
    /// and whether that is what its text says. A block claimed to run "works" (a workaround) or
    /// "runs as described", else "failed"; a block claimed to fail "fails as described", else
    /// "actually works" or "fails differently". The record's own words (`confirmed`,
    /// `contradicted`) stay in records and JSON; a reader never sees them.
    pub fn reading(self, role: Role, claim: &Claim) -> Reading {
        let r = |word, plural, class| Reading {
            word,
            plural,
            class,
        };
        let fails = matches!(claim, Claim::Fails { .. });
        match (role, self) {
            (Role::Workaround, Verdict::Confirmed) => r("works", "work", "ok"),
            (_, Verdict::Confirmed) if fails => r("fails as described", "fail as described", "ok"),
            (_, Verdict::Confirmed) => r("runs as described", "run as described", "ok"),
            (_, Verdict::Contradicted) if fails => r("actually works", "actually work", "bad"),
            (_, Verdict::DifferentError) if fails => {
                r("fails differently", "fail differently", "bad")
            }
            (_, Verdict::Contradicted | Verdict::DifferentError) => r("failed", "failed", "bad"),
            _ => r(self.word(), self.word(), self.class()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dead_ends_read_the_right_way_round() {
        let fails = Claim::Fails {
            exception: Some("RuntimeError".into()),
            message: None,
        };
        let dead = |v: Verdict, c: &Claim| v.reading(Role::DeadEnd, c).word;
        assert_eq!(dead(Verdict::Confirmed, &fails), "fails as described");
        assert_eq!(dead(Verdict::Contradicted, &fails), "actually works");
        // One vocabulary: an article's example reads as a dead end's block of the same claim.
        let example = |v: Verdict, c: &Claim| v.reading(Role::Example, c).word;
        assert_eq!(example(Verdict::Contradicted, &fails), "actually works");
        assert_eq!(example(Verdict::Contradicted, &Claim::Runs), "failed");
        assert_eq!(example(Verdict::Confirmed, &fails), "fails as described");
        assert_eq!(dead(Verdict::Confirmed, &Claim::Runs), "runs as described");
        let w = |v: Verdict| v.reading(Role::Workaround, &Claim::Runs);
        assert_eq!(w(Verdict::Confirmed).word, "works");
        assert_eq!(
            w(Verdict::Contradicted),
            Reading {
                word: "failed",
                plural: "failed",
                class: "bad"
            }
        );
        assert_eq!(
            w(Verdict::EnvironmentError).word,
            "environment error",
            "the machine's failure is never the workaround's"
        );
        assert!(!Verdict::EnvironmentError.is_evidence());
        assert!(!Verdict::StoppedByLimit.is_finding());
        assert_eq!(Verdict::StoppedByLimit.word(), "stopped by a limit");
    }
}
