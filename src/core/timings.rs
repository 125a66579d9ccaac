//! Timings: with `ERRBOOK_TIMINGS=1` in the environment, each pipeline stage notes how long it
//! took; the binary prints the notes after the command (what the benchmark and a profile need).
//! Nothing is kept otherwise.

use std::sync::{Mutex, OnceLock};
use std::time::Instant;

fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("ERRBOOK_TIMINGS").is_some_and(|v| v != "0"))
}

static NOTES: Mutex<Vec<(&'static str, f64)>> = Mutex::new(Vec::new());

/// Notes `stage: N ms` when dropped, if timings are on.
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
            let ms = self.start.elapsed().as_secs_f64() * 1000.0;
            if let Ok(mut n) = NOTES.lock() {
                n.push((self.name, ms));
            }
        }
    }
}

/// The stages noted so far, in the order they ended (empty when timings are off); clears them.
pub fn take() -> Vec<(&'static str, f64)> {
    NOTES
        .lock()
        .map(|mut n| std::mem::take(&mut *n))
        .unwrap_or_default()
}
