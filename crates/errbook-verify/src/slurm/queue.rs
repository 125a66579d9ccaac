//! Reading Slurm: the tasks in the queue (`squeue`), the final state of a task that left it
//! (`sacct` where accounting is on, else `scontrol show job` while Slurm still remembers it),
//! what a partition's nodes offer (`sinfo`), how many tasks an array may hold (`scontrol show
//! config`), and what each final state means for a run.

use super::super::cmdline;
use std::process::{Command, Stdio};

/// A task of an array job in the queue: `12_3`, its state, its node, why it waits.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Queued {
    pub task: String,
    pub state: String,
    pub node: String,
    pub reason: String,
}

/// `squeue --noheader --array --format=%i|%T|%N|%r` output.
pub(super) fn parse_squeue(text: &str) -> Vec<Queued> {
    text.lines()
        .filter_map(|l| {
            let mut f = l.trim().split('|');
            Some(Queued {
                task: f.next()?.trim().to_string(),
                state: f.next()?.trim().to_string(),
                node: f.next().unwrap_or("").trim().to_string(),
                reason: f.next().unwrap_or("").trim().to_string(),
            })
        })
        .filter(|q| !q.task.is_empty())
        .collect()
}

/// The tasks of `jobs` in the queue; `None` when squeue fails (the controller is away: try
/// again at the next look).
pub(super) fn squeue(jobs: &[String]) -> Option<Vec<Queued>> {
    if jobs.is_empty() {
        return Some(Vec::new());
    }
    let out = cmdline::output(
        Command::new("squeue")
            .args(["--noheader", "--array", "--format=%i|%T|%N|%r"])
            .arg(format!("--jobs={}", jobs.join(",")))
            .stdin(Stdio::null()),
    )
    .ok()?;
    // squeue fails for job ids it no longer knows at all; then nothing of them is queued.
    let err = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() && !err.contains("Invalid job id") {
        return None;
    }
    Some(parse_squeue(&String::from_utf8_lossy(&out.stdout)))
}

/// The final state of a task (`12_3`) and its node: from sacct, else scontrol; `None` when
/// Slurm no longer knows it.
pub(super) fn final_state(task: &str) -> Option<(String, String)> {
    let sacct = cmdline::output(
        Command::new("sacct")
            .args([
                "--noheader",
                "--parsable2",
                "--allocations",
                "--format=JobID,State,NodeList",
            ])
            .args(["--jobs", task])
            .stdin(Stdio::null())
            .stderr(Stdio::null()),
    );
    if let Some(o) = sacct.ok().filter(|o| o.status.success()) {
        let text = String::from_utf8_lossy(&o.stdout);
        if let Some(s) = parse_sacct(&text, task) {
            return Some(s);
        }
    }
    let o = cmdline::output(
        Command::new("scontrol")
            .args(["show", "job", task])
            .stdin(Stdio::null())
            .stderr(Stdio::null()),
    )
    .ok()?;
    o.status
        .success()
        .then(|| parse_scontrol(&String::from_utf8_lossy(&o.stdout)))
        .flatten()
}

/// sacct's `JobID|State|NodeList` row of `task` (`CANCELLED by 0` keeps its first word).
fn parse_sacct(text: &str, task: &str) -> Option<(String, String)> {
    text.lines().find_map(|l| {
        let f: Vec<&str> = l.split('|').collect();
        (f.first() == Some(&task)).then(|| {
            let state = f
                .get(1)
                .unwrap_or(&"")
                .split_whitespace()
                .next()
                .unwrap_or("");
            (state.to_string(), f.get(2).unwrap_or(&"").to_string())
        })
    })
}

/// `JobState=` and `NodeList=` of `scontrol show job`.
fn parse_scontrol(text: &str) -> Option<(String, String)> {
    let field = |key: &str| {
        text.split_whitespace()
            .find_map(|w| w.strip_prefix(key))
            .map(String::from)
    };
    Some((field("JobState=")?, field("NodeList=").unwrap_or_default()))
}

/// The most GPUs one node of `partition` offers, from sinfo's gres (`gpu:4`, `gpu:a100:8(S:0-1)`);
/// `None` when sinfo cannot say.
pub(super) fn gpus_per_node(partition: Option<&str>) -> Option<u32> {
    let mut cmd = Command::new("sinfo");
    cmd.args(["--noheader", "--format=%G"]);
    if let Some(p) = partition {
        cmd.arg(format!("--partition={p}"));
    }
    let o = cmdline::output(cmd.stdin(Stdio::null())).ok()?;
    o.status
        .success()
        .then(|| parse_gres(&String::from_utf8_lossy(&o.stdout)))
}

