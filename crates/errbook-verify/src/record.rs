//! The record of one unit: what ran (page, snippet, chain, hash, claim) with what the run did
//! (its output read for tracebacks, compared with the claim, the root cause a child gave, the GPU
//! memory it held, the log capped to its head and tail); a run that could not start is an
//! environment error. And a record's finding read again from its log (`--reread`). Writing a
//! record is `records::store`'s job.

use super::plan::Unit;
use super::runner::{left_out, Output};
use super::traceback;
use errbook_records::judge::{self as compare, Outcome};
use errbook_records::{Environment, Record, Verdict};

/// A record of `u` that says nothing yet about a run.
fn base(u: &Unit, date: &str, env: Environment) -> Record {
    Record {
        hash: u.hash.clone(),
        page: u.page.clone(),
        source: u.source.clone(),
        snippet: u.snippet.clone(),
        chain: u.chain.clone(),
        line: u.line,
        claim: u.spec.claim.clone(),
        verdict: Verdict::EnvironmentError,
        finding: String::new(),
        exit_status: None,
        signal: None,
        timed_out: false,
        exception: None,
        message: None,
        wrapped: Vec::new(),
        children: Vec::new(),
        root_cause: None,
        duration_s: 0.0,
        date: date.to_string(),
        gpus_used: Vec::new(),
        env,
        runner: String::new(),
        sandbox: String::new(),
        gpu_mem_peak_mib: None,
        output_bytes: 0,
        log: String::new(),
        reread: None,
    }
}

/// Set the verdict, finding and exceptions of `rec` from what a run did.
fn judge(rec: &mut Record, o: Outcome) {
    (rec.verdict, rec.finding) = compare::verdict(&rec.claim, &o);
    rec.exit_status = o.exit_status;
    rec.signal = o.signal;
    rec.timed_out = o.timed_out;
    // The original inside a wrapper is in `wrapped` already; a dead child's is said here.
    rec.root_cause = o
        .root_cause()
        .filter(|_| o.raised.wrapped.is_empty())
        .cloned();
    let r = o.raised;
    (rec.exception, rec.message) = match r.final_error {
        Some(f) => (Some(f.exception), Some(f.message)),
        None => (None, None),
    };
    rec.wrapped = r.wrapped;
    rec.children = r.children;
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
        Err(e) => {
            rec.finding = format!(
                "Environment error: the run could not start ({e}). This says nothing about the text."
            );
            return rec;
        }
    };
    rec.sandbox = out.sandbox.clone();
    let text = out.text();
    judge(
        &mut rec,
        Outcome {
            exit_status: out.exit_status,
            signal: out.signal,
            timed_out: out.timed_out,
            limit: out.limit.clone(),
            raised: traceback::parse(&text),
        },
    );
    rec.duration_s = (out.duration.as_secs_f64() * 100.0).round() / 100.0;
    rec.output_bytes = out.bytes;
    rec.log = cap_log(&out, log_half);
    rec
}

/// `rec` with its finding read again from its log by today's traceback reader and comparison,
/// marked `reread` at `date`; None when its log is not whole (output was left out) or the facts
/// read from it (verdict, exceptions, children, root cause) do not change. The run's own facts (exit status, duration, date, environment) stay as recorded.
pub(crate) fn reread(rec: &Record, date: &str) -> Option<Record> {
    let whole = rec.output_bytes == rec.log.len() as u64;
    if !whole || !rec.verdict.is_evidence() && rec.verdict != Verdict::EnvironmentError {
        return None;
    }
    let mut new = rec.clone();
    judge(
        &mut new,
        Outcome {
            exit_status: rec.exit_status,
            signal: rec.signal,
            timed_out: rec.timed_out,
            limit: None,
            raised: traceback::parse(&rec.log),
        },
    );
    // A new wording of the same finding is no reason to touch a record.
    let facts = |r: &Record| {
        let (v, e, m) = (r.verdict, r.exception.clone(), r.message.clone());
        (
            v,
            e,
            m,
            r.wrapped.clone(),
            r.children.clone(),
            r.root_cause.clone(),
        )
    };
    let same = facts(&new) == facts(rec);
    if same {
        return None;
    }
    new.reread = Some(date.to_string());
    Some(new)
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
