//! The verdicts `judge` gives, from outcomes built by hand, and a record judged again.

use super::*;

fn err(exc: &str, msg: &str, origin: &str) -> RaisedError {
    RaisedError {
        exception: exc.into(),
        message: msg.into(),
        origin: origin.into(),
        traceback: String::new(),
    }
}

fn exited(code: i32, final_error: Option<RaisedError>) -> Outcome {
    let mut o = Outcome {
        exit_status: Some(code),
        ..Default::default()
    };
    o.raised.final_error = final_error;
    o
}

fn fails(e: Option<&str>, m: Option<&str>) -> Claim {
    Claim::Fails {
        exception: e.map(String::from),
        message: m.map(String::from),
    }
}

#[test]
fn every_verdict() {
    let ok = exited(0, None);
    let mut bad = exited(
        1,
        Some(err("RuntimeError", "Caught RuntimeError in worker", "main")),
    );
    bad.raised.wrapped = vec![err(
        "RuntimeError",
        "Cannot re-initialize CUDA in forked subprocess",
        "wrapped",
    )];
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
    let limit = Outcome {
        limit: Some("memory".into()),
        ..exited(137, None)
    };
    let (v, why) = verdict(&Claim::Runs, &limit);
    assert_eq!(v, Verdict::StoppedByLimit);
    assert!(why.contains("memory limit"), "{why}");
    // A fork bomb held at its task limit runs until its time is up: the limit stopped it.
    let bomb = Outcome {
        limit: Some("tasks (64)".into()),
        ..t
    };
    assert_eq!(verdict(&Claim::Runs, &bomb).0, Verdict::StoppedByLimit);
}

#[test]
fn the_machine_failing_is_never_a_finding() {
    let no_torch = exited(
        1,
        Some(err(
            "ModuleNotFoundError",
            "No module named 'torch'",
            "main",
        )),
    );
    let (v, why) = verdict(&Claim::Runs, &no_torch);
    assert_eq!(v, Verdict::EnvironmentError, "{why}");
    assert!(why.contains("No module named 'torch'"), "{why}");
    // A claim that the snippet fails, somehow, is not confirmed by a missing module either.
    assert_eq!(
        verdict(&fails(None, None), &no_torch).0,
        Verdict::EnvironmentError
    );
    let no_gpu = exited(
        1,
        Some(err("RuntimeError", "No CUDA GPUs are available", "main")),
    );
    assert_eq!(
        verdict(
            &fails(Some("RuntimeError"), Some("Cannot re-initialize CUDA")),
            &no_gpu
        )
        .0,
        Verdict::EnvironmentError
    );
    // Claimed by type alone, a RuntimeError the machine raised confirms nothing.
    assert_eq!(
        verdict(&fails(Some("RuntimeError"), None), &no_gpu).0,
        Verdict::EnvironmentError
    );
    // Where the text quotes the machine's words, it is what the text is about.
    assert_eq!(
        verdict(&fails(None, Some("No CUDA GPUs are available")), &no_gpu).0,
        Verdict::Confirmed
    );
    assert_eq!(
        verdict(&fails(Some("ModuleNotFoundError"), None), &no_torch).0,
        Verdict::EnvironmentError,
        "by type alone, still the machine's"
    );
    // An error of the program's own is a finding as before.
    let own = exited(
        1,
        Some(err(
            "ImportError",
            "cannot import name 'x' from 'y'",
            "main",
        )),
    );
    assert_eq!(verdict(&Claim::Runs, &own).0, Verdict::Contradicted);
}

#[test]
fn a_dead_child_is_the_root_cause_and_leads_the_finding() {
    let mut o = exited(
        1,
        Some(err(
            "RuntimeError",
            "DataLoader worker (pid(s) 1114) exited unexpectedly",
            "main",
        )),
    );
    o.raised.children = vec![err(
        "RuntimeError",
        "An attempt has been made to start a new process before the\ncurrent process has finished its bootstrapping phase.",
        "spawned",
    )];
    assert_eq!(o.root_cause().unwrap().origin, "spawned");
    let (v, why) = verdict(&Claim::Runs, &o);
    assert_eq!(v, Verdict::Contradicted);
    assert_eq!(
        why,
        "Claimed to run cleanly, but a child process it spawned failed with RuntimeError: An \
         attempt has been made to start a new process before the current process has finished \
         its bootstrapping phase; then the main process exited 1 with RuntimeError: DataLoader \
         worker (pid(s) 1114) exited unexpectedly."
    );
    // A parent that exits 0 did not fail: its crashed children are no root cause.
    let mut quiet = exited(0, None);
    quiet.raised.children = o.raised.children.clone();
    assert!(quiet.root_cause().is_none());
    let (_, why) = verdict(&Claim::Runs, &quiet);
    assert!(
        why.contains("exited 0, but 1 child process crashed"),
        "{why}"
    );
}

