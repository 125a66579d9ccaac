//! Word pools and the placeholder filler: `{mib}`, `{path}`, `{rank}`... in a template become
//! values drawn from the seeded generator, so messages and code vary in numbers and paths the way
//! real reports do.

use fastrand::Rng;

/// Pick one element.
pub(crate) fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.usize(..items.len())]
}

/// Pick one template and fill it.
pub(crate) fn fill_pick(rng: &mut Rng, items: &[&str]) -> String {
    let t = items[rng.usize(..items.len())];
    fill(rng, t)
}

/// Pick a count from `k` (a range), then that many distinct indices of `0..n`.
pub(crate) fn distinct_k(
    rng: &mut Rng,
    n: usize,
    k: std::ops::RangeInclusive<usize>,
) -> Vec<usize> {
    let k = rng.usize(k);
    distinct(rng, n, k)
}

/// Pick `k` distinct indices of `0..n` (k <= n), in the order drawn.
pub(crate) fn distinct(rng: &mut Rng, n: usize, k: usize) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::with_capacity(k);
    while out.len() < k.min(n) {
        let i = rng.usize(..n);
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

const DIRS: &[&str] = &[
    "/home/user/project",
    "/workspace/train",
    "/opt/conda/envs/ml",
    "/data/experiments/run",
    "/mnt/shared/jobs",
    "/srv/models/ckpt",
];
const FILES: &[&str] = &[
    "train.py",
    "model.py",
    "data/loader.py",
    "utils/dist.py",
    "main.py",
    "eval.py",
    "scripts/finetune.py",
];
const MODULES: &[&str] = &[
    "encoder.layers.3.attn",
    "decoder.blocks.11.mlp",
    "backbone.stage2.conv1",
    "head.fc",
    "embeddings.word_embeddings",
    "transformer.h.7.ln_1",
];
const DTYPES: &[&str] = &[
    "float32", "float16", "bfloat16", "int64", "float64", "int32", "uint8",
];
const OPS: &[&str] = &[
    "aten::addmm",
    "aten::conv2d",
    "aten::index_select",
    "aten::_softmax",
    "aten::bmm",
    "aten::scatter_add_",
    "aten::layer_norm",
];
const HOSTS: &[&str] = &[
    "node-a17",
    "gpu-worker-3",
    "dgx-02",
    "ip-10-0-4-21",
    "trainer-7",
];
const PKGS: &[&str] = &[
    "torchvision",
    "transformers",
    "accelerate",
    "deepspeed",
    "apex",
    "flash_attn",
    "bitsandbytes",
    "xformers",
];
const GPUS: &[&str] = &[
    "NVIDIA A100-SXM4-80GB",
    "NVIDIA H100 80GB HBM3",
    "NVIDIA GeForce RTX 4090",
    "Tesla V100-SXM2-32GB",
    "NVIDIA L4",
    "NVIDIA A10G",
];
const APIS: &[&str] = &[
    "torch.utils.data.DataLoader",
    "torch.distributed.init_process_group",
    "torch.nn.parallel.DistributedDataParallel",
    "torch.compile",
    "torch.cuda.amp.autocast",
    "jax.pmap",
    "tf.distribute.MirroredStrategy",
    "numpy.memmap",
    "multiprocessing.Pool",
    "torch.load",
];

/// Replace every `{key}` of `template` with a drawn value. Unknown keys stay as written.
pub(crate) fn fill(rng: &mut Rng, template: &str) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) if after[..close].chars().all(|c| c.is_ascii_alphanumeric()) => {
                let key = &after[..close];
                match value(rng, key) {
                    Some(v) => out.push_str(&v),
                    None => {
                        out.push('{');
                        out.push_str(key);
                        out.push('}');
                    }
                }
                rest = &after[close + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn value(rng: &mut Rng, key: &str) -> Option<String> {
    Some(match key {
        "mib" => rng.u32(2..=81920).to_string(),
        "gib" => format!("{}.{:02}", rng.u32(1..80), rng.u32(0..100)),
        "small" => rng.u32(2..17).to_string(),
        "int" => rng.u32(1..4096).to_string(),
        "big" => rng.u64(10_000..2_000_000_000).to_string(),
        "rank" => rng.u32(0..64).to_string(),
        "world" => [2, 4, 8, 16, 32, 64][rng.usize(..6)].to_string(),
        "dim" => [64, 128, 256, 512, 768, 1024, 2048, 4096][rng.usize(..8)].to_string(),
        "bs" => [8, 16, 32, 64, 128, 256][rng.usize(..6)].to_string(),
        "workers" => rng.u32(1..17).to_string(),
        "port" => rng.u32(20000..65000).to_string(),
        "pid" => rng.u32(1000..99999).to_string(),
        "line" => rng.u32(10..900).to_string(),
        "secs" => [60, 300, 600, 1800][rng.usize(..4)].to_string(),
        "lr" => format!("{}e-{}", rng.u32(1..10), rng.u32(3..6)),
        "shape" => format!(
            "[{}, {}, {}]",
            [8, 16, 32, 64][rng.usize(..4)],
            rng.u32(1..513),
            [64, 128, 768, 1024][rng.usize(..4)]
        ),
        "hex" => format!("0x{:012x}", rng.u64(..1 << 47)),
        "path" => format!("{}/{}", pick(rng, DIRS), pick(rng, FILES)),
        "file" => pick(rng, FILES).to_string(),
        "dir" => pick(rng, DIRS).to_string(),
        "module" => pick(rng, MODULES).to_string(),
        "dtype" => pick(rng, DTYPES).to_string(),
        "dtype2" => pick(rng, DTYPES).to_string(),
        "op" => pick(rng, OPS).to_string(),
        "host" => pick(rng, HOSTS).to_string(),
        "pkg" => pick(rng, PKGS).to_string(),
        "gpu" => pick(rng, GPUS).to_string(),
        "api" => pick(rng, APIS).to_string(),
        "ver" => format!("{}.{}.{}", rng.u32(1..3), rng.u32(0..14), rng.u32(0..4)),
        "cuda" => ["11.7", "11.8", "12.1", "12.2", "12.4", "12.6"][rng.usize(..6)].to_string(),
        "py" => ["3.8", "3.9", "3.10", "3.11", "3.12"][rng.usize(..5)].to_string(),
        _ => return None,
    })
}

/// Quote a string for YAML (double quotes, escaped).
pub(crate) fn yaml_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A URL slug of the first words of `s`.
pub(crate) fn slug(s: &str, max_words: usize) -> String {
    let mut out = String::new();
    for w in s
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(max_words)
    {
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(&w.to_ascii_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_replaces_known_keys_and_keeps_others() {
        let mut rng = Rng::with_seed(1);
        let s = fill(
            &mut rng,
            "rank {rank} of {world} at {path}; dict {a: 1} {unknown}",
        );
        assert!(!s.contains("{rank}") && !s.contains("{world}") && !s.contains("{path}"));
        assert!(s.contains("{a: 1}") && s.contains("{unknown}"), "{s}");
    }

    #[test]
    fn same_seed_same_text() {
        let a = fill(&mut Rng::with_seed(7), "{mib} {path} {shape}");
        let b = fill(&mut Rng::with_seed(7), "{mib} {path} {shape}");
        assert_eq!(a, b);
    }

    #[test]
    fn slug_and_yaml() {
        assert_eq!(slug("CUDA error: out of memory!", 4), "cuda-error-out-of");
        assert_eq!(yaml_str(r#"a "b" \c"#), r#""a \"b\" \\c""#);
    }
}
