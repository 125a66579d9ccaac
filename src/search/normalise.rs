//! Normalise: pasted text (a message, a log, a whole traceback) -> the error it reports, as a
//! template. The final exception is found (the original one inside wrappers such as "Caught
//! RuntimeError in DataLoader worker process 0"), log prefixes, timestamps and rank tags are
//! dropped, and what varies between runs (paths, numbers, hex addresses, sizes, long quoted
//! strings) becomes a placeholder. Entries are normalised the same way at index time.
//!
//! themes/default/static/search.js holds the same steps in JavaScript; tests/it/search_parity.rs
//! runs both on the same cases.

use regex::Regex;
use std::sync::LazyLock;

/// What normalisation found in the pasted text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    /// The exception type (last dotted component: `OutOfMemoryError`), if a line named one.
    pub exception: Option<String>,
    /// The message template: `Exception: text` with placeholders `<n>`, `<path>`, `<hex>`,
    /// `<size>`, `<str>`, `<url>` for what varies between runs.
    pub template: String,
}

fn re(s: &str) -> Regex {
    Regex::new(s).expect("static regex")
}

static ANSI: LazyLock<Regex> = LazyLock::new(|| re(r"\x1b\[[0-9;]*[A-Za-z]"));
/// One log prefix at the start of a line; stripped repeatedly.
static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r"^(?:",
        r"\[?rank\s*[0-9]+\]?\s*:\s*",     // [rank0]: (PyTorch 2.x)
        r"|\[default[0-9]+\]:\s*",         // [default0]: (torchrun --tee)
        r"|\[\s*[Rr]ank\s*[0-9]+\s*\]\s*", // [Rank 1]
        r"|\[?[0-9]{4}-[0-9][0-9]-[0-9][0-9][T _][0-9][0-9]:[0-9][0-9]:[0-9][0-9](?:[.,][0-9]+)?(?:Z|[+-][0-9][0-9]:?[0-9][0-9])?\]?\s*(?:[-|:]\s*)?", // ISO timestamp
        r"|\[?[0-9][0-9]:[0-9][0-9]:[0-9][0-9](?:[.,][0-9]+)?\]?\s*(?:[-|:]\s*)?", // time of day
        r"|[A-Z][a-z]{2} +[0-9]{1,2} [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\s+", // syslog / CI: Oct 16 02:07:00
        r"|[EWIF][0-9]{4} [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9]+\s+[0-9]+\s+[A-Za-z0-9_./-]+:[0-9]+\]\s*", // glog: E0101 12:00:00.123 42 f.cc:12]
        r"|\[[EWIF][0-9]*\s[^\]]*\]\s*", // c10: [W socket.cpp:601]
        r"|\[?(?:ERROR|WARNING|WARN|INFO|DEBUG|CRITICAL|FATAL)(?-u:\b)\]?\s*(?::[A-Za-z0-9_.]*:|[:|-])?\s*", // log level, ERROR:root:
        r"|\(pid=[0-9]+(?:,\s*ip=[0-9.]+)?\)\s*", // Ray: (pid=123)
        r"|what\(\):\s*",                         // C++ terminate: what():
        r"|[0-9]+:\s+",                           // torchrun line tags: 0:
        r")"
    ))
});
/// A line that names an exception: `pkg.mod.NameError: message` or a bare `NameError`.
static EXC_LINE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^((?:[A-Za-z_][A-Za-z0-9_]*\.)*([A-Za-z][A-Za-z0-9_]*(?:Error|Exception|Interrupt|Exit|Warning|Failure)))\s*(?::\s*(.*))?$",
    )
});
static WRAPPER_MSG: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^caught [A-Za-z0-9_]+ in (?:dataloader worker process|replica)|terminated with the following error",
    )
});
/// Lines that end a multi-line exception message.
static STOP: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:Traceback \(most recent call last\)|Original Traceback|During handling of the above|The above exception was|File |Exception raised from|frame #|-- Process [0-9]+)",
    )
});
/// Advice PyTorch appends to many CUDA errors: the same on every entry, so no signal.
static BOILERPLATE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:CUDA kernel errors might be asynchronously|For debugging consider passing|Compile with .TORCH_USE_CUDA_DSA|To enable traceback see|Set TORCH_SHOW_CPP_STACKTRACES|\^+$|~*\^+~*$)",
    )
});
static FRAME: LazyLock<Regex> = LazyLock::new(|| re(r#"^\s*File "[^"]*", line [0-9]+"#));

static URL: LazyLock<Regex> = LazyLock::new(|| re(r"(?-u:\b)[a-zA-Z][a-zA-Z0-9+.-]*://\S+"));
static PATH: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:[A-Za-z]:)?(?:\.{1,2}|~)?(?:[\\/][A-Za-z0-9_.@~+-]+){2,}[\\/]?|(?-u:\b)[A-Za-z0-9_-]+\.(?:py|pyx|cpp|cc|cu|cuh|hpp|h|c|so|pt|pth|ckpt|json|yaml|yml|txt|csv|log)(?-u:\b)",
    )
});
static QUOTED: LazyLock<Regex> =
    LazyLock::new(|| re(r#"'([^'\n]*)'|"([^"\n]*)"|`([^`\n]*)`|‘([^’\n]*)’|“([^”\n]*)”"#));
static HEX: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?-u:\b)0x[0-9a-fA-F]+(?-u:\b)|(?-u:\b)[0-9a-f]{8,}(?-u:\b)"));
static SIZE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?-u:\b)[0-9]+(?:\.[0-9]+)?\s*(?:[KMGTP]i?B|[kK]B|bytes|B)(?-u:\b)"));
static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    re(r"[-+]?(?-u:\b)[0-9]+(?:\.[0-9]+)*(?:[eE][-+]?[0-9]+)?(?:x[0-9]+)*(?-u:\b)")
});
static CUDA_DEV: LazyLock<Regex> = LazyLock::new(|| re(r"(?-u:\b)(cuda|cpu|xpu|mps):[0-9]+"));
static SPACES: LazyLock<Regex> = LazyLock::new(|| re(r"\s+"));
static REPEAT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(<(?:n|path|hex|size|str|url)>)(?:[\s,x*]*<(?:n|path|hex|size|str|url)>)+")
});

