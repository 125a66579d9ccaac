//! Evidence: why a link was drawn, as data. What matched, and the passage it matched in.

use serde::Serialize;

/// Why a link was drawn: what matched, and the passage it matched in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence {
    /// What kind of signal ("message template", "error code", "call `set_start_method('spawn')`").
    pub signal: String,
    /// The matching passage as it appears in the source (trimmed to a sentence or a line).
    pub excerpt: String,
    /// 1-based line in the source file of `from`, when known.
    pub line: Option<usize>,
    pub weight: f64,
}
