//! `errbook verify`: extract the runnable snippets, plan them, run what is not yet recorded
//! (packed onto the host's GPUs), compare each run with its claim, write one record per run,
//! show progress and a summary. Exit 1 when a claim is contradicted, unless allowed.

use errbook::core::config::Config;
use errbook::records::{self, Record, RecordSet, Verdict};
use errbook::verify::compare::{self, Outcome};
use errbook::verify::plan::{self, Action, Unit};
use errbook::verify::runner::{self, local, Request};
use errbook::verify::{gpu, schedule, traceback};
use errbook::Result;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Where runs happen: `local` (this machine).
    #[arg(long, default_value = "local", value_parser = ["local"])]
    pub runner: String,
    /// Runs at a time (default: the CPU count; GPU runs are also limited by the GPUs).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Run again even where a record for the same hash exists.
    #[arg(long)]
    pub force: bool,
    /// Only the snippets whose `entry/<id>#<snippet>` or `article/<id>#<snippet>` contains this
    /// text (repeatable).
    #[arg(long, value_name = "TEXT")]
    pub only: Vec<String>,
    /// Print the plan and run nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Exit 0 even when a run contradicts its claim (the finding is still recorded).
    #[arg(long)]
    pub allow_contradictions: bool,
    /// GPU indices to use (`0,1`), or `none`; default: every GPU nvidia-smi lists.
    #[arg(long, value_name = "LIST")]
    pub gpus: Option<String>,
    /// Another variable of errbook's environment to pass to runs (`NAME` or `PREFIX*`; repeatable).
    #[arg(long, value_name = "NAME")]
    pub keep_env: Vec<String>,
    /// Bytes of each run's output kept in its record (half from the start, half from the end).
    #[arg(long, default_value_t = 32 * 1024)]
    pub log_bytes: usize,
    /// Delete records that match no runnable snippet any more.
    #[arg(long)]
    pub prune: bool,
    /// Also write the session (plan, packing timeline, verdicts) as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub report: Option<std::path::PathBuf>,
}

struct Done {
    unit: usize,
    record: Record,
}