/// Strip ANSI colours and log prefixes from one line.
pub(crate) fn clean_line(line: &str) -> String {
    let mut s = ANSI.replace_all(line, "").trim().to_string();
    loop {
        let next = match PREFIX.find(&s) {
            Some(m) if m.end() > 0 => s[m.end()..].trim_start().to_string(),
            _ => break,
        };
        if next == s {
            break;
        }
        s = next;
    }
    s
}

struct Candidate {
    exception: String,
    message: String,
    wrapper: bool,
}

/// Find the reported error in pasted text and turn it into a template.
pub(crate) fn normalise(text: &str) -> Detected {
    let lines: Vec<String> = text.lines().map(clean_line).collect();
    let candidates = candidates(&lines);
    // The last exception that is not a wrapper of another one; a wrapper if that is all.
    let chosen = candidates
        .iter()
        .rev()
        .find(|c| !c.wrapper)
        .or(candidates.last());
    match chosen {
        Some(c) => {
            let t = template(&c.message);
            let template = if t.is_empty() {
                c.exception.clone()
            } else {
                format!("{}: {}", c.exception, t)
            };
            Detected {
                exception: Some(c.exception.clone()),
                template,
            }
        }
        None => Detected {
            exception: None,
            template: template(&without_frames(&lines).join(" ")),
        },
    }
}

/// Every line that names an exception, with the lines that continue its message.
fn candidates(lines: &[String]) -> Vec<Candidate> {
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        match EXC_LINE.captures(&lines[i]) {
            Some(c) => {
                let (candidate, next) = candidate(&c, &lines[i + 1..]);
                candidates.push(candidate);
                i += 1 + next;
            }
            None => i += 1,
        }
    }
    candidates
}

