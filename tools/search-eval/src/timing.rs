//! Query times: every paste searched `RUNS` times against a catalog's index, the fastest run of
//! each kept, then the median, 95th percentile and maximum over the pastes. Two clocks: the
//! wall clock (what a user waits, on this machine as loaded as it is) and the thread's CPU time
//! (the query's own cost: on a shared machine the wall clock also counts other programs' turns
//! on the CPU). Against the evaluation catalog, and, with `--time-on DIR`, against a larger one
//! (the 10,000-entry synthetic catalog of `scripts/search-bench.sh`), where the first pass's
//! posting lists are long.

use errbook_site::Searcher;
use serde::Serialize;
use std::time::Instant;

/// Runs per paste.
pub(crate) const RUNS: usize = 3;

/// One clock's figures over the pastes, in milliseconds.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Stats {
    pub(crate) median: f64,
    pub(crate) p95: f64,
    pub(crate) max: f64,
    /// Pastes whose fastest run took over 10 ms.
    pub(crate) over10: usize,
}

/// Query times over a set of pastes.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Times {
    /// The catalog's entries.
    pub(crate) entries: usize,
    pub(crate) pastes: usize,
    pub(crate) wall: Stats,
    pub(crate) cpu: Stats,
}

/// This thread's CPU time, in milliseconds.
fn cpu_ms() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec into the valid, exclusively borrowed `ts`.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &raw mut ts) };
    if rc != 0 {
        return 0.0;
    }
    ts.tv_sec as f64 * 1000.0 + ts.tv_nsec as f64 / 1e6
}

fn stats(mut ms: Vec<f64>) -> Stats {
    ms.sort_by(f64::total_cmp);
    // Nearest rank: the smallest time with at least p of the pastes at or below it.
    let pct = |p: f64| {
        let k = ((p * ms.len() as f64).ceil() as usize).clamp(1, ms.len().max(1));
        ms.get(k - 1).copied().unwrap_or(0.0)
    };
    Stats {
        median: pct(0.5),
        p95: pct(0.95),
        max: ms.last().copied().unwrap_or(0.0),
        over10: ms.iter().filter(|&&x| x > 10.0).count(),
    }
}

/// Time every paste of `texts` against `searcher`.
pub(crate) fn time(searcher: &Searcher, texts: &[&str]) -> Times {
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    for t in texts {
        let (mut w, mut c) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..RUNS {
            let (t0, c0) = (Instant::now(), cpu_ms());
            std::hint::black_box(searcher.search(t, 3));
            c = c.min(cpu_ms() - c0);
            w = w.min(t0.elapsed().as_secs_f64() * 1000.0);
        }
        wall.push(w);
        cpu.push(c);
    }
    Times {
        entries: searcher.entries(),
        pastes: texts.len(),
        wall: stats(wall),
        cpu: stats(cpu),
    }
}

/// The table's head.
pub(crate) fn head() -> String {
    format!(
        "query time, ms (fastest of {RUNS} runs per paste; wall clock, and the thread's CPU time)\n  {:<30} {:>7} {:>6}  {:>7} {:>6} {:>6} {:>5}  {:>7} {:>6} {:>6} {:>5}",
        "catalog", "entries", "pastes", "median", "p95", "max", ">10", "cpu med", "p95", "max", ">10"
    )
}

/// One line of the table.
pub(crate) fn line(label: &str, t: &Times) -> String {
    let (w, c) = (&t.wall, &t.cpu);
    format!(
        "  {label:<30} {:>7} {:>6}  {:>7.2} {:>6.2} {:>6.2} {:>5}  {:>7.2} {:>6.2} {:>6.2} {:>5}",
        t.entries, t.pastes, w.median, w.p95, w.max, w.over10, c.median, c.p95, c.max, c.over10
    )
}
