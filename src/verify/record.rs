//! The record of one unit: what ran (page, snippet, chain, hash, claim) with a skip's reason, or
//! with what a finished run did (its output read for tracebacks, compared with the claim, the
//! log capped to its head and tail). Writing it is `records::store`'s job.

use super::compare::{self, Outcome};
use super::plan::Unit;
use super::runner::{left_out, Output};
use super::traceback;
use crate::records::{Environment, Record, Verdict};

/// A record of `u` that says nothing yet about a run (verdict: skipped, no reason).
fn base(u: &Unit, date: &str, env: Environment) -> Record {
    Record {
        hash: u.hash.clone(),
        page: u.page.clone(),
        source: u.source.clone(),
        snippet: u.snippet.clone(),
        chain: u.chain.clone(),
        line: u.line,
        claim: u.spec.claim.clone(),
        verdict: Verdict::Skipped,
        finding: String::new(),
        skip_reason: None,
        exit_status: None,
        signal: None,
        timed_out: false,
        exception: None,
        message: None,
        wrapped: Vec::new(),
        children: Vec::new(),
        duration_s: 0.0,
        date: date.to_string(),
        gpus_used: Vec::new(),
        env,
        runner: String::new(),
        sandbox: String::new(),
        output_bytes: 0,
        log: String::new(),
    }
}

/// `u` was not run: `reason` is kept as the record's skip reason, `finding` as its sentence.
fn skip(mut rec: Record, reason: String, finding: String) -> Record {
    rec.verdict = Verdict::Skipped;
    rec.skip_reason = Some(reason);
    rec.finding = finding;
    rec
}

/// The record of a unit the plan skips (it cannot run on this host).
pub(crate) fn skipped(u: &Unit, date: &str, env: Environment, reason: &str) -> Record {
    let finding = format!("Not run: {reason}.");
    skip(base(u, date, env), reason.to_string(), finding)
}

/// The record of a run of `u` started at `date` on `gpus` by `runner`; `result`: what the run
/// did, or why it did not happen. `log_half`: bytes of the log kept from the start and from the
/// end of the output.
pub(crate) fn finished(
    u: &Unit,
    date: &str,
    gpus: &[u32],
    (env, runner): (Environment, &str),
    result: Result<Output, String>,
    log_half: usize,
) -> Record {
    let mut rec = base(u, date, env);
    rec.gpus_used = gpus.to_vec();
    rec.runner = runner.to_string();
    let out = match result {
        Ok(out) => out,
        Err(reason) => {
            let finding = format!("Not run: {reason}.");
            return skip(rec, reason, finding);
        }
    };
    rec.sandbox = out.sandbox.clone();
    let o = Outcome {
        exit_status: out.exit_status,
        signal: out.signal,
        timed_out: out.timed_out,
        limit: out.limit.clone(),
        raised: traceback::parse(&out.text()),
    };
    (rec.verdict, rec.finding) = compare::verdict(&u.spec.claim, &o);
    rec.exit_status = out.exit_status;
    rec.signal = out.signal;
    rec.timed_out = out.timed_out;
    if let Some(f) = o.raised.final_error {
        rec.exception = Some(f.exception);
        rec.message = Some(f.message);
    }
    rec.wrapped = o.raised.wrapped;
    rec.children = o.raised.children;
    rec.duration_s = (out.duration.as_secs_f64() * 100.0).round() / 100.0;
    rec.output_bytes = out.bytes;
    rec.log = cap_log(&out, log_half);
    rec
}

/// The record's log: `half` bytes from the start and from the end of what the run printed.
fn cap_log(out: &Output, half: usize) -> String {
    let text = out.text();
    if text.len() <= 2 * half + 200 {
        return text;
    }
    let mut a = half.min(text.len());
    while !text.is_char_boundary(a) {
        a -= 1;
    }
    let mut b = text.len() - half;
    while !text.is_char_boundary(b) {
        b += 1;
    }
    let left = out.bytes.saturating_sub((a + text.len() - b) as u64);
    format!("{}{}{}", &text[..a], left_out(left), &text[b..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_log_keeps_its_head_and_tail() {
        let text = "é".repeat(1000);
        let out = Output {
            bytes: text.len() as u64,
            head: text.into_bytes(),
            ..Default::default()
        };
        let log = cap_log(&out, 301);
        assert!(log.starts_with("éé") && log.ends_with("éé"), "{log}");
        assert!(log.contains("bytes of output left out"), "{log}");
        let short = Output {
            bytes: 5,
            head: b"hello".to_vec(),
            ..Default::default()
        };
        assert_eq!(cap_log(&short, 301), "hello");
    }
}
