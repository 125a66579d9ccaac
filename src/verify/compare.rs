//! Compare what a run did with what the text claims: confirmed, contradicted, different error,
//! timed out, stopped by a limit. (Skipped runs never get here.)

use super::traceback::Raised;
use crate::core::model::Claim;
use crate::records::{RaisedError, Verdict};

/// The facts of one finished run.
#[derive(Debug, Clone, Default)]
pub(super) struct Outcome {
    pub exit_status: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    /// The sandbox limit the run hit (`memory (2048 MiB)`), if any.
    pub limit: Option<String>,
    pub raised: Raised,
}

impl Outcome {
    /// The main process failed, or a child process crashed.
    pub(super) fn failed(&self) -> bool {
        self.exit_status != Some(0) || !self.raised.children.is_empty()
    }

    /// Everything raised, the main process's final exception first.
    fn all(&self) -> impl Iterator<Item = &RaisedError> {
        self.raised
            .final_error
            .iter()
            .chain(&self.raised.wrapped)
            .chain(&self.raised.children)
    }

    /// How the run ended, in words.
    pub(super) fn describe(&self) -> String {
        if self.timed_out {
            return "ran past its time limit and was killed".into();
        }
        let mut s = match (self.exit_status, self.signal) {
            (_, Some(sig)) => format!("was killed by signal {sig}"),
            (Some(0), _) => "exited 0".to_string(),
            (Some(c), _) => format!("exited {c}"),
            (None, None) => "ended".to_string(),
        };
        let cause = self
            .raised
            .wrapped
            .last()
            .or(self.raised.final_error.as_ref());
        if let Some(e) = cause {
            s.push_str(&format!(" with {}", one_line(e)));
        }
        if !self.raised.children.is_empty() {
            let c = &self.raised.children[0];
            s.push_str(&format!(
                "; {} child process{} crashed ({}: {})",
                self.raised.children.len(),
                if self.raised.children.len() > 1 {
                    "es"
                } else {
                    ""
                },
                c.origin,
                one_line(c)
            ));
        }
        s
    }
}

fn one_line(e: &RaisedError) -> String {
    let m = e.message.lines().next().unwrap_or("");
    let m: String = m.chars().take(160).collect();
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

/// The verdict and a sentence saying why.
pub(super) fn verdict(claim: &Claim, o: &Outcome) -> (Verdict, String) {
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
    if o.timed_out {
        return (Verdict::TimedOut, format!("The run {}.", o.describe()));
    }
    let how = o.describe();
    match claim {
        Claim::Runs if !o.failed() => (Verdict::Confirmed, format!("Ran cleanly: {how}")),
        Claim::Runs => (
            Verdict::Contradicted,
            format!("Claimed to run cleanly, but it {how}."),
        ),
        Claim::Fails { .. } if !o.failed() => (
            Verdict::Contradicted,
            format!("Claimed to fail, but it {how} and no child process crashed."),
        ),
        Claim::Fails { exception, message } => {
            let hit = o
                .all()
                .any(|e| matches(e, exception.as_deref(), message.as_deref()));
            if hit || (exception.is_none() && message.is_none()) {
                (Verdict::Confirmed, format!("Failed as claimed: it {how}"))
            } else {
                (
                    Verdict::DifferentError,
                    format!("Claimed: {}; but it {how}.", claim.describe()),
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(exc: &str, msg: &str, origin: &str) -> RaisedError {
        RaisedError {
            exception: exc.into(),
            message: msg.into(),
            origin: origin.into(),
            traceback: String::new(),
        }
    }

    #[test]
    fn every_verdict() {
        let ok = Outcome {
            exit_status: Some(0),
            ..Default::default()
        };
        let mut bad = Outcome {
            exit_status: Some(1),
            ..Default::default()
        };
        bad.raised.final_error = Some(err("RuntimeError", "Caught RuntimeError in worker", "main"));
        bad.raised.wrapped = vec![err(
            "RuntimeError",
            "Cannot re-initialize CUDA in forked subprocess",
            "wrapped",
        )];
        let fails = |e: Option<&str>, m: Option<&str>| Claim::Fails {
            exception: e.map(String::from),
            message: m.map(String::from),
        };
        assert_eq!(verdict(&Claim::Runs, &ok).0, Verdict::Confirmed);
        assert_eq!(verdict(&Claim::Runs, &bad).0, Verdict::Contradicted);
        assert_eq!(verdict(&fails(None, None), &ok).0, Verdict::Contradicted);
        assert_eq!(
            verdict(
                &fails(Some("RuntimeError"), Some("Cannot re-initialize  CUDA")),
                &bad
            )
            .0,
            Verdict::Confirmed
        );
        assert_eq!(
            verdict(&fails(Some("ValueError"), None), &bad).0,
            Verdict::DifferentError
        );
        let mut child = ok.clone();
        child.raised.children = vec![err("AttributeError", "x", "Process-1")];
        assert_eq!(verdict(&Claim::Runs, &child).0, Verdict::Contradicted);
        let t = Outcome {
            timed_out: true,
            ..Default::default()
        };
        assert_eq!(verdict(&Claim::Runs, &t).0, Verdict::TimedOut);
        let mut oom = bad.clone();
        oom.limit = Some("memory (2048 MiB)".into());
        let (v, why) = verdict(&fails(Some("RuntimeError"), None), &oom);
        assert_eq!(
            v,
            Verdict::StoppedByLimit,
            "never contradicted, never confirmed"
        );
        assert!(
            why.starts_with("Stopped by its sandbox's memory (2048 MiB) limit"),
            "{why}"
        );
        let mut bomb = t.clone();
        bomb.limit = Some("tasks (64)".into());
        assert_eq!(verdict(&Claim::Runs, &bomb).0, Verdict::StoppedByLimit);
        let mut coped = ok.clone();
        coped.limit = Some("tasks (64)".into());
        assert_eq!(
            verdict(&Claim::Runs, &coped).0,
            Verdict::Confirmed,
            "it hit the limit and coped"
        );
    }
}
