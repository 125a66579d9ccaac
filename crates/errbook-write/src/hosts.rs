//! What a site weighs against the static hosts it is published on: the staging folder counts
//! every file it is given (`Tally`), and `SiteSize::over` names each host whose limits the whole
//! site passes (files, total size, largest file), with the limit. docs/publishing.md lists the
//! same limits and where they come from.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// One host's published limits; None where the host states none.
pub struct Host {
    pub name: &'static str,
    pub max_files: Option<u64>,
    pub max_bytes: Option<u64>,
    pub max_file_bytes: Option<u64>,
}

const MIB: u64 = 1024 * 1024;
const GB: u64 = 1_000_000_000;

/// The hosts `build` checks, with their limits (free plans, as of the docs in publishing.md).
pub const HOSTS: [Host; 3] = [
    Host {
        name: "GitHub Pages",
        max_files: None,
        max_bytes: Some(GB),
        // A file over 100 MiB is refused by a git push, so by a Pages branch.
        max_file_bytes: Some(100 * MIB),
    },
    Host {
        name: "Cloudflare Pages (free plan)",
        max_files: Some(20_000),
        max_bytes: None,
        max_file_bytes: Some(25 * MIB),
    },
    Host {
        name: "GitLab Pages (GitLab.com)",
        max_files: Some(200_000),
        max_bytes: Some(GB),
        max_file_bytes: None,
    },
];

/// The files written so far: how many, their bytes, the largest.
#[derive(Default)]
pub(crate) struct Tally {
    files: AtomicU64,
    bytes: AtomicU64,
    largest: Mutex<(u64, String)>,
}

impl Tally {
    pub(crate) fn add(&self, rel: &str, len: u64) {
        self.files.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(len, Ordering::Relaxed);
        if let Ok(mut l) = self.largest.lock() {
            if len > l.0 {
                *l = (len, rel.to_string());
            }
        }
    }

    pub(crate) fn size(&self) -> SiteSize {
        let (largest_bytes, largest) = self.largest.lock().map(|l| l.clone()).unwrap_or_default();
        SiteSize {
            files: self.files.load(Ordering::Relaxed),
            bytes: self.bytes.load(Ordering::Relaxed),
            largest_bytes,
            largest,
        }
    }
}

/// The size of a built site.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SiteSize {
    pub files: u64,
    pub bytes: u64,
    pub largest_bytes: u64,
    /// The largest file's path in the site.
    pub largest: String,
}

fn mb(b: u64) -> String {
    if b >= GB {
        format!("{:.2} GB", b as f64 / GB as f64)
    } else {
        format!("{:.1} MiB", b as f64 / MIB as f64)
    }
}

impl SiteSize {
    /// One sentence per host whose limit this site passes, naming the host and the limit.
    pub fn over(&self) -> Vec<String> {
        let mut out = Vec::new();
        for h in &HOSTS {
            if let Some(max) = h.max_files.filter(|&m| self.files > m) {
                out.push(format!(
                    "the site has {} files, over {}'s limit of {max} files a site",
                    self.files, h.name
                ));
            }
            if let Some(max) = h.max_bytes.filter(|&m| self.bytes > m) {
                out.push(format!(
                    "the site is {}, over {}'s limit of {} a site",
                    mb(self.bytes),
                    h.name,
                    mb(max)
                ));
            }
            if let Some(max) = h.max_file_bytes.filter(|&m| self.largest_bytes > m) {
                out.push(format!(
                    "{} is {}, over {}'s limit of {} a file",
                    self.largest,
                    mb(self.largest_bytes),
                    h.name,
                    mb(max)
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_limit_passed_is_named_with_its_host() {
        let t = Tally::default();
        t.add("a.html", 10);
        t.add("search/big.json", 30 * MIB);
        let s = t.size();
        assert_eq!((s.files, s.largest.as_str()), (2, "search/big.json"));
        assert_eq!(
            s.over(),
            ["search/big.json is 30.0 MiB, over Cloudflare Pages (free plan)'s limit of 25.0 MiB a file"]
        );
        let many = SiteSize {
            files: 20_013,
            bytes: 1_100_000_000,
            ..Default::default()
        };
        let w = many.over();
        assert_eq!(w.len(), 3, "{w:?}");
        assert!(w[0].contains("GitHub Pages") && w[0].contains("1.10 GB"));
        assert!(w[1].contains("20013 files") && w[1].contains("20000 files"));
        assert!(w[2].contains("GitLab Pages"));
        assert!(SiteSize::default().over().is_empty());
    }
}
