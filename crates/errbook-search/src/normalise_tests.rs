//! Unit tests of `normalise`: which error a paste reports, in its own words.

use super::*;

fn t(s: &str) -> String {
    normalise(s).template
}

fn all(s: &str) -> Vec<String> {
    readings(s).into_iter().map(|d| d.template).collect()
}

#[test]
fn dataloader_wrapper_gives_the_original_exception() {
    let tb = r#"Traceback (most recent call last):
  File "train.py", line 89, in train
    for step, samples in enumerate(dataloader):
  File "/home/u/envs/a/lib/python3.6/site-packages/torch/_utils.py", line 385, in reraise
    raise self.exc_type(msg)
RuntimeError: Caught RuntimeError in DataLoader worker process 0.
Original Traceback (most recent call last):
  File "/data/ds.py", line 12, in __getitem__
    x = x.cuda()
RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method
"#;
    let d = normalise(tb);
    assert_eq!(d.exception.as_deref(), Some("RuntimeError"));
    assert_eq!(d.template, "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method");
}

#[test]
fn wrapper_alone_is_kept() {
    assert_eq!(
        t("TypeError: Caught TypeError in DataLoader worker process 3."),
        "TypeError: Caught TypeError in DataLoader worker process <n>."
    );
}

#[test]
fn oom_wordings_of_different_versions() {
    let d = normalise("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.70 GiB. GPU 0 has a total capacty of 6.00 GiB of which 0 bytes is free.");
    assert_eq!(d.exception.as_deref(), Some("OutOfMemoryError"));
    assert_eq!(d.template, "OutOfMemoryError: CUDA out of memory. Tried to allocate <size>. GPU <n> has a total capacty of <size> of which <size> is free.");
}

#[test]
fn rank_tags_and_nccl_paths() {
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
fn spawn_wrapper_gives_the_child_error() {
    let tb = "Traceback (most recent call last):\n  File \"main.py\", line 3, in <module>\n    mp.spawn(run, nprocs=2)\ntorch.multiprocessing.spawn.ProcessRaisedException: \n\n-- Process 1 terminated with the following error:\nTraceback (most recent call last):\n  File \"/x/torch/multiprocessing/spawn.py\", line 69, in _wrap\n    fn(i, *args)\nValueError: Default process group has not been initialized, please make sure to call init_process_group.\n";
    let d = normalise(tb);
    assert_eq!(d.exception.as_deref(), Some("ValueError"));
    assert!(d.template.starts_with("ValueError: Default process group"));
}

#[test]
fn a_chain_gives_the_exception_raised_first() {
    let tb = "Traceback (most recent call last):\n  File \"x.py\", line 1, in handler\n    _error_if_any_worker_fails()\nRuntimeError: DataLoader worker (pid 1817) is killed by signal: Killed.\n\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n  File \"t.py\", line 9, in <module>\nRuntimeError: DataLoader worker (pid(s) 1817) exited unexpectedly\n";
    let r = all(tb);
    assert_eq!(
        r[0],
        "RuntimeError: DataLoader worker (pid <n>) is killed by signal: Killed."
    );
    assert_eq!(
        r[1],
        "RuntimeError: DataLoader worker (pid(s) <n>) exited unexpectedly"
    );
}

#[test]
fn a_worker_banner_comes_before_the_traceback_after_it() {
    let r = all("ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).\nTraceback (most recent call last):\n  File \"x.py\", line 510, in _save\n    fh = fp.fileno()\nAttributeError: '_idat' object has no attribute 'fileno'\n");
    assert_eq!(r[0], "Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).");
    assert_eq!(
        r[1],
        "AttributeError: '_idat' object has no attribute 'fileno'"
    );
}

#[test]
fn quoted_messages_are_kept() {
    // In prose, an exception inside quotes ends at the closing quote; an apostrophe elsewhere
    // in the sentence opens nothing.
    assert_eq!(
        t("I don't know why: \"RuntimeError: Trying to backward through the graph a second time\" shows up"),
        "RuntimeError: Trying to backward through the graph a second time"
    );
    assert_eq!(
        t("Whenever trying to run train.py I run into the issue \"AssertionError: Torch not compiled with CUDA enabled\" does anyone have any advice?"),
        "AssertionError: Torch not compiled with CUDA enabled"
    );
    // Without an exception name, the quote that reads as an error, then the lines that do.
    let r = all("Hello, I got this error when running your source code: `Error: no kernel image is available for execution on the device`.\nWhat is the meaning of this error and how to fix it?");
    assert_eq!(
        r[0],
        "Error: no kernel image is available for execution on the device"
    );
}

#[test]
fn a_non_english_prefix_on_the_line() {
    assert_eq!(
        t("报错：RuntimeError: CUDA error: out of memory"),
        "RuntimeError: CUDA error: out of memory"
    );
    assert_eq!(
        t("PLE运行 RuntimeError: DataLoader worker (pid 1022) is killed by signal: Killed."),
        "RuntimeError: DataLoader worker (pid <n>) is killed by signal: Killed."
    );
}

#[test]
fn typed_keywords_pass_through() {
    let d = normalise("fork cuda dataloader");
    assert_eq!(d.exception, None);
    assert_eq!(d.template, "fork cuda dataloader");
}
