//! Synthetic Q&A articles in the seed articles' shape: front matter (title, date, id, errors,
//! tags), an answer in prose, a numbered explanation, three Python examples with commentary and
//! a list of resources. Each names 1-3 entries in `errors:` and quotes their messages.

use super::entries::{message_slug, short_message, GenEntry};
use super::text::{distinct, distinct_k, fill, fill_pick, yaml_str};
use fastrand::Rng;
use std::fmt::Write;

#[derive(Debug, Clone)]
pub(crate) struct GenArticle {
    pub(crate) id: String,
    pub(crate) title: String,
    pub(crate) date: String,
    pub(crate) errors: Vec<String>,
    pub(crate) tags: Vec<String>,
    /// Markdown body (no front matter).
    pub(crate) body: String,
}

impl GenArticle {
    pub(crate) fn errbook_file(&self) -> String {
        let mut s = String::with_capacity(self.body.len() + 300);
        s.push_str("---\n");
        let _ = writeln!(s, "title: {}", yaml_str(&self.title));
        let _ = writeln!(s, "date: \"{}\"", self.date);
        let _ = writeln!(s, "id: \"{}\"", self.id);
        if !self.errors.is_empty() {
            s.push_str("errors:\n");
            for e in &self.errors {
                let _ = writeln!(s, "  - {}", yaml_str(e));
            }
        }
        if !self.tags.is_empty() {
            let _ = writeln!(s, "tags: [{}]", self.tags.join(", "));
        }
        s.push_str("---\n");
        s.push_str(&self.body);
        s
    }
}

