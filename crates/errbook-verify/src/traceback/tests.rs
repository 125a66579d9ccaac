//! Tracebacks as Python prints them, most recorded on real runs.

use super::*;

#[test]
fn a_wide_indent_before_a_multibyte_line_is_no_panic() {
    // The marker's indent (3 bytes of U+3000) ends inside the next line's second `é`.
    let r = parse("\u{3000}Traceback (most recent call last):\néébad: x\n");
    assert_eq!(r, Raised::default());
}

#[test]
fn children_dying_at_once_print_headers_before_tracebacks() {
    let text = "\
Process Process-1:
Process Process-2:
Traceback (most recent call last):
  File \"/usr/lib/python3.12/multiprocessing/process.py\", line 314, in _bootstrap
    self.run()
AttributeError: 'function' object has no attribute 'Empty'
Traceback (most recent call last):
  File \"/usr/lib/python3.12/multiprocessing/process.py\", line 314, in _bootstrap
    self.run()
AttributeError: 'function' object has no attribute 'Empty'
done
";
    let r = parse(text);
    assert_eq!(r.final_error, None);
    let names: Vec<_> = r.children.iter().map(|c| c.origin.as_str()).collect();
    assert_eq!(names, ["Process-1", "Process-2"]);
    assert!(r.children.iter().all(|c| c.exception == "AttributeError"));
}

#[test]
fn a_traceback_marker_swallowed_by_interleaving() {
    // Recorded on CPython 3.11: four workers raising at once.
    let f = "  File \"/usr/lib/python3.11/multiprocessing/process.py\", line 314, in _bootstrap\n    self.run()\n";
    let text = format!(
            "Process Process-3:\nProcess Process-2:\nTraceback (most recent call last):\n{f}ZeroDivisionError: worker 1 gave up\n\
             Process Process-4:\nTraceback (most recent call last):\nTraceback (most recent call last):\n{f}ZeroDivisionError: worker 2 gave up\n\
             {f}ZeroDivisionError: worker 3 gave up\nProcess Process-1:\nTraceback (most recent call last):\n{f}ZeroDivisionError: worker 0 gave up\nparent done\n"
        );
    let r = parse(&text);
    assert_eq!(r.final_error, None);
    let mut names: Vec<_> = r.children.iter().map(|c| c.origin.as_str()).collect();
    names.sort();
    assert_eq!(names, ["Process-1", "Process-2", "Process-3", "Process-4"]);
    let mut msgs: Vec<_> = r.children.iter().map(|c| c.message.as_str()).collect();
    msgs.sort();
    assert_eq!(
        msgs,
        [
            "worker 0 gave up",
            "worker 1 gave up",
            "worker 2 gave up",
            "worker 3 gave up"
        ]
    );
}

#[test]
fn two_childrens_frames_interleaved_then_both_exception_lines() {
    // Recorded on CPython 3.11 (a CI run): two markers, both children's frames, then both
    // exception lines one after the other.
    let f = "  File \"/usr/lib/python3.11/multiprocessing/process.py\", line 314, in _bootstrap\n    self.run()\n";
    let text = format!(
            "Process Process-4:\nProcess Process-3:\nTraceback (most recent call last):\nTraceback (most recent call last):\n{f}{f}\
             ZeroDivisionError: worker 3 gave up\nZeroDivisionError: worker 2 gave up\n\
             Process Process-2:\nProcess Process-1:\nTraceback (most recent call last):\nTraceback (most recent call last):\n{f}\
             ZeroDivisionError: worker 1 gave up\n{f}ZeroDivisionError: worker 0 gave up\nparent done\n"
        );
    let r = parse(&text);
    assert_eq!(r.final_error, None);
    let mut names: Vec<_> = r.children.iter().map(|c| c.origin.as_str()).collect();
    names.sort();
    assert_eq!(names, ["Process-1", "Process-2", "Process-3", "Process-4"]);
    let mut msgs: Vec<_> = r.children.iter().map(|c| c.message.as_str()).collect();
    msgs.sort();
    let want: Vec<String> = (0..4).map(|i| format!("worker {i} gave up")).collect();
    assert_eq!(msgs, want);
}

