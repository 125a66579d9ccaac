//! Several runs on one GPU, packed by GPU memory, on a fake machine of one 10,000 MiB GPU (the
//! cap: 90%, 9,000 MiB) whose `nvidia-smi` reports what each run's `FAKE_GPU_USED_MIB` says:
//! runs nobody measured yet are planned at the default 4 GiB (two at a time), the peak each run
//! held is measured and recorded (1,500 MiB), and the next session plans by it (four at a
//! time). A run that runs out of memory beside others runs again on the GPU alone.

use crate::verify_support::{catalog, runs_of, verify, Machine};
use serde_json::Value;
use std::path::Path;

fn report(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The timeline rows of the report whose snippet ends with `#id`.
fn rows<'a>(rep: &'a Value, id: &str) -> Vec<&'a Value> {
    let end = format!("#{id}");
    let all = rep["timeline"].as_array().unwrap().iter();
    all.filter(|s| s["snippet"].as_str().unwrap().ends_with(&end))
        .collect()
}

#[test]
fn runs_share_a_gpu_by_their_measured_memory() {
    let t = catalog("packing-memory");
    let gpu = Machine::new("NVIDIA L4", 1, 10_000, "550.54.15");
    let first = t.path().join("first.json");
    let args = ["--jobs", "8", "--report"];
    let r = verify(
        t.path(),
        Some(&gpu),
        &[&args[..], &[first.to_str().unwrap()]].concat(),
    );
    assert_eq!(r.code, Some(0), "{r}");
    let rep = report(&first);
    assert_eq!(rep["most_at_once_on_a_gpu"], 2, "{rep:#}");
    for i in 1..=6 {
        let row = rows(&rep, &format!("small-{i}"));
        assert_eq!(row[0]["mem_planned_mib"], 4096, "the default: {rep:#}");
        let rec = &runs_of(t.path(), &format!("small-{i}"))[0].1;
        assert_eq!(rec["gpu_mem_peak_mib"], 1500, "measured: {rec:#}");
    }
    // The greedy one ran out of memory beside another run, then ran alone and is confirmed.
    assert!(
        r.stderr
            .contains("again  article/small-programs#greedy: ran out of GPU memory"),
        "{r}"
    );
    let greedy = rows(&rep, "greedy");
    assert_eq!(greedy.len(), 2, "{rep:#}");
    assert_eq!(
        (&greedy[0]["shared"], &greedy[1]["shared"]),
        (&true.into(), &false.into())
    );
    assert_eq!(runs_of(t.path(), "greedy")[0].1["verdict"], "confirmed");

    // The next session plans each run by its measured peak, with a margin: four fit.
    let second = t.path().join("second.json");
    let r = verify(
        t.path(),
        Some(&gpu),
        &[&["--force"][..], &args[..], &[second.to_str().unwrap()]].concat(),
    );
    assert_eq!(r.code, Some(0), "{r}");
    let rep = report(&second);
    for i in 1..=6 {
        let row = rows(&rep, &format!("small-{i}"));
        assert_eq!(row[0]["mem_planned_mib"], 1500 + 375 + 256, "{rep:#}");
    }
    assert_eq!(rep["most_at_once_on_a_gpu"], 4, "{rep:#}");
    assert!(
        r.stderr.contains("at most 4 run(s) at once on one GPU"),
        "{r}"
    );

    // A cap of 0 is one run per GPU.
    let third = t.path().join("third.json");
    let zero = [
        "--force",
        "--gpu-mem-cap",
        "0",
        "--only",
        "#small-1",
        "--only",
        "#small-2",
    ];
    let r = verify(
        t.path(),
        Some(&gpu),
        &[&zero[..], &args[..], &[third.to_str().unwrap()]].concat(),
    );
    assert_eq!(r.code, Some(0), "{r}");
    assert_eq!(report(&third)["most_at_once_on_a_gpu"], 1);
}
