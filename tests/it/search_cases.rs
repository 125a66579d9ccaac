//! The pasted real-world cases of tests/fixtures/search/cases.txt: (expected entry ID, text).

use std::path::Path;

pub(crate) fn cases(root: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(root.join("cases.txt")).unwrap();
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
