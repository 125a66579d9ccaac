//! One verify session, start to end: load and analyse the content, prune orphan records, plan
//! (extract the units, detect the host, decide each action), write the skip records, run the
//! rest packed onto the GPUs, record each run, sum up and write the report. What happens is told
//! through `Progress`; the caller prints, and picks the exit status from the `Summary`.

use super::gpu;
use super::options::{Options, Runner};
use super::plan::{self, Action, Plan, Unit};
use super::progress::{Event, Progress};
use super::runner::{self, local, Request};
use super::schedule::{self, Slot};
use super::summary::{Done, Summary};
use super::{record, report};
use crate::core::config::Config;
use crate::core::error::{Error, IoContext, Result};
use crate::core::model::Catalog;
use crate::records::{self, RecordSet, Verdict};
use std::cell::RefCell;
use std::path::Path;
use std::time::Duration;

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
    write_skips(&dir, &mut summary)?;
    run_units(&dir, opts, &mut summary, progress);
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

fn make_plan(cfg: &Config, catalog: &Catalog, set: &RecordSet, opts: &Options) -> Plan {
    let mut units = plan::extract(catalog);
    if !opts.only.is_empty() {
        units.retain(|u| opts.only.iter().any(|o| u.name().contains(o.as_str())));
    }
    let python = shlex::split(&cfg.verify.python).unwrap_or_else(|| vec!["python3".into()]);
    let host = gpu::detect(&python, opts.gpus.only());
    let actions = plan::plan(&units, set, host.gpus.len() as u32, opts.force);
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

/// The records of the units the plan skips, written at once.
fn write_skips(dir: &Path, s: &mut Summary) -> Result<()> {
    for (i, a) in s.plan.actions.iter().enumerate() {
        if let Action::Skip(reason) = a {
            let env = s.plan.host.env_for(&[]);
            let rec = record::skipped(&s.plan.units[i], &now(), env, reason);
            records::store::write(dir, &rec, false)?;
            s.done.push(Done {
                unit: i,
                record: rec,
            });
        }
    }
    Ok(())
}

/// Run the units the plan runs, packed onto the host's GPUs, and write a record of each.
fn run_units(dir: &Path, opts: &Options, s: &mut Summary, progress: &mut dyn Progress) {
    let Summary {
        plan,
        done,
        timeline,
        failures,
    } = s;
    let plan = &*plan;
    let to_run = plan.to_run();
    let needs: Vec<u32> = to_run.iter().map(|&i| plan.units[i].spec.gpus).collect();
    let keep_env: Vec<String> = runner::DEFAULT_KEEP
        .iter()
        .map(|s| s.to_string())
        .chain(opts.keep_env.iter().cloned())
        .collect();
    let half = opts.log_bytes / 2;
    progress.event(Event::Running(to_run.len()));
    let progress = RefCell::new(progress);
    let slots = schedule::run_all(
        &needs,
        &plan.host.gpu_ids(),
        plan.jobs,
        |k, gpus| {
            let req = request(plan, &plan.units[to_run[k]], gpus, &keep_env, half);
            let started = now();
            let result = match opts.runner {
                Runner::Local => local::run(&req),
            };
            (started, result)
        },
        |k, gpus| {
            let name = plan.units[to_run[k]].name();
            progress
                .borrow_mut()
                .event(Event::Started { name: &name, gpus });
        },
        |k, gpus, (date, result)| {
            let (unit, u) = (to_run[k], &plan.units[to_run[k]]);
            let record = record::finished(u, &date, gpus, plan.host.env_for(gpus), result, half);
            let name = u.name();
            progress.borrow_mut().event(Event::Finished {
                name: &name,
                record: &record,
            });
            let real = record.verdict != Verdict::Skipped;
            if let Err(e) = records::store::write(dir, &record, real) {
                failures.push(e.to_string());
            }
            done.push(Done { unit, record });
        },
    );
    *timeline = slots
        .into_iter()
        .map(|slot| Slot {
            job: to_run[slot.job],
            ..slot
        })
        .collect();
}

/// What the runner gets for unit `u` on `gpus`.
fn request(plan: &Plan, u: &Unit, gpus: &[u32], keep_env: &[String], half: usize) -> Request {
    let interpreter = if u.spec.interpreter == "python3" {
        plan.python.clone()
    } else {
        shlex::split(&u.spec.interpreter).unwrap_or_else(|| vec![u.spec.interpreter.clone()])
    };
    Request {
        program: u.program.clone(),
        file_name: format!("snippet.{}", ext(&u.lang)),
        interpreter,
        env: u.spec.env.clone(),
        keep_env: keep_env.to_vec(),
        gpus: gpus.to_vec(),
        timeout: Duration::from_secs(u.spec.timeout_s),
        // Tracebacks are read from a larger window than the log keeps.
        keep_head: (256 * 1024).max(half),
        keep_tail: (1024 * 1024).max(half),
    }
}

/// The file extension of a snippet's language.
fn ext(lang: &str) -> &str {
    match lang {
        "python" | "py" | "python3" | "" => "py",
        "bash" | "sh" | "shell" => "sh",
        other => other,
    }
}

/// Now, as records write dates (RFC 3339, UTC, whole seconds).
fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}
