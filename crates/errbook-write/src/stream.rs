//! Stream: a file of the staging folder written a piece at a time (`Staging::stream`), for the
//! files too large to hold whole: a domain's entries' JSON is a tenth of a large catalog's
//! output, and holding it whole grew the build's memory with the catalog.
//!
//! In a folder this build made, the file is written in place. Over the build before last, it is
//! written beside (`<name>.errbook-new`) and then either dropped, where the old file already held
//! these bytes (it stays untouched, its mtime meaningful, as `write_file` leaves it), or renamed
//! over it. A build killed half way leaves the `.errbook-new` file in the staging folder, which the
//! next build's commit deletes with everything else it did not write.

use errbook_core::error::{IoContext, Result};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A file being written (see the module's comment).
pub struct Stream {
    out: BufWriter<std::fs::File>,
    /// Where the bytes go now.
    path: PathBuf,
    /// The file they are for, when written beside it.
    over: Option<PathBuf>,
    /// Its path in the site and the bytes written so far, told to `tally` when whole.
    rel: String,
    len: u64,
    tally: Arc<super::hosts::Tally>,
}

impl Stream {
    /// Start `to` (its folder exists); `fresh`: nothing is there to compare with.
    pub(super) fn start(
        to: PathBuf,
        fresh: bool,
        rel: &str,
        tally: Arc<super::hosts::Tally>,
    ) -> Result<Stream> {
        let (path, over) = if fresh {
            (to, None)
        } else {
            let mut name = to.file_name().unwrap_or_default().to_os_string();
            name.push(".errbook-new");
            (to.with_file_name(name), Some(to))
        };
        let file = std::fs::File::create(&path).at(&path)?;
        Ok(Stream {
            out: BufWriter::with_capacity(256 * 1024, file),
            path,
            over,
            rel: rel.to_string(),
            len: 0,
            tally,
        })
    }

    /// Add `bytes` to the file.
    pub fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.len += bytes.len() as u64;
        self.out.write_all(bytes).at(&self.path)
    }

    /// The file is whole: flushed and, when written beside the old one, put in its place.
    pub fn finish(self) -> Result<()> {
        let Stream {
            out,
            path,
            over,
            rel,
            len,
            tally,
        } = self;
        tally.add(&rel, len);
        out.into_inner().map_err(|e| e.into_error()).at(&path)?;
        let Some(to) = over else { return Ok(()) };
        if same_files(&path, &to) {
            return std::fs::remove_file(&path).at(&path);
        }
        std::fs::rename(&path, &to).at(&to)
    }
}

/// For serialisers that write to an `io::Write` (serde_json's `to_writer`).
impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(buf)?;
        self.len += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Whether the files at `a` and `b` hold the same bytes (false when either cannot be read).
fn same_files(a: &Path, b: &Path) -> bool {
    let (Ok(fa), Ok(fb)) = (std::fs::File::open(a), std::fs::File::open(b)) else {
        return false;
    };
    match (fa.metadata(), fb.metadata()) {
        (Ok(ma), Ok(mb)) if ma.len() == mb.len() => {}
        _ => return false,
    }
    let (mut ra, mut rb) = (
        std::io::BufReader::with_capacity(64 * 1024, fa),
        std::io::BufReader::with_capacity(64 * 1024, fb),
    );
    let (mut ba, mut bb) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
    loop {
        let Ok(n) = fill(&mut ra, &mut ba) else {
            return false;
        };
        let Ok(m) = fill(&mut rb, &mut bb) else {
            return false;
        };
        if n != m || ba[..n] != bb[..m] {
            return false;
        }
        if n == 0 {
            return true;
        }
    }
}

/// Read until `buf` is full or the file ends; how many bytes.
fn fill(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream(to: &Path, fresh: bool, parts: &[&[u8]]) {
        let mut s = Stream::start(to.to_path_buf(), fresh, "f", Default::default()).unwrap();
        for p in parts {
            s.write(p).unwrap();
        }
        s.finish().unwrap();
    }

    #[test]
    fn over_an_old_file_the_same_bytes_leave_it_and_others_replace_it() {
        let tmp = tempfile::tempdir().unwrap();
        let to = tmp.path().join("d.json");
        stream(&to, true, &[b"{\"a\":", b"1}"]);
        assert_eq!(std::fs::read(&to).unwrap(), b"{\"a\":1}");
        let old = std::fs::metadata(&to).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        stream(&to, false, &[b"{\"a\":1", b"}"]);
        assert_eq!(std::fs::metadata(&to).unwrap().modified().unwrap(), old);
        stream(&to, false, &[b"{\"a\":2}"]);
        assert_eq!(std::fs::read(&to).unwrap(), b"{\"a\":2}");
        stream(&to, false, &[b"{\"a\":2}", b"\n"]);
        assert_eq!(std::fs::read(&to).unwrap(), b"{\"a\":2}\n");
        let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "nothing is left beside the file");
    }
}
