//! Pack runs onto the host's GPUs. A run needing one GPU shares it with other such runs while
//! their GPU memory (declared, measured in an earlier run, or a default) fits under the GPU's
//! cap; the least loaded GPU that fits takes it, and an estimate over the cap gets a GPU to
//! itself. A run needing several GPUs gets them to itself (collectives, peer access). Longer runs
//! start first (the longest one bounds the wall time); smaller ones fill what is left meanwhile.
//! A run the caller sends back (it ran out of memory beside others) runs again alone.

use std::sync::mpsc;
use std::time::{Duration, Instant};

/// One run to place.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Job {
    /// GPUs it needs (0: none).
    pub gpus: u32,
    /// GPU memory it is expected to hold on each of them, in MiB.
    pub mem_mib: u64,
    /// How long it is expected to take (its last run's duration), in seconds; 0 when unknown.
    pub expect_s: f64,
}

/// When and where one run happened.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Slot {
    pub job: usize,
    pub gpus: Vec<u32>,
    /// GPU memory planned for it on each of its GPUs, in MiB.
    pub mem_mib: u64,
    /// Another run used one of its GPUs while it ran.
    pub shared: bool,
    pub start_s: f64,
    pub end_s: f64,
}

/// One GPU's load.
#[derive(Debug, Clone)]
struct Gpu {
    index: u32,
    cap_mib: u64,
    used_mib: u64,
    runs: usize,
    /// A run has it to itself.
    exclusive: bool,
}

/// The GPUs and what runs on them.
struct Board {
    gpus: Vec<Gpu>,
    /// The jobs running now, with their GPUs.
    running: Vec<(usize, Vec<u32>)>,
    /// Per job: another run used one of its GPUs while it ran.
    shared: Vec<bool>,
}

impl Board {
    /// The GPUs for `job` if it can start now (`alone`: on GPUs of its own).
    fn place(&self, job: &Job, alone: bool) -> Option<Vec<u32>> {
        let n = job.gpus as usize;
        if n == 0 {
            return Some(Vec::new());
        }
        if n == 1 && !alone {
            let fits =
                |g: &&Gpu| !g.exclusive && (g.runs == 0 || g.used_mib + job.mem_mib <= g.cap_mib);
            // An estimate over the cap waits for a GPU of its own.
            let fits_at_all = |g: &&Gpu| g.runs == 0 || job.mem_mib <= g.cap_mib;
            let best = self
                .gpus
                .iter()
                .filter(fits)
                .filter(fits_at_all)
                .min_by_key(|g| (g.runs, g.used_mib, g.index))?;
            return Some(vec![best.index]);
        }
        let free: Vec<u32> = self
            .gpus
            .iter()
            .filter(|g| g.runs == 0)
            .map(|g| g.index)
            .take(n)
            .collect();
        (free.len() == n).then_some(free)
    }

    fn take(&mut self, job: usize, on: &[u32], mem_mib: u64, alone: bool) {
        for g in self.gpus.iter_mut().filter(|g| on.contains(&g.index)) {
            g.used_mib += mem_mib;
            g.runs += 1;
            g.exclusive |= alone || on.len() > 1;
        }
        for (other, theirs) in &self.running {
            if theirs.iter().any(|g| on.contains(g)) {
                self.shared[*other] = true;
                self.shared[job] = true;
            }
        }
        self.running.push((job, on.to_vec()));
    }

    fn give_back(&mut self, job: usize, on: &[u32], mem_mib: u64) {
        for g in self.gpus.iter_mut().filter(|g| on.contains(&g.index)) {
            g.used_mib = g.used_mib.saturating_sub(mem_mib);
            g.runs = g.runs.saturating_sub(1);
            g.exclusive = false;
        }
        self.running.retain(|(j, _)| *j != job);
    }
}

/// Run `jobs` on the GPUs `gpus` (index and cap in MiB), at most `max_parallel` at a time.
/// `run(i, gpus)` runs on a worker thread; `on_start` and `on_done` run on the calling thread in
/// the order things happen; `on_done(i, gpus, shared, result)` hears whether another run used
/// its GPU meanwhile, and returning true sends a job that shared its GPU back to run again
/// alone (once). Jobs needing more GPUs than there are never start. Returns the timeline.
pub(super) fn run_all<R: Send>(
    jobs: &[Job],
    gpus: &[(u32, u64)],
    max_parallel: usize,
    run: impl Fn(usize, &[u32]) -> R + Sync,
    mut on_start: impl FnMut(usize, &[u32]),
    mut on_done: impl FnMut(usize, &[u32], bool, R) -> bool,
) -> Vec<Slot> {
    let t0 = Instant::now();
    let mut board = Board {
        gpus: gpus
            .iter()
            .map(|&(index, cap_mib)| Gpu {
                index,
                cap_mib,
                used_mib: 0,
                runs: 0,
                exclusive: false,
            })
            .collect(),
        running: Vec::new(),
        shared: vec![false; jobs.len()],
    };
    // (job, alone), most GPUs first, then the longest expected.
    let mut queue: Vec<(usize, bool)> = (0..jobs.len())
        .filter(|&i| jobs[i].gpus as usize <= gpus.len())
        .map(|i| (i, false))
        .collect();
    queue.sort_by(|&(a, _), &(b, _)| {
        let (ja, jb) = (&jobs[a], &jobs[b]);
        jb.gpus
            .cmp(&ja.gpus)
            .then(jb.expect_s.total_cmp(&ja.expect_s))
            .then(a.cmp(&b))
    });
    let mut running = 0usize;
    let mut timeline = Vec::new();
    let mut starts = vec![0f64; jobs.len()];
    let (tx, rx) = mpsc::channel::<(usize, Vec<u32>, bool, R)>();
    let run = &run;
    std::thread::scope(|scope| {
        while !queue.is_empty() || running > 0 {
            // Start whatever fits, in queue order.
            let mut k = 0;
            while k < queue.len() && running < max_parallel.max(1) {
                let (i, alone) = queue[k];
                let Some(mine) = board.place(&jobs[i], alone) else {
                    k += 1;
                    continue;
                };
                queue.remove(k);
                board.shared[i] = false;
                board.take(i, &mine, jobs[i].mem_mib, alone);
                starts[i] = t0.elapsed().as_secs_f64();
                on_start(i, &mine);
                running += 1;
                let tx = tx.clone();
                scope.spawn(move || {
                    let r = run(i, &mine);
                    let _ = tx.send((i, mine, alone, r));
                });
            }
            if running == 0 {
                break; // nothing runs and nothing fits: only with an empty queue
            }
            let Ok((i, on, alone, r)) = rx.recv_timeout(Duration::from_secs(3600 * 24)) else {
                break;
            };
            running -= 1;
            board.give_back(i, &on, jobs[i].mem_mib);
            let shared = board.shared[i];
            timeline.push(Slot {
                job: i,
                gpus: on.clone(),
                mem_mib: jobs[i].mem_mib,
                shared,
                start_s: starts[i],
                end_s: t0.elapsed().as_secs_f64(),
            });
            if on_done(i, &on, shared, r) && shared && !alone {
                queue.insert(0, (i, true));
            }
        }
    });
    timeline
}

#[cfg(test)]
mod tests;