/// The exception named by `c` (an `EXC_LINE` match), its message continued by up to four of
/// the lines `after` it; and how many of those lines it took up, boilerplate included.
fn candidate(c: &regex::Captures<'_>, after: &[String]) -> (Candidate, usize) {
    let full = c.get(1).map_or("", |m| m.as_str());
    let short = c.get(2).map_or("", |m| m.as_str()).to_string();
    let mut message = c.get(3).map_or("", |m| m.as_str()).trim().to_string();
    // Continuation lines of a multi-line message.
    let mut j = 0;
    let mut taken = 0;
    while j < after.len() && taken < 4 {
        let l = &after[j];
        if l.is_empty() || STOP.is_match(l) || EXC_LINE.is_match(l) {
            break;
        }
        if !BOILERPLATE.is_match(l) {
            message.push(' ');
            message.push_str(l);
            taken += 1;
        }
        j += 1;
    }
    let wrapper = WRAPPER_MSG.is_match(&message)
        || matches!(
            short.as_str(),
            "ProcessRaisedException" | "ChildFailedError" | "ProcessExitedException"
        )
        || full.ends_with("DistBackendError") && message.is_empty();
    let candidate = Candidate {
        exception: short,
        message: message.trim().to_string(),
        wrapper,
    };
    (candidate, j)
}

/// With no exception line: every line that is not a stack frame, the source line printed under
/// one, or boilerplate.
fn without_frames(lines: &[String]) -> Vec<&str> {
    let mut kept = Vec::new();
    let mut skip_code = false;
    for l in lines {
        if l.is_empty() || l.starts_with("Traceback (most recent call last)") {
            skip_code = false;
            continue;
        }
        if FRAME.is_match(l) {
            skip_code = true;
            continue;
        }
        if skip_code {
            // The source line printed under a frame.
            skip_code = false;
            continue;
        }
        if BOILERPLATE.is_match(l) {
            continue;
        }
        kept.push(l.as_str());
    }
    kept
}

