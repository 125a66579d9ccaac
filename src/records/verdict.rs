//! The verdict of a run and every word it is shown with: the record's key, the reader's word, the
//! page's CSS class and the terminal's mark. This table is the only place that turns a verdict
//! into words; the site, `check` and `verify` all ask here.

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
    TimedOut,
    /// The sandbox stopped the run: it hit its memory or process limit (not a finding about the
    /// text: the snippet may need more than the host gives a run).
    StoppedByLimit,
    Skipped,
}

/// How one verdict is written in each place that shows it.
struct Words {
    /// In records and JSON (`different_error`).
    key: &'static str,
    /// For readers (`different error`).
    word: &'static str,
    /// CSS class of the page's verdict chip: ok, bad, warn, muted.
    class: &'static str,
    /// `errbook verify`'s progress mark.
    mark: &'static str,
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
            Verdict::StoppedByLimit => w("stopped_by_limit", "stopped by a limit", "warn", "LIMIT"),
            Verdict::Skipped => w("skipped", "skipped", "muted", "skip"),
        }
    }
    /// As records and JSON write it.
    pub fn as_str(self) -> &'static str {
        self.words().key
    }
    /// As readers and the terminal's summary read it.
    pub fn word(self) -> &'static str {
        self.words().word
    }
    /// The CSS class of its chip on a page.
    pub fn class(self) -> &'static str {
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
}
