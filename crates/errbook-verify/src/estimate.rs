//! What packing knows of a run before it starts: the GPU memory it will hold on each of its GPUs
//! (declared with `gpu_mem=`, else the peak its last record measured with a margin, else the
//! default) and how long it takes (its last record's duration); `Packing`, how much of a GPU the
//! runs on it may plan to use together (the cap, core's `MemCap`: a share of its memory, an
//! amount, or 0 for one run per GPU) and the default, as a session reads them.

use super::plan::Unit;
use super::schedule::Job;
use errbook_core::config::MemCap;
use errbook_records::RecordSet;

/// A measured peak with room for the run to vary: a quarter more, and 256 MiB.
fn with_margin(peak_mib: u64) -> u64 {
    peak_mib + peak_mib / 4 + 256
}

/// What packing takes unit `u` to need: its GPUs, GPU memory on each, and duration.
pub(super) fn job(u: &Unit, set: &RecordSet, default_mib: u64) -> Job {
    let last = set.last_run(&u.page, &u.hash, &u.snippet);
    let per_gpu = |total: u64, on: u32| total / u64::from(on.max(1));
    let measured = last.and_then(|r| {
        let peak = r.gpu_mem_peak_mib?;
        Some(with_margin(per_gpu(peak, r.gpus_used.len() as u32)))
    });
    let mem_mib = if u.spec.gpus == 0 {
        0
    } else {
        u.spec.gpu_mem_mib.or(measured).unwrap_or(default_mib)
    };
    Job {
        gpus: u.spec.gpus,
        mem_mib,
        expect_s: last.map_or(0.0, |r| r.duration_s),
    }
}

/// How runs are packed onto GPUs: the cap per GPU and the memory a run is taken to need when
/// nothing says.
pub(super) struct Packing {
    pub cap: MemCap,
    pub default_mib: u64,
}

impl Packing {
    /// From book.toml's `verify` keys, the command line's cap first.
    pub(super) fn of(
        cfg: &errbook_core::config::Config,
        opts: &super::options::Options,
    ) -> Packing {
        Packing {
            cap: opts.gpu_mem_cap.unwrap_or(cfg.verify.gpu_mem_cap),
            default_mib: cfg.verify.gpu_mem_default.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_measured_peak_gets_a_margin() {
        assert_eq!(with_margin(400), 756);
    }
}
