//! Template: an error message with what varies between runs (directory paths, URLs, numbers,
//! hex addresses, sizes, device indices) replaced by placeholders `<path>`, `<url>`, `<n>`,
//! `<hex>`, `<size>`. Words are kept, quoted ones too: a message in quotes or backticks is the
//! message. A file name without a directory keeps its name (`libcudart.so.<n>`): it is often
//! what tells two errors apart.
//!
//! themes/default/static/search-rank.js holds the same steps (`template`).

use regex::Regex;
use std::sync::LazyLock;

fn re(s: &str) -> Regex {
    Regex::new(s).expect("static regex")
}

static URL: LazyLock<Regex> = LazyLock::new(|| re(r"(?-u:\b)[a-zA-Z][a-zA-Z0-9+.-]*://\S+"));
/// A path with at least two separators (`/a/b`, `C:\x\y`, `../t/c.py`).
static PATH: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?:[A-Za-z]:)?(?:\.{1,2}|~)?(?:[\\/][A-Za-z0-9_.@~+-]+){2,}[\\/]?"));
static HEX: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?-u:\b)0x[0-9a-fA-F]+(?-u:\b)|(?-u:\b)[0-9a-f]{8,}(?-u:\b)"));
static SIZE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?-u:\b)[0-9]+(?:\.[0-9]+)?\s*(?:[KMGTP]i?B|[kK]B|bytes|B)(?-u:\b)"));
static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    re(r"[-+]?(?-u:\b)[0-9]+(?:\.[0-9]+)*(?:[eE][-+]?[0-9]+)?(?:x[0-9]+)*(?-u:\b)")
});
static CUDA_DEV: LazyLock<Regex> = LazyLock::new(|| re(r"(?-u:\b)(cuda|cpu|xpu|mps):[0-9]+"));
static SPACES: LazyLock<Regex> = LazyLock::new(|| re(r"\s+"));
/// Advice PyTorch appends inside a message (the same on every such error, so no signal); the
/// lines of it are dropped by `normalise`, these are the sentences of it when a title or a log
/// joined them into one line.
static ADVICE: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r"(?:If reserved (?:but unallocated )?memory is (?:large|>> allocated memory) try setting [A-Za-z_=:]+ to avoid fragmentation\.?",
        r"|See documentation for Memory Management(?: and PYTORCH_CUDA_ALLOC_CONF| *\([^)]*\))?",
        r"|CUDA kernel errors might be asynchronously reported at some other API call, ?so the stacktrace below might be incorrect\.?",
        r"|For debugging consider passing CUDA_LAUNCH_BLOCKING=1\.?",
        r"|Compile with .TORCH_USE_CUDA_DSA. to enable device-side assertions\.?)"
    ))
});
static REPEAT: LazyLock<Regex> =
    LazyLock::new(|| re(r"(<(?:n|path|hex|size|url)>)(?:[\s,x*]*<(?:n|path|hex|size|url)>)+"));

/// Replace what varies between runs by placeholders; keep the wording.
pub(crate) fn template(message: &str) -> String {
    let s = ADVICE.replace_all(message, "");
    let s = URL.replace_all(&s, "<url>");
    let s = PATH.replace_all(&s, "<path>");
    let s = CUDA_DEV.replace_all(&s, "$1");
    let s = HEX.replace_all(&s, |c: &regex::Captures| {
        let m = &c[0];
        let hexy = m.starts_with("0x")
            || (m.bytes().any(|b| b.is_ascii_digit())
                && m.bytes().any(|b| b.is_ascii_alphabetic()));
        if hexy {
            "<hex>".to_string()
        } else {
            m.to_string()
        }
    });
    let s = SIZE.replace_all(&s, "<size>");
    let s = NUMBER.replace_all(&s, "<n>");
    let s = REPEAT.replace_all(&s, "$1");
    SPACES.replace_all(s.trim(), " ").into_owned()
}

#[cfg(test)]
mod tests {
    use super::template;

    #[test]
    fn placeholders_and_kept_words() {
        assert_eq!(
            template(
                "CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 5.80 GiB total capacity)"
            ),
            "CUDA out of memory. Tried to allocate <size> (GPU <n>; <size> total capacity)"
        );
        assert_eq!(
            template("mat1 and mat2 shapes cannot be multiplied (64x128 and 256x10)"),
            "mat1 and mat2 shapes cannot be multiplied (<n> and <n>)"
        );
        assert_eq!(
            template("two devices, cuda:0 and cpu! at 0x7f3a2c001000 in /usr/lib/x86_64/libcudart.so.11.0"),
            "two devices, cuda and cpu! at <hex> in <path>"
        );
        // A bare file name keeps its name; quotes keep their words.
        assert_eq!(
            template("libcudart.so.11.0: cannot open shared object file"),
            "libcudart.so.<n>: cannot open shared object file"
        );
        assert_eq!(
            template("KeyError: 'a very long column name that surely differs from run to run'"),
            "KeyError: 'a very long column name that surely differs from run to run'"
        );
        assert_eq!(template("see https://x.org/a?b=1 now"), "see <url> now");
    }
}