const TITLES: &[&str] = &[
    "Why does {api} fail with {short}?",
    "How do I fix {short} when using {api}?",
    "What causes {short} on a multi-GPU machine?",
    "Why am I getting {short} after upgrading?",
    "How to avoid {short} in a training loop with {api}?",
];
const OPENINGS: &[&str] = &[
    "The error you are seeing, `{short}`, is almost never about the line the traceback points to. My experience debugging this across several large training jobs is that it comes from how state is set up long before the failing call.",
    "This failure is common when moving code from a notebook to a script that runs on a cluster. The message `{short}` is accurate but says little about the cause, which lies in how processes, devices and libraries are initialised.",
    "`{short}` shows up in bug trackers for many projects, and most reports turn out to share one root cause. Understanding it makes the fix obvious and, more importantly, tells you which of the popular suggestions do not help.",
];
const PARAGRAPHS: &[&str] = &[
    "When {api} starts, it makes assumptions about the process it runs in: which devices are visible, which start method creates the workers, and how much memory is available. If any of these change after initialisation, the library has no way to notice until an operation fails, and then the message describes the symptom rather than the cause.",
    "The behaviour differs between the {gpu} in the cluster and a laptop GPU mainly because of memory: a batch of {bs} samples with {dim} features fits comfortably on one and not on the other. It is tempting to treat the two failures as different problems, but they share a mechanism.",
    "A useful way to reason about it is to ask which process owns each resource. The parent owns the CUDA context, every worker owns its own copy of the dataset object, and shared tensors are owned by whichever process created them. Errors appear where these owners disagree.",
    "Version changes make this worse. Release {ver} changed a default that many scripts relied on without saying so, and environments built a few months apart now behave differently. Pinning versions in a lock file is the cheapest protection against that.",
    "Asynchronous execution also hides the true location of the failure. Kernels are queued and run later, so the Python line in the traceback is only the first place that waited for a result. Running once with synchronous execution narrows it down quickly.",
    "Finally, containers add their own limits. Shared memory is often 64 MB, the number of open files is capped, and only some devices are visible. Code that works on a bare-metal workstation can fail in a container for any of these reasons.",
    "The logs from rank {rank} on {host} usually contain the first real error; the others only report that a peer went away. Collecting every rank's log before reading any of them saves hours.",
];
const STEPS: &[&str] = &[
    "**Check the environment:** print library versions, visible devices and the start method at the top of the script, so every log says what ran.",
    "**Initialise in the right order:** choose the start method and the device before any library touches the GPU.",
    "**Keep workers independent:** give each worker what it needs as arguments, and let it create its own device state.",
    "**Reduce before you scale:** reproduce with one process and a small batch, then add workers and devices one at a time.",
    "**Make failures loud:** validate inputs (label ranges, shapes, dtypes) before the expensive call, so the error names the real problem.",
];
const EXAMPLES: &[(&str, &str, &str)] = &[
    (
        "Setting the start method explicitly",
        "import torch\nimport torch.multiprocessing as mp\nfrom torch.utils.data import DataLoader, TensorDataset\n\ndef make_loader():\n    data = torch.randn({int}, {dim})\n    labels = torch.randint(0, 10, ({int},))\n    return DataLoader(TensorDataset(data, labels), batch_size={bs}, num_workers={workers})\n\nif __name__ == \"__main__\":\n    mp.set_start_method(\"spawn\", force=True)\n    model = torch.nn.Linear({dim}, 10).cuda()\n    for x, y in make_loader():\n        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())\n        loss.backward()\n    print(\"finished\", loss.item())\n",
        "The start method is set once, under the `__main__` guard, before the model is moved to the GPU. Each worker starts a fresh interpreter, so nothing of the parent's CUDA state is inherited.",
    ),
    (
        "Per-process device selection with torch.distributed",
        "import os\nimport torch\nimport torch.distributed as dist\n\ndef main():\n    local_rank = int(os.environ.get(\"LOCAL_RANK\", 0))\n    torch.cuda.set_device(local_rank)\n    dist.init_process_group(backend=\"nccl\")\n    t = torch.ones({dim}, device=\"cuda\") * dist.get_rank()\n    dist.all_reduce(t)\n    if dist.get_rank() == 0:\n        print(\"sum of ranks:\", t[0].item())\n    dist.destroy_process_group()\n\nif __name__ == \"__main__\":\n    main()\n",
        "Every process selects its device from `LOCAL_RANK` before the process group exists, so NCCL sees one GPU per rank. Launch it with `torchrun --nproc_per_node={small} example.py`.",
    ),
    (
        "Measuring memory before and after the change",
        "import torch\n\ndef peak_mib(fn, *args):\n    torch.cuda.reset_peak_memory_stats()\n    fn(*args)\n    torch.cuda.synchronize()\n    return torch.cuda.max_memory_allocated() / 2**20\n\nmodel = torch.nn.Sequential(torch.nn.Linear({dim}, {dim}), torch.nn.ReLU(), torch.nn.Linear({dim}, 10)).cuda()\nx = torch.randn({bs}, {dim}, device=\"cuda\")\nprint(f\"peak: {peak_mib(lambda: model(x).sum().backward()):.1f} MiB\")\n",
        "Measuring the peak rather than the current allocation shows what the batch really needs. Halving the batch size should roughly halve the activation memory; if it does not, something else holds on to tensors.",
    ),
    (
        "Validating inputs before the loss",
        "import torch\n\ndef checked_loss(logits, target):\n    n = logits.shape[-1]\n    if target.min() < 0 or target.max() >= n:\n        raise ValueError(f\"target outside [0, {n}): min={target.min().item()} max={target.max().item()}\")\n    return torch.nn.functional.cross_entropy(logits, target)\n\nlogits = torch.randn({bs}, 10, device=\"cuda\")\ntarget = torch.randint(0, 10, ({bs},), device=\"cuda\")\nprint(checked_loss(logits, target).item())\n",
        "The check costs two reductions and turns an asynchronous device-side assert into a Python exception that names the offending values.",
    ),
    (
        "A worker function that can be pickled",
        "import multiprocessing as mp\nimport numpy as np\n\ndef work(args):\n    seed, n = args\n    rng = np.random.default_rng(seed)\n    return float(rng.standard_normal(n).mean())\n\nif __name__ == \"__main__\":\n    with mp.get_context(\"spawn\").Pool({workers}) as pool:\n        means = pool.map(work, [(s, {int}) for s in range({small})])\n    print(means)\n",
        "The worker is a module-level function and its arguments are plain tuples, so the spawn context can pickle both. A nested function or a lambda here reproduces the pickling error.",
    ),
    (
        "Limiting memory preallocation",
        "import os\nos.environ[\"XLA_PYTHON_CLIENT_PREALLOCATE\"] = \"false\"\n\nimport jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef step(w, x):\n    return jnp.tanh(x @ w).sum()\n\nw = jnp.ones(({dim}, {dim}))\nx = jnp.ones(({bs}, {dim}))\nprint(step(w, x), jax.devices())\n",
        "Setting the variable before importing the library is essential; once the backend is initialised the allocation strategy is fixed for the life of the process.",
    ),
];
const CHECKS: &[&str] = &[
    "Run the failing job again with the change and the same seed, and compare the first {int} steps of the loss curve with a run that did not fail. They should agree to several decimal places; if they do not, the change did more than remove the error.",
    "Keep the diagnostic output for a while: printing versions, devices and the start method costs nothing and turns the next report from this machine into a one-line answer.",
    "On a shared cluster, test on more than one node type. The {gpu} nodes and the older ones often have different drivers and container images, and a fix that holds on one may not hold on the other.",
    "Watch memory over a full epoch, not the first few steps. Fragmentation and caches grow slowly, and a job that survives step {int} can still fail near the end of the epoch.",
];
const RESOURCES: &[&str] = &[
    "The framework's documentation on multiprocessing best practices.",
    "The CUDA programming guide's section on initialisation and contexts.",
    "The NCCL user guide's environment variable reference.",
    "The release notes of {pkg} {ver}, which list the changed defaults.",
    "The issue tracker of {pkg}, searching for the exact error message.",
];
const TAGS: &[&str] = &[
    "cuda",
    "multiprocessing",
    "distributed",
    "memory",
    "dataloader",
    "debugging",
];

