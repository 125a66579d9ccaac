//! Care of the records before a session plans: delete the records of code that is gone
//! (`--prune`), and read records' findings again from their logs (`--reread`). Each step reports
//! what it did through `Progress`; none runs anything.

use super::progress::{Event, Progress};
use super::record;
use errbook_core::error::{IoContext, Result};
use errbook_core::model::Catalog;
use errbook_records::{self as records, RecordSet};
use std::path::Path;

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
