//! What a fenced block is, before any claim is read: a Python program (or a piece of one), a
//! shell session, an output listing, a configuration, another language, or prose in a fence.
//! Only Python is run; everything else gets no claim, with the reason.

use super::python::scan::{Scan, Tok};
use super::python::words::is_keyword;

/// Why a block is not Python that errbook could run, if it is not.
pub(crate) fn not_python(lang: &str, code: &str, scan: &Scan<'_>) -> Option<String> {
    let lang = lang.to_ascii_lowercase();
    let first = code
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    match lang.as_str() {
        "bash" | "sh" | "shell" | "console" | "zsh" | "shell-session" | "shellsession"
        | "powershell" | "ps1" | "cmd" | "bat" | "fish" => {
            return Some("a shell command, not a program".into())
        }
        "text" | "txt" | "output" | "log" | "plaintext" | "plain" | "none" | "pytb"
        | "traceback" => return Some("an output listing".into()),
        "yaml" | "yml" | "json" | "toml" | "ini" | "cfg" | "conf" | "xml" | "dockerfile"
        | "env" | "properties" => return Some("a configuration file".into()),
        "python" | "py" | "python3" | "py3" | "ipython" | "" => {}
        other => return Some(format!("{other}, not Python: errbook runs Python")),
    }
    if code.trim().is_empty() {
        return Some("empty".into());
    }
    if code
        .lines()
        .map(str::trim)
        .all(|l| l.is_empty() || l.starts_with('#'))
    {
        return Some("comments only, no code".into());
    }
    if first.starts_with("Traceback (most recent call last)") {
        return Some("an output listing (a traceback)".into());
    }
    if is_error_line(first) {
        return Some("an output listing (an error message)".into());
    }
    if first.starts_with(">>>") {
        return Some("an interactive session with its output".into());
    }
    let shell = [
        "$ ",
        "pip ",
        "pip3 ",
        "conda ",
        "python ",
        "python3 ",
        "torchrun ",
        "sudo ",
        "export ",
        "nvidia-smi",
        "apt ",
        "apt-get ",
        "srun ",
        "sbatch ",
    ];
    if shell.iter().any(|s| first.starts_with(s)) {
        return Some("a shell command, not a program".into());
    }
    if let Some(line) = prose_line(scan) {
        return Some(format!("prose or pseudo-code, not Python (line {line})"));
    }
    None
}

/// `RuntimeError: ...`, `torch.cuda.OutOfMemoryError: ...`: a line an error prints.
fn is_error_line(line: &str) -> bool {
    let Some((head, _)) = line.split_once(": ") else {
        return false;
    };
    let name = head.rsplit('.').next().unwrap_or(head);
    !head.contains(' ')
        && (name.ends_with("Error") || name.ends_with("Exception") || name.ends_with("Warning"))
}

/// The first line where two words stand side by side as Python never writes them ("Set the
/// start method"): the block is prose or pseudo-code.
fn prose_line(scan: &Scan<'_>) -> Option<usize> {
    for l in &scan.lines {
        let mut depth = 0;
        for (i, w) in l.toks.windows(2).enumerate() {
            match &w[0] {
                Tok::Op("(" | "[" | "{") => depth += 1,
                Tok::Op(")" | "]" | "}") => depth -= 1,
                _ => {}
            }
            if let (Tok::Name(a), Tok::Name(b)) = (&w[0], &w[1]) {
                let soft = ["print", "exec", "match", "case", "type", "async", "await"];
                if !is_keyword(a) && !is_keyword(b) && !soft.contains(a) && depth >= 0 {
                    return Some(l.at[i]);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::python::scan::scan;
    use super::*;

    #[test]
    fn kinds() {
        let k = |lang: &str, code: &str| not_python(lang, code, &scan(code));
        assert!(k("python", "import torch\nx = torch.zeros(1)\n").is_none());
        assert!(k("", "Set the start method to 'spawn' at the beginning\n")
            .unwrap()
            .starts_with("prose"));
        assert!(k("bash", "pip install torch").is_some());
        assert!(k("python", "$ python train.py\n").is_some());
        assert!(k("", "Traceback (most recent call last):\n  File \"x\"\n").is_some());
        assert!(k("yaml", "a: 1").is_some());
        assert!(k(
            "",
            "RuntimeError: Cannot re-initialize CUDA in forked subprocess.\n"
        )
        .unwrap()
        .starts_with("an output listing"));
        assert!(k("python", "for x in y if x is not None:\n    pass\n").is_none());
        assert_eq!(
            k("python", "# the fix goes here\n\n# and here\n").as_deref(),
            Some("comments only, no code")
        );
    }
}
