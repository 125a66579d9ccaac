//! Care of the records before a session plans: records of the first hash scheme (which hashed
//! the claim) filed again under the run's hash (`rekey`), delete the records of code that is
//! gone (`--prune`), and read records' findings again from their logs (`--reread`). Each step reports
//! what it did through `Progress`; none runs anything.

use super::progress::{Event, Progress};
use super::record;
use errbook_core::error::{IoContext, Result};
use errbook_core::model::Catalog;
use errbook_records::{self as records, RecordSet};
use std::path::Path;

/// File each record found under a runnable snippet's first-scheme hash again under its hash
/// (the claim is no longer part of it), the old file removed; how many moved.
pub(super) fn rekey(dir: &Path, set: &RecordSet, catalog: &Catalog) -> Result<usize> {
    let mut moved = 0;
    for page in catalog.pages() {
        let snippets = page.snippets();
        for s in snippets.iter().filter(|s| s.run.is_some()) {
            let hash = records::hash::hash_of(snippets, s);
            let legacy = records::hash::legacy_hash_of(snippets, s);
            for old in set.runs(&page.reference(), &legacy) {
                if set
                    .run_in(&page.reference(), &hash, &old.env.key())
                    .is_some()
                {
                    continue;
                }
                let mut new = old.clone();
                new.hash.clone_from(&hash);
                records::store::write(dir, &new)?;
                moved += 1;
            }
        }
    }
    Ok(moved)
}

/// Delete the records that match no runnable snippet of `catalog`.
pub(super) fn prune(
    root: &Path,
    set: &RecordSet,
    catalog: &Catalog,
    progress: &mut dyn Progress,
) -> Result<()> {
    let orphans = set.orphans(catalog);
    for &i in &orphans {
        let path = root.join(&set.paths[i]);
        std::fs::remove_file(&path).at(&path)?;
        if let Some(parent) = path.parent() {
            let _ = std::fs::remove_dir(parent); // a snippet's folder, when emptied
        }
        progress.event(Event::Pruned(&set.paths[i]));
    }
    progress.event(Event::PruneDone(orphans.len()));
    Ok(())
}

/// Read every record's finding again from its log, and write the ones that change (in place:
/// nothing that names a record changes).
pub(super) fn reread(root: &Path, set: &RecordSet, progress: &mut dyn Progress) -> Result<()> {
    let date = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let mut changed = 0;
    for (rec, path) in set.records.iter().zip(&set.paths) {
        let Some(new) = record::reread(rec, &date) else {
            continue;
        };
        records::store::rewrite(&root.join(path), &new)?;
        progress.event(Event::Reread { path, record: &new });
        changed += 1;
    }
    progress.event(Event::RereadDone(changed));
    Ok(())
}
