//! Pack runs onto the host: each run gets the GPUs it needs to itself (CUDA_VISIBLE_DEVICES),
//! runs that fit start at once, so independent runs use all GPUs together. The largest needs are
//! placed first; smaller runs fill GPUs left free meanwhile.

use std::sync::mpsc;
use std::time::{Duration, Instant};

/// When and where one run happened.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Slot {
    pub job: usize,
    pub gpus: Vec<u32>,
    pub start_s: f64,
    pub end_s: f64,
}

/// Run `needs.len()` jobs, job `i` needing `needs[i]` GPUs (each at most `gpu_ids.len()`), at most
/// `max_parallel` at a time. `run(i, gpus)` runs on a worker thread; `on_start` and `on_done` run
/// on the calling thread in the order things happen. Returns the timeline.
pub(super) fn run_all<R: Send>(
    needs: &[u32],
    gpu_ids: &[u32],
    max_parallel: usize,
    run: impl Fn(usize, &[u32]) -> R + Sync,
    mut on_start: impl FnMut(usize, &[u32]),
    mut on_done: impl FnMut(usize, &[u32], R),
) -> Vec<Slot> {
    let t0 = Instant::now();
    let mut order: Vec<usize> = (0..needs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(needs[i]));
    let mut free: Vec<u32> = gpu_ids.to_vec();
    let mut running = 0usize;
    let mut timeline = Vec::new();
    let mut starts = vec![0f64; needs.len()];
    let (tx, rx) = mpsc::channel::<(usize, Vec<u32>, R)>();
    let run = &run;
    std::thread::scope(|scope| {
        while !order.is_empty() || running > 0 {
            // Start whatever fits.
            let mut k = 0;
            while k < order.len() && running < max_parallel.max(1) {
                let i = order[k];
                let n = needs[i] as usize;
                if n <= free.len() {
                    order.remove(k);
                    let mine: Vec<u32> = free.drain(..n).collect();
                    starts[i] = t0.elapsed().as_secs_f64();
                    on_start(i, &mine);
                    running += 1;
                    let tx = tx.clone();
                    scope.spawn(move || {
                        let r = run(i, &mine);
                        let _ = tx.send((i, mine, r));
                    });
                } else {
                    k += 1;
                }
            }
            if running == 0 {
                // Nothing fits and nothing runs: the caller filtered impossible jobs, so this
                // only happens with an empty queue.
                break;
            }
            let Ok((i, gpus, r)) = rx.recv_timeout(Duration::from_secs(3600 * 24)) else {
                break;
            };
            running -= 1;
            timeline.push(Slot {
                job: i,
                gpus: gpus.clone(),
                start_s: starts[i],
                end_s: t0.elapsed().as_secs_f64(),
            });
            on_done(i, &gpus, r);
            free.extend(gpus);
            free.sort();
        }
    });
    timeline
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn independent_runs_share_the_gpus_and_never_overlap_on_one() {
        let now = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        let tl = run_all(
            &[1, 2, 1, 1, 0],
            &[0, 1],
            8,
            |i, gpus| {
                let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                peak.fetch_max(n, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(if i == 4 { 10 } else { 60 }));
                now.fetch_sub(1, Ordering::SeqCst);
                gpus.len()
            },
            |_, _| {},
            |i, g, n| assert_eq!(g.len(), n, "job {i}"),
        );
        assert_eq!(tl.len(), 5);
        // The 2-GPU job ran first and alone on the GPUs.
        let two = tl.iter().find(|s| s.job == 1).unwrap();
        assert_eq!(two.gpus, vec![0, 1]);
        for a in &tl {
            for b in &tl {
                let overlap = a.start_s < b.end_s && b.start_s < a.end_s;
                if a.job != b.job && overlap {
                    assert!(a.gpus.iter().all(|g| !b.gpus.contains(g)), "{a:?} {b:?}");
                }
            }
        }
        assert!(peak.load(Ordering::SeqCst) >= 2, "runs went side by side");
    }
}
