//! Timings: with `ERRBOOK_TIMINGS=1` in the environment, each pipeline stage notes how long it
//! took and, on Linux, the process's memory when it ended (resident now, and the peak so far:
//! where a large build's memory goes); the binary prints the notes after the command (what the
//! benchmark and a profile need). Nothing is kept otherwise.

use std::sync::{Mutex, OnceLock};
use std::time::Instant;

fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("ERRBOOK_TIMINGS").is_some_and(|v| v != "0"))
}

/// One stage's note: its name, milliseconds, and memory at its end.
#[derive(Debug, Clone, Copy)]
pub struct Note {
    pub stage: &'static str,
    pub ms: f64,
    pub memory: Option<Memory>,
}

/// The process's resident memory in KiB: now (`VmRSS`) and the peak so far (`VmHWM`).
#[derive(Debug, Clone, Copy)]
pub struct Memory {
    pub rss_kib: u64,
    pub peak_kib: u64,
}

/// Read from /proc/self/status (None where there is none).
fn memory() -> Option<Memory> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| {
        let line = status.lines().find(|l| l.starts_with(name))?;
        line[name.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()
    };
    Some(Memory {
        rss_kib: field("VmRSS:")?,
        peak_kib: field("VmHWM:")?,
    })
}

static NOTES: Mutex<Vec<Note>> = Mutex::new(Vec::new());

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
            let note = Note {
                stage: self.name,
                ms,
                memory: memory(),
            };
            if let Ok(mut n) = NOTES.lock() {
                n.push(note);
            }
        }
    }
}

/// The stages noted so far, in the order they ended (empty when timings are off); clears them.
pub fn take() -> Vec<Note> {
    NOTES
        .lock()
        .map(|mut n| std::mem::take(&mut *n))
        .unwrap_or_default()
}

impl std::fmt::Display for Note {
    /// `stage     N ms  (RSS M MiB, peak P MiB)`, the stage padded to `width`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let width = f.width().unwrap_or(0);
        write!(f, "{:<width$} {:>8.1} ms", self.stage, self.ms)?;
        if let Some(m) = self.memory {
            write!(
                f,
                "  (RSS {} MiB, peak {} MiB)",
                m.rss_kib / 1024,
                m.peak_kib / 1024
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_is_read_from_proc_on_linux() {
        if cfg!(target_os = "linux") {
            let m = memory().expect("/proc/self/status has VmRSS and VmHWM");
            assert!(m.rss_kib > 0 && m.peak_kib >= m.rss_kib, "{m:?}");
        }
    }

    #[test]
    fn a_note_prints_its_stage_time_and_memory() {
        let n = Note {
            stage: "link",
            ms: 12.0,
            memory: Some(Memory {
                rss_kib: 2048,
                peak_kib: 4096,
            }),
        };
        assert_eq!(
            format!("{n:8}"),
            "link         12.0 ms  (RSS 2 MiB, peak 4 MiB)"
        );
    }
}
