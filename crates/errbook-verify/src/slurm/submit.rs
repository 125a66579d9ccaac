//! Submitting to Slurm: the session's folder on the shared filesystem (errbook's binary, the
//! job script, a plan file per array, results and logs), and one `sbatch --parsable --array`
//! per resource shape (GPUs and time limit: an array's tasks all ask for the same), its GPUs
//! asked for as `--gres=gpu:N` or `--gpus=N`, its time the runs' limit and a margin.

use super::super::cmdline;
use super::super::job::Job;
use super::super::wire::WorkPlan;
use errbook_core::config::GpuFlag;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Seconds a task gets beyond its run's time limit (errbook's start, the sandbox, the result).
const MARGIN_S: u64 = 120;
/// Tasks per array at most where the cluster's MaxArraySize cannot be read (Slurm's default
/// MaxArraySize is 1001: indices 0 to 1000).
pub(super) const DEFAULT_MAX_ARRAY: usize = 1001;

/// What every sbatch of a session gets.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Settings {
    pub partition: Option<String>,
    pub account: Option<String>,
    pub qos: Option<String>,
    pub gpu_flag: GpuFlag,
    pub flags: Vec<String>,
}

/// One array: its jobs, all with the same GPUs and time.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Array {
    pub gpus: u32,
    pub minutes: u64,
    pub jobs: Vec<Job>,
}

/// Jobs grouped by resource shape, in the order they come, arrays of at most `most` tasks (the
/// cluster's MaxArraySize): a plan of more runs than one array takes is split.
pub(super) fn arrays(jobs: Vec<Job>, most: usize) -> Vec<Array> {
    let most = most.max(1);
    let mut out: Vec<Array> = Vec::new();
    for j in jobs {
        let minutes = (j.request.timeout.as_secs() + MARGIN_S).div_ceil(60);
        match out
            .iter_mut()
            .find(|a| a.gpus == j.gpus && a.minutes == minutes && a.jobs.len() < most)
        {
            Some(a) => a.jobs.push(j),
            None => out.push(Array {
                gpus: j.gpus,
                minutes,
                jobs: vec![j],
            }),
        }
    }
    out
}

/// sbatch's arguments for array `n` of the session in `dir`.
pub(super) fn sbatch_args(s: &Settings, a: &Array, n: usize, dir: &Path) -> Vec<String> {
    let mut v = vec![
        "--parsable".to_string(),
        format!("--array=0-{}", a.jobs.len().saturating_sub(1)),
        "--job-name=errbook-verify".to_string(),
        format!("--output={}/logs/%A_%a.out", dir.display()),
        format!("--chdir={}", dir.display()),
        format!("--time={}", a.minutes),
        // errbook retries a failed node or a preemption itself, and says so.
        "--no-requeue".to_string(),
    ];
    v.extend(resources(s, a.gpus));
    v.push(dir.join("job.sh").display().to_string());
    v.push(plan_path(dir, n).display().to_string());
    v.push(results(dir, n).display().to_string());
    v
}

/// What a job asks of Slurm beyond its shape: `gpus` GPUs, the partition, account, QOS and the
/// configured flags.
pub(super) fn resources(s: &Settings, gpus: u32) -> Vec<String> {
    let mut v = Vec::new();
    if gpus > 0 {
        v.push(match s.gpu_flag {
            GpuFlag::Gpus => format!("--gpus={gpus}"),
            GpuFlag::Gres => format!("--gres=gpu:{gpus}"),
        });
    }
    for (flag, value) in [
        ("partition", &s.partition),
        ("account", &s.account),
        ("qos", &s.qos),
    ] {
        if let Some(value) = value {
            v.push(format!("--{flag}={value}"));
        }
    }
    v.extend(s.flags.iter().cloned());
    v
}

pub(super) fn plan_path(dir: &Path, n: usize) -> PathBuf {
    dir.join(format!("plan-{n}.json"))
}

/// Where array `n`'s tasks write their ends (`<task index>.json`).
pub(super) fn results(dir: &Path, n: usize) -> PathBuf {
    dir.join("results").join(n.to_string())
}

pub(super) fn sh_quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

/// errbook copied into `shared` (once per build: `key`), for the nodes; its path there.
pub(super) fn install(shared: &Path, binary: &Path, key: &str) -> std::io::Result<PathBuf> {
    let bin_dir = shared.join("bin").join(key);
    let exe = bin_dir.join("errbook");
    if !exe.is_file() {
        std::fs::create_dir_all(&bin_dir)?;
        let part = bin_dir.join(format!("errbook.part.{}", std::process::id()));
        std::fs::copy(binary, &part)?;
        std::fs::set_permissions(&part, std::fs::Permissions::from_mode(0o755))?;
        std::fs::rename(&part, &exe)?;
    }
    Ok(exe)
}

