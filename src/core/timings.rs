//! Timings: with `ERRBOOK_TIMINGS=1` in the environment, each pipeline stage prints how long it
//! took to stderr (what the benchmark and a profile need; silent otherwise).

use std::sync::OnceLock;
use std::time::Instant;

fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("ERRBOOK_TIMINGS").is_some_and(|v| v != "0"))
}

/// Prints `stage: N ms` when dropped, if timings are on.
pub struct Stage {
    name: &'static str,
    start: Instant,
}

pub fn stage(name: &'static str) -> Stage {
    Stage {
        name,
        start: Instant::now(),
    }
}

impl Drop for Stage {
    fn drop(&mut self) {
        if enabled() {
            eprintln!(
                "timing: {:<8} {:>8.1} ms",
                self.name,
                self.start.elapsed().as_secs_f64() * 1000.0
            );
        }
    }
}
