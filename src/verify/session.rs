//! One verify session, start to end: load and analyse the content, take care of the records
//! (move errbook 0.1's to their names, prune, reread: `upkeep`), plan (extract the units, detect
//! the host and what its interpreters import, decide each action), run what this host can run
//! packed onto its GPUs (`execute`), sum up and write the report. What happens is told through
//! `Progress`; the caller prints, and picks the exit status from the `Summary`.

use super::estimate::MemCap;
use super::options::Options;
use super::plan::{self, Offer, Plan};
use super::progress::{Event, Progress};
use super::summary::Summary;
use super::{execute, gpu, report, upkeep};
use crate::core::config::Config;
use crate::core::error::{Error, Result};
use crate::core::model::Catalog;
use crate::records::RecordSet;
use std::collections::BTreeMap;
use std::path::Path;

/// Run a session on the catalog at `root`. Content with errors is `Error::Content` (nothing
/// runs); a dry run returns the plan with nothing done or moved. Records that cannot be written
/// are listed in `Summary::failures`, not errors: the other runs still count.
pub fn run(root: &Path, opts: &Options, progress: &mut dyn Progress) -> Result<Summary> {
    let cfg = Config::load(root)?;
    let analysis = crate::site::analyse(root, &cfg, false)?;
    if analysis.diags.has_errors() {
        let errors = analysis.diags.error_count();
        let diags = analysis.diags;
        return Err(Error::Content { errors, diags });
    }
    let packing = Packing::of(&cfg, opts)?;
    let mut set = RecordSet::load(root, &cfg)?;
    if !opts.dry_run && upkeep::migrate(root, &cfg, &set, progress)? {
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
    let plan = make_plan(&cfg, &analysis.catalog, &set, opts);
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
    execute::run_units(&dir, opts, &set, &packing, &mut summary, progress);
    summary.done.sort_by_key(|d| d.unit);
    progress.event(Event::End(&summary));
    if let Some(path) = &opts.report {
        report::write(path, &summary)?;
    }
    Ok(summary)
}

/// How runs are packed onto GPUs: the cap per GPU and the memory a run is taken to need when
/// nothing says.
pub(super) struct Packing {
    pub cap: MemCap,
    pub default_mib: u64,
}

impl Packing {
    /// From book.toml's `verify` keys, the command line's cap first.
    fn of(cfg: &Config, opts: &Options) -> Result<Packing> {
        let cap =
            match opts.gpu_mem_cap {
                Some(c) => c,
                None => cfg.verify.gpu_mem_cap.parse().map_err(|e: Error| {
                    Error::Other(format!("book.toml, verify.gpu_mem_cap: {e}"))
                })?,
            };
        let default_mib = crate::parse::snippet::parse_mib(&cfg.verify.gpu_mem_default)
            .ok_or_else(|| {
                Error::Other(format!(
                    "book.toml, verify.gpu_mem_default: `{}` is not an amount of memory (`4GiB`)",
                    cfg.verify.gpu_mem_default
                ))
            })?;
        Ok(Packing { cap, default_mib })
    }
}

fn make_plan(cfg: &Config, catalog: &Catalog, set: &RecordSet, opts: &Options) -> Plan {
    let mut units = plan::extract(catalog);
    if !opts.only.is_empty() {
        units.retain(|u| opts.only.iter().any(|o| u.name().contains(o.as_str())));
    }
    let python = shlex::split(&cfg.verify.python).unwrap_or_else(|| vec!["python3".into()]);
    let host = gpu::detect(&python, opts.gpus.only());
    // Which declared modules each interpreter lacks, asked once per interpreter.
    let keep = execute::keep_env(opts);
    let mut declared: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for u in &units {
        let d = declared.entry(u.spec.interpreter.clone()).or_default();
        d.extend(
            u.spec
                .needs
                .iter()
                .filter(|m| !d.contains(m))
                .cloned()
                .collect::<Vec<_>>(),
        );
    }
    let missing: BTreeMap<String, Vec<String>> = declared
        .into_iter()
        .map(|(interp, mods)| {
            let cmd = execute::interpreter(&python, &interp);
            let lacks = gpu::missing_modules(&cmd, &mods, &keep);
            (interp, lacks)
        })
        .collect();
    let offer = Offer {
        host: &host,
        missing: &missing,
    };
    let actions = plan::plan(&units, set, &offer, opts.force);
    let jobs = opts.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
    });
    Plan {
        units,
        actions,
        host,
        jobs,
        python,
    }
}
