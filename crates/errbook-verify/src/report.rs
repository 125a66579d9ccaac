//! The session as JSON (`--report FILE`): the host and its GPUs, runs at a time, the packing
//! timeline (each run's GPUs, the GPU memory planned for it and measured, whether it shared its
//! GPU, when it started and ended), what was skipped and why, and each unit's result. Plain data
//! for tools and benchmarks; records stay the source of truth.

use super::gpu::Gpu;
use super::summary::Summary;
use errbook_core::error::{IoContext, Result};
use errbook_records::{Environment, Verdict};
use serde::Serialize;
use std::path::Path;

#[derive(Serialize)]
struct Report<'a> {
    host: &'a Environment,
    gpus: &'a [Gpu],
    jobs: usize,
    timeline: Vec<TimelineRow>,
    wall_s: f64,
    /// Seconds of all runs together, and the longest run's.
    busy_s: f64,
    longest_s: f64,
    /// The most runs that overlapped on one GPU.
    most_at_once_on_a_gpu: usize,
    skipped: Vec<SkipRow<'a>>,
    results: Vec<ResultRow<'a>>,
}

/// When and where one unit ran, and the GPU memory planned for it and measured.
#[derive(Serialize)]
struct TimelineRow {
    snippet: String,
    gpus: Vec<u32>,
    mem_planned_mib: u64,
    mem_peak_mib: Option<u64>,
    shared: bool,
    start_s: f64,
    end_s: f64,
}

/// A unit this host did not run.
#[derive(Serialize)]
struct SkipRow<'a> {
    snippet: String,
    reason: &'a str,
}

/// What one unit's record says.
#[derive(Serialize)]
struct ResultRow<'a> {
    snippet: String,
    claim: String,
    verdict: Verdict,
    finding: &'a str,
    duration_s: f64,
    /// Not written: the recorded run of this environment, which is evidence, stands.
    kept: bool,
}

/// Write the report of `s` to `path` (pretty JSON, keys in alphabetical order).
pub(crate) fn write(path: &Path, s: &Summary) -> Result<()> {
    let units = &s.plan.units;
    let report = Report {
        host: &s.plan.host.env,
        gpus: &s.plan.host.gpus,
        jobs: s.plan.jobs,
        timeline: s
            .timeline
            .iter()
            .map(|t| TimelineRow {
                snippet: units[t.job].name(),
                gpus: t.gpus.clone(),
                mem_planned_mib: t.mem_mib,
                mem_peak_mib: s
                    .done
                    .iter()
                    .find(|d| d.unit == t.job)
                    .and_then(|d| d.record.gpu_mem_peak_mib),
                shared: t.shared,
                start_s: t.start_s,
                end_s: t.end_s,
            })
            .collect(),
        wall_s: s.wall_s(),
        busy_s: s.busy_s(),
        longest_s: s.longest_s(),
        most_at_once_on_a_gpu: s.most_at_once_on_a_gpu(),
        skipped: s
            .skipped()
            .map(|(u, reason)| SkipRow {
                snippet: u.name(),
                reason,
            })
            .collect(),
        results: s
            .done
            .iter()
            .map(|d| ResultRow {
                snippet: units[d.unit].name(),
                claim: units[d.unit].spec.claim.describe(),
                verdict: d.record.verdict,
                finding: &d.record.finding,
                duration_s: d.record.duration_s,
                kept: d.kept,
            })
            .collect(),
    };
    // Through a `Value`, whose maps keep their keys sorted, as reports always were.
    let text = serde_json::to_value(&report)
        .and_then(|v| serde_json::to_string_pretty(&v))
        .unwrap_or_default();
    std::fs::write(path, text).at(path)
}