#[test]
fn an_exception_line_after_another_childs_header() {
    // Workers raising at once: worker 1's frames, worker 3's header, then worker 1's exception
    // line, worker 3's traceback after it. (Read as one child before: worker 1's exception
    // lost, worker 3's under worker 1's name. A test run on a loaded machine once found three
    // of the fixture's four workers; its output was not kept.)
    let f = "  File \"/usr/lib/python3.11/multiprocessing/process.py\", line 314, in _bootstrap\n    self.run()\n";
    let text = format!(
        "Process Process-2:\nTraceback (most recent call last):\n{f}Process Process-4:\n\
         ZeroDivisionError: worker 1 gave up\nTraceback (most recent call last):\n{f}\
         ZeroDivisionError: worker 3 gave up\nparent done\n"
    );
    let r = parse(&text);
    assert_eq!(r.final_error, None);
    let got: Vec<_> = r
        .children
        .iter()
        .map(|c| (c.origin.as_str(), c.message.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("Process-2", "worker 1 gave up"),
            ("Process-4", "worker 3 gave up")
        ]
    );
}

#[test]
fn a_managers_remote_error_wraps_the_servers_exception() {
    let text = "\
Traceback (most recent call last):
  File \"/tmp/errbook-run-x/snippet.py\", line 23, in <module>
    shared_array = manager.Array('d', num_processes)
  File \"/usr/lib/python3.12/multiprocessing/managers.py\", line 93, in dispatch
    raise convert_to_error(kind, result)
multiprocessing.managers.RemoteError: 
---------------------------------------------------------------------------
Traceback (most recent call last):
  File \"/usr/lib/python3.12/multiprocessing/managers.py\", line 1027, in Array
    return array.array(typecode, sequence)
TypeError: 'int' object is not iterable
---------------------------------------------------------------------------
";
    let r = parse(text);
    let f = r.final_error.unwrap();
    assert_eq!(f.exception, "multiprocessing.managers.RemoteError");
    assert_eq!(f.message, "");
    assert_eq!(r.wrapped.len(), 1);
    assert_eq!(r.wrapped[0].exception, "TypeError");
    assert_eq!(r.wrapped[0].message, "'int' object is not iterable");
}

#[test]
fn dataloader_wrapper_gives_the_original() {
    let text = "\
Traceback (most recent call last):
  File \"/tmp/x/snippet.py\", line 12, in <module>
    for batch in loader:
  File \"/usr/lib/python3/site-packages/torch/utils/data/dataloader.py\", line 1480, in _next_data
    return self._process_data(data)
RuntimeError: Caught RuntimeError in DataLoader worker process 0.
Original Traceback (most recent call last):
  File \"/usr/lib/python3/site-packages/torch/utils/data/_utils/worker.py\", line 349, in _worker_loop
    data = fetcher.fetch(index)
  File \"/tmp/x/snippet.py\", line 9, in __getitem__
    return torch.full((4,), float(i), device=self.device)
RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method

";
    let r = parse(text);
    let f = r.final_error.unwrap();
    assert_eq!(f.exception, "RuntimeError");
    assert_eq!(
        f.message,
        "Caught RuntimeError in DataLoader worker process 0."
    );
    assert_eq!(r.wrapped.len(), 1);
    assert!(r.wrapped[0]
        .message
        .starts_with("Cannot re-initialize CUDA"));
    assert!(r.children.is_empty());
}

#[test]
fn child_traceback_while_parent_prints_on() {
    let text = "\
Process Process-2:
Traceback (most recent call last):
  File \"/usr/lib/python3.12/multiprocessing/process.py\", line 314, in _bootstrap
    self.run()
AttributeError: 'function' object has no attribute 'Empty'
Results aggregated from queue: {0: [1.0]}
";
    let r = parse(text);
    assert!(r.final_error.is_none());
    assert_eq!(r.children.len(), 1);
    assert_eq!(r.children[0].origin, "Process-2");
    assert_eq!(r.children[0].exception, "AttributeError");
    assert_eq!(
        r.children[0].message,
        "'function' object has no attribute 'Empty'"
    );
}

#[test]
fn chained_exceptions_keep_the_last_and_spawn_wrapper_is_unwrapped() {
    let text = "\
Traceback (most recent call last):
  File \"a.py\", line 1, in <module>
KeyError: 'x'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File \"a.py\", line 3, in <module>
torch.multiprocessing.spawn.ProcessRaisedException: 

-- Process 0 terminated with the following error:
Traceback (most recent call last):
  File \"spawn.py\", line 90, in _wrap
    fn(i, *args)
ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable MASTER_ADDR expected, but not set
";
    let r = parse(text);
    let f = r.final_error.unwrap();
    assert_eq!(
        f.exception,
        "torch.multiprocessing.spawn.ProcessRaisedException"
    );
    assert_eq!(r.wrapped[0].exception, "ValueError");
    assert!(r.wrapped[0].message.contains("MASTER_ADDR"));
}

