// The search benchmark's inputs and small helpers (bench.mjs): the catalog's entries (id ->
// message, from their title lines), the pasted messages drawn from them with a seeded
// generator, and the number formatting and statistics its tables use.

import fs from "node:fs";
import path from "node:path";

// ---- small helpers --------------------------------------------------------------------------
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b), n = s.length;
  if (!n) return NaN;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}
// Nearest rank: the smallest value with at least p of the samples at or below it.
export function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil(p * s.length) - 1)];
}
export function mb(b) { return b >= 1e6 ? (b / 1e6).toFixed(2) + " MB" : (b / 1e3).toFixed(1) + " kB"; }
export function bytes(b) { return b >= 1e4 ? (b / 1e3).toFixed(1) + " kB" : Math.round(b) + " B"; }
export function ms(x) { return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2); }
export function pad(s, n) { s = String(s); return s.length >= n ? s : s + " ".repeat(n - s.length); }
export function lpad(s, n) { s = String(s); return s.length >= n ? s : " ".repeat(n - s.length) + s; }
export function table(head, rows) {
  const w = head.map((h, i) => Math.max(String(h).length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => r.map((c, i) => (i === 0 ? pad(c, w[i]) : lpad(c, w[i]))).join("  ");
  return [line(head), w.map((x) => "-".repeat(x)).join("  "), ...rows.map(line)].join("\n");
}
export function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export function walk(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out); else out.push(p);
  }
  return out;
}

// The directories errbook-synth writes paths under (what a paste varies, and what `judge`
// sets aside).
export const SYNTH_DIRS = ["/home/user/project", "/workspace/train", "/opt/conda/envs/ml", "/data/experiments/run", "/mnt/shared/jobs", "/srv/models/ckpt"];

// ---- the catalog: id -> message, from the entries' title lines --------------------------------
export function readCatalog(dir) {
  const root = path.join(dir, "content", "errors");
  const entries = [];
  for (const f of walk(root)) {
    if (!f.endsWith(".md")) continue;
    const rel = path.relative(root, f).split(path.sep).join("/");
    const id = rel.slice(0, -3);
    const text = fs.readFileSync(f, "utf8");
    const title = text.split("\n").find((l) => l.startsWith("# "));
    if (title) entries.push({ id, domain: id.split("/")[0], message: title.slice(2).trim() });
  }
  entries.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return entries;
}

