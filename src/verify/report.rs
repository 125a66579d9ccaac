//! The session as JSON (`--report FILE`): the host and its GPUs, runs at a time, the packing
//! timeline and each unit's result. Plain data for tools and benchmarks; records stay the source
//! of truth.

use super::gpu::Gpu;
use super::summary::Summary;
use crate::core::error::{IoContext, Result};
use crate::records::{Environment, Verdict};
use serde::Serialize;
use std::path::Path;

#[derive(Serialize)]
struct Report<'a> {
    host: &'a Environment,
    gpus: &'a [Gpu],
    jobs: usize,
    timeline: Vec<TimelineRow>,
    wall_s: f64,
    results: Vec<ResultRow<'a>>,
}

/// When and where one unit ran.
#[derive(Serialize)]
struct TimelineRow {
    snippet: String,
    gpus: Vec<u32>,
    start_s: f64,
    end_s: f64,
}

/// What one unit's record says.
#[derive(Serialize)]
struct ResultRow<'a> {
    snippet: String,
    claim: String,
    verdict: Verdict,
    finding: &'a str,
    duration_s: f64,
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
                start_s: t.start_s,
                end_s: t.end_s,
            })
            .collect(),
        wall_s: s.wall_s(),
        results: s
            .done
            .iter()
            .map(|d| ResultRow {
                snippet: units[d.unit].name(),
                claim: units[d.unit].spec.claim.describe(),
                verdict: d.record.verdict,
                finding: &d.record.finding,
                duration_s: d.record.duration_s,
            })
            .collect(),
    };
    // Through a `Value`, whose maps keep their keys sorted, as reports always were.
    let text = serde_json::to_value(&report)
        .and_then(|v| serde_json::to_string_pretty(&v))
        .unwrap_or_default();
    std::fs::write(path, text).at(path)
}
