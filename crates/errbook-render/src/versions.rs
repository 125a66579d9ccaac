//! An entry's "Version compatibility" as the page shows it: a table whose rows all say the same
//! becomes one line, and a line says which of the versions the entry claims its runs cover
//! (PyTorch, CUDA and Python, by major.minor against each run's environment) and which not.

use errbook_core::model::VersionRow;
use errbook_records::Record;

/// "PyTorch 1.13.0, PyTorch 2.0.0, CUDA 11.7 and CUDA 12.1: all active (the catalog's claim)".
pub(crate) fn one_line(rows: &[VersionRow], status: &str) -> String {
    let names: Vec<String> = rows.iter().map(|r| r.version.clone()).collect();
    format!(
        "{}: all {status} (the catalog's claim)",
        super::runs::and_list(&names)
    )
}

/// Which environment field of a run a claimed version's product is, if errbook records it.
fn field<'r>(product: &str, r: &'r Record) -> Option<&'r str> {
    match product.to_ascii_lowercase().as_str() {
        "pytorch" | "torch" => Some(&r.env.torch),
        "cuda" => Some(&r.env.cuda),
        "python" => Some(&r.env.python),
        _ => None,
    }
}

/// `1.13` of `1.13.0`, `2.11` of `2.11.0+cu130`: the part two versions must share to count as
/// one.
fn major_minor(v: &str) -> String {
    let v = v.trim().trim_start_matches(['v', 'V']);
    let v = v.split(['+', '-', ' ']).next().unwrap_or(v);
    v.split('.').take(2).collect::<Vec<_>>().join(".")
}

/// The coverage line: which claimed versions the runs ran on and which they did not; None when
/// the entry claims no version or nothing has run.
pub(crate) fn coverage<'r>(
    rows: &[VersionRow],
    runs: impl Iterator<Item = &'r Record>,
) -> Option<String> {
    let runs: Vec<&Record> = runs.collect();
    if rows.is_empty() || runs.is_empty() {
        return None;
    }
    let (mut covered, mut not_run, mut untracked) = (Vec::new(), Vec::new(), Vec::new());
    let mut ran: Vec<String> = Vec::new();
    for row in rows {
        let (product, version) = match row.version.trim().rsplit_once(' ') {
            Some((p, v)) => (p.trim(), v),
            None => (row.version.trim(), ""),
        };
        let seen: Vec<&str> = runs
            .iter()
            .filter_map(|r| field(product, r))
            .filter(|v| !v.is_empty())
            .collect();
        if seen.is_empty() {
            untracked.push(row.version.clone());
            continue;
        }
        for s in &seen {
            let s = format!("{product} {}", s.split('+').next().unwrap_or(s));
            if !ran.contains(&s) {
                ran.push(s);
            }
        }
        if seen.iter().any(|s| major_minor(s) == major_minor(version)) {
            covered.push(row.version.clone());
        } else {
            not_run.push(row.version.clone());
        }
    }
    let and = super::runs::and_list;
    let mut parts = Vec::new();
    if covered.is_empty() {
        parts.push("errbook's runs cover none of the versions the entry claims".to_string());
    } else {
        parts.push(format!("errbook's runs cover {}", and(&covered)));
    }
    if !not_run.is_empty() {
        parts.push(format!(
            "not run on {} (the runs used {})",
            and(&not_run),
            and(&ran)
        ));
    }
    if !untracked.is_empty() {
        parts.push(format!("{} not recorded by a run", and(&untracked)));
    }
    Some(format!("{}.", parts.join("; ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(v: &str) -> VersionRow {
        VersionRow {
            version: v.into(),
            status: "active".into(),
            introduced: None,
            deprecated: None,
        }
    }

    #[test]
    fn claimed_versions_are_matched_by_major_and_minor() {
        assert_eq!(major_minor("2.11.0+cu130"), "2.11");
        assert_eq!(major_minor("12.1"), "12.1");
        assert_eq!(major_minor("v1.13.0"), "1.13");
        let rows = [row("PyTorch 2.0.0"), row("CUDA 12.1")];
        assert_eq!(
            one_line(&rows, "active"),
            "PyTorch 2.0.0 and CUDA 12.1: all active (the catalog's claim)"
        );
        assert_eq!(coverage(&rows, std::iter::empty()), None);
    }
}
