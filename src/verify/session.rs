//! One verify session, start to end: load and analyse the content, prune orphan records, plan
//! (extract the units, detect the host, decide each action), write the skip records, run the
//! rest packed onto the GPUs, record each run, sum up and write the report. What happens is told
//! through `Progress`; the caller prints, and picks the exit status from the `Summary`.

use super::drive::{self, now};
use super::job::Backend;
use super::options::Options;
use super::plan::{self, Action, Plan};
use super::progress::{Event, Progress};
use super::summary::{Done, Summary};
use super::{backends, record, report};
use crate::core::config::Config;
use crate::core::error::{Error, IoContext, Result};
use crate::core::model::Catalog;
use crate::records::{self, RecordSet};
use std::path::Path;

/// Run a session on the catalog at `root`. Content with errors is `Error::Content` (nothing
/// runs); a dry run returns the plan with nothing done. Records that cannot be written are
/// listed in `Summary::failures`, not errors: the other runs still count.
pub fn run(root: &Path, opts: &Options, progress: &mut dyn Progress) -> Result<Summary> {
    let cfg = Config::load(root)?;
    let analysis = crate::site::analyse(root, &cfg, false)?;
    if analysis.diags.has_errors() {
        let errors = analysis.diags.error_count();
        let diags = analysis.diags;
        return Err(Error::Content { errors, diags });
    }
    let mut set = RecordSet::load(root, &cfg)?;
    if opts.prune {
        prune(root, &set, &analysis.catalog, progress)?;
        set = RecordSet::load(root, &cfg)?;
    }
    // Where runs happen, ready (sandbox checked, hosts reached) before anything is written.
    let mut backend = backends::prepare(root, &cfg, opts)?;
    for w in backend.warnings() {
        progress.event(Event::Warning(&w));
    }
    let plan = make_plan(&cfg, &analysis.catalog, &set, opts, &*backend);
    progress.event(Event::Planned(&plan));
    let mut summary = Summary {
        plan,
        done: Vec::new(),
        timeline: Vec::new(),
        failures: Vec::new(),
    };
    if opts.dry_run {
        return Ok(summary);
    }
    let dir = root.join(&cfg.verify.records_dir);
    write_skips(&dir, &mut summary)?;
    let ctx = (opts, &cfg, &set);
    drive::run(&dir, ctx, &mut *backend, &mut summary, progress);
    summary.done.sort_by_key(|d| d.unit);
    progress.event(Event::End(&summary));
    if let Some(path) = &opts.report {
        report::write(path, &summary)?;
    }
    Ok(summary)
}

/// Delete the records that match no runnable snippet of `catalog`.
fn prune(
    root: &Path,
    set: &RecordSet,
    catalog: &Catalog,
    progress: &mut dyn Progress,
) -> Result<()> {
    let orphans = set.orphans(catalog);
    for &i in &orphans {
        let path = root.join(&set.paths[i]);
        std::fs::remove_file(&path).at(&path)?;
        progress.event(Event::Pruned(&set.paths[i]));
    }
    progress.event(Event::PruneDone(orphans.len()));
    Ok(())
}

fn make_plan(
    cfg: &Config,
    catalog: &Catalog,
    set: &RecordSet,
    opts: &Options,
    backend: &dyn Backend,
) -> Plan {
    let mut units = plan::extract(catalog);
    if !opts.only.is_empty() {
        units.retain(|u| opts.only.iter().any(|o| u.name().contains(o.as_str())));
    }
    let python = shlex::split(&cfg.verify.python).unwrap_or_else(|| vec!["python3".into()]);
    let actions = plan::plan(&units, set, backend.max_gpus(), opts.force);
    Plan {
        units,
        actions,
        host: backend.host().clone(),
        runner: backend.describe(),
        jobs: backend.jobs(),
        python,
    }
}

/// The records of the units the plan skips, written at once.
fn write_skips(dir: &Path, s: &mut Summary) -> Result<()> {
    for (i, a) in s.plan.actions.iter().enumerate() {
        if let Action::Skip(reason) = a {
            let env = s.plan.host.env_for(&[]);
            let mut rec = record::skipped(&s.plan.units[i], &now(), env, reason);
            rec.runner = s.plan.runner.clone();
            records::store::write(dir, &rec, false)?;
            s.done.push(Done {
                unit: i,
                record: rec,
            });
        }
    }
    Ok(())
}
