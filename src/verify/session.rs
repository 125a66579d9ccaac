//! One verify session, start to end: load and analyse the content, prune orphan records, plan
//! (extract the units, detect the host, decide each action), write the skip records, run the
//! rest packed onto the GPUs, record each run, sum up and write the report. What happens is told
//! through `Progress`; the caller prints, and picks the exit status from the `Summary`.

use super::gpu;
use super::options::{Options, Runner};
use super::plan::{self, Action, Plan, Unit, UP_TO_DATE};
use super::progress::{Event, Progress};
use super::runner::{self, local, Request};
use super::schedule::{self, Slot};
use super::{record, report};
use crate::core::config::Config;
use crate::core::error::{Error, IoContext, Result};
use crate::core::model::Catalog;
use crate::records::{self, Record, RecordSet, Verdict};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// A record this session made.
#[derive(Debug, Clone)]
pub struct Done {
    /// Position of its unit in `Plan::units`.
    pub unit: usize,
    pub record: Record,
}

/// What a session did.
#[derive(Debug, Clone)]
pub struct Summary {
    pub plan: Plan,
    /// The records made (skips and runs), in unit order; empty after a dry run.
    pub done: Vec<Done>,
    /// When and where each run happened; a slot's `job` is its unit's position in `Plan::units`.
    pub timeline: Vec<Slot>,
    /// Records that could not be written, as messages.
    pub failures: Vec<String>,
}

/// How a session ended, for its exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Every record written; no claim contradicted (or contradictions allowed).
    Clean,
    /// This many claims were contradicted by their run.
    Findings(usize),
    /// A record could not be written.
    WriteFailed,
}

impl Summary {
    /// Records whose run disagrees with the text.
    pub fn findings(&self) -> usize {
        let done = self.done.iter();
        done.filter(|d| d.record.verdict.is_finding()).count()
    }

    /// The exit decision: write failures first, then findings unless they are allowed.
    pub fn exit(&self, allow_contradictions: bool) -> Exit {
        if !self.failures.is_empty() {
            return Exit::WriteFailed;
        }
        match self.findings() {
            n if n > 0 && !allow_contradictions => Exit::Findings(n),
            _ => Exit::Clean,
        }
    }

    /// Each unit with the record this session made of it (none: it was up to date).
    pub fn results(&self) -> impl Iterator<Item = (&Unit, Option<&Record>)> {
        self.plan.units.iter().enumerate().map(|(i, u)| {
            let k = self.done.binary_search_by_key(&i, |d| d.unit).ok();
            (u, k.map(|k| &self.done[k].record))
        })
    }

    /// How many units ended with each verdict's word (`up to date` for those not run), in
    /// alphabetical order of the words.
    pub fn counts(&self) -> BTreeMap<&'static str, usize> {
        let mut counts = BTreeMap::new();
        for (_, rec) in self.results() {
            let word = rec.map_or(UP_TO_DATE, |r| r.verdict.word());
            *counts.entry(word).or_default() += 1;
        }
        counts
    }

    /// Seconds from the first run's start to the last one's end.
    pub fn wall_s(&self) -> f64 {
        self.timeline.iter().map(|s| s.end_s).fold(0.0, f64::max)
    }

    /// Seconds of all runs together.
    pub fn busy_s(&self) -> f64 {
        self.timeline.iter().map(|s| s.end_s - s.start_s).sum()
    }

    /// The runs that had GPU `gpu`, in the order they started.
    pub fn on_gpu(&self, gpu: u32) -> Vec<&Slot> {
        let mut on: Vec<&Slot> = self
            .timeline
            .iter()
            .filter(|s| s.gpus.contains(&gpu))
            .collect();
        on.sort_by(|a, b| a.start_s.total_cmp(&b.start_s));
        on
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::{Claim, PageKind, PageRef, RunSpec};

    fn unit(id: &str) -> Unit {
        Unit {
            page: PageRef {
                kind: PageKind::Article,
                id: "a".into(),
            },
            source: "content/articles/a.md".into(),
            snippet: id.into(),
            line: 1,
            lang: "python".into(),
            chain: vec![id.into()],
            program: String::new(),
            spec: RunSpec {
                claim: Claim::Runs,
                gpus: 0,
                env: vec![],
                timeout_s: 1,
                after: None,
                interpreter: "python3".into(),
            },
            hash: format!("{id}-hash"),
        }
    }

    fn done(units: &[Unit], unit: usize, verdict: Verdict) -> Done {
        let mut record = record::skipped(
            &units[unit],
            "2025-01-30T00:00:00Z",
            Default::default(),
            "x",
        );
        record.verdict = verdict;
        Done { unit, record }
    }

    #[test]
    fn counts_use_the_verdict_words_and_the_exit_weighs_failures_first() {
        let units: Vec<Unit> = ["a", "b", "c", "d"].map(unit).to_vec();
        let done = vec![
            done(&units, 0, Verdict::DifferentError),
            done(&units, 1, Verdict::TimedOut),
            done(&units, 3, Verdict::Confirmed),
        ];
        let mut s = Summary {
            plan: Plan {
                actions: vec![Action::Run; units.len()],
                units,
                host: Default::default(),
                jobs: 1,
                python: vec![],
            },
            done,
            timeline: vec![],
            failures: vec![],
        };
        let counts: Vec<(&str, usize)> = s.counts().into_iter().collect();
        assert_eq!(
            counts,
            [
                ("confirmed", 1),
                ("different error", 1),
                ("timed out", 1),
                ("up to date", 1)
            ]
        );
        let third = s.results().nth(2).unwrap();
        assert_eq!((third.0.snippet.as_str(), third.1.is_none()), ("c", true));
        assert_eq!(s.exit(false), Exit::Findings(1));
        assert_eq!(s.exit(true), Exit::Clean);
        s.failures.push("disk full".into());
        assert_eq!(s.exit(true), Exit::WriteFailed);
    }
}