// ---- pasted messages --------------------------------------------------------------------------
// Each query takes one entry's message and varies it as pastes of the same error vary: other
// numbers (line numbers, sizes, ranks, device ids), other paths, other hex addresses, other
// quotes, a trailing period, sometimes without the exception's name (a logger printing str(e));
// then wraps it as one of: the bare message, a Python traceback (sometimes chained, inside a
// DataLoader worker's wrapper, with PyTorch's CUDA advice or C++ frames), the same traceback
// with a launcher's tag on every line ([rank3]: / [default0]:), or one log line with a prefix
// (timestamps, levels, glog, Ray, journald, a container runtime's).
export function makeQueries(catalog, n, seed) {
  const rnd = mulberry32(seed);
  const int = (a, b) => a + Math.floor(rnd() * (b - a + 1));
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const chance = (p) => rnd() < p;
  const hex = (len) => { let s = ""; for (let i = 0; i < len; i++) s += "0123456789abcdef"[int(0, 15)]; return s; };

  const MY_DIRS = ["/home/alice/src/llm", "/scratch/jdoe/exp42", "/root/work", "/Users/kim/dev/proj", "/gpfs/projects/ml/run_17", "/tmp/job-88231", "/home/ubuntu/repos/trainer", "/lustre/fs1/team/vision"];
  const MY_FILES = ["train.py", "run.py", "train_ddp.py", "main.py", "finetune.py", "bench.py", "pretrain.py"];
  const SITES = ["/usr/local/lib/python3.10/site-packages", "/opt/conda/lib/python3.11/site-packages", "/home/alice/.venv/lib/python3.12/site-packages", "/usr/lib/python3/dist-packages"];
  const LIB_FRAMES = {
    torch: [
      ["torch/nn/modules/module.py", "_call_impl", "return forward_call(*args, **kwargs)"],
      ["torch/nn/modules/module.py", "_wrapped_call_impl", "return self._call_impl(*args, **kwargs)"],
      ["torch/utils/data/dataloader.py", "__next__", "data = self._next_data()"],
      ["torch/nn/modules/linear.py", "forward", "return F.linear(input, self.weight, self.bias)"],
      ["torch/_tensor.py", "backward", "torch.autograd.backward("],
      ["torch/serialization.py", "load", "return _load(opened_zipfile, map_location, pickle_module, **pickle_load_args)"],
    ],
    dist: [
      ["torch/distributed/distributed_c10d.py", "all_reduce", "work = group.allreduce([tensor], opts)"],
      ["torch/distributed/c10d_logger.py", "wrapper", "return func(*args, **kwargs)"],
      ["torch/distributed/elastic/multiprocessing/errors/__init__.py", "wrapper", "return f(*args, **kwargs)"],
      ["torch/nn/parallel/distributed.py", "__init__", "_verify_param_shape_across_processes(self.process_group, parameters)"],
    ],
    tensorflow: [
      ["keras/src/utils/traceback_utils.py", "error_handler", "raise e.with_traceback(filtered_tb) from None"],
      ["tensorflow/python/eager/execute.py", "quick_execute", "tensors = pywrap_tfe.TFE_Py_Execute(ctx._handle, device_name, op_name,"],
      ["keras/src/engine/training.py", "fit", "tmp_logs = self.train_function(iterator)"],
    ],
    jax: [
      ["jax/_src/traceback_util.py", "reraise_with_filtered_traceback", "return fun(*args, **kwargs)"],
      ["jax/_src/pjit.py", "cache_miss", "outs, out_flat, out_tree, args_flat, jaxpr = _python_pjit_helper("],
      ["jax/_src/interpreters/pxla.py", "__call__", "results = self.xla_executable.execute_sharded(input_bufs)"],
    ],
    python: [
      ["multiprocessing/reduction.py", "dump", "ForkingPickler(file, protocol).dump(obj)"],
      ["importlib/__init__.py", "import_module", "return _bootstrap._gcd_import(name[level:], package, level)"],
      ["pkg_resources/__init__.py", "<module>", "from pkg_resources.extern import packaging"],
    ],
    numpy: [
      ["numpy/core/_methods.py", "_mean", "ret = umr_sum(arr, axis, dtype, out, keepdims, where=where)"],
      ["numpy/core/numeric.py", "ones", "a = empty(shape, dtype, order)"],
    ],
    huggingface: [
      ["transformers/modeling_utils.py", "from_pretrained", "resolved_config_file = cached_file("],
      ["transformers/utils/hub.py", "cached_file", "raise EnvironmentError("],
      ["transformers/tokenization_utils_base.py", "__call__", "encodings = self._call_one(text=text, text_pair=text_pair, **all_kwargs)"],
      ["transformers/generation/utils.py", "generate", "result = self._sample("],
    ],
  };
  const LIBS_OF = { pytorch: ["torch"], cuda: ["torch"], nccl: ["dist", "torch"], tensorflow: ["tensorflow"], jax: ["jax"], python: ["python", "torch"], numpy: ["numpy"], huggingface: ["huggingface", "torch"] };
  const USER_CODE = ["main()", "trainer.fit(model, loader)", "loss = train_step(model, batch)", "out = model(x)", "loss.backward()", "model = build_model(cfg)", "run(args)", "for step, batch in enumerate(loader):"];
  const USER_FN = ["<module>", "main", "train", "train_step", "run", "fit", "evaluate", "build_model"];

  function userPath() { return pick(MY_DIRS) + "/" + pick(MY_FILES); }
  function stamp() { return `2024-${String(int(1, 12)).padStart(2, "0")}-${String(int(1, 28)).padStart(2, "0")} ${String(int(0, 23)).padStart(2, "0")}:${String(int(0, 59)).padStart(2, "0")}:${String(int(0, 59)).padStart(2, "0")}`; }

  function vary(msg) {
    let m = msg;
    // Paths: the generator's directories become others, file names sometimes too.
    for (const d of SYNTH_DIRS) if (m.includes(d)) m = m.split(d).join(pick(MY_DIRS));
    m = m.replace(/\b(train|model|main|eval)\.py\b/g, (f) => (chance(0.5) ? pick(MY_FILES) : f));
    // Hex addresses.
    m = m.replace(/0x[0-9a-fA-F]+/g, (h) => "0x" + hex(h.length - 2));
    // Numbers standing alone (not inside names like CUDA_R_16F or libcudnn.so.8, not versions
    // or decimals such as 2.19.3, 1.x, 6.25): most change.
    m = m.replace(/(^|[^A-Za-z0-9_.])([0-9]+(?:\.[0-9A-Za-z]+)*)(?![A-Za-z0-9_])/g, (all, pre, num) => {
      if (num.includes(".") || !chance(0.7)) return all;
      const v = num.length === 1 ? int(0, 9) : int(10 ** (num.length - 1), 10 ** num.length - 1);
      return pre + String(v);
    });
    // Quotes.
    if (chance(0.3)) {
      const style = pick([['"', '"'], ["‘", "’"], ["`", "`"]]);
      m = m.replace(/'([^'\n]*)'/g, (all, s) => style[0] + s + style[1]);
    } else if (chance(0.2)) {
      m = m.replace(/"([^"\n]*)"/g, (all, s) => "'" + s + "'");
    }
    // A trailing period.
    if (chance(0.2)) m = m.endsWith(".") ? m.slice(0, -1) : m + ".";
    return m;
  }

  function frames(domain, k) {
    const out = [];
    const up = userPath();
    for (let i = 0; i < int(1, 2); i++) out.push([up, int(10, 900), pick(USER_FN), pick(USER_CODE)]);
    const libs = LIBS_OF[domain] || ["torch"];
    const site = pick(SITES);
    for (let i = 0; i < k; i++) {
      const [f, fn, code] = pick(LIB_FRAMES[pick(libs)]);
      out.push([site + "/" + f, int(20, 4000), fn, code]);
    }
    return out.map(([f, l, fn, code]) => `  File "${f}", line ${l}, in ${fn}\n    ${code}`).join("\n");
  }

  function traceback(entry, m) {
    const domain = entry.domain;
    let t = "";
    if (chance(0.1)) {
      // Chained: another exception first.
      t += "Traceback (most recent call last):\n" + frames(domain, 1) + "\n" +
        pick(["KeyError: 'input_ids'", "StopIteration", "ValueError: too many values to unpack (expected 2)", "FileNotFoundError: [Errno 2] No such file or directory: '" + userPath() + "'"]) +
        "\n\nDuring handling of the above exception, another exception occurred:\n\n";
    }
    t += "Traceback (most recent call last):\n" + frames(domain, int(1, 4)) + "\n";
    const torchy = domain === "pytorch" || domain === "cuda";
    if (torchy && chance(0.15)) {
      // Inside a DataLoader worker: PyTorch's wrapper, then the original traceback.
      const exc = (/^([A-Za-z_.]*(?:Error|Exception))/.exec(m) || [, "RuntimeError"])[1].split(".").pop();
      t += `${pick(["RuntimeError", exc])}: Caught ${exc} in DataLoader worker process ${int(0, 7)}.\nOriginal Traceback (most recent call last):\n` + frames(domain, int(1, 2)) + "\n";
    }
    t += m;
    if (/CUDA error/.test(m) && chance(0.8)) {
      t += "\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.";
    }
    if ((torchy || domain === "nccl") && chance(0.2)) {
      const lib = pick(SITES) + "/torch/lib/libc10.so";
      t += `\n\nException raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:${int(30, 60)} (most recent call first):\n`;
      for (let i = 0; i < int(2, 5); i++) {
        t += `frame #${i}: c10::Error::Error(c10::SourceLocation, std::string) + 0x${hex(2)} (0x7f${hex(10)} in ${lib})\n`;
      }
    }
    return t;
  }

  const LOG_PREFIXES = [
    () => `${stamp()},${int(100, 999)} - ERROR - `,
    () => `[${stamp()}] ERROR: `,
    () => `E${String(int(1, 12)).padStart(2, "0")}${String(int(1, 28)).padStart(2, "0")} ${String(int(0, 23)).padStart(2, "0")}:${String(int(10, 59))}:${String(int(10, 59))}.${int(100000, 999999)} ${int(1000, 99999)} ${pick(MY_FILES)}:${int(10, 900)}] `,
    () => `(pid=${int(1000, 99999)}, ip=10.0.${int(0, 9)}.${int(1, 254)}) `,
    () => "ERROR:root:",
    () => `${pick(["Jan", "Feb", "Mar", "Jun", "Oct"])} ${int(1, 28)} ${String(int(10, 23))}:${String(int(10, 59))}:${String(int(10, 59))} ${pick(["node-a17", "gpu-worker-3", "dgx-02"])} python[${int(1000, 99999)}]: `,
    () => `${stamp().replace(" ", "T")}.${int(100000000, 999999999)}Z stderr F `,
  ];

  // Distinct entries, spread over the catalog.
  const order = catalog.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
  const queries = [];
  for (let k = 0; k < n; k++) {
    const entry = catalog[order[k % order.length]];
    let m = vary(entry.message);
    const kindRoll = rnd();
    let kind, text;
    if (kindRoll < 0.3) {
      kind = "message";
      if (chance(0.15)) { const c = /^[A-Za-z_.]*(?:Error|Exception):\s+(.*)$/.exec(m); if (c) { m = c[1]; kind = "message, no type"; } }
      text = m;
    } else if (kindRoll < 0.65) {
      kind = "traceback";
      text = traceback(entry, m);
    } else if (kindRoll < 0.85) {
      kind = "traceback, tagged";
      const tag = chance(0.75) ? `[rank${int(0, 63)}]: ` : `[default${int(0, 7)}]:`;
      text = traceback(entry, m).split("\n").map((l) => tag + l).join("\n");
    } else {
      kind = "log line";
      if (chance(0.3)) { const c = /^[A-Za-z_.]*(?:Error|Exception):\s+(.*)$/.exec(m); if (c) m = c[1]; }
      text = pick(LOG_PREFIXES)() + m;
    }
    queries.push({ id: entry.id, kind, text });
  }
  return queries;
}
