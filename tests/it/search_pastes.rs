//! Each way a real paste used to lose (issue 15), as a reader meets it: `errbook search --json`
//! on the evaluation catalog (bench/search-eval, which holds the look-alike entries), asserting
//! the entry shown first and whether it is confident. The pastes are written for these tests
//! in the shapes the issue lists, not taken from the evaluation set: quotes and apostrophes,
//! per-line prefixes and interleaved ranks, a secondary exception after the primary one, a
//! message inside paragraphs of prose, look-alike entries, a common word, errors the catalog
//! lacks, and a hostile paste.

use assert_cmd::Command;
use serde_json::Value;

/// What `errbook search` answers: the first entry's ID, whether the answer is confident (exit
/// 0, `weak: false`), and how many entries it lists.
fn ask(paste: &str) -> (String, bool, usize) {
    let out = Command::cargo_bin("errbook")
        .unwrap()
        .args(["search", "-", "--json", "--root"])
        .arg(crate::search_cases::eval_dir())
        .write_stdin(paste)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let weak = v["weak"].as_bool().unwrap();
    assert_eq!(
        out.status.code(),
        Some(i32::from(weak)),
        "exit status: {paste}"
    );
    let results = v["results"].as_array().unwrap();
    let first = results
        .first()
        .and_then(|r| r["id"].as_str())
        .unwrap_or("")
        .to_string();
    (first, !weak, results.len())
}

/// The paste is answered with `id`, confidently.
fn answers(paste: &str, id: &str) {
    let (got, confident, _) = ask(paste);
    assert_eq!(got, id, "first entry for:\n{paste}");
    assert!(confident, "{id} is first but weak for:\n{paste}");
}

/// No confident answer, but the nearest entries are still offered.
fn weak_with_nearest(paste: &str) {
    let (got, confident, n) = ask(paste);
    assert!(!confident, "confident answer {got} for:\n{paste}");
    assert!(n > 0, "no nearest entries offered for:\n{paste}");
}

#[test]
fn quoted_messages_and_apostrophes() {
    answers(
        "I don't understand why training crashes with \"RuntimeError: CUDA error: an illegal memory access was encountered\" after two epochs; it doesn't happen on the CPU.",
        "pytorch/illegal-memory-access",
    );
    answers(
        "Hi, it's my first time running the demo and I'm getting `TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.` when I call .numpy() on the output",
        "pytorch/cuda-tensor-to-numpy",
    );
    answers(
        "the script stops with 'RuntimeError: CUDA error: invalid device ordinal' on the second node, what's wrong?",
        "pytorch/invalid-device-ordinal",
    );
    answers(
        "When I run it I get “RuntimeError: Default process group has not been initialized, please make sure to call init_process_group.” — any idea?",
        "pytorch/default-process-group",
    );
}

#[test]
fn line_prefixes_and_a_non_english_prefix() {
    answers(
        "[2023-11-02 14:22:07,481] [ERROR] RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR",
        "pytorch/cudnn-internal-error",
    );
    answers(
        "2024-05-17T08:03:11.902Z ERROR worker-3 | RuntimeError: CUDA error: no kernel image is available for execution on the device",
        "pytorch/no-kernel-image",
    );
    answers(
        "运行时报错：RuntimeError: CUDA error: no kernel image is available for execution on the device",
        "pytorch/no-kernel-image",
    );
    answers(
        "[rank3]: Traceback (most recent call last):\n[rank3]:   File \"train.py\", line 51, in <module>\n[rank3]:     loss.backward()\n[rank3]: RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn\n",
        "pytorch/no-grad-fn",
    );
}

#[test]
fn interleaved_ranks() {
    let paste = "\
[rank0]: Traceback (most recent call last):
[rank1]: Traceback (most recent call last):
[rank0]:   File \"train.py\", line 40, in <module>
[rank1]:   File \"train.py\", line 40, in <module>
[rank0]:     dist.barrier()
[rank1]:     dist.barrier()
[rank0]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
[rank1]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5
[rank0]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.
[rank1]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.
";
    answers(paste, "nccl/unhandled-system-error");
}

