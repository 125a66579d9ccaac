//! `--runner slurm` against a real single-node Slurm (scripts/services/slurm.sh: munged,
//! slurmctld and slurmd on this host, two fake GPUs, no accounting database). Skipped, saying
//! so, without a cluster (SLURM_CONF); required where ERRBOOK_TEST_SLURM is set, as CI sets it.
//! The CPU catalog gives the local runner's records; GPU runs ask Slurm for their GPUs; a run
//! waiting in the queue is shown pending and Ctrl-C cancels it; a node that fails under a run
//! has the run submitted again; a plan of more runs than the cluster's MaxArraySize (slurm.sh
//! sets 4) is split into arrays that Slurm takes. One at a time: some of them take the node down or fill it.

use crate::runs::{errbook, fixture, gate, records, same_records, sandbox, verify_on};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A cluster to submit to: Slurm's commands and the configuration naming a running one
/// (`SLURM_CONF`, as scripts/services/slurm.sh prints it).
fn slurm_up() -> bool {
    let conf = std::env::var_os("SLURM_CONF").is_some_and(|c| Path::new(&c).is_file());
    gate(
        "ERRBOOK_TEST_SLURM",
        "Slurm (scripts/services/slurm.sh start, then SLURM_CONF)",
        conf && crate::runs::on_path("sbatch"),
    )
}

/// Look at the queue often, so that the tests are quick.
fn quick_polls(root: &Path) {
    let book = root.join("book.toml");
    let mut text = std::fs::read_to_string(&book).unwrap();
    text.push_str("\n[verify.slurm]\npoll_s = 0.3\n");
    std::fs::write(book, text).unwrap();
}

fn slurm(args: &[&str]) -> String {
    let o = Command::new(args[0]).args(&args[1..]).output().unwrap();
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn node() -> String {
    slurm(&["sinfo", "--noheader", "--format=%N"])
        .trim()
        .to_string()
}

#[test]
fn slurm_runs_give_the_records_of_local_runs() {
    if !slurm_up() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (local, cluster) = (fixture("cpu"), fixture("cpu"));
    quick_polls(cluster.path());
    verify_on(local.path(), "local");
    verify_on(cluster.path(), "slurm");
    let (l, s) = (records(local.path()), records(cluster.path()));
    same_records(&l, &s);
    let runner = s["clean"].1["runner"].as_str().unwrap();
    assert!(
        runner.starts_with("slurm job ") && runner.ends_with(&format!(" on {}", node())),
        "{runner}"
    );
    // The session's folder went with it; errbook's copy for the nodes stays for the next one.
    let left: Vec<String> = std::fs::read_dir(cluster.path().join(".errbook/slurm"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["bin"]);
}

/// The cluster's MaxArraySize, as `scontrol show config` says it.
fn max_array_size() -> usize {
    let config = slurm(&["scontrol", "show", "config"]);
    config
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once('=')?;
            (k.trim() == "MaxArraySize").then(|| v.trim().parse().ok())?
        })
        .expect("scontrol show config names MaxArraySize")
}

#[test]
fn a_plan_of_more_runs_than_max_array_size_is_split_into_arrays() {
    if !slurm_up() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let most = max_array_size();
    let (local, cluster) = (fixture("cpu"), fixture("cpu"));
    quick_polls(cluster.path());
    verify_on(local.path(), "local");
    let runs = records(local.path()).len();
    assert!(
        runs > most,
        "the cluster's MaxArraySize {most} takes the {runs} runs in one array: start it with \
         a smaller one (MAX_ARRAY_SIZE=4 bash scripts/services/slurm.sh start)"
    );
    // sbatch refuses `--array=0-N` past MaxArraySize: every run recorded means every array fit.
    verify_on(cluster.path(), "slurm");
    let s = records(cluster.path());
    same_records(&records(local.path()), &s);
    let mut arrays = std::collections::BTreeSet::new();
    for (id, (_, r)) in &s {
        let runner = r["runner"].as_str().unwrap();
        let task = runner
            .strip_prefix("slurm job ")
            .and_then(|t| t.split_whitespace().next())
            .unwrap_or_else(|| panic!("{id}: {runner}"));
        let (array, index) = task.split_once('_').unwrap_or_else(|| panic!("{runner}"));
        let index: usize = index.parse().unwrap();
        assert!(index < most, "{id}: task {task} past MaxArraySize {most}");
        arrays.insert(array.to_string());
    }
    assert!(
        arrays.len() >= runs.div_ceil(most),
        "{runs} runs in {} array(s) of at most {most}",
        arrays.len()
    );
}

