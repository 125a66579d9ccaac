//! One verify session, start to end: load and analyse the content, take care of the records
//! (prune, reread: `upkeep`), make ready where runs happen
//! (`backends`), plan (extract the units, what the interpreters here import, decide each action),
//! run what can run (`drive`, through the backend), sum up and write the report. What happens is
//! told through `Progress`; the caller prints, and picks the exit status from the `Summary`.

use super::drive;
use super::estimate::Packing;
use super::job::Backend;
use super::options::Options;
use super::plan::{self, Offer, Plan, Unit};
use super::progress::{Event, Progress};
use super::summary::Summary;
use super::{backends, gpu, report, upkeep};
use errbook_core::config::Config;
use errbook_core::error::{Error, Result};
use errbook_core::model::Catalog;
use errbook_records::RecordSet;
use std::collections::BTreeMap;
use std::path::Path;

/// Run a session on the catalog at `root`. Content with errors is `Error::Content` (nothing
/// runs); a dry run returns the plan with nothing done. Records that cannot be written
/// are listed in `Summary::failures`, not errors: the other runs still count.
pub fn run(root: &Path, opts: &Options, progress: &mut dyn Progress) -> Result<Summary> {
    let cfg = Config::load(root)?;
    let mut analysis = errbook_site::analyse(root, &cfg, false)?;
    if analysis.diags.has_errors() {
        let errors = analysis.diags.error_count();
        let diags = analysis.diags;
        return Err(Error::Content { errors, diags });
    }
    let packing = Packing::of(&cfg, opts);
    let mut set = RecordSet::load(root, &cfg)?;
    // A block read as failing with no error named runs under its article's entry's error, as
    // the pages judge it.
    errbook_site::expect_entry_errors(root, &cfg, &mut analysis, &set);
    if !opts.dry_run
        && upkeep::rekey(&root.join(&cfg.verify.records_dir), &set, &analysis.catalog)? > 0
    {
        set = RecordSet::load(root, &cfg)?;
    }
    if opts.prune && !opts.dry_run {
        upkeep::prune(root, &set, &analysis.catalog, progress)?;
        set = RecordSet::load(root, &cfg)?;
    }
    if opts.reread && !opts.dry_run {
        upkeep::reread(root, &set, progress)?;
        set = RecordSet::load(root, &cfg)?;
    }
    // Where runs happen, ready (sandbox checked, hosts reached) before anything is written.
    let mut backend = backends::prepare(root, &cfg, opts, packing.cap, progress)?;
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
        cancelled: Vec::new(),
    };
    if opts.dry_run {
        return Ok(summary);
    }
    let dir = root.join(&cfg.verify.records_dir);
    let ctx = (opts, &cfg, &set, &packing);
    drive::run(&dir, ctx, &mut *backend, &mut summary, progress);
    summary.done.sort_by_key(|d| d.unit);
    progress.event(Event::End(&summary));
    if let Some(path) = &opts.report {
        report::write(path, &summary)?;
    }
    Ok(summary)
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
    // What the interpreters here cannot import; a remote host's imports are its own, and a run
    // that cannot import what it needs there is an environment error.
    let missing = match backend.here() {
        true => missing(&units, &python, &opts.kept_names(&cfg.verify)),
        false => BTreeMap::new(),
    };
    let offer = Offer {
        host: backend.host(),
        missing: &missing,
    };
    let actions = plan::plan(&units, set, &offer, opts.force);
    Plan {
        units,
        actions,
        host: backend.host().clone(),
        runner: backend.describe(),
        jobs: backend.jobs(),
        python,
    }
}

/// Which declared modules each interpreter lacks, asked once per interpreter, with the
/// variables runs get.
fn missing(units: &[Unit], python: &[String], passed: &[String]) -> BTreeMap<String, Vec<String>> {
    let mut declared: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for u in units {
        let d = declared.entry(u.spec.interpreter.clone()).or_default();
        let new: Vec<String> = (u.spec.needs.iter())
            .filter(|m| !d.contains(m))
            .cloned()
            .collect();
        d.extend(new);
    }
    let passed = super::runner::env::passed(passed, std::env::vars_os());
    declared
        .into_iter()
        .map(|(interp, mods)| {
            let cmd = drive::interpreter(python, &interp);
            let lacks = gpu::missing_modules(&cmd, &mods, &passed);
            (interp, lacks)
        })
        .collect()
}