pub(crate) fn run(root: &Path, args: Args) -> Result<ExitCode> {
    let cfg = Config::load(root)?;
    let analysis = errbook::site::analyse(root, &cfg, false)?;
    if analysis.diags.has_errors() {
        analysis.diags.print();
        eprintln!("verify: the content has errors; fix them first (`errbook check`)");
        return Ok(ExitCode::from(1));
    }
    let mut set = RecordSet::load(root, &cfg)?;

    if args.prune {
        let orphans = set.orphans(&analysis.catalog);
        for &i in &orphans {
            let p = root.join(&set.paths[i]);
            std::fs::remove_file(&p).map_err(|e| errbook::Error::Io { path: p, source: e })?;
            eprintln!("pruned {}", set.paths[i].display());
        }
        eprintln!("verify: pruned {} record(s)", orphans.len());
        set = RecordSet::load(root, &cfg)?;
    }

    let mut units = plan::extract(&analysis.catalog);
    if !args.only.is_empty() {
        units.retain(|u| args.only.iter().any(|o| u.name().contains(o.as_str())));
    }
    let python = shlex::split(&cfg.verify.python).unwrap_or_else(|| vec!["python3".into()]);
    let only_gpus: Option<Vec<u32>> = match args.gpus.as_deref() {
        None => None,
        Some("none") | Some("") => Some(Vec::new()),
        Some(list) => Some(
            list.split(',')
                .map(|s| s.trim().parse::<u32>())
                .collect::<std::result::Result<_, _>>()
                .map_err(|_| {
                    errbook::Error::Other(format!("--gpus: not a list of GPU indices: `{list}`"))
                })?,
        ),
    };
    let host = gpu::detect(&python, only_gpus.as_deref());
    let n_gpus = host.gpus.len() as u32;
    let actions = plan::plan(&units, &set, n_gpus, args.force);

    let gpu_line = if host.gpus.is_empty() {
        "no GPU".to_string()
    } else {
        format!(
            "{}\u{d7} {} ({} MiB), driver {}",
            n_gpus, host.gpus[0].name, host.gpus[0].memory_mib, host.env.driver
        )
    };
    let count = |a: fn(&Action) -> bool| actions.iter().filter(|x| a(x)).count();
    let to_run: Vec<usize> = (0..units.len())
        .filter(|&i| actions[i] == Action::Run)
        .collect();
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
    });
    eprintln!(
        "verify: {} runnable snippet(s): {} to run, {} up to date, {} to skip; host {}: {gpu_line}; Python {}, PyTorch {}; {} at a time",
        units.len(),
        to_run.len(),
        count(|a| *a == Action::UpToDate),
        count(|a| matches!(a, Action::Skip(_))),
        if host.env.host.is_empty() { "?" } else { &host.env.host },
        if host.env.python.is_empty() { "?" } else { &host.env.python },
        if host.env.torch.is_empty() { "none" } else { &host.env.torch },
        jobs
    );
    if args.dry_run {
        for (u, a) in units.iter().zip(&actions) {
            let what = match a {
                Action::Run => "run".to_string(),
                Action::UpToDate => "up to date".to_string(),
                Action::Skip(r) => format!("skip: {r}"),
            };
            println!(
                "{:<12} {}  [{} GPU, {} s]  {}",
                what,
                u.name(),
                u.spec.gpus,
                u.spec.timeout_s,
                u.spec.claim.describe()
            );
        }
        return Ok(ExitCode::SUCCESS);
    }

    let date = || chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let mut done: Vec<Done> = Vec::new();
    let mut failures: Vec<String> = Vec::new();

    // Skipped: written at once (a real record of the same hash is never replaced by a skip).
    for (i, a) in actions.iter().enumerate() {
        if let Action::Skip(reason) = a {
            let u = &units[i];
            let mut rec = base_record(u, &date());
            rec.verdict = Verdict::Skipped;
            rec.skip_reason = Some(reason.clone());
            rec.finding = format!("Not run: {reason}.");
            rec.env = host.env_for(&[]);
            records::store::write(&root.join(&cfg.verify.records_dir), &rec, false)?;
            done.push(Done {
                unit: i,
                record: rec,
            });
        }
    }

    let pb = ProgressBar::new(to_run.len() as u64);
    pb.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {wide_msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb.enable_steady_tick(Duration::from_millis(200));
    let say = |pb: &ProgressBar, line: String| {
        if pb.is_hidden() {
            eprintln!("{line}");
        } else {
            pb.println(line);
        }
    };
    let running: std::cell::RefCell<Vec<String>> = Default::default();
    let needs: Vec<u32> = to_run.iter().map(|&i| units[i].spec.gpus).collect();
    let gpu_ids: Vec<u32> = host.gpus.iter().map(|g| g.index).collect();
    let keep_env: Vec<String> = runner::DEFAULT_KEEP
        .iter()
        .map(|s| s.to_string())
        .chain(args.keep_env.iter().cloned())
        .collect();
    let half = args.log_bytes / 2;
    let timeline = schedule::run_all(
        &needs,
        &gpu_ids,
        jobs,
        |k, gpus| {
            let u = &units[to_run[k]];
            let interpreter = if u.spec.interpreter == "python3" {
                python.clone()
            } else {
                shlex::split(&u.spec.interpreter)
                    .unwrap_or_else(|| vec![u.spec.interpreter.clone()])
            };
            let req = Request {
                program: u.program.clone(),
                file_name: format!("snippet.{}", ext(&u.lang)),
                interpreter,
                env: u.spec.env.clone(),
                keep_env: keep_env.clone(),
                gpus: gpus.to_vec(),
                timeout: Duration::from_secs(u.spec.timeout_s),
                // Tracebacks are read from a larger window than the log keeps.
                keep_head: (256 * 1024).max(half),
                keep_tail: (1024 * 1024).max(half),
            };
            (date(), local::run(&req))
        },
        |k, gpus| {
            let u = &units[to_run[k]];
            running.borrow_mut().push(u.name());
            let on = if gpus.is_empty() {
                String::new()
            } else {
                format!(" on GPU {}", join(gpus))
            };
            say(&pb, format!("  start  {}{on}", u.name()));
            pb.set_message(running.borrow().join(", "));
        },
        |k, gpus, (started, result)| {
            let i = to_run[k];
            let u = &units[i];
            running.borrow_mut().retain(|n| *n != u.name());
            pb.set_message(running.borrow().join(", "));
            pb.inc(1);
            let mut rec = base_record(u, &started);
            rec.gpus_used = gpus.to_vec();
            rec.env = host.env_for(gpus);
            match result {
                Ok(out) => {
                    let full = out.text();
                    let raised = traceback::parse(&full);
                    let o = Outcome {
                        exit_status: out.exit_status,
                        signal: out.signal,
                        timed_out: out.timed_out,
                        raised,
                    };
                    let (v, finding) = compare::verdict(&u.spec.claim, &o);
                    rec.verdict = v;
                    rec.finding = finding;
                    rec.exit_status = out.exit_status;
                    rec.signal = out.signal;
                    rec.timed_out = out.timed_out;
                    if let Some(f) = &o.raised.final_error {
                        rec.exception = Some(f.exception.clone());
                        rec.message = Some(f.message.clone());
                    }
                    rec.wrapped = o.raised.wrapped.clone();
                    rec.children = o.raised.children.clone();
                    rec.duration_s = (out.duration.as_secs_f64() * 100.0).round() / 100.0;
                    rec.output_bytes = out.bytes;
                    rec.log = cap_log(&out, half);
                }
                Err(e) => {
                    rec.verdict = Verdict::Skipped;
                    rec.skip_reason = Some(format!("could not start the run: {e}"));
                    rec.finding = format!("Not run: could not start it: {e}.");
                }
            }
            let mark = match rec.verdict {
                Verdict::Confirmed => "ok",
                Verdict::Skipped => "skip",
                Verdict::TimedOut => "TIME",
                _ => "FIND",
            };
            say(
                &pb,
                format!(
                    "  {mark:<5}  {} ({:.1} s): {}",
                    u.name(),
                    rec.duration_s,
                    rec.finding
                ),
            );
            match records::store::write(
                &root.join(&cfg.verify.records_dir),
                &rec,
                rec.verdict != Verdict::Skipped,
            ) {
                Ok(_) => {}
                Err(e) => failures.push(e.to_string()),
            }
            done.push(Done {
                unit: i,
                record: rec,
            });
        },
    );
    pb.finish_and_clear();
    for f in &failures {
        eprintln!("error: {f}");
    }

    done.sort_by_key(|d| d.unit);
    print_summary(&units, &actions, &done);
    print_packing(&units, &to_run, &timeline, &gpu_ids);
    if let Some(p) = &args.report {
        let report = serde_json::json!({
            "host": host.env,
            "gpus": host.gpus.iter().map(|g| serde_json::json!({"index": g.index, "name": g.name, "memory_mib": g.memory_mib})).collect::<Vec<_>>(),
            "jobs": jobs,
            "timeline": timeline.iter().map(|s| serde_json::json!({
                "snippet": units[to_run[s.job]].name(), "gpus": s.gpus, "start_s": s.start_s, "end_s": s.end_s
            })).collect::<Vec<_>>(),
            "wall_s": timeline.iter().map(|s| s.end_s).fold(0.0, f64::max),
            "results": done.iter().map(|d| serde_json::json!({
                "snippet": units[d.unit].name(), "claim": units[d.unit].spec.claim.describe(),
                "verdict": d.record.verdict, "finding": d.record.finding, "duration_s": d.record.duration_s
            })).collect::<Vec<_>>(),
        });
        let text = serde_json::to_string_pretty(&report).unwrap_or_default();
        std::fs::write(p, text).map_err(|e| errbook::Error::Io {
            path: p.clone(),
            source: e,
        })?;
    }

    let findings = done
        .iter()
        .filter(|d| d.record.verdict.is_finding())
        .count();
    if !failures.is_empty() {
        return Ok(ExitCode::from(2));
    }
    if findings > 0 && !args.allow_contradictions {
        eprintln!(
            "verify: {findings} claim(s) contradicted by their run (recorded; --allow-contradictions exits 0)"
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn ext(lang: &str) -> &str {
    match lang {
        "python" | "py" | "python3" | "" => "py",
        "bash" | "sh" | "shell" => "sh",
        other => other,
    }
}

fn join(g: &[u32]) -> String {
    g.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn base_record(u: &Unit, date: &str) -> Record {
    Record {
        hash: u.hash.clone(),
        page: u.page.clone(),
        source: u.source.clone(),
        snippet: u.snippet.clone(),
        chain: u.chain.clone(),
        line: u.line,
        claim: u.spec.claim.clone(),
        verdict: Verdict::Skipped,
        finding: String::new(),
        skip_reason: None,
        exit_status: None,
        signal: None,
        timed_out: false,
        exception: None,
        message: None,
        wrapped: Vec::new(),
        children: Vec::new(),
        duration_s: 0.0,
        date: date.to_string(),
        gpus_used: Vec::new(),
        env: Default::default(),
        output_bytes: 0,
        log: String::new(),
    }
}

/// The record's log: `half` bytes from the start and from the end of what the run printed.
fn cap_log(out: &runner::Output, half: usize) -> String {
    let text = out.text();
    if text.len() <= 2 * half + 200 {
        return text;
    }
    let mut a = half.min(text.len());
    while !text.is_char_boundary(a) {
        a -= 1;
    }
    let mut b = text.len() - half;
    while !text.is_char_boundary(b) {
        b += 1;
    }
    let left = out.bytes.saturating_sub((a + text.len() - b) as u64);
    format!(
        "{}\n[errbook: {left} bytes of output left out]\n{}",
        &text[..a],
        &text[b..]
    )
}

fn print_summary(units: &[Unit], actions: &[Action], done: &[Done]) {
    if units.is_empty() {
        eprintln!("verify: no runnable snippets (mark a code block with `run`)");
        return;
    }
    let mut rows: Vec<[String; 4]> = vec![[
        "VERDICT".into(),
        "SNIPPET".into(),
        "CLAIM".into(),
        "TIME".into(),
    ]];
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for (i, u) in units.iter().enumerate() {
        let (verdict, time) = match (done.iter().find(|d| d.unit == i), &actions[i]) {
            (Some(d), _) => (
                d.record.verdict.as_str().to_string(),
                if d.record.verdict == Verdict::Skipped {
                    "-".to_string()
                } else {
                    format!("{:.1} s", d.record.duration_s)
                },
            ),
            (None, _) => ("up to date".to_string(), "-".to_string()),
        };
        *counts
            .entry(match verdict.as_str() {
                "confirmed" => "confirmed",
                "contradicted" => "contradicted",
                "different_error" => "different error",
                "timed_out" => "timed out",
                "skipped" => "skipped",
                _ => "up to date",
            })
            .or_default() += 1;
        rows.push([verdict, u.name(), u.spec.claim.describe(), time]);
    }
    let w: Vec<usize> = (0..4)
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
                .min(90)
        })
        .collect();
    for r in &rows {
        println!(
            "{:<w0$}  {:<w1$}  {:<w2$}  {:>w3$}",
            r[0],
            r[1],
            r[2],
            r[3],
            w0 = w[0],
            w1 = w[1],
            w2 = w[2],
            w3 = w[3]
        );
    }
    for d in done
        .iter()
        .filter(|d| d.record.verdict != Verdict::Confirmed)
    {
        println!("  {}: {}", units[d.unit].name(), d.record.finding);
    }
    let parts: Vec<String> = counts.iter().map(|(k, v)| format!("{v} {k}")).collect();
    println!("verify: {}", parts.join(", "));
}

fn print_packing(units: &[Unit], to_run: &[usize], tl: &[schedule::Slot], gpus: &[u32]) {
    if tl.is_empty() {
        return;
    }
    let wall = tl.iter().map(|s| s.end_s).fold(0.0, f64::max);
    let busy: f64 = tl.iter().map(|s| s.end_s - s.start_s).sum();
    eprintln!(
        "verify: {} run(s) in {wall:.1} s wall clock ({busy:.1} s of runs, {:.1}\u{d7} in parallel)",
        tl.len(),
        if wall > 0.0 { busy / wall } else { 0.0 }
    );
    for g in gpus {
        let mut on: Vec<&schedule::Slot> = tl.iter().filter(|s| s.gpus.contains(g)).collect();
        on.sort_by(|a, b| a.start_s.total_cmp(&b.start_s));
        let list: Vec<String> = on
            .iter()
            .map(|s| {
                format!(
                    "{} [{:.0}-{:.0} s]",
                    units[to_run[s.job]].name(),
                    s.start_s,
                    s.end_s
                )
            })
            .collect();
        eprintln!("  GPU {g}: {}", list.join(", "));
    }
}
