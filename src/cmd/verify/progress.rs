//! What `errbook verify` shows while the session runs: the plan line, pruned records, a
//! progress bar naming the runs in flight, a line per run started and finished, and at the end
//! the write failures and the tables (`table`).

use super::{plan, table};
use errbook::verify::{Event, Progress};
use indicatif::{ProgressBar, ProgressStyle};
use std::time::Duration;

/// Prints a session's events to stderr (the summary table goes to stdout).
#[derive(Default)]
pub(crate) struct Printer {
    /// While runs happen.
    bar: Option<ProgressBar>,
    /// Names of the runs in flight, shown beside the bar.
    running: Vec<String>,
}

impl Printer {
    /// A line above the bar (or plain, where there is no bar on a terminal).
    fn say(&self, line: String) {
        match &self.bar {
            Some(pb) if !pb.is_hidden() => pb.println(line),
            _ => eprintln!("{line}"),
        }
    }

    fn show_running(&self) {
        if let Some(pb) = &self.bar {
            pb.set_message(self.running.join(", "));
        }
    }
}

impl Progress for Printer {
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Moved { from, to: Some(to) } => {
                eprintln!("moved {} -> {}", from.display(), to.display())
            }
            Event::Moved { from, to: None } => eprintln!("removed {}", from.display()),
            Event::MoveDone(n) => eprintln!(
                "verify: {n} record(s) moved to the per-environment layout (commit the move)"
            ),
            Event::Reread { path, record } => {
                eprintln!("reread {}: {}", path.display(), record.finding)
            }
            Event::RereadDone(n) => eprintln!("verify: {n} record(s) read again from their logs"),
            Event::Pruned(path) => eprintln!("pruned {}", path.display()),
            Event::PruneDone(n) => eprintln!("verify: pruned {n} record(s)"),
            Event::Planned(p) => {
                eprintln!("{}", plan::line(p));
                plan::skips(p);
            }
            Event::Again { name } => self.say(format!(
                "  again  {name}: ran out of GPU memory beside other runs; runs again on a GPU of its own"
            )),
            Event::Kept { name, record } => self.say(format!(
                "  kept   {name}: the recorded run stands ({} is not written over it)",
                record.verdict.word()
            )),
            Event::Running(n) => self.bar = Some(bar(n)),
            Event::Started { name, gpus } => {
                self.running.push(name.to_string());
                let on: Vec<String> = gpus.iter().map(|g| g.to_string()).collect();
                let on = if on.is_empty() {
                    String::new()
                } else {
                    format!(" on GPU {}", on.join(","))
                };
                self.say(format!("  start  {name}{on}"));
                self.show_running();
            }
            Event::Finished { name, record: r } => {
                self.running.retain(|n| n != name);
                self.show_running();
                if let Some(pb) = &self.bar {
                    pb.inc(1);
                }
                let (mark, s) = (r.verdict.mark(), r.duration_s);
                self.say(format!("  {mark:<5}  {name} ({s:.1} s): {}", r.finding));
            }
            Event::End(summary) => {
                if let Some(pb) = self.bar.take() {
                    pb.finish_and_clear();
                }
                for f in &summary.failures {
                    eprintln!("error: {f}");
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
