//! The host a run happens on: GPUs (count, model, memory, driver) from nvidia-smi, CUDA, Python
//! and PyTorch versions from the interpreter itself, host name and kernel; and which of the
//! modules snippets declare (`needs=`) an interpreter cannot import.

use errbook_records::Environment;
use std::process::Command;

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Gpu {
    pub index: u32,
    pub name: String,
    pub memory_mib: u64,
}

#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Host {
    pub gpus: Vec<Gpu>,
    /// Everything but the per-run GPU fields.
    pub env: Environment,
}

fn output(cmd: &mut Command) -> Option<String> {
    let o = cmd.output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
}

/// GPUs as nvidia-smi lists them; none when it is missing or fails.
pub(super) fn detect_gpus() -> (Vec<Gpu>, String, String) {
    let Some(list) = output(Command::new("nvidia-smi").args([
        "--query-gpu=index,name,memory.total,driver_version",
        "--format=csv,noheader,nounits",
    ])) else {
        return (Vec::new(), String::new(), String::new());
    };
    let mut gpus = Vec::new();
    let mut driver = String::new();
    for l in list.lines() {
        let f: Vec<&str> = l.split(',').map(|s| s.trim()).collect();
        if f.len() < 4 {
            continue;
        }
        let Ok(index) = f[0].parse() else { continue };
        gpus.push(Gpu {
            index,
            name: f[1].to_string(),
            memory_mib: f[2].parse().unwrap_or(0),
        });
        driver = f[3].to_string();
    }
    let cuda_driver = output(&mut Command::new("nvidia-smi"))
        .and_then(|t| {
            let i = t.find("CUDA Version:")?;
            t[i + 13..].split_whitespace().next().map(String::from)
        })
        .unwrap_or_default();
    (gpus, driver, cuda_driver)
}

const PROBE: &str = "import platform\nprint(platform.python_version())\ntry:\n    import torch\n    print(torch.__version__)\n    print(torch.version.cuda or '')\nexcept Exception:\n    print('')\n    print('')\n";

/// Detect the host; `only` restricts (or, for tests, names) the GPU indices to use.
pub(super) fn detect(python: &[String], only: Option<&[u32]>) -> Host {
    let (mut gpus, driver, cuda_driver) = detect_gpus();
    if let Some(only) = only {
        let found = gpus.clone();
        gpus = only
            .iter()
            .map(|&i| {
                found.iter().find(|g| g.index == i).cloned().unwrap_or(Gpu {
                    index: i,
                    name: String::new(),
                    memory_mib: 0,
                })
            })
            .collect();
    }
    let (mut py, mut torch, mut torch_cuda) = (String::new(), String::new(), String::new());
    if let Some((exe, args)) = python.split_first() {
        if let Some(o) = output(Command::new(exe).args(args).args(["-c", PROBE])) {
            let mut l = o.lines().map(|s| s.trim().to_string());
            py = l.next().unwrap_or_default();
            torch = l.next().unwrap_or_default();
            torch_cuda = l.next().unwrap_or_default();
        }
    }
    let read = |p: &str| {
        std::fs::read_to_string(p)
            .map(|s| s.trim().to_string())
            .unwrap_or_default()
    };
    let mut host = read("/proc/sys/kernel/hostname");
    if host.is_empty() {
        host = std::env::var("HOSTNAME").unwrap_or_default();
    }
    let os = format!(
        "{} {}",
        std::env::consts::OS,
        read("/proc/sys/kernel/osrelease")
    )
    .trim()
    .to_string();
    let first = gpus.first();
    Host {
        env: Environment {
            host,
            gpu_count: 0,
            gpu_model: first.map(|g| g.name.clone()).unwrap_or_default(),
            gpu_memory_mib: first.map(|g| g.memory_mib).unwrap_or(0),
            host_gpu_count: gpus.len() as u32,
            host_gpu_model: first.map(|g| g.name.clone()).unwrap_or_default(),
            driver,
            cuda: if torch_cuda.is_empty() {
                cuda_driver.clone()
            } else {
                torch_cuda
            },
            cuda_driver,
            python: py,
            torch,
            os,
            errbook: env!("CARGO_PKG_VERSION").to_string(),
        },
        gpus,
    }
}

impl Host {
    /// The indices of the GPUs runs may use.
    pub fn gpu_ids(&self) -> Vec<u32> {
        self.gpus.iter().map(|g| g.index).collect()
    }

    /// The environment a run needing `n` GPUs gets (the first `n`; the host's GPUs are taken to
    /// be of one model, as packing assumes).
    pub(crate) fn env_for_count(&self, n: u32) -> Environment {
        let ids: Vec<u32> = self.gpu_ids().into_iter().take(n as usize).collect();
        self.env_for(&ids)
    }

    /// The environment of a run given `used` GPUs.
    pub(crate) fn env_for(&self, used: &[u32]) -> Environment {
        let mut e = self.env.clone();
        e.gpu_count = used.len() as u32;
        if let Some(g) = used
            .first()
            .and_then(|i| self.gpus.iter().find(|g| g.index == *i))
        {
            e.gpu_model = g.name.clone();
            e.gpu_memory_mib = g.memory_mib;
        }
        if used.is_empty() {
            e.gpu_model.clear();
            e.gpu_memory_mib = 0;
        }
        e
    }
}

/// Which of `modules` the interpreter `python` (a command and its arguments) cannot import,
/// looked up (not imported) with the variables runs get (`passed`, the named ones, and the
/// host's fixed few). An interpreter that does not start imports nothing.
pub(super) fn missing_modules(
    python: &[String],
    modules: &[String],
    passed: &[(String, String)],
) -> Vec<String> {
    const FIND: &str = "import importlib.util, sys\nfor m in sys.argv[1:]:\n    try:\n        ok = importlib.util.find_spec(m) is not None\n    except Exception:\n        ok = False\n    print(('ok ' if ok else 'missing ') + m)\n";
    let Some((exe, args)) = python.split_first() else {
        return modules.to_vec();
    };
    if modules.is_empty() {
        return Vec::new();
    }
    let mut cmd = Command::new(exe);
    cmd.args(args).args(["-c", FIND]).args(modules).env_clear();
    let tmp = std::env::temp_dir();
    let env = super::runner::env::build(
        std::env::vars_os(),
        passed,
        &[],
        &tmp.to_string_lossy(),
        &[],
    );
    cmd.envs(env);
    let Some(out) = output(&mut cmd) else {
        return modules.to_vec();
    };
    let found: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("ok ")).collect();
    modules
        .iter()
        .filter(|m| !found.contains(&m.as_str()))
        .cloned()
        .collect()
}