#[test]
fn gpu_runs_ask_slurm_for_their_gpus() {
    if !slurm_up() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let t = fixture("packing");
    quick_polls(t.path());
    let out = errbook(t.path())
        .args(["verify", "--runner", "slurm", "--sandbox", sandbox()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("on slurm (partition default, up to 2 GPUs a node)"),
        "{err}"
    );
    let r = records(t.path());
    // Slurm gave two GPUs to the run that needs two, one to each of the others.
    assert_eq!(
        r["both"].1["gpus_used"],
        serde_json::json!([0, 1]),
        "{}",
        r["both"].1
    );
    assert!(r["both"].1["log"].as_str().unwrap().contains("visible 0,1"));
    for id in ["a", "b"] {
        assert_eq!(r[id].1["verdict"], "confirmed");
        assert_eq!(r[id].1["gpus_used"].as_array().unwrap().len(), 1);
    }
    assert!(
        !r.contains_key("too-many"),
        "nothing written for what no node can run"
    );
    assert!(err.contains("needs 3 GPUs, host has 2"), "{err}");
}

/// Fill the node's GPUs with a job of our own, running; its id.
fn hold_the_gpus() -> String {
    let o = Command::new("sbatch")
        .args([
            "--parsable",
            "--gres=gpu:2",
            "--job-name=errbook-test-hold",
            "--output=/dev/null",
        ])
        .args(["--wrap", "sleep 120"])
        .output()
        .unwrap();
    let id = String::from_utf8_lossy(&o.stdout).trim().to_string();
    let start = Instant::now();
    let state = || {
        slurm(&[
            "squeue",
            "--noheader",
            "--format=%T",
            &format!("--jobs={id}"),
        ])
    };
    while state().trim() != "RUNNING" {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the holding job never ran"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    id
}

/// Read `child`'s stderr until a line holds `text`; everything read.
fn wait_for(child: &mut std::process::Child, text: &str, read: &mut String) {
    use std::io::Read;
    let err = child.stderr.as_mut().unwrap();
    let start = Instant::now();
    let mut buf = [0u8; 4096];
    while !read.contains(text) {
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "no `{text}` in {read}"
        );
        let n = err.read(&mut buf).unwrap();
        assert!(n > 0, "errbook ended before `{text}`: {read}");
        read.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
}

fn spawn_verify(root: &Path) -> std::process::Child {
    Command::new(assert_cmd::cargo::cargo_bin("errbook"))
        .arg("--root")
        .arg(root)
        .args(["verify", "--runner", "slurm", "--sandbox", sandbox()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn a_waiting_run_is_shown_pending_and_ctrl_c_cancels_its_array() {
    if !slurm_up() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let t = fixture("queue");
    quick_polls(t.path());
    let hold = hold_the_gpus();
    let mut child = spawn_verify(t.path());
    let mut err = String::new();
    wait_for(&mut child, ": pending (", &mut err);
    // SAFETY: SIGINT to the errbook this test started, as Ctrl-C sends.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut rest).unwrap();
    let _ = Command::new("scancel").arg(&hold).status();
    assert_eq!(status.code(), Some(130), "{err}{rest}");
    assert!(rest.contains("cancelled"), "{err}{rest}");
    assert!(
        records(t.path()).is_empty(),
        "a cancelled run writes no record"
    );
    let queued = slurm(&[
        "squeue",
        "--noheader",
        "--name=errbook-verify",
        "--format=%i",
    ]);
    assert_eq!(queued.trim(), "", "the array was cancelled");
}

#[test]
fn a_node_that_fails_under_a_run_gets_it_submitted_again() {
    if !slurm_up() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let t = fixture("queue");
    quick_polls(t.path());
    let mut child = spawn_verify(t.path());
    let mut err = String::new();
    wait_for(&mut child, "start  article/queue#waits", &mut err);
    let node = node();
    // Slurm refuses a state change while the node is busy with the change before; ask again.
    let down = |state: &str| {
        let start = Instant::now();
        loop {
            let mut c = Command::new("scontrol");
            c.args([
                "update",
                &format!("nodename={node}"),
                &format!("state={state}"),
            ]);
            if state == "down" {
                c.arg("reason=errbook-test");
            }
            let o = c.output().unwrap();
            let back =
                || ["idle", "mix", "alloc"].contains(&slurm(&["sinfo", "-h", "-o", "%t"]).trim());
            if o.status.success() || (state == "resume" && back()) {
                return;
            }
            let said = String::from_utf8_lossy(&o.stderr);
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "state={state}: {said}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    down("down");
    wait_for(
        &mut child,
        "submitting article/queue#waits again (try 2 of 3)",
        &mut err,
    );
    down("resume");
    let out = child.wait_with_output().unwrap();
    let err = format!("{err}{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("ended NODE_FAIL"), "{err}");
    let r = records(t.path());
    assert_eq!(r["waits"].1["verdict"], "confirmed", "{}", r["waits"].1);
}
