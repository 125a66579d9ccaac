//! What packing knows of a run before it starts: the GPU memory it will hold on each of its GPUs
//! (declared with `gpu_mem=`, else the peak its last record measured with a margin, else the
//! default) and how long it takes (its last record's duration); and how much of a GPU the runs
//! on it may plan to use together (the cap: a share of its memory, an amount, or 0 for one run
//! per GPU); `Packing`, the cap and the default as a session reads them.

use super::plan::Unit;
use super::schedule::Job;
use errbook_core::error::{Error, Result};
use errbook_records::RecordSet;
use std::str::FromStr;

/// How much of one GPU the runs packed onto it may plan to use together.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum MemCap {
    /// This share of the GPU's memory (0.9 for `90%`).
    Share(f64),
    /// This many MiB (0: one run per GPU).
    Mib(u64),
}

impl FromStr for MemCap {
    type Err = Error;
    /// `90%`, `60GiB`, `40000` (MiB), `0`.
    fn from_str(s: &str) -> Result<MemCap> {
        let bad = || {
            Error::Other(format!(
                "GPU memory cap: `{s}` is neither a share (`90%`) nor an amount (`60GiB`, `0`)"
            ))
        };
        let t = s.trim();
        if let Some(p) = t.strip_suffix('%') {
            let p: f64 = p.trim().parse().map_err(|_| bad())?;
            return (p.is_finite() && p > 0.0 && p <= 100.0)
                .then(|| MemCap::Share(p / 100.0))
                .ok_or_else(bad);
        }
        if t == "0" {
            return Ok(MemCap::Mib(0));
        }
        errbook_parse::snippet::parse_mib(t)
            .map(MemCap::Mib)
            .ok_or_else(bad)
    }
}

impl MemCap {
    /// The cap on a GPU with `total_mib` of memory; a share of an unknown total is 0 (one run
    /// per GPU: nothing is known to fit).
    pub(super) fn on(self, total_mib: u64) -> u64 {
        match self {
            MemCap::Share(f) => (total_mib as f64 * f) as u64,
            MemCap::Mib(m) => m,
        }
    }
}

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
    ) -> Result<Packing> {
        let cap =
            match opts.gpu_mem_cap {
                Some(c) => c,
                None => cfg.verify.gpu_mem_cap.parse().map_err(|e: Error| {
                    Error::Other(format!("book.toml, verify.gpu_mem_cap: {e}"))
                })?,
            };
        let default_mib = errbook_parse::snippet::parse_mib(&cfg.verify.gpu_mem_default)
            .ok_or_else(|| {
                Error::Other(format!(
                    "book.toml, verify.gpu_mem_default: `{}` is not an amount of memory (`4GiB`)",
                    cfg.verify.gpu_mem_default
                ))
            })?;
        Ok(Packing { cap, default_mib })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_are_shares_or_amounts() {
        let p = |s: &str| s.parse::<MemCap>().ok();
        assert_eq!(p("90%"), Some(MemCap::Share(0.9)));
        assert_eq!(p("60GiB"), Some(MemCap::Mib(61_440)));
        assert_eq!(p("0"), Some(MemCap::Mib(0)));
        assert_eq!(p("2000"), Some(MemCap::Mib(2000)));
        for bad in ["150%", "-5%", "lots", "", "%"] {
            assert_eq!(p(bad), None, "{bad}");
        }
        assert_eq!(MemCap::Share(0.9).on(81_559), 73_403);
        assert_eq!(MemCap::Share(0.9).on(0), 0);
        assert_eq!(with_margin(400), 756);
    }
}
