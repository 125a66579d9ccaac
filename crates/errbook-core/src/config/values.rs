//! The values of `book.toml` that have a fixed set of meanings or a form of their own, typed:
//! how runs are contained (`SandboxKind`), how Slurm jobs ask for GPUs (`GpuFlag`), amounts of
//! memory (`Mib`, read by `parse_mib`) and the GPU memory cap (`MemCap`). serde reads each, so a
//! wrong value is an error when book.toml is read, with the accepted values; the command line
//! parses the same types (the enums through clap's `ValueEnum`, with the `clap` feature).

use serde::{Deserialize, Deserializer, Serialize};
use std::str::FromStr;

/// `verify.sandbox`, `--sandbox`: how runs are contained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum SandboxKind {
    /// bubblewrap, the default (also written `bubblewrap`).
    #[default]
    #[serde(alias = "bubblewrap")]
    #[cfg_attr(feature = "clap", value(alias = "bubblewrap"))]
    Bwrap,
    /// no sandbox: runs are unconfined, warned about and recorded.
    None,
}

/// `verify.slurm.gpu_flag`: how a Slurm job asks for its GPUs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GpuFlag {
    /// `--gres=gpu:N` (the default).
    #[default]
    Gres,
    /// `--gpus=N`.
    Gpus,
}

/// An amount of memory, in MiB: `verify.memory_limit`, `verify.gpu_mem_default`,
/// `--memory-limit` (written as `parse_mib` reads it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mib(pub u64);

impl FromStr for Mib {
    type Err = String;
    fn from_str(s: &str) -> Result<Mib, String> {
        parse_mib(s).map(Mib).ok_or_else(|| {
            format!("`{s}` is not an amount of memory (write `16G`, `512M` or `4GiB`)")
        })
    }
}

impl<'de> Deserialize<'de> for Mib {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Mib, D::Error> {
        from_text(d)
    }
}

/// An amount of memory in MiB: a number (`2`, `1.5`) and a binary unit, `K`, `M`, `G` or `T`,
/// in any case, alone or with `B` or `iB` (`16G`, `512MB`, `4GiB`); no unit is MiB. Less than
/// a MiB, or a petabyte and more, is no amount.
pub fn parse_mib(v: &str) -> Option<u64> {
    let v = v.trim();
    let split = v
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(v.len());
    let (num, unit) = v.split_at(split);
    let n: f64 = num.parse().ok()?;
    let unit = unit.trim().to_ascii_lowercase();
    let letter = (unit.strip_suffix("ib"))
        .or_else(|| unit.strip_suffix('b'))
        .unwrap_or(&unit);
    let per_unit = match letter {
        "k" => 1.0 / 1024.0,
        "m" => 1.0,
        "" if unit.is_empty() => 1.0,
        "g" => 1024.0,
        "t" => 1024.0 * 1024.0,
        _ => return None,
    };
    let mib = (n * per_unit).round();
    (n.is_finite() && (1.0..1e12).contains(&mib)).then_some(mib as u64)
}

/// `verify.gpu_mem_cap`, `--gpu-mem-cap`: how much of one GPU the runs packed onto it may plan
/// to use together. Written `90%`, `60GiB`, `40000` (MiB) or `0` (`FromStr`; book.toml reads
/// it so through `from_text`); its serde form is the one a work plan carries to remote hosts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum MemCap {
    /// This share of the GPU's memory (0.9 for `90%`).
    Share(f64),
    /// This many MiB (0: one run per GPU).
    Mib(u64),
}

impl Default for MemCap {
    fn default() -> MemCap {
        MemCap::Share(0.9)
    }
}

impl FromStr for MemCap {
    type Err = String;
    fn from_str(s: &str) -> Result<MemCap, String> {
        let bad = || format!("`{s}` is neither a share (`90%`) nor an amount (`60GiB`, `0`)");
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
        parse_mib(t).map(MemCap::Mib).ok_or_else(bad)
    }
}

impl MemCap {
    /// The cap on a GPU with `total_mib` of memory; a share of an unknown total is 0 (one run
    /// per GPU: nothing is known to fit).
    pub fn on(self, total_mib: u64) -> u64 {
        match self {
            MemCap::Share(f) => (total_mib as f64 * f) as u64,
            MemCap::Mib(m) => m,
        }
    }
}

/// A value of book.toml read from its text by `T`'s `FromStr`, whose complaint becomes serde's
/// (toml adds the line and the key).
pub(super) fn from_text<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr<Err = String>,
{
    let text = String::deserialize(d)?;
    text.parse().map_err(serde::de::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_of_memory_are_read_in_binary_units() {
        for (text, mib) in [
            ("16G", 16 * 1024),
            ("512M", 512),
            ("2GiB", 2048),
            ("500MiB", 500),
            ("3000", 3000),
            ("1048576K", 1024),
            ("16 g", 16 * 1024),
            ("1.5GB", 1536),
            ("1T", 1024 * 1024),
        ] {
            assert_eq!(parse_mib(text), Some(mib), "{text}");
        }
        for bad in [
            "",
            "lots",
            "0",
            "GiB",
            "-1G",
            "1.2.3G",
            "5 parsecs",
            "16B",
            "16iB",
            "1e3",
        ] {
            assert_eq!(parse_mib(bad), None, "{bad}");
        }
        let e = "lots".parse::<Mib>().unwrap_err();
        assert!(e.contains("`lots` is not an amount of memory"), "{e}");
    }

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
        assert_eq!(MemCap::default(), MemCap::Share(0.9));
        assert_eq!(MemCap::Share(0.9).on(81_559), 73_403);
        assert_eq!(MemCap::Share(0.9).on(0), 0);
    }
}