#[test]
fn a_bus_error_banner_before_an_unrelated_traceback() {
    let paste = r#"ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).
Traceback (most recent call last):
  File "/usr/lib/python3.8/multiprocessing/queues.py", line 245, in _feed
    send_bytes(obj)
  File "/usr/lib/python3.8/multiprocessing/connection.py", line 200, in send_bytes
    self._send_bytes(m[offset:offset + size])
BrokenPipeError: [Errno 32] Broken pipe
"#;
    answers(paste, "pytorch/dataloader-shm-bus-error");
}

#[test]
fn a_chain_is_answered_by_the_exception_raised_first() {
    let paste = r#"Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 1133, in _try_get_data
    data = self._data_queue.get(timeout=timeout)
  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/_utils/signal_handling.py", line 66, in handler
    _error_if_any_worker_fails()
RuntimeError: DataLoader worker (pid 30167) is killed by signal: Killed.

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "train.py", line 120, in <module>
    for batch in loader:
  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 1146, in _try_get_data
    raise RuntimeError(f'DataLoader worker (pid(s) {pids_str}) exited unexpectedly') from e
RuntimeError: DataLoader worker (pid(s) 30167) exited unexpectedly
"#;
    answers(paste, "pytorch/dataloader-worker-killed");
}

#[test]
fn a_message_inside_paragraphs_of_prose() {
    let paste = "Hello, and thanks for the great work! I am trying to reproduce the results of the paper on my own dataset. I followed the instructions in the README and installed the requirements with pip. Training starts fine and the loss goes down for the first two epochs, but then it stops. I tried a smaller batch size and fewer workers, and upgraded PyTorch, but nothing helped.

RuntimeError: stack expects each tensor to be equal size, but got [3, 480, 640] at entry 0 and [3, 512, 512] at entry 3

My environment: Ubuntu 20.04, CUDA 11.3, two RTX 3090 cards, Python 3.9. Any idea what could cause this? Thanks in advance.";
    answers(paste, "pytorch/stack-unequal-size");
}

#[test]
fn look_alike_entries_are_told_apart() {
    answers(
        "RuntimeError: CUDA error: out of memory",
        "pytorch/cuda-error-out-of-memory",
    );
    answers(
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 0; 7.79 GiB total capacity; 6.12 GiB already allocated; 92.00 MiB free; 6.31 GiB reserved in total by PyTorch)",
        "pytorch/cuda-oom",
    );
    answers(
        "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:825, unhandled cuda error, NCCL version 2.7.8",
        "nccl/unhandled-cuda-error",
    );
    answers(
        "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:825, unhandled system error, NCCL version 2.7.8",
        "nccl/unhandled-system-error",
    );
    answers(
        "RuntimeError: DataLoader worker (pid 2177) is killed by signal: Killed.",
        "pytorch/dataloader-worker-killed",
    );
    answers(
        "RuntimeError: DataLoader worker (pid 2177) is killed by signal: Bus error.",
        "pytorch/dataloader-shm-bus-error",
    );
}

#[test]
fn a_common_word_or_an_unknown_error_is_weak_with_the_nearest_entries() {
    weak_with_nearest("cuda");
    weak_with_nearest("CUDA error");
    weak_with_nearest("RuntimeError: CUDA error: misaligned address");
    weak_with_nearest(
        "RuntimeError: DataLoader worker (pid 311) is killed by signal: Segmentation fault.",
    );
    weak_with_nearest("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.19.3");
}

#[test]
fn a_hostile_paste_is_answered_not_hung() {
    // Four megabytes: one enormous word, then a traceback's end; the reader keeps the head and
    // the tail of a paste this long and cuts words, so the answer comes from the tail.
    let paste = format!(
        "{}\n{}\nRuntimeError: CUDA error: device-side assert triggered\n",
        "a".repeat(2_000_000),
        "  File \"x.py\", line 1, in f\n".repeat(70_000)
    );
    answers(&paste, "pytorch/device-side-assert");
}