#[test]
fn a_spawned_child_failing_at_import_is_a_child_with_its_whole_message() {
    // Recorded on an H200 host (the seed entry's workaround 1, PyTorch 2.11, CPython 3.12): the
    // spawned DataLoader worker re-imports the main module and fails in its bootstrapping phase;
    // its traceback has no `Process X:` line, and its message starts on the next line.
    let text = include_str!("../../../../tests/fixtures/verify/logs/spawned-child-bootstrap.log");
    let r = parse(text);
    let f = r.final_error.as_ref().unwrap();
    assert_eq!(
        f.message,
        "DataLoader worker (pid(s) 1114) exited unexpectedly"
    );
    assert_eq!(r.children.len(), 1, "{r:#?}");
    let c = &r.children[0];
    assert_eq!(c.origin, "spawned");
    assert_eq!(c.exception, "RuntimeError");
    assert_eq!(
        c.message,
        "An attempt has been made to start a new process before the\n\
         current process has finished its bootstrapping phase."
    );
    assert!(c.traceback.contains("in spawn_main"), "{}", c.traceback);
}

#[test]
fn a_program_run_with_python_c_is_no_spawned_child() {
    let text = "\
Traceback (most recent call last):
  File \"<string>\", line 1, in <module>
  File \"/tmp/x/snippet.py\", line 3, in go
    raise ValueError('mine')
ValueError: mine
";
    let r = parse(text);
    assert!(r.children.is_empty());
    assert_eq!(r.final_error.unwrap().exception, "ValueError");
}

#[test]
fn a_warning_printed_at_exit_ends_the_final_message() {
    // The end of workaround-1's H100 log (content/errors/pytorch/dataset-worker-fork-cuda.md,
    // verify/, recorded 2026-12-07): the resource tracker's warning follows the final error.
    let text = r#"Traceback (most recent call last):
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/dataloader.py", line 1310, in _try_get_data
    data = self._data_queue.get(timeout=timeout)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.12/multiprocessing/queues.py", line 113, in get
    if not self._poll(timeout):
           ^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.12/multiprocessing/connection.py", line 257, in poll
    return self._poll(timeout)
           ^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.12/multiprocessing/connection.py", line 440, in _poll
    r = wait([self], timeout)
        ^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.12/multiprocessing/connection.py", line 1136, in wait
    ready = selector.select(timeout)
            ^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.12/selectors.py", line 415, in select
    fd_event_list = self._selector.poll(timeout)
                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/_utils/signal_handling.py", line 73, in handler
    _error_if_any_worker_fails()
RuntimeError: DataLoader worker (pid 21) exited unexpectedly with exit code 1. Details are lost due to multiprocessing. Rerunning with num_workers=0 may give better error trace.

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/tmp/errbook-run-euEsyW/snippet.py", line 17, in <module>
    for batch in loader:
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/dataloader.py", line 741, in __next__
    data = self._next_data()
           ^^^^^^^^^^^^^^^^^
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/dataloader.py", line 1524, in _next_data
    idx, data = self._get_data()
                ^^^^^^^^^^^^^^^^
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/dataloader.py", line 1483, in _get_data
    success, data = self._try_get_data()
                    ^^^^^^^^^^^^^^^^^^^^
  File "/opt/torch/.venv/lib/python3.12/site-packages/torch/utils/data/dataloader.py", line 1323, in _try_get_data
    raise RuntimeError(
RuntimeError: DataLoader worker (pid(s) 21) exited unexpectedly
/usr/lib/python3.12/multiprocessing/resource_tracker.py:254: UserWarning: resource_tracker: There appear to be 6 leaked semaphore objects to clean up at shutdown
  warnings.warn('resource_tracker: There appear to be %d '
"#;
    let r = parse(text);
    let f = r.final_error.as_ref().unwrap();
    assert_eq!(f.exception, "RuntimeError");
    assert_eq!(
        f.message,
        "DataLoader worker (pid(s) 21) exited unexpectedly"
    );
}
