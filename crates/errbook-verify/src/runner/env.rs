//! A run's environment: named variables only. A short fixed list comes from the host the run
//! happens on (what finding programs, Python and CUDA need; none of it secret); variables the
//! maintainer names (`--keep-env NAME`, `verify.keep_env`) come from the machine errbook was
//! started on, and their values are redacted from everything the run printed, so that a token
//! never reaches a committed record. No prefix patterns: a `TORCH_*` pattern would pass a
//! variable nobody named.

use std::ffi::OsString;

/// Variables taken from the executing host's own environment, by exact name.
pub(crate) const BASE: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "LD_LIBRARY_PATH",
    "VIRTUAL_ENV",
    "CONDA_PREFIX",
    "CONDA_DEFAULT_ENV",
    "CUDA_HOME",
    "CUDA_PATH",
];

/// Values shorter than this are not redacted: they are not secrets, and replacing every `1` of
/// a log would ruin it.
const MIN_SECRET: usize = 4;

/// Is `name` a variable name a maintainer may pass (letters, digits, `_`, not a pattern)?
pub(crate) fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The named variables' values from `vars` (errbook's environment); unset ones are left out.
pub(crate) fn passed(
    names: &[String],
    vars: impl Iterator<Item = (OsString, OsString)>,
) -> Vec<(String, String)> {
    let vars: Vec<(OsString, OsString)> = vars.collect();
    names
        .iter()
        .filter_map(|n| {
            let (_, v) = vars.iter().find(|(k, _)| k.to_str() == Some(n))?;
            Some((n.clone(), v.to_str()?.to_string()))
        })
        .collect()
}

/// What a run is given, in order (later wins): the base variables from `host`, the passed
/// ones, errbook's settings (`TMPDIR` the run's directory, unbuffered Python), the declared ones
/// and the GPUs packing chose.
pub(crate) fn build(
    host: impl Iterator<Item = (OsString, OsString)>,
    passed: &[(String, String)],
    declared: &[(String, String)],
    tmpdir: &str,
    gpus: &[u32],
) -> Vec<(OsString, OsString)> {
    let mut out: Vec<(OsString, OsString)> = Vec::new();
    let mut set = |k: &str, v: OsString| {
        out.retain(|(ek, _)| ek != k);
        out.push((k.into(), v));
    };
    for (k, v) in host {
        if let Some(name) = k.to_str().filter(|n| BASE.contains(n)) {
            set(name, v);
        }
    }
    for (k, v) in passed {
        set(k, v.into());
    }
    set("TMPDIR", tmpdir.into());
    set("PYTHONUNBUFFERED", "1".into());
    set("PYTHONDONTWRITEBYTECODE", "1".into());
    set("PYTHONFAULTHANDLER", "1".into());
    for (k, v) in declared {
        set(k, v.into());
    }
    // Packing decides the GPUs; a declared CUDA_VISIBLE_DEVICES does not override it.
    let visible: Vec<String> = gpus.iter().map(|g| g.to_string()).collect();
    set("CUDA_VISIBLE_DEVICES", visible.join(",").into());
    out
}

/// `bytes` with every passed value replaced by `[redacted $NAME]`.
pub(crate) fn redact(bytes: &[u8], passed: &[(String, String)]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    // Longest first, so that a value containing another is replaced whole.
    let mut secrets: Vec<&(String, String)> = passed
        .iter()
        .filter(|(_, v)| v.len() >= MIN_SECRET)
        .collect();
    secrets.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
    for (name, value) in secrets {
        out = replace(
            &out,
            value.as_bytes(),
            format!("[redacted ${name}]").as_bytes(),
        );
    }
    out
}

fn replace(hay: &[u8], needle: &[u8], with: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(hay.len());
    let mut i = 0;
    while i < hay.len() {
        if hay[i..].starts_with(needle) {
            out.extend_from_slice(with);
            i += needle.len();
        } else {
            out.push(hay[i]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(list: &[(&str, &str)]) -> impl Iterator<Item = (OsString, OsString)> {
        list.iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v)))
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn only_named_variables_reach_a_run() {
        let host = vars(&[
            ("PATH", "/usr/bin"),
            ("NCCL_TOKEN", "s3cret-value"),
            ("TORCH_HOME", "/x"),
            ("CUDA_VISIBLE_DEVICES", "3"),
        ]);
        let passed = vec![("HF_TOKEN".to_string(), "hf_abc".to_string())];
        let declared = vec![("CUDA_VISIBLE_DEVICES".to_string(), "7".to_string())];
        let env = build(host, &passed, &declared, "/tmp/w", &[0, 1]);
        let get = |k: &str| env.iter().find(|(ek, _)| ek == k).map(|(_, v)| v.clone());
        assert_eq!(get("PATH"), Some("/usr/bin".into()));
        assert_eq!(get("NCCL_TOKEN"), None, "a look-alike of an allowed prefix");
        assert_eq!(get("TORCH_HOME"), None);
        assert_eq!(get("HF_TOKEN"), Some("hf_abc".into()));
        assert_eq!(get("TMPDIR"), Some("/tmp/w".into()));
        assert_eq!(get("CUDA_VISIBLE_DEVICES"), Some("0,1".into()));
    }

    #[test]
    fn passed_values_are_redacted_and_names_checked() {
        let given = vec![
            ("TOKEN".to_string(), "abcd1234".to_string()),
            ("SHORT".to_string(), "1".to_string()),
        ];
        let out = redact(b"token=abcd1234, again abcd1234; 1 2 3", &given);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "token=[redacted $TOKEN], again [redacted $TOKEN]; 1 2 3"
        );
        assert!(valid_name("HF_TOKEN"));
        assert!(!valid_name("NCCL_*"));
        assert!(!valid_name("1X"));
        let from = vars(&[("A", "1"), ("B", "2")]);
        let names = vec!["B".to_string(), "C".to_string()];
        assert_eq!(passed(&names, from), vec![("B".into(), "2".into())]);
    }
}
