//! `errbook verify`'s closing tables: the summary of every unit (stdout) and the packing of
//! runs onto GPUs (stderr). Verdicts are named by `records::Verdict`'s one table of words; text
//! from snippets and runs goes through `text::clean`.

use super::text::clean;
use errbook_verify::{Action, Summary, CANCELLED, SKIPPED, UP_TO_DATE};

/// A row per unit (verdict, snippet, claim, time), each finding's sentence, the counts.
pub(super) fn summary(s: &Summary) {
    if s.plan.units.is_empty() {
        eprintln!("verify: no runnable snippets (mark a code block with `run`)");
        return;
    }
    let mut rows: Vec<[String; 4]> =
        vec![["VERDICT", "SNIPPET", "CLAIM", "TIME"].map(String::from)];
    for (i, ((u, rec), a)) in s.results().zip(&s.plan.actions).enumerate() {
        let verdict = match (rec, a) {
            (Some(r), _) => r.verdict.as_str(),
            (None, Action::Skip(_)) => SKIPPED,
            (None, _) if s.cancelled.contains(&i) => CANCELLED,
            (None, _) => UP_TO_DATE,
        };
        let time = rec.map_or("-".to_string(), |r| format!("{:.1} s", r.duration_s));
        rows.push([verdict.to_string(), u.name(), u.spec.claim.describe(), time]);
    }
    let width = |c: usize| {
        rows.iter()
            .map(|r| r[c].chars().count())
            .max()
            .unwrap_or(0)
            .min(90)
    };
    let w = [width(0), width(1), width(2), width(3)];
    for r in &rows {
        let cells: Vec<String> = (0..3).map(|c| format!("{:<w$}", r[c], w = w[c])).collect();
        let line = format!("{}  {:>w3$}", cells.join("  "), r[3], w3 = w[3]);
        println!("{}", clean(&line));
    }
    for d in &s.done {
        let (u, r) = (&s.plan.units[d.unit], &d.record);
        if d.kept {
            let line = format!(
                "  {}: {} (not written: the recorded run stands)",
                u.name(),
                r.finding
            );
            println!("{}", clean(&line));
        } else if r.verdict != errbook_records::Verdict::Confirmed {
            println!("{}", clean(&format!("  {}: {}", u.name(), r.finding)));
        }
    }
    for (u, reason) in s.skipped() {
        println!(
            "{}",
            clean(&format!("  {}: not run here: {reason}", u.name()))
        );
    }
    let parts: Vec<String> = s.counts().iter().map(|(k, v)| format!("{v} {k}")).collect();
    println!("verify: {}", parts.join(", "));
}

/// How runs were packed: wall clock against run time, then each GPU's runs in order.
pub(super) fn packing(s: &Summary) {
    if s.timeline.is_empty() {
        return;
    }
    let (wall, busy) = (s.wall_s(), s.busy_s());
    let parallel = if wall > 0.0 { busy / wall } else { 0.0 };
    eprintln!(
        "verify: {} run(s) in {wall:.1} s wall clock ({busy:.1} s of runs, {parallel:.1}\u{d7} in parallel)",
        s.timeline.len()
    );
    let on_gpu = match s.most_at_once_on_a_gpu() {
        0 => String::new(),
        n => format!("; at most {n} run(s) at once on one GPU"),
    };
    eprintln!("verify: longest run {:.1} s{on_gpu}", s.longest_s());
    for g in s.plan.host.gpu_ids() {
        let on = s.on_gpu(g).into_iter().map(|slot| {
            let name = s.plan.units[slot.job].name();
            format!(
                "{name} [{:.1}-{:.1} s, {} MiB planned]",
                slot.start_s, slot.end_s, slot.mem_mib
            )
        });
        eprintln!(
            "{}",
            clean(&format!("  GPU {g}: {}", on.collect::<Vec<_>>().join(", ")))
        );
    }
}
