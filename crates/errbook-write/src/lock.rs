//! The lock on an output folder: `.<name>.lock` beside it, held (an exclusive `flock`) from the
//! moment a build takes the staging folder until it has swapped it in. A second build into the
//! same folder waits for the first; a build that is killed lets go with its process.

use errbook_core::error::{IoContext, Result};
use std::fs::{File, OpenOptions};
use std::path::Path;

/// An output folder's lock, held while the value lives.
#[derive(Debug)]
pub(crate) struct Lock {
    file: File,
}

impl Lock {
    /// Take the lock of `dest`, waiting for another build that holds it.
    pub(crate) fn acquire(dest: &Path) -> Result<Lock> {
        let path = super::sibling(dest, "lock");
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).at(parent)?;
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .at(&path)?;
        file.lock().at(&path)?;
        Ok(Lock { file })
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn a_second_holder_waits_for_the_first() {
        let tmp = tempfile::tempdir().unwrap();
        let dest = tmp.path().join("book");
        let first = Lock::acquire(&dest).unwrap();
        assert!(tmp.path().join(".book.lock").is_file());
        let got = Arc::new(AtomicBool::new(false));
        let (d, g) = (dest.clone(), got.clone());
        let t = std::thread::spawn(move || {
            let _second = Lock::acquire(&d).unwrap();
            g.store(true, Ordering::SeqCst);
        });
        std::thread::sleep(Duration::from_millis(100));
        assert!(!got.load(Ordering::SeqCst), "the second took a held lock");
        drop(first);
        t.join().unwrap();
        assert!(got.load(Ordering::SeqCst));
    }
}
