//! Packing on made-up GPUs: what overlaps, on which GPU, within which memory.

use super::*;
use std::sync::Mutex;

fn job(gpus: u32, mem_mib: u64) -> Job {
    Job {
        gpus,
        mem_mib,
        expect_s: 0.0,
    }
}

/// Run `jobs` on `gpus`, each sleeping `ms`; the timeline, and the most runs at once.
fn pack(jobs: &[Job], gpus: &[(u32, u64)], ms: u64) -> (Vec<Slot>, usize) {
    let now = Mutex::new(0usize);
    let peak = Mutex::new(0usize);
    let tl = run_all(
        jobs,
        gpus,
        64,
        |_, _| {
            {
                let mut n = now.lock().unwrap();
                *n += 1;
                let mut p = peak.lock().unwrap();
                *p = (*p).max(*n);
            }
            std::thread::sleep(Duration::from_millis(ms));
            *now.lock().unwrap() -= 1;
        },
        |_, _| {},
        |_, _, _, _| false,
    );
    let p = *peak.lock().unwrap();
    (tl, p)
}

fn overlap(a: &Slot, b: &Slot) -> bool {
    a.job != b.job && a.start_s < b.end_s && b.start_s < a.end_s
}

/// The most memory planned on `gpu` at any run's start (the scheduler's own clock: a run that
/// ended before another started is counted out).
fn most_on(tl: &[Slot], gpu: u32) -> u64 {
    let on = || tl.iter().filter(|s| s.gpus.contains(&gpu));
    on().map(|s| {
        let then = on().filter(|o| o.start_s <= s.start_s && s.start_s < o.end_s);
        then.map(|o| o.mem_mib).sum::<u64>()
    })
    .max()
    .unwrap_or(0)
}

#[test]
fn small_runs_share_a_gpu_up_to_its_cap() {
    let jobs = vec![job(1, 1000); 6];
    let (tl, peak) = pack(&jobs, &[(0, 3500)], 80);
    assert_eq!(tl.len(), 6);
    assert_eq!(peak, 3, "three 1000 MiB runs fit under 3500 MiB");
    assert!(most_on(&tl, 0) <= 3500, "{tl:?}");
    assert!(tl.iter().all(|s| s.shared && s.gpus == [0]));
}

#[test]
fn runs_spread_over_gpus_and_several_gpus_are_had_alone() {
    let jobs = [
        job(1, 500),
        job(2, 500),
        job(1, 500),
        job(1, 500),
        job(0, 0),
    ];
    let (tl, _) = pack(&jobs, &[(0, 10_000), (1, 10_000)], 60);
    assert_eq!(tl.len(), 5);
    let two = tl.iter().find(|s| s.job == 1).unwrap();
    assert_eq!(two.gpus, vec![0, 1], "the 2-GPU run starts first");
    for s in &tl {
        if s.job != 1 && !s.gpus.is_empty() {
            assert!(
                !overlap(s, two),
                "nothing beside a multi-GPU run: {s:?} {two:?}"
            );
        }
    }
    let singles: Vec<&Slot> = tl.iter().filter(|s| s.gpus.len() == 1).collect();
    let on: Vec<u32> = singles.iter().map(|s| s.gpus[0]).collect();
    assert!(on.contains(&0) && on.contains(&1), "both GPUs used: {on:?}");
    assert!(tl.iter().find(|s| s.job == 4).unwrap().gpus.is_empty());
}

#[test]
fn a_cap_of_zero_is_one_run_per_gpu_and_too_big_runs_wait_for_an_empty_gpu() {
    let (tl, peak) = pack(&[job(1, 100); 3], &[(0, 0)], 30);
    assert_eq!((tl.len(), peak), (3, 1));
    let jobs = [job(1, 100), job(1, 9000), job(1, 100)];
    let (tl, _) = pack(&jobs, &[(0, 4000)], 60);
    let big = tl.iter().find(|s| s.job == 1).unwrap();
    assert!(!big.shared, "over the cap, it ran alone: {tl:?}");
    assert!(tl.iter().all(|s| s.job == 1 || !overlap(s, big)));
}

#[test]
fn longest_first_and_a_run_sent_back_runs_again_alone() {
    let mut jobs = vec![job(1, 100); 3];
    jobs[2].expect_s = 9.0;
    let order = Mutex::new(Vec::new());
    let tl = run_all(
        &jobs,
        &[(0, 1000)],
        1,
        |_, _| std::thread::sleep(Duration::from_millis(5)),
        |i, _| order.lock().unwrap().push(i),
        |_, _, _, _| false,
    );
    assert_eq!(tl.len(), 3);
    assert_eq!(order.lock().unwrap()[0], 2, "the longest starts first");

    let tries = Mutex::new(Vec::new());
    let tl = run_all(
        &[job(1, 100), job(1, 100)],
        &[(0, 1000)],
        8,
        |_, _| std::thread::sleep(Duration::from_millis(40)),
        |_, _| {},
        |i, _, shared, _| {
            tries.lock().unwrap().push((i, shared));
            i == 0 // job 0 "ran out of memory"
        },
    );
    let tries = tries.lock().unwrap().clone();
    assert_eq!(tl.len(), 3, "{tries:?}");
    assert!(
        tries.contains(&(0, true)) && tries.contains(&(0, false)),
        "{tries:?}"
    );
    let again = tl.iter().filter(|s| s.job == 0).nth(1).unwrap();
    assert!(!again.shared);
}
