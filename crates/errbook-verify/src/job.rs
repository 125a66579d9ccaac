//! The runner seam: a `Backend` (this machine, SSH hosts, a Slurm cluster) takes the session's
//! `Job`s and reports what happens to each as `Update`s, in order, on the session's thread; the
//! session turns them into progress and records. Every backend ends each job with one
//! `Update::Finished`, whose `Ran` is the run's `Output`, the reason it could not run, or its
//! cancellation.

use super::gpu::Host;
use super::runner::{Output, Request};
use errbook_records::Environment;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;

/// One unit to run, as a runner gets it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Job {
    /// The unit's position in the plan, by which every update names it.
    pub id: usize,
    /// GPUs it needs; the host it runs on picks which (`request.gpus` is set there).
    pub gpus: u32,
    /// GPU memory it is expected to hold on each of them, in MiB (`estimate`).
    pub mem_mib: u64,
    /// How long it is expected to take, in seconds (its last run's); 0 when unknown.
    pub expect_s: f64,
    /// `article/<id>#<snippet>`, for messages.
    pub name: String,
    pub request: Request,
}

/// How a job ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Ran {
    /// It ran; this is what happened.
    Output(Output),
    /// It could not run (a host dropped, a node failed twice): the reason.
    Failed(String),
    /// The session was cancelled before it ended: nothing is recorded.
    Cancelled,
}

impl Ran {
    /// How it ended in a few words, for the debug output.
    pub(crate) fn brief(&self) -> String {
        match self {
            Ran::Output(o) => {
                let s = o.duration.as_secs_f64();
                match (o.exit_status, o.signal, o.timed_out, &o.limit) {
                    (_, _, true, _) => format!("timed out after {s:.1} s"),
                    (_, _, _, Some(limit)) => {
                        format!("stopped by its {limit} limit after {s:.1} s")
                    }
                    (Some(c), ..) => format!("exit {c} after {s:.1} s"),
                    (None, Some(sig), ..) => format!("killed by signal {sig} after {s:.1} s"),
                    (None, None, ..) => format!("ended after {s:.1} s"),
                }
            }
            Ran::Failed(why) => format!("could not run: {why}"),
            Ran::Cancelled => "cancelled".into(),
        }
    }
}

/// A job's end.
#[derive(Debug, Clone)]
pub(crate) struct Finished {
    pub id: usize,
    /// Where it ran, as the record names it: `local`, `ssh://host`, `slurm job 7_2 on node1`.
    pub runner: String,
    /// CUDA_VISIBLE_DEVICES it had.
    pub gpus: Vec<u32>,
    /// The environment of the host it ran on, with its GPUs.
    pub env: Environment,
    /// The most GPU memory its processes held at once, in MiB, where it was measured.
    pub peak_mib: Option<u64>,
    pub ran: Ran,
}

/// What happens to the jobs, in order.
#[derive(Debug, Clone)]
pub(crate) enum Update {
    /// Handed to `place` (a host, a Slurm job), waiting there.
    Queued {
        id: usize,
        place: String,
    },
    /// Waiting in a queue for `reason` (Slurm's PENDING reason: `Priority`, `Resources`).
    Pending {
        id: usize,
        place: String,
        reason: String,
    },
    /// Started at `place` on these GPUs.
    Started {
        id: usize,
        place: String,
        gpus: Vec<u32>,
    },
    Finished(Box<Finished>),
    /// It ran out of GPU memory while it shared its GPU: it runs again on a GPU of its own.
    Again {
        id: usize,
    },
    /// Something the maintainer should know while runs go on (a host dropped, a retry).
    Warning(String),
}

/// Where runs happen.
pub(crate) trait Backend {
    /// The host the plan is made for (the largest, for several): its GPUs and environment.
    fn host(&self) -> &Host;
    /// Runs happen on this machine (what its interpreters import is what runs import).
    fn here(&self) -> bool {
        false
    }
    /// Runs at a time, all hosts together.
    fn jobs(&self) -> usize;
    /// `local`, `ssh://a (2 GPUs), ssh://b (8 GPUs)`, `slurm (partition gpu)`.
    fn describe(&self) -> String;
    /// What the maintainer should know before runs start (an unsandboxed host, no cgroup).
    fn warnings(&self) -> Vec<String>;
    /// Run `jobs`; report on the calling thread, in order; return when each has finished.
    fn run(&mut self, jobs: Vec<Job>, cancel: &AtomicBool, sink: &mut dyn FnMut(Update));
}
