//! What a session tells its caller as it goes: one `Event` at each step, through the `Progress`
//! seam. The library never prints; the caller (the binary's progress bar, a test) decides what
//! to show.

use super::plan::Plan;
use super::summary::Summary;
use errbook_records::Record;
use std::path::Path;

/// One step of a session, in the order they happen.
#[derive(Debug)]
pub enum Event<'a> {
    /// A record's finding was read again from its log (`--reread`); its path, the new record.
    Reread { path: &'a Path, record: &'a Record },
    /// Rereading is over: this many records changed.
    RereadDone(usize),
    /// A record that matches no runnable snippet was deleted (`prune`); relative to the root.
    Pruned(&'a Path),
    /// Pruning is over: this many records were deleted.
    PruneDone(usize),
    /// The plan: units, what to do with each, the host, runs at a time. Nothing has run yet.
    Planned(&'a Plan),
    /// Something the maintainer should know (no cgroup here, `--sandbox none`, a host dropped).
    Warning(&'a str),
    /// What is going on while nothing else is said (a Slurm node asked what it has).
    Note(&'a str),
    /// Runs begin, this many of them.
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
    /// A run ran out of GPU memory while it shared its GPU; it runs again on a GPU of its own.
    Again { name: &'a str },
    /// A run was cancelled (Ctrl-C) before it ended; nothing is recorded of it.
    Cancelled { name: &'a str },
    /// A run's record is not written: it is not evidence (the machine failed it) and this
    /// environment's run of the same code, which is, stands.
    Kept { name: &'a str, record: &'a Record },
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