/// `m` articles; `as_written`: no `errors:` front matter, and examples that claim in words
/// only (`written`).
pub(crate) fn generate(
    rng: &mut Rng,
    m: usize,
    entries: &[GenEntry],
    as_written: bool,
) -> Vec<GenArticle> {
    (0..m).map(|i| one(rng, i, entries, as_written)).collect()
}

/// The examples section: three of `EXAMPLES`, after the written ones under `as_written`.
fn examples(rng: &mut Rng, b: &mut String, as_written: bool) {
    b.push_str("**2. Code Examples with Commentary:**\n\n");
    let first = if as_written {
        super::written::examples(rng, b);
        3
    } else {
        1
    };
    for (k, x) in distinct(rng, EXAMPLES.len(), 3).into_iter().enumerate() {
        let (head, code, comment) = EXAMPLES[x];
        let _ = writeln!(b, "**Example {}: {head}**\n", k + first);
        let _ = writeln!(b, "```python\n{}```\n", fill(rng, code));
        let _ = writeln!(b, "{}\n", fill(rng, comment));
    }
}

fn one(rng: &mut Rng, i: usize, entries: &[GenEntry], as_written: bool) -> GenArticle {
    let errors: Vec<&GenEntry> = if entries.is_empty() {
        Vec::new()
    } else {
        distinct_k(rng, entries.len(), 1..=3.min(entries.len()))
            .into_iter()
            .map(|j| &entries[j])
            .collect()
    };
    let short = errors
        .first()
        .map(|e| short_message(e))
        .unwrap_or_else(|| "a CUDA initialization error".into());
    let title = fill_pick(rng, TITLES).replace("{short}", &short);
    let stem = errors
        .first()
        .map(|e| message_slug(e))
        .unwrap_or_else(|| "cuda-initialization-error".into());
    let id = format!("{stem}-{}", i + 1);
    let date = format!(
        "20{}-{:02}-{:02}",
        rng.u32(22..=25),
        rng.u32(1..=12),
        rng.u32(1..=28)
    );

    let mut b = String::with_capacity(7000);
    let opening = fill_pick(rng, OPENINGS).replace("{short}", &short);
    let _ = writeln!(b, "{opening}\n");
    b.push_str("**1. Clear Explanation:**\n\n");
    for p in distinct(rng, PARAGRAPHS.len(), 4) {
        let _ = writeln!(b, "{}\n", fill(rng, PARAGRAPHS[p]));
    }
    if errors.len() > 1 {
        b.push_str("The same mechanism explains these related messages:\n\n");
        for e in &errors[1..] {
            let _ = writeln!(b, "- `{}`", short_message(e));
        }
        b.push('\n');
    }
    b.push_str("The general workflow involves the following steps:\n\n");
    for (k, s) in distinct(rng, STEPS.len(), 5).into_iter().enumerate() {
        let _ = writeln!(b, "{}. {}\n", k + 1, STEPS[s]);
    }
    examples(rng, &mut b, as_written);
    b.push_str("**3. Checking the fix:**\n\n");
    for p in distinct(rng, CHECKS.len(), 2) {
        let _ = writeln!(b, "{}\n", fill(rng, CHECKS[p]));
    }
    b.push_str("**4. Resource Recommendations:**\n\n");
    for r in distinct(rng, RESOURCES.len(), 3) {
        let _ = writeln!(b, "* {}", fill(rng, RESOURCES[r]));
    }
    b.push('\n');
    let _ = writeln!(
        b,
        "Applying these steps in order resolves `{short}` in nearly every case I have seen, and the ones it does not resolve are then narrow enough to report upstream with a minimal reproduction."
    );

    let tags = distinct_k(rng, TAGS.len(), 1..=3)
        .into_iter()
        .map(|t| TAGS[t].to_string())
        .collect();
    GenArticle {
        id,
        title,
        date,
        errors: if as_written {
            Vec::new()
        } else {
            errors.iter().map(|e| e.id.clone()).collect()
        },
        tags,
        body: b,
    }
}