/// The cluster's MaxArraySize (`scontrol show config`): an array's task indices run from 0 to
/// one less, so it is also the most tasks one array holds. `None` when scontrol cannot say.
pub(super) fn max_array_size() -> Option<usize> {
    let mut cmd = Command::new("scontrol");
    cmd.args(["show", "config"]);
    let o = cmdline::output(cmd.stdin(Stdio::null())).ok()?;
    if !o.status.success() {
        return None;
    }
    parse_max_array_size(&String::from_utf8_lossy(&o.stdout))
}

/// `MaxArraySize           = 1001` among scontrol's `Key = value` lines; at least 1.
fn parse_max_array_size(text: &str) -> Option<usize> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once('=')?;
        (k.trim() == "MaxArraySize")
            .then(|| v.trim().parse::<usize>().ok())
            .flatten()
            .filter(|n| *n >= 1)
    })
}

fn parse_gres(text: &str) -> u32 {
    let mut most = 0;
    for item in text.split(|c: char| c == ',' || c.is_whitespace()) {
        let item = item.split('(').next().unwrap_or("");
        if !item.starts_with("gpu:") {
            continue;
        }
        if let Some(n) = item.rsplit(':').next().and_then(|n| n.parse::<u32>().ok()) {
            most = most.max(n);
        }
    }
    most
}

/// What a final state without a result means.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Ending {
    /// Slurm's time limit ended it.
    TimedOut,
    /// Slurm's memory limit ended it.
    OutOfMemory,
    /// The node failed or the task was preempted: worth another try.
    Retry,
    /// Cancelled (scancel, an administrator).
    Cancelled,
    /// It ended without a result otherwise (errbook failed on the node).
    Failed,
}

pub(super) fn ending(state: &str) -> Ending {
    match state {
        "TIMEOUT" | "DEADLINE" => Ending::TimedOut,
        "OUT_OF_MEMORY" => Ending::OutOfMemory,
        "NODE_FAIL" | "PREEMPTED" | "BOOT_FAIL" | "REQUEUED" => Ending::Retry,
        "CANCELLED" => Ending::Cancelled,
        _ => Ending::Failed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slurm_is_read_as_its_commands_write() {
        let q = parse_squeue("1_2|PENDING||Resources\n1_0|RUNNING|node7|None\n");
        assert_eq!(q.len(), 2);
        assert_eq!(
            (q[0].task.as_str(), q[0].reason.as_str()),
            ("1_2", "Resources")
        );
        assert_eq!(
            (q[1].state.as_str(), q[1].node.as_str()),
            ("RUNNING", "node7")
        );
        let sacct = "12_3|CANCELLED by 0|node1\n12_4|TIMEOUT|node2\n";
        assert_eq!(
            parse_sacct(sacct, "12_4"),
            Some(("TIMEOUT".into(), "node2".into()))
        );
        assert_eq!(parse_sacct(sacct, "12_3").unwrap().0, "CANCELLED");
        let sc = "JobId=3 ArrayJobId=1 ArrayTaskId=1\n   JobState=NODE_FAIL Reason=None\n   NodeList=gpu-03\n";
        assert_eq!(
            parse_scontrol(sc),
            Some(("NODE_FAIL".into(), "gpu-03".into()))
        );
        assert_eq!(parse_gres("gpu:2\n(null)\ngpu:a100:8(S:0-1),tmp:10\n"), 8);
        assert_eq!(parse_gres("(null)\n"), 0);
        let config = "MailProg                = /bin/mail\nMaxArraySize            = 3\nMaxJobCount = 10000\n";
        assert_eq!(parse_max_array_size(config), Some(3));
        assert_eq!(parse_max_array_size("MaxArraySize = 0\n"), None);
        assert_eq!(parse_max_array_size("MaxArraySizeX = 5\n"), None);
        assert_eq!(ending("OUT_OF_MEMORY"), Ending::OutOfMemory);
        assert_eq!(ending("PREEMPTED"), Ending::Retry);
        assert_eq!(ending("FAILED"), Ending::Failed);
    }
}
