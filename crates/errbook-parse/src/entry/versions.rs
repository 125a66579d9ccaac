//! The `## Version Compatibility` table: a header `| Version | Status | Introduced | Deprecated |`
//! and one row per version; `—` (or `-`, `–`) marks an empty cell.

use super::blocks::{Block, BlockKind};
use super::Ctx;
use errbook_core::diag::Code;
use errbook_core::model::VersionRow;
use std::ops::Range;

const VERSION_HEADER: [&str; 4] = ["Version", "Status", "Introduced", "Deprecated"];

/// Read the section's tables into rows; a wrong header stops the reading.
pub(super) fn read(cx: &mut Ctx, body: &[&Block]) -> Vec<VersionRow> {
    let mut rows = Vec::new();
    for b in body {
        if b.kind != BlockKind::Table {
            cx.error(
                Code::Table,
                b.range.clone(),
                "only a table goes under `## Version Compatibility`",
                "write `| Version | Status | Introduced | Deprecated |` rows",
            );
            continue;
        }
        if read_table(cx, b.range.clone(), &mut rows).is_none() {
            break;
        }
    }
    rows
}

/// One table's rows into `rows`; `None` when its header is wrong.
fn read_table(cx: &mut Ctx, range: Range<usize>, rows: &mut Vec<VersionRow>) -> Option<()> {
    let text = cx.text(range.clone());
    let mut off = range.start;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let lr = off..off + line.trim_end().len();
        off += line.len();
        let cells = split_row(line);
        match i {
            0 => check_header(cx, &cells, lr)?,
            1 => {} // the delimiter row; pulldown-cmark already checked it
            _ if line.trim().is_empty() => {}
            _ => rows.extend(read_row(cx, cells, lr)),
        }
    }
    Some(())
}

fn check_header(cx: &mut Ctx, cells: &[String], lr: Range<usize>) -> Option<()> {
    let ok = cells.len() == 4
        && cells
            .iter()
            .zip(VERSION_HEADER)
            .all(|(c, h)| c.eq_ignore_ascii_case(h));
    if ok {
        return Some(());
    }
    cx.error(
        Code::Table,
        lr,
        format!("the version table's header is `{}`", cells.join(" | ")),
        "the header must be `| Version | Status | Introduced | Deprecated |`",
    );
    None
}

fn read_row(cx: &mut Ctx, cells: Vec<String>, lr: Range<usize>) -> Option<VersionRow> {
    let [version, status, introduced, deprecated] = <[String; 4]>::try_from(cells)
        .map_err(|cells| {
            cx.error(
                Code::Table,
                lr.clone(),
                format!(
                    "this row has {} cells; the table has 4 columns",
                    cells.len()
                ),
                "write `| Version | Status | Introduced | Deprecated |`, `—` for an empty cell",
            )
        })
        .ok()?;
    if version.is_empty() || status.is_empty() {
        cx.error(
            Code::Table,
            lr,
            "a version row needs a version and a status",
            "fill the first two cells, e.g. `| PyTorch 2.0.0 | active | — | — |`",
        );
        return None;
    }
    let opt = |s: String| {
        let t = s.trim();
        (!(t.is_empty() || t == "—" || t == "-" || t == "–")).then(|| t.to_string())
    };
    Some(VersionRow {
        version,
        status,
        introduced: opt(introduced),
        deprecated: opt(deprecated),
    })
}

fn split_row(line: &str) -> Vec<String> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    t.split('|').map(|c| c.trim().to_string()).collect()
}