/// Replace what varies between runs by placeholders; keep the wording.
pub(crate) fn template(message: &str) -> String {
    let s = URL.replace_all(message, "<url>");
    let s = PATH.replace_all(&s, "<path>");
    let s = QUOTED.replace_all(&s, |c: &regex::Captures| {
        let inner = (1..=5).find_map(|k| c.get(k)).map_or("", |m| m.as_str());
        if inner.chars().count() > 40 {
            "<str>".to_string()
        } else {
            inner.to_string()
        }
    });
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
    use super::*;

    fn t(s: &str) -> String {
        normalise(s).template
    }

    #[test]
    fn dataloader_wrapper_gives_the_original_exception() {
        let tb = r#"Traceback (most recent call last):
  File "train.py", line 89, in train
    for step, samples in enumerate(dataloader):
  File "/home/u/envs/a/lib/python3.6/site-packages/torch/utils/data/dataloader.py", line 819, in __next__
    return self._process_data(data)
  File "/home/u/envs/a/lib/python3.6/site-packages/torch/_utils.py", line 385, in reraise
    raise self.exc_type(msg)
RuntimeError: Caught RuntimeError in DataLoader worker process 0.
Original Traceback (most recent call last):
  File "/home/u/envs/a/lib/python3.6/site-packages/torch/utils/data/_utils/worker.py", line 178, in _worker_loop
    data = fetcher.fetch(index)
  File "/data/ds.py", line 12, in __getitem__
    x = x.cuda()
RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method
"#;
        let d = normalise(tb);
        assert_eq!(d.exception.as_deref(), Some("RuntimeError"));
        assert_eq!(d.template, "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the spawn start method");
    }

    #[test]
    fn wrapper_alone_is_kept() {
        assert_eq!(
            t("TypeError: Caught TypeError in DataLoader worker process 3."),
            "TypeError: Caught TypeError in DataLoader worker process <n>."
        );
    }

    #[test]
    fn oom_wordings_of_different_versions_share_a_template() {
        // PyTorch 1.x
        assert_eq!(
            t("RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 5.80 GiB total capacity; 4.36 GiB already allocated; 6.69 MiB free; 4.63 GiB reserved in total by PyTorch)"),
            "RuntimeError: CUDA out of memory. Tried to allocate <size> (GPU <n>; <size> total capacity; <size> already allocated; <size> free; <size> reserved in total by PyTorch)"
        );
        // PyTorch 2.1 (with its typo "capacty") and 2.4 (torch.OutOfMemoryError)
        let d = normalise("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.70 GiB. GPU 0 has a total capacty of 6.00 GiB of which 0 bytes is free.");
        assert_eq!(d.exception.as_deref(), Some("OutOfMemoryError"));
        assert_eq!(d.template, "OutOfMemoryError: CUDA out of memory. Tried to allocate <size>. GPU <n> has a total capacty of <size> of which <size> is free.");
        let d = normalise("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 22.78 GiB. GPU 0 has a total capacity of 31.47 GiB of which 12.73 GiB is free. Including non-PyTorch memory, this process has 18.73 GiB memory in use.");
        assert_eq!(d.exception.as_deref(), Some("OutOfMemoryError"));
        assert!(d.template.starts_with("OutOfMemoryError: CUDA out of memory. Tried to allocate <size>. GPU <n> has a total capacity of <size>"), "{}", d.template);
    }

    #[test]
    fn rank_tags_and_nccl_paths() {
        let d = normalise("[rank0]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1331, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1\n[rank0]: ncclUnhandledCudaError: Call to CUDA function failed.");
        // The last exception line is NCCL's own label; both name the same failure.
        assert_eq!(d.exception.as_deref(), Some("ncclUnhandledCudaError"));
        let d = normalise("[rank1]: torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1727, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3");
        assert_eq!(d.template, "DistBackendError: NCCL error in: <path>:<n>, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version <n>");
    }

    #[test]
    fn log_prefixes_and_timestamps() {
        assert_eq!(
            t("2024-03-05 07:01:51,123 - ERROR - RuntimeError: CUDA error: device-side assert triggered"),
            "RuntimeError: CUDA error: device-side assert triggered"
        );
        assert_eq!(
            t("Oct 16 02:07:00   what():  NCCL error in: /var/lib/jenkins/workspace/torch/lib/c10d/../c10d/NCCLUtils.hpp:29, unhandled cuda error"),
            "NCCL error in: <path>:<n>, unhandled cuda error"
        );
        assert_eq!(
            t("ERROR:root:ValueError: Expected input batch_size (32) to match target batch_size (64)."),
            "ValueError: Expected input batch_size (<n>) to match target batch_size (<n>)."
        );
    }

    #[test]
    fn cuda_boilerplate_lines_are_dropped() {
        let d = normalise("RuntimeError: CUDA error: device-side assert triggered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n");
        assert_eq!(
            d.template,
            "RuntimeError: CUDA error: device-side assert triggered"
        );
    }

    #[test]
    fn dtype_messages_keep_their_types() {
        // Older and newer wordings of the same mismatch.
        assert_eq!(
            t("RuntimeError: expected scalar type Float but found Half"),
            "RuntimeError: expected scalar type Float but found Half"
        );
        assert_eq!(
            t("RuntimeError: mat1 and mat2 must have the same dtype, but got Half and Float"),
            "RuntimeError: mat1 and mat2 must have the same dtype, but got Half and Float"
        );
        assert_eq!(
            t("RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x128 and 256x10)"),
            "RuntimeError: mat1 and mat2 shapes cannot be multiplied (<n> and <n>)"
        );
    }

    #[test]
    fn hex_devices_and_long_quotes() {
        assert_eq!(
            t("RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"),
            "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda and cpu!"
        );
        assert_eq!(
            t("Segmentation fault at 0x7f3a2c001000 in libcudart.so.11.0"),
            "Segmentation fault at <hex> in <path>.<n>"
        );
        assert_eq!(
            t("KeyError: 'a very long column name that surely differs from run to run'"),
            "KeyError: <str>"
        );
    }

    #[test]
    fn spawn_wrapper_gives_the_child_error() {
        let tb = "Traceback (most recent call last):\n  File \"main.py\", line 3, in <module>\n    mp.spawn(run, nprocs=2)\ntorch.multiprocessing.spawn.ProcessRaisedException: \n\n-- Process 1 terminated with the following error:\nTraceback (most recent call last):\n  File \"/x/torch/multiprocessing/spawn.py\", line 69, in _wrap\n    fn(i, *args)\nValueError: Default process group has not been initialized, please make sure to call init_process_group.\n";
        let d = normalise(tb);
        assert_eq!(d.exception.as_deref(), Some("ValueError"));
        assert!(d.template.starts_with("ValueError: Default process group"));
    }

    #[test]
    fn typed_keywords_pass_through() {
        let d = normalise("fork cuda dataloader");
        assert_eq!(d.exception, None);
        assert_eq!(d.template, "fork cuda dataloader");
    }
}
