//! The pasted real-world cases the search tests share: tests/fixtures/search/cases.txt
//! (expected entry ID, text) and the evaluation set's pastes (bench/search-eval/pastes.txt).

use std::path::{Path, PathBuf};

pub(crate) fn cases(root: &Path) -> Vec<(String, String)> {
    let file = if root.join("pastes.txt").exists() {
        "pastes.txt"
    } else {
        "cases.txt"
    };
    let text = std::fs::read_to_string(root.join(file)).unwrap();
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(id) = line.strip_prefix("=== ") {
            out.push((id.trim().to_string(), String::new()));
        } else if let Some(last) = out.last_mut() {
            last.1.push_str(line);
            last.1.push('\n');
        }
    }
    out
}

/// The evaluation catalog (book.toml, content/, pastes.txt).
pub(crate) fn eval_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/search-eval")
}

/// The evaluation set's pastes: (header line `ID | kind | source`, text).
pub(crate) fn eval_pastes() -> Vec<(String, String)> {
    cases(&eval_dir())
}
