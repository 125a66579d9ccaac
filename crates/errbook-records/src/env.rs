//! The environment a run happened in, as a key and as words. The key names what can change a
//! run's outcome: the GPUs it was given (count and model; for a run without GPUs, the model of
//! the host's GPUs, so two machines' CPU runs stand side by side), the driver, CUDA, Python and
//! PyTorch. Not the host name, the kernel or errbook's version: two identical machines are one
//! environment. The key doubles as the record's file name (`records::store`), so it is made of
//! `[A-Za-z0-9._+-]` only, `_` between its parts: `1xH100-80GB-HBM3_driver550.54.15_cuda12.4_py3.12.3_torch2.5.1+cu124`.

use super::record::Environment;

/// A key part from free text: ASCII letters, digits, `.`, `+` and `-` stay; a run of anything
/// else becomes one `-`.
fn part(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.trim().chars() {
        if c.is_ascii_alphanumeric() || ".+-".contains(c) {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// A GPU model without the vendor's prefix: `H100 80GB HBM3` of `NVIDIA H100 80GB HBM3`.
fn model(name: &str) -> &str {
    let n = name.trim();
    n.strip_prefix("NVIDIA ").unwrap_or(n).trim()
}

/// The model as readers name it in a sentence: `H100` of `NVIDIA H100 80GB HBM3`, `A100` of
/// `NVIDIA A100-SXM4-80GB`, `RTX 4090` of `NVIDIA GeForce RTX 4090`. Memory sizes, form
/// factors and memory kinds are left out.
fn short_model(name: &str) -> String {
    let m = model(name);
    let m = m.strip_prefix("GeForce ").unwrap_or(m);
    let m = m.strip_prefix("Tesla ").unwrap_or(m);
    let detail = |t: &str| {
        let u = t.to_ascii_uppercase();
        u.ends_with("GB")
            || u.starts_with("SXM")
            || u.starts_with("PCIE")
            || u.starts_with("HBM")
            || u == "NVL"
    };
    let kept: Vec<&str> = m
        .split([' ', '-'])
        .filter(|t| !t.is_empty())
        .take_while(|t| !detail(t))
        .collect();
    if kept.is_empty() {
        m.to_string()
    } else {
        kept.join(" ")
    }
}

impl Environment {
    /// The GPU model of the run, or of the host for a run without GPUs.
    fn machine_model(&self) -> &str {
        if self.gpu_count > 0 {
            &self.gpu_model
        } else {
            &self.host_gpu_model
        }
    }

    /// The environment's key, which is also its record's file stem (see the module comment).
    pub fn key(&self) -> String {
        let m = part(model(self.machine_model()));
        let mut k = match (self.gpu_count, m.is_empty()) {
            (0, true) => "cpu".to_string(),
            (0, false) => format!("cpu-on-{m}"),
            (n, true) => format!("{n}xGPU"),
            (n, false) => format!("{n}x{m}"),
        };
        for (label, v) in [
            ("driver", &self.driver),
            ("cuda", &self.cuda),
            ("py", &self.python),
            ("torch", &self.torch),
        ] {
            let v = part(v);
            if !v.is_empty() {
                k.push('_');
                k.push_str(label);
                k.push_str(&v);
            }
        }
        k
    }

    /// What the run had, in a few words: `1× H200`, `CPU only, H200 host`, `CPU`.
    pub fn hardware(&self) -> String {
        match self.gpu_count {
            0 if self.host_gpu_model.is_empty() => "CPU".to_string(),
            0 => format!("CPU only, {} host", short_model(&self.host_gpu_model)),
            n => {
                let m = if self.gpu_model.is_empty() {
                    "GPU".to_string()
                } else {
                    short_model(&self.gpu_model)
                };
                format!("{n}\u{d7} {m}")
            }
        }
    }

    /// The machine's name in a sentence ("verified on H100 and H200"): the short GPU model
    /// (the host's, for a run without GPUs), or `CPU` for a host without GPUs.
    pub fn machine(&self) -> String {
        let m = self.machine_model();
        if m.is_empty() {
            "CPU".to_string()
        } else {
            short_model(m)
        }
    }

    /// One line about where it ran: hardware, driver, CUDA, Python, PyTorch.
    pub(crate) fn summary(&self) -> String {
        let mut parts = vec![self.hardware()];
        for (v, label) in [
            (&self.driver, "driver"),
            (&self.cuda, "CUDA"),
            (&self.python, "Python"),
            (&self.torch, "PyTorch"),
        ] {
            if !v.is_empty() {
                parts.push(format!("{label} {v}"));
            }
        }
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(gpus: u32, model: &str, host_model: &str) -> Environment {
        Environment {
            gpu_count: gpus,
            gpu_model: model.into(),
            host_gpu_model: host_model.into(),
            driver: "580.159.04".into(),
            cuda: "13.0".into(),
            python: "3.12.3".into(),
            torch: "2.11.0+cu130".into(),
            host: "vm".into(),
            ..Default::default()
        }
    }

    #[test]
    fn keys_name_what_decides_a_run_and_are_file_names() {
        let e = env(1, "NVIDIA H200", "NVIDIA H200");
        assert_eq!(
            e.key(),
            "1xH200_driver580.159.04_cuda13.0_py3.12.3_torch2.11.0+cu130"
        );
        let h100 = env(1, "NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3");
        assert_eq!(
            h100.key(),
            "1xH100-80GB-HBM3_driver580.159.04_cuda13.0_py3.12.3_torch2.11.0+cu130"
        );
        assert_eq!(
            env(0, "", "NVIDIA H200").key(),
            "cpu-on-H200_driver580.159.04_cuda13.0_py3.12.3_torch2.11.0+cu130"
        );
        let laptop = Environment {
            python: "3.11.7".into(),
            ..Default::default()
        };
        assert_eq!(laptop.key(), "cpu_py3.11.7");
        let mut other_host = e.clone();
        other_host.host = "elsewhere".into();
        assert_eq!(e.key(), other_host.key(), "the host name is no part of it");
        let odd = Environment {
            gpu_count: 1,
            gpu_model: "../../etc/passwd".into(),
            python: "3.12 (main, /x)".into(),
            ..Default::default()
        };
        let k = odd.key();
        assert!(
            k.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._+-".contains(c)),
            "{k}"
        );
    }

    #[test]
    fn models_as_readers_name_them() {
        assert_eq!(short_model("NVIDIA H100 80GB HBM3"), "H100");
        assert_eq!(short_model("NVIDIA A100-SXM4-80GB"), "A100");
        assert_eq!(short_model("NVIDIA GeForce RTX 4090"), "RTX 4090");
        assert_eq!(short_model("NVIDIA H200"), "H200");
        assert_eq!(short_model("NVIDIA H100 PCIe"), "H100");
        assert_eq!(env(1, "NVIDIA H200", "").hardware(), "1\u{d7} H200");
        assert_eq!(env(0, "", "NVIDIA H200").hardware(), "CPU only, H200 host");
        assert_eq!(env(0, "", "NVIDIA H200").machine(), "H200");
        assert_eq!(Environment::default().machine(), "CPU");
    }
}