#[test]
fn a_record_is_judged_again_against_a_changed_claim() {
    let rec: Record = serde_json::from_value(serde_json::json!({
        "hash": "h", "page": {"kind": "article", "id": "a"}, "snippet": "ex1",
        "claim": {"kind": "fails", "exception": null, "message": null},
        "verdict": "contradicted", "finding": "Claimed to fail, but it exited 0.",
        "exit_status": 0, "runner": "local", "sandbox": "none"
    }))
    .unwrap();
    let (v, why) = judge_record(&rec, &Claim::Runs);
    assert_eq!(v, Verdict::Confirmed, "{why}");
    let same = judge_record(&rec, &fails(None, None));
    assert_eq!(
        same.0,
        Verdict::Contradicted,
        "the same claim keeps the record's verdict"
    );
}

#[test]
fn a_warning_printed_at_exit_is_no_part_of_the_finding() {
    // Workaround-1's H100 record of content/errors/pytorch/dataset-worker-fork-cuda.md in
    // verify/ (2026-12-07): its final message ran on into the resource tracker's warning.
    let rec: Record = serde_json::from_value(serde_json::json!({
        "hash": "h", "page": {"kind": "entry", "id": "pytorch/dataset-worker-fork-cuda"},
        "snippet": "workaround-1", "claim": {"kind": "runs"}, "verdict": "contradicted",
        "finding": "Claimed to run cleanly, but ... UserWarning: resource_tracker: ...",
        "exit_status": 1, "exception": "RuntimeError",
        "message": "DataLoader worker (pid(s) 21) exited unexpectedly\n/usr/lib/python3.12/multiprocessing/resource_tracker.py:254: UserWarning: resource_tracker: There appear to be 6 leaked semaphore objects to clean up at shutdown\n  warnings.warn('resource_tracker: There appear to be %d '",
        "children": [{"exception": "RuntimeError", "origin": "spawned",
            "message": "An attempt has been made to start a new process before the\ncurrent process has finished its bootstrapping phase."}],
        "runner": "local", "sandbox": "none"
    }))
    .unwrap();
    assert_eq!(
        rec.final_error().unwrap().message,
        "DataLoader worker (pid(s) 21) exited unexpectedly"
    );
    let (v, why) = judge_record(&rec, &Claim::Runs);
    assert_eq!(v, Verdict::Contradicted);
    assert_eq!(
        why,
        "Claimed to run cleanly, but a child process it spawned failed with RuntimeError: An \
         attempt has been made to start a new process before the current process has finished \
         its bootstrapping phase; then the main process exited 1 with RuntimeError: DataLoader \
         worker (pid(s) 21) exited unexpectedly."
    );
}

#[test]
fn an_example_is_judged_against_the_error_of_the_entry_it_is_about() {
    let entry = entry_claim(
        "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with \
         multiprocessing, you must use the 'spawn' start method.",
        Some("RuntimeError"),
    )
    .unwrap();
    assert_eq!(
        entry,
        fails(
            Some("RuntimeError"),
            Some("Cannot re-initialize CUDA in forked subprocess")
        ),
        "as the entry's own reproduction declares it"
    );
    let mut same = exited(
        1,
        Some(err(
            "RuntimeError",
            "Caught RuntimeError in DataLoader worker process 0.",
            "main",
        )),
    );
    same.raised.wrapped = vec![err(
        "RuntimeError",
        "Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you \
         must use the 'spawn' start method",
        "wrapped",
    )];
    let (v, why) = verdict_on(&entry, Basis::Entry, &same);
    assert_eq!(v, Verdict::Confirmed);
    assert!(
        why.starts_with("Failed as claimed, with the error of the entry it is about: it exited 1"),
        "{why}"
    );
    let other = exited(1, Some(err("KeyError", "'bob'", "main")));
    let (v, why) = verdict_on(&entry, Basis::Entry, &other);
    assert_eq!(v, Verdict::DifferentError);
    assert_eq!(
        why,
        "Failed differently: expected the error of the entry it is about (RuntimeError: Cannot \
         re-initialize CUDA in forked subprocess), but it exited 1 with KeyError: 'bob'."
    );
    // An entry with neither a type nor steady words gives nothing to expect.
    assert_eq!(entry_claim("{x} 42", None), None);
    assert_eq!(
        entry_claim("KeyError: 'x'", Some("KeyError")),
        Some(fails(Some("KeyError"), None))
    );
}
