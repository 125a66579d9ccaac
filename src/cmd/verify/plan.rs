//! `errbook verify`'s plan, as the session reports it before anything runs: the one-line
//! overview (counts, host, GPUs, Python, PyTorch, runs at a time), what this host skips and
//! why, and the dry run's list.

use errbook_verify::{Action, Plan};

/// `verify: 14 runnable snippet(s): 13 to run, ...; host vm: no GPU; Python 3.11, ...`.
pub(super) fn line(plan: &Plan) -> String {
    let (host, env) = (&plan.host, &plan.host.env);
    let gpu_line = match host.gpus.first() {
        None => "no GPU".to_string(),
        Some(g) => format!(
            "{}\u{d7} {} ({} MiB), driver {}",
            host.gpus.len(),
            g.name,
            g.memory_mib,
            env.driver
        ),
    };
    let or = |default: &'static str, v: &str| -> String {
        (if v.is_empty() { default } else { v }).to_string()
    };
    let counts = format!(
        "verify: {} runnable snippet(s): {} to run, {} up to date, {} to skip",
        plan.units.len(),
        plan.count(|a| *a == Action::Run),
        plan.count(|a| *a == Action::UpToDate),
        plan.count(|a| matches!(a, Action::Skip(_))),
    );
    let versions = format!(
        "Python {}, PyTorch {}; {} at a time",
        or("?", &env.python),
        or("none", &env.torch),
        plan.jobs
    );
    match plan.runner.as_str() {
        "local" => format!(
            "{counts}; host {}: {gpu_line}; {versions}",
            or("?", &env.host)
        ),
        // The nodes say what they have in each record.
        slurm if slurm.starts_with("slurm") => format!("{counts}; on {slurm}"),
        hosts => format!(
            "{counts}; on {hosts}; largest host {}: {gpu_line}; {versions}",
            or("?", &env.host)
        ),
    }
}

/// What this host cannot run, and why (stderr; nothing is written for these).
pub(super) fn skips(plan: &Plan) {
    for (u, a) in plan.units.iter().zip(&plan.actions) {
        if let Action::Skip(reason) = a {
            eprintln!("  skip   {}: {reason}", u.name());
        }
    }
}

/// The dry run: one line per unit with its action, needs and claim (stdout); the reasons for
/// skips were printed with the plan.
pub(super) fn list(plan: &Plan) {
    for (u, a) in plan.units.iter().zip(&plan.actions) {
        let what = match a {
            Action::Skip(_) => "skip".to_string(),
            other => other.describe(),
        };
        let (name, s) = (u.name(), &u.spec);
        let claim = s.claim.describe();
        let line = format!(
            "{what:<12} {name}  [{} GPU, {} s]  {claim}",
            s.gpus, s.timeout_s
        );
        println!("{}", super::text::clean(&line));
    }
}
