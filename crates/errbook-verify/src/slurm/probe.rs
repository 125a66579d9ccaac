//! What a Slurm node has, asked before the plan: one short CPU-only job (`errbook verify-worker
//! --probe`; a job asking for a GPU could wait hours on a busy partition) makes the node's
//! sandbox, detects its driver, CUDA, Python and PyTorch (and its GPUs, where a job without GPUs
//! still sees them), and writes them down. The plan then knows the environment its runs will be
//! recorded in (so what is recorded there is up to date), and a node that cannot sandbox stops
//! the session before anything is submitted. On clusters that hide GPUs from jobs that did not
//! ask for them, the GPU model is not known beforehand: GPU runs are then planned as not yet
//! recorded.

use super::super::cmdline;
use super::super::gpu::{Gpu, Host};
use super::super::wire::{Message, WorkPlan};
use super::queue;
use super::submit::{self, Settings};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Ask a node what it has: its `Host`, with `gpus` GPUs (the most a node of the partition has,
/// taken to be of the model the probe saw), or why it cannot run anything.
pub(super) fn ask(
    (s, shared, exe): (&Settings, &Path, &Path),
    template: &WorkPlan,
    gpus: u32,
    poll: Duration,
    cancel: &AtomicBool,
    said: &mut dyn FnMut(&str),
) -> Result<Host, String> {
    let dir =
        submit::private_dir(shared, "probe-").map_err(|e| format!("{}: {e}", shared.display()))?;
    let answer = submit_and_wait((s, &dir, exe), template, poll, cancel, said);
    let _ = std::fs::remove_dir_all(&dir);
    let mut host = answer?;
    let like = host.gpus.first().cloned().unwrap_or(Gpu {
        index: 0,
        name: String::new(),
        memory_mib: 0,
    });
    host.gpus = (0..gpus)
        .map(|index| Gpu {
            index,
            ..like.clone()
        })
        .collect();
    if let Some(g) = host.gpus.first() {
        host.env.host_gpu_model = g.name.clone();
        host.env.gpu_model = g.name.clone();
    }
    host.env.host_gpu_count = gpus;
    Ok(host)
}

fn submit_and_wait(
    (s, dir, exe): (&Settings, &Path, &Path),
    template: &WorkPlan,
    poll: Duration,
    cancel: &AtomicBool,
    said: &mut dyn FnMut(&str),
) -> Result<Host, String> {
    let plan = dir.join("plan.json");
    let out = dir.join("host.json");
    let text = serde_json::to_string(template).map_err(|e| e.to_string())?;
    std::fs::write(&plan, text).map_err(|e| format!("{}: {e}", plan.display()))?;
    let wrap = format!(
        "exec {} verify-worker --probe --plan {} --out {}",
        submit::sh_quote(exe),
        submit::sh_quote(&plan),
        submit::sh_quote(&out)
    );
    let o = cmdline::output(
        Command::new("sbatch")
            .args(["--parsable", "--job-name=errbook-probe", "--time=10"])
            .arg(format!("--output={}", dir.join("probe.out").display()))
            .arg(format!("--chdir={}", dir.display()))
            .args(submit::resources(s, 0))
            .args(["--wrap", &wrap])
            .stdin(Stdio::null()),
    )
    .map_err(|e| format!("cannot run sbatch: {e}"))?;
    let id = String::from_utf8_lossy(&o.stdout)
        .trim()
        .split(';')
        .next()
        .unwrap_or("")
        .to_string();
    if !o.status.success() || id.is_empty() {
        return Err(format!(
            "sbatch: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    said(&format!("asking a Slurm node what it has (job {id})"));
    let mut gone: Option<Instant> = None;
    loop {
        if let Ok(text) = std::fs::read_to_string(&out) {
            return match text.lines().next().map(serde_json::from_str::<Message>) {
                Some(Ok(Message::Host { host, .. })) => Ok(host),
                Some(Ok(Message::Fatal { message })) => Err(message),
                _ => Err(format!("the probe wrote no host: {text}")),
            };
        }
        if cancel.load(Ordering::Relaxed) {
            let _ = cmdline::status(Command::new("scancel").arg(&id));
            return Err("cancelled".into());
        }
        let queued = queue::squeue(std::slice::from_ref(&id)).unwrap_or_default();
        if queued.is_empty() {
            // Left the queue: its answer may take a moment to show on a shared filesystem.
            let since = *gone.get_or_insert_with(Instant::now);
            if since.elapsed() > Duration::from_secs(60).max(poll * 3) {
                let log = std::fs::read_to_string(dir.join("probe.out")).unwrap_or_default();
                return Err(format!(
                    "the probe job {id} ended without an answer: {}",
                    log.trim()
                ));
            }
        }
        std::thread::sleep(poll);
    }
}
