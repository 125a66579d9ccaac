//! What `errbook verify` shows while the session runs: warnings and the plan line, pruned
//! records, one progress bar for every runner (done of total, and beside it the runs queued,
//! pending in Slurm's queue and running, per host or job), a line per run started and finished,
//! and at the end the write failures and the tables (`table`). Text from snippets and runs is
//! printed through `text::clean`.

use super::text::clean;
use super::{plan, table};
use errbook_verify::{Event, Progress};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::time::Duration;

/// Where a run stands.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum State {
    Queued,
    Pending(String),
    Running,
}

/// Prints a session's events to stderr (the summary table goes to stdout).
#[derive(Default)]
pub(crate) struct Printer {
    /// While runs happen.
    bar: Option<ProgressBar>,
    /// The runs not finished yet, by name: where they stand, and where.
    runs: BTreeMap<String, (State, String)>,
}

impl Printer {
    /// A line above the bar (or plain, where there is no bar on a terminal).
    fn say(&self, line: String) {
        match &self.bar {
            Some(pb) if !pb.is_hidden() => pb.println(line),
            _ => eprintln!("{line}"),
        }
    }

    /// `running 3 (gpu1 2, gpu2 1) · queued 4 · pending 2 (Resources)`.
    fn show(&self) {
        let Some(pb) = &self.bar else { return };
        let mut by: BTreeMap<&str, BTreeMap<&str, usize>> = BTreeMap::new();
        for (state, place) in self.runs.values() {
            let key = match state {
                State::Running => "running",
                State::Queued => "queued",
                State::Pending(reason) => reason.as_str(),
            };
            *by.entry(key)
                .or_default()
                .entry(place.as_str())
                .or_default() += 1;
        }
        let mut parts = Vec::new();
        for (key, places) in &by {
            let n: usize = places.values().sum();
            let word = match *key {
                "running" | "queued" => key.to_string(),
                reason => format!("pending ({reason})"),
            };
            let detail: Vec<String> = places
                .iter()
                .filter(|(p, _)| !p.is_empty() && **p != "local")
                .map(|(p, k)| format!("{p} {k}"))
                .collect();
            match detail.is_empty() {
                true => parts.push(format!("{word} {n}")),
                false => parts.push(format!("{word} {n} ({})", detail.join(", "))),
            }
        }
        pb.set_message(clean(&parts.join(" \u{b7} ")).into_owned());
    }

    fn set(&mut self, name: &str, state: State, place: &str) {
        self.runs
            .insert(name.to_string(), (state, place.to_string()));
        self.show();
    }
}

impl Progress for Printer {
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Warning(w) => self.say(format!("warning: {}", clean(w))),
            Event::Note(n) => self.say(format!("verify: {}", clean(n))),
            Event::Reread { path, record } => eprintln!(
                "{}",
                clean(&format!("reread {}: {}", path.display(), record.finding))
            ),
            Event::RereadDone(n) => eprintln!("verify: {n} record(s) read again from their logs"),
            Event::Pruned(path) => eprintln!("pruned {}", clean(&path.display().to_string())),
            Event::PruneDone(n) => eprintln!("verify: pruned {n} record(s)"),
            Event::Planned(p) => {
                eprintln!("{}", clean(&plan::line(p)));
                plan::skips(p);
            }
            Event::Again { name } => self.say(clean(&format!(
                "  again  {name}: ran out of GPU memory beside other runs; runs again on a GPU of its own"
            )).into_owned()),
            Event::Kept { name, record } => self.say(clean(&format!(
                "  kept   {name}: the recorded run stands ({} is not written over it)",
                record.verdict.word()
            )).into_owned()),
            Event::Cancelled { name } => {
                self.runs.remove(name);
                self.show();
                self.say(clean(&format!("  stop   {name}: cancelled, nothing recorded")).into_owned());
            }
            Event::Running(n) => self.bar = Some(bar(n)),
            Event::Queued { name, place } => self.set(name, State::Queued, place),
            Event::Pending {
                name,
                place,
                reason,
            } => {
                let was = self.runs.get(name).map(|(s, _)| s.clone());
                if was != Some(State::Pending(reason.to_string())) {
                    self.set(name, State::Pending(reason.to_string()), place);
                    let line = format!("  wait   {name} at {place}: pending ({reason})");
                    self.say(clean(&line).into_owned());
                }
            }
            Event::Started { name, gpus, place } => {
                self.set(name, State::Running, place);
                let on: Vec<String> = gpus.iter().map(|g| g.to_string()).collect();
                let mut line = format!("  start  {name}");
                if place != "local" && !place.is_empty() {
                    line.push_str(&format!(" at {place}"));
                }
                if !on.is_empty() {
                    line.push_str(&format!(" on GPU {}", on.join(",")));
                }
                self.say(clean(&line).into_owned());
            }
            Event::Finished { name, record: r } => {
                self.runs.remove(name);
                self.show();
                if let Some(pb) = &self.bar {
                    pb.inc(1);
                }
                let (mark, s) = (r.verdict.mark(), r.duration_s);
                let line = format!("  {mark:<5}  {name} ({s:.1} s): {}", r.finding);
                self.say(clean(&line).into_owned());
            }
            Event::End(summary) => {
                if let Some(pb) = self.bar.take() {
                    pb.finish_and_clear();
                }
                for f in &summary.failures {
                    eprintln!("error: {}", clean(f));
                }
                table::summary(summary);
                table::packing(summary);
            }
        }
    }
}

fn bar(runs: usize) -> ProgressBar {
    let pb = ProgressBar::new(runs as u64);
    let style = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {wide_msg}",
    );
    pb.set_style(style.unwrap_or_else(|_| ProgressStyle::default_bar()));
    pb.enable_steady_tick(Duration::from_millis(200));
    pb
}