/// A private folder of this session in `shared`, named `<what>-<time>-<pid>`.
pub(super) fn private_dir(shared: &Path, what: &str) -> std::io::Result<PathBuf> {
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ");
    let dir = shared.join(format!("{what}{stamp}-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))?;
    Ok(dir)
}

/// Make the session's folder in `shared`: errbook copied (once per build) and the job script.
/// Private: plan files hold the values of passed variables.
pub(super) fn session_dir(shared: &Path, binary: &Path, key: &str) -> std::io::Result<PathBuf> {
    let exe = install(shared, binary, key)?;
    let dir = private_dir(shared, "")?;
    std::fs::create_dir_all(dir.join("logs"))?;
    let script = format!(
        "#!/bin/sh\n# errbook verify: array task $SLURM_ARRAY_TASK_ID runs that job of the plan $1,\n# sandboxed, and writes its end into the folder $2.\nexec {} verify-worker --plan \"$1\" --item \"$SLURM_ARRAY_TASK_ID\" --out \"$2\"\n",
        sh_quote(&exe)
    );
    std::fs::write(dir.join("job.sh"), script)?;
    std::fs::set_permissions(dir.join("job.sh"), std::fs::Permissions::from_mode(0o700))?;
    Ok(dir)
}

/// Write array `n`'s plan and submit it; the array job's id, or what sbatch said.
pub(super) fn submit(
    s: &Settings,
    a: &Array,
    n: usize,
    dir: &Path,
    template: &WorkPlan,
) -> Result<String, String> {
    let mut plan = template.clone();
    plan.items = a.jobs.clone();
    let text = serde_json::to_string(&plan).map_err(|e| e.to_string())?;
    let path = plan_path(dir, n);
    let write = || -> std::io::Result<()> {
        std::fs::create_dir_all(results(dir, n))?;
        std::fs::write(&path, text)?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
    };
    write().map_err(|e| format!("{}: {e}", path.display()))?;
    let o = cmdline::output(
        Command::new("sbatch")
            .args(sbatch_args(s, a, n, dir))
            .stdin(Stdio::null()),
    )
    .map_err(|e| format!("cannot run sbatch: {e}"))?;
    let out = String::from_utf8_lossy(&o.stdout);
    // `--parsable` prints `jobid` or `jobid;cluster`.
    let id = out.trim().split(';').next().unwrap_or("").to_string();
    if o.status.success() && !id.is_empty() {
        Ok(id)
    } else {
        Err(format!(
            "sbatch: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::Request;
    use std::time::Duration;

    fn job(id: usize, gpus: u32, timeout: u64) -> Job {
        Job {
            id,
            gpus,
            mem_mib: 0,
            expect_s: 0.0,
            name: format!("j{id}"),
            request: Request {
                program: String::new(),
                file_name: "snippet.py".into(),
                interpreter: vec!["python3".into()],
                env: vec![],
                passed: vec![],
                gpus: vec![],
                network: false,
                timeout: Duration::from_secs(timeout),
                keep_head: 1,
                keep_tail: 1,
            },
        }
    }

    #[test]
    fn one_array_per_resource_shape_with_gpus_and_time() {
        let a = arrays(
            vec![
                job(0, 0, 300),
                job(1, 2, 300),
                job(2, 0, 300),
                job(3, 2, 30),
            ],
            DEFAULT_MAX_ARRAY,
        );
        let shapes: Vec<(u32, u64, usize)> = a
            .iter()
            .map(|a| (a.gpus, a.minutes, a.jobs.len()))
            .collect();
        assert_eq!(shapes, [(0, 7, 2), (2, 7, 1), (2, 3, 1)]);
        let s = Settings {
            partition: Some("gpu".into()),
            qos: Some("high".into()),
            gpu_flag: GpuFlag::Gres,
            flags: vec!["--constraint=h100".into()],
            ..Default::default()
        };
        let args = sbatch_args(&s, &a[1], 1, Path::new("/shared/s")).join(" ");
        assert_eq!(
            args,
            "--parsable --array=0-0 --job-name=errbook-verify --output=/shared/s/logs/%A_%a.out --chdir=/shared/s --time=7 --no-requeue --gres=gpu:2 --partition=gpu --qos=high --constraint=h100 /shared/s/job.sh /shared/s/plan-1.json /shared/s/results/1"
        );
        let gpus = Settings {
            gpu_flag: GpuFlag::Gpus,
            ..Default::default()
        };
        assert!(sbatch_args(&gpus, &a[1], 1, Path::new("/s")).contains(&"--gpus=2".to_string()));
        assert!(!sbatch_args(&gpus, &a[0], 0, Path::new("/s"))
            .iter()
            .any(|f| f.contains("gpu")));
    }

    #[test]
    fn a_plan_larger_than_max_array_size_is_split() {
        let jobs: Vec<Job> = (0..7).map(|i| job(i, (i % 2) as u32, 300)).collect();
        let a = arrays(jobs, 2);
        let shapes: Vec<(u32, Vec<usize>)> = a
            .iter()
            .map(|a| (a.gpus, a.jobs.iter().map(|j| j.id).collect()))
            .collect();
        assert_eq!(
            shapes,
            [
                (0, vec![0, 2]),
                (1, vec![1, 3]),
                (0, vec![4, 6]),
                (1, vec![5])
            ]
        );
        let args = sbatch_args(&Settings::default(), &a[0], 0, Path::new("/s"));
        assert!(args.contains(&"--array=0-1".to_string()));
        assert_eq!(
            arrays(vec![job(0, 0, 1)], 0).len(),
            1,
            "never an empty array"
        );
    }
}
