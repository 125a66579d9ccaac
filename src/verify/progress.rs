//! What a session tells its caller as it goes: one `Event` at each step, through the `Progress`
//! seam. The library never prints; the caller (the binary's progress bar, a test) decides what
//! to show.

use super::plan::Plan;
use super::summary::Summary;
use crate::records::Record;
use std::path::Path;

/// One step of a session, in the order they happen.
#[derive(Debug)]
pub enum Event<'a> {
    /// A record that matches no runnable snippet was deleted (`prune`); relative to the root.
    Pruned(&'a Path),
    /// Pruning is over: this many records were deleted.
    PruneDone(usize),
    /// The plan: units, what to do with each, the host, runs at a time. Nothing has run yet.
    Planned(&'a Plan),
    /// Something the maintainer should know (no cgroup here, `--sandbox none`, a host dropped).
    Warning(&'a str),
    /// Runs begin, this many of them (the skip records are written).
    Running(usize),
    /// A run was handed to `place` (a host, a Slurm job) and waits there.
    Queued { name: &'a str, place: &'a str },
    /// A run waits in Slurm's queue for `reason` (`Priority`, `Resources`).
    Pending {
        name: &'a str,
        place: &'a str,
        reason: &'a str,
    },
    /// A run started at `place` (`local`, a host, a Slurm job and node) on these GPUs (none: a
    /// CPU run).
    Started {
        name: &'a str,
        gpus: &'a [u32],
        place: &'a str,
    },
    /// A run finished; its record is about to be written.
    Finished { name: &'a str, record: &'a Record },
    /// Every run is over and every record written (or failed to be); the report comes next.
    End(&'a Summary),
}

/// Where a session's events go.
pub trait Progress {
    fn event(&mut self, event: Event<'_>);
}

impl<F: FnMut(Event<'_>)> Progress for F {
    fn event(&mut self, event: Event<'_>) {
        self(event)
    }
}
