//! Synthetic structured entries, in the catalog's entry layout (title line, metadata bullets,
//! Root Cause, Version Compatibility, Workarounds with code, Dead Ends), with realistic messages
//! per domain whose numbers and paths vary.

use super::text::{distinct, distinct_k, fill, pick, slug, yaml_str};
use fastrand::Rng;
use std::fmt::Write;

/// One generated entry: its identity and the Markdown body shared by the three sites.
#[derive(Debug, Clone)]
pub(crate) struct GenEntry {
    pub(crate) id: String,
    pub(crate) domain: &'static str,
    pub(crate) slug: String,
    pub(crate) message: String,
    pub(crate) category: &'static str,
    pub(crate) code: Option<String>,
    pub(crate) tags: Vec<String>,
    pub(crate) related: Vec<String>,
    pub(crate) aliases: Vec<String>,
    /// The Markdown from the title line on (no front matter).
    pub(crate) body: String,
}

impl GenEntry {
    /// The file as errbook reads it: optional front matter, then the body.
    pub(crate) fn errbook_file(&self) -> String {
        let mut fm = String::new();
        if !self.aliases.is_empty() {
            fm.push_str("aliases:\n");
            for a in &self.aliases {
                let _ = writeln!(fm, "  - {}", yaml_str(a));
            }
        }
        if !self.tags.is_empty() {
            let _ = writeln!(fm, "tags: [{}]", self.tags.join(", "));
        }
        if !self.related.is_empty() {
            fm.push_str("related:\n");
            for r in &self.related {
                let _ = writeln!(fm, "  - {}", yaml_str(r));
            }
        }
        if fm.is_empty() {
            self.body.clone()
        } else {
            format!("---\n{fm}---\n{}", self.body)
        }
    }
}

/// (message template, slug base, category, error code)
type Template = (
    &'static str,
    &'static str,
    &'static str,
    Option<&'static str>,
);

pub(crate) struct Domain {
    pub(crate) name: &'static str,
    templates: &'static [Template],
    causes: &'static [&'static str],
    versions: &'static [&'static str],
    workarounds: &'static [(&'static str, &'static str)],
    dead_ends: &'static [(&'static str, &'static str)],
    tags: &'static [&'static str],
}

pub(crate) const DOMAINS: &[Domain] = &[
    Domain {
        name: "pytorch",
        templates: &[
            ("RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method", "cuda-reinit-forked-subprocess", "config_error", Some("CUDA_ERROR_NOT_INITIALIZED")),
            ("RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:{rank} and cpu! (when checking argument for argument mat1 in method wrapper_addmm)", "tensors-on-different-devices", "api_misuse", None),
            ("RuntimeError: mat1 and mat2 shapes cannot be multiplied ({int}x{dim} and {dim}x{int})", "mat1-mat2-shapes", "shape_error", None),
            ("RuntimeError: Error(s) in loading state_dict for DistributedDataParallel: Missing key(s) in state_dict: \"{module}.weight\"", "state-dict-missing-keys", "serialization_error", None),
            ("RuntimeError: DataLoader worker (pid {pid}) is killed by signal: Killed.", "dataloader-worker-killed", "resource_exhaustion", Some("SIGKILL")),
            ("RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.cuda.FloatTensor {shape}] is at version {small}; expected version {small} instead", "inplace-modified-gradient", "autograd_error", None),
            ("RuntimeError: expected scalar type {dtype} but found {dtype2}", "expected-scalar-type", "dtype_error", None),
            ("ValueError: Expected more than 1 value per channel when training, got input size torch.Size([1, {dim}])", "batchnorm-one-value-per-channel", "shape_error", None),
        ],
        causes: &[
            "The DataLoader forks its workers after the parent process has already created a CUDA context, and CUDA state cannot be duplicated across fork().",
            "Part of the model was moved to the GPU while the inputs stayed on the host, so the first matrix multiply sees tensors on two devices.",
            "The checkpoint was saved from a model wrapped in DistributedDataParallel, whose parameter names carry a `module.` prefix that the bare model does not have.",
            "An in-place operation such as `x += y` or `relu_()` overwrote a tensor that autograd had saved for the backward pass.",
            "The kernel for {op} has no implementation for the mixed dtypes it received, because autocast was only enabled around part of the forward pass.",
        ],
        versions: &["PyTorch 1.13.1", "PyTorch 2.0.1", "PyTorch 2.1.2", "PyTorch 2.2.0", "PyTorch 2.3.1", "PyTorch 2.4.0", "PyTorch 2.5.1"],
        workarounds: &[
            ("Set the multiprocessing start method to 'spawn' before creating the DataLoader", "import torch.multiprocessing as mp\n\nif __name__ == \"__main__\":\n    mp.set_start_method(\"spawn\", force=True)\n    loader = torch.utils.data.DataLoader(dataset, batch_size={bs}, num_workers={workers})\n    train(loader)\n"),
            ("Move the inputs to the model's device inside the training loop", "device = next(model.parameters()).device\nfor x, y in loader:\n    x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)\n    loss = criterion(model(x), y)\n    loss.backward()\n"),
            ("Strip the `module.` prefix from the checkpoint keys before loading", "state = torch.load(\"{dir}/checkpoint.pt\", map_location=\"cpu\")\nstate = {k.removeprefix(\"module.\"): v for k, v in state[\"model\"].items()}\nmissing, unexpected = model.load_state_dict(state, strict=False)\nprint(\"missing:\", missing, \"unexpected:\", unexpected)\n"),
            ("Replace the in-place operation with its out-of-place form", "# before: h += self.proj(x)\nh = h + self.proj(x)\n# before: torch.relu_(h)\nh = torch.relu(h)\n"),
            ("Cast both operands to one dtype explicitly", "with torch.autocast(device_type=\"cuda\", dtype=torch.{dtype}):\n    logits = model(x)\nloss = torch.nn.functional.cross_entropy(logits.float(), y)\n"),
            ("Lower the number of workers and enable persistent workers", "loader = DataLoader(\n    dataset,\n    batch_size={bs},\n    num_workers={small},\n    persistent_workers=True,\n    pin_memory=True,\n)\n"),
        ],
        dead_ends: &[
            ("Set num_workers=0 in DataLoader", "Removes the symptom by removing parallel loading, which makes each epoch several times slower on large datasets."),
            ("Call torch.cuda.empty_cache() before the failing line", "Frees cached blocks but does not change which device the tensors live on or how the process was started."),
            ("Reinstall PyTorch with pip --force-reinstall", "The binary was never the problem; the same code fails the same way with a fresh install."),
            ("Wrap the forward pass in torch.no_grad()", "Hides the error during evaluation but breaks training, since no gradients are recorded."),
        ],
        tags: &["cuda", "dataloader", "multiprocessing", "autograd", "checkpoint", "dtype", "ddp"],
    },
    Domain {
        name: "cuda",
        templates: &[
            ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {mib} MiB. GPU {rank} has a total capacity of {gib} GiB of which {int} MiB is free.", "cuda-out-of-memory", "resource_exhaustion", Some("CUDA_ERROR_OUT_OF_MEMORY")),
            ("RuntimeError: CUDA error: device-side assert triggered. CUDA kernel errors might be asynchronously reported at some other API call", "device-side-assert", "runtime_error", Some("cudaErrorAssert")),
            ("RuntimeError: CUDA error: an illegal memory access was encountered", "illegal-memory-access", "runtime_error", Some("cudaErrorIllegalAddress")),
            ("RuntimeError: CUDA error: no kernel image is available for execution on the device", "no-kernel-image", "install_error", Some("cudaErrorNoKernelImageForDevice")),
            ("RuntimeError: CUDA driver version is insufficient for CUDA runtime version", "driver-insufficient", "version_mismatch", Some("cudaErrorInsufficientDriver")),
            ("RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed in a non-contiguous input.", "cudnn-not-supported", "runtime_error", Some("CUDNN_STATUS_NOT_SUPPORTED")),
            ("RuntimeError: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx(handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16F, lda, b, CUDA_R_16F, ldb, &fbeta, c, CUDA_R_16F, ldc, CUDA_R_32F, CUBLAS_GEMM_DFALT_TENSOR_OP)`", "cublas-execution-failed", "runtime_error", Some("CUBLAS_STATUS_EXECUTION_FAILED")),
        ],
        causes: &[
            "The caching allocator cannot find a contiguous block of the requested size; fragmentation from tensors of varying shapes leaves free memory split into pieces too small to use.",
            "A kernel indexed past the end of a tensor, typically an embedding lookup or a cross-entropy target outside `[0, num_classes)`; the assert is reported at the next synchronising call, not where it happened.",
            "The installed wheel was compiled for compute capabilities that do not include the {gpu}, so no SASS or PTX exists for this architecture.",
            "The NVIDIA driver on the host predates the CUDA runtime bundled with the framework; CUDA {cuda} needs a newer driver branch.",
            "Asynchronous kernel launches mean the Python line in the traceback is rarely the one that failed; the real fault happened earlier in the stream.",
        ],
        versions: &["CUDA 11.7", "CUDA 11.8", "CUDA 12.1", "CUDA 12.4", "CUDA 12.6", "Driver 525", "Driver 535", "Driver 550"],
        workarounds: &[
            ("Run once with CUDA_LAUNCH_BLOCKING=1 to find the kernel that actually fails", "import os\nos.environ[\"CUDA_LAUNCH_BLOCKING\"] = \"1\"  # must be set before CUDA initialises\nimport torch\n\nout = model(batch.cuda())\ntorch.cuda.synchronize()\n"),
            ("Reduce fragmentation with expandable segments in the caching allocator", "import os\nos.environ[\"PYTORCH_CUDA_ALLOC_CONF\"] = \"expandable_segments:True\"\nimport torch\nprint(torch.cuda.memory_summary(device={rank}, abbreviated=True))\n"),
            ("Lower the batch size and accumulate gradients", "accum = {small}\nfor step, (x, y) in enumerate(loader):\n    loss = criterion(model(x.cuda()), y.cuda()) / accum\n    loss.backward()\n    if (step + 1) % accum == 0:\n        optimizer.step()\n        optimizer.zero_grad(set_to_none=True)\n"),
            ("Validate targets before the loss so the assert names the bad value", "num_classes = logits.shape[-1]\nbad = (y < 0) | (y >= num_classes)\nif bad.any():\n    raise ValueError(f\"labels out of range: {y[bad][:10].tolist()}\")\nloss = torch.nn.functional.cross_entropy(logits, y)\n"),
            ("Install a wheel built for the GPU's architecture", "import torch\nprint(torch.cuda.get_device_capability(), torch.cuda.get_arch_list())\n# pip install torch --index-url https://download.pytorch.org/whl/cu{small}1\n"),
        ],
        dead_ends: &[
            ("Call torch.cuda.empty_cache() in every iteration", "Returns cached blocks to the driver only to allocate them again, slowing training without reducing the peak."),
            ("Set CUDA_VISIBLE_DEVICES to another GPU", "The other GPU has the same capacity and the same kernel image problem."),
            ("Upgrade the NVIDIA driver to the newest beta", "Beta drivers are not supported by the container's CUDA compatibility package and fail at init."),
            ("Catch the RuntimeError and retry the batch", "After a device-side assert the CUDA context is corrupted; every later call fails until the process exits."),
        ],
        tags: &["memory", "oom", "kernel", "driver", "cudnn", "cublas", "allocator"],
    },
    Domain {
        name: "nccl",
        templates: &[
            ("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:{line}, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.{small}.3", "unhandled-system-error", "distributed_error", Some("ncclSystemError")),
            ("RuntimeError: [Rank {rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={int}, OpType=ALLREDUCE, NumelIn={big}, NumelOut={big}, Timeout(ms)=600000) ran for 600{int} milliseconds before timing out.", "watchdog-collective-timeout", "distributed_error", Some("ncclTimeout")),
            ("torch.distributed.DistBackendError: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.{small}.5. ncclInvalidUsage: This usually reflects invalid usage of NCCL library.", "invalid-usage", "api_misuse", Some("ncclInvalidUsage")),
            ("RuntimeError: NCCL communicator was aborted on rank {rank}. Original reason for failure was: NCCL error: remote process exited or there was a network error", "communicator-aborted", "distributed_error", Some("ncclRemoteError")),
            ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: {path} FAILED. Root Cause (first observed failure): [0]: time: 2024-0{small}-1{small}, host: {host}, rank: {rank} (local_rank: {rank}), exitcode: -9 (pid: {pid})", "child-failed-exitcode-9", "distributed_error", None),
        ],
        causes: &[
            "NCCL could not open the shared memory segment it uses for intra-node transport because /dev/shm in the container is limited to 64 MB.",
            "One rank took a different code path (an early return, a conditional `all_reduce`) so the collectives no longer match and the others wait until the watchdog fires.",
            "Two processes on the same host were assigned the same GPU, which NCCL reports as invalid usage when the communicator is created.",
            "The InfiniBand or RoCE interface chosen by NCCL is not reachable between the hosts, so the bootstrap succeeds over TCP but the first collective fails.",
        ],
        versions: &["NCCL 2.14.3", "NCCL 2.18.1", "NCCL 2.19.3", "NCCL 2.20.5", "NCCL 2.21.5", "PyTorch 2.2.0", "PyTorch 2.4.0"],
        workarounds: &[
            ("Give the container a larger /dev/shm", "# docker run --shm-size=16g ... or in Kubernetes mount an emptyDir with medium: Memory\nimport os, shutil\nprint(shutil.disk_usage(\"/dev/shm\"))\n"),
            ("Set the device from LOCAL_RANK before creating the process group", "import os, torch, torch.distributed as dist\nlocal_rank = int(os.environ[\"LOCAL_RANK\"])\ntorch.cuda.set_device(local_rank)\ndist.init_process_group(\"nccl\", device_id=torch.device(\"cuda\", local_rank))\n"),
            ("Pin NCCL to the right network interface", "import os\nos.environ[\"NCCL_SOCKET_IFNAME\"] = \"eth0\"\nos.environ[\"NCCL_IB_DISABLE\"] = \"1\"\nos.environ[\"NCCL_DEBUG\"] = \"INFO\"\n"),
            ("Raise the collective timeout while finding the slow rank", "from datetime import timedelta\nimport torch.distributed as dist\ndist.init_process_group(\"nccl\", timeout=timedelta(seconds={secs}))\n"),
        ],
        dead_ends: &[
            ("Set NCCL_P2P_DISABLE=1", "Forces traffic through host memory and hides a topology problem at a large bandwidth cost; the timeout comes back under load."),
            ("Switch the backend to gloo", "Gloo does not support the GPU collectives the training uses, so the job fails on the first all_reduce of a CUDA tensor."),
            ("Increase the timeout to several hours", "A desynchronised collective never completes; a longer timeout only delays the failure."),
        ],
        tags: &["distributed", "ddp", "allreduce", "timeout", "infiniband", "shm"],
    },
    Domain {
        name: "tensorflow",
        templates: &[
            ("tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape{shape} and type float on /job:localhost/replica:0/task:0/device:GPU:{rank} by allocator GPU_0_bfc", "oom-allocating-tensor", "resource_exhaustion", Some("RESOURCE_EXHAUSTED")),
            ("tensorflow.python.framework.errors_impl.InvalidArgumentError: Graph execution error: indices[{int},{small}] = {big} is not in [0, {int})", "indices-not-in-range", "runtime_error", Some("INVALID_ARGUMENT")),
            ("tensorflow.python.framework.errors_impl.NotFoundError: Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory", "could-not-load-libcudnn", "install_error", Some("NOT_FOUND")),
            ("ValueError: Input 0 of layer \"dense_{small}\" is incompatible with the layer: expected axis -1 of input shape to have value {dim}, but received input with shape (None, {dim})", "layer-input-incompatible", "shape_error", None),
            ("tensorflow.python.framework.errors_impl.InternalError: Failed copying input tensor from /job:localhost/replica:0/task:0/device:CPU:0 to /job:localhost/replica:0/task:0/device:GPU:0 in order to run _EagerConst: Dst tensor is not initialized.", "dst-tensor-not-initialized", "resource_exhaustion", Some("INTERNAL")),
        ],
        causes: &[
            "TensorFlow maps nearly all GPU memory at start-up unless memory growth is enabled, leaving nothing for a second process or a larger batch.",
            "The embedding layer's input_dim is smaller than the largest token id produced by the tokenizer, so a gather reads outside the table.",
            "The pip wheel expects cuDNN 8 on the library path, but the system has cuDNN 9 or none at all.",
            "The model was built for one feature width and later fed data with another, usually after a preprocessing change.",
        ],
        versions: &["TensorFlow 2.11.0", "TensorFlow 2.12.1", "TensorFlow 2.13.0", "TensorFlow 2.15.0", "TensorFlow 2.16.1", "Keras 3.3.3"],
        workarounds: &[
            ("Enable memory growth on every visible GPU", "import tensorflow as tf\nfor gpu in tf.config.list_physical_devices(\"GPU\"):\n    tf.config.experimental.set_memory_growth(gpu, True)\n"),
            ("Size the embedding table from the tokenizer's vocabulary", "vocab_size = tokenizer.vocabulary_size()\nembedding = tf.keras.layers.Embedding(input_dim=vocab_size + 1, output_dim={dim})\n"),
            ("Install TensorFlow with its CUDA extras", "# pip install 'tensorflow[and-cuda]=={ver}'\nimport tensorflow as tf\nprint(tf.sysconfig.get_build_info())\n"),
            ("Feed the dataset in smaller batches with prefetching", "ds = tf.data.Dataset.from_tensor_slices((x, y))\nds = ds.shuffle({int}).batch({bs}).prefetch(tf.data.AUTOTUNE)\nmodel.fit(ds, epochs={small})\n"),
        ],
        dead_ends: &[
            ("Set TF_FORCE_GPU_ALLOW_GROWTH after importing tensorflow", "The variable is read when the GPU is first initialised; setting it later has no effect."),
            ("Downgrade numpy", "The error comes from the shape of the data, not from numpy's version."),
            ("Copy libcudnn.so from another machine", "The copied library does not match the CUDA runtime and fails with a symbol error instead."),
        ],
        tags: &["keras", "oom", "cudnn", "embedding", "tf.data"],
    },
    Domain {
        name: "jax",
        templates: &[
            ("jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate {big} bytes.", "xla-out-of-memory", "resource_exhaustion", Some("RESOURCE_EXHAUSTED")),
            ("jax.errors.ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected: traced array with shape int32[]", "concretization-type-error", "api_misuse", None),
            ("jax.errors.TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array with shape float32[{bs},{dim}]", "tracer-array-conversion", "api_misuse", None),
            ("RuntimeError: Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU devices. (you may need to uninstall the failing plugin package, or set JAX_PLATFORMS=cpu to skip this backend.)", "unable-to-initialize-cuda-backend", "install_error", Some("FAILED_PRECONDITION")),
            ("ValueError: pmap got inconsistent sizes for array axes to be mapped: the tree of axis sizes is ({world}, {small})", "pmap-inconsistent-sizes", "shape_error", None),
        ],
        causes: &[
            "XLA preallocates 75% of GPU memory by default, so a second process or a large compilation buffer runs out.",
            "A Python `if` or `range` depends on a value that is only known at run time inside `jit`, so tracing cannot pick a branch.",
            "Inside a jitted function an array was passed to a NumPy function, which needs a concrete value and cannot work on a tracer.",
            "The jaxlib wheel was installed without the CUDA plugin, or the plugin's CUDA {cuda} does not match the driver.",
        ],
        versions: &["jax 0.4.13", "jax 0.4.20", "jax 0.4.26", "jax 0.4.30", "jax 0.4.35", "jaxlib 0.4.30+cuda12"],
        workarounds: &[
            ("Disable preallocation or cap the memory fraction", "import os\nos.environ[\"XLA_PYTHON_CLIENT_PREALLOCATE\"] = \"false\"\nos.environ[\"XLA_PYTHON_CLIENT_MEM_FRACTION\"] = \".{small}\"\nimport jax\n"),
            ("Mark the argument static or use lax.cond", "from functools import partial\nimport jax\n\n@partial(jax.jit, static_argnums=(1,))\ndef step(x, n):\n    for _ in range(n):\n        x = jax.numpy.tanh(x)\n    return x\n"),
            ("Use jax.numpy instead of numpy inside jitted code", "import jax, jax.numpy as jnp\n\n@jax.jit\ndef normalise(x):\n    return (x - jnp.mean(x)) / (jnp.std(x) + 1e-6)\n"),
            ("Install jax with the CUDA 12 plugin", "# pip install -U 'jax[cuda12]'\nimport jax\nprint(jax.devices())\n"),
        ],
        dead_ends: &[
            ("Wrap the value in int()", "Calling int() on a tracer raises the same ConcretizationTypeError."),
            ("Set JAX_PLATFORMS=cpu", "The code runs, on the CPU, dozens of times slower than intended."),
            ("Call jax.clear_caches() between steps", "Drops compiled executables and forces recompilation; memory use at the peak is unchanged."),
        ],
        tags: &["xla", "jit", "tracing", "pmap", "memory"],
    },
    Domain {
        name: "python",
        templates: &[
            ("ModuleNotFoundError: No module named '{pkg}'", "no-module-named", "install_error", None),
            ("ImportError: cannot import name 'packaging' from 'pkg_resources' ({dir}/lib/python{py}/site-packages/pkg_resources/__init__.py)", "cannot-import-name-packaging", "version_mismatch", None),
            ("AttributeError: Can't pickle local object 'main.<locals>.collate'", "cannot-pickle-local-object", "api_misuse", None),
            ("RecursionError: maximum recursion depth exceeded while calling a Python object", "maximum-recursion-depth", "runtime_error", None),
            ("OSError: [Errno 24] Too many open files: '{dir}/shard-{int}.bin'", "too-many-open-files", "resource_exhaustion", Some("EMFILE")),
            ("PermissionError: [Errno 13] Permission denied: '{dir}/cache/{pkg}'", "permission-denied-cache", "config_error", Some("EACCES")),
        ],
        causes: &[
            "The package is installed in a different interpreter than the one running the script; `python` and `pip` point to different environments.",
            "With the spawn start method every object sent to a worker is pickled, and functions defined inside another function cannot be pickled.",
            "Each DataLoader worker keeps a file descriptor per shared tensor, and the default `ulimit -n` of 1024 is exhausted.",
            "A setuptools release removed a vendored module that an older package still imports.",
        ],
        versions: &["Python 3.8", "Python 3.9", "Python 3.10", "Python 3.11", "Python 3.12", "setuptools 70.0.0"],
        workarounds: &[
            ("Install with the interpreter that runs the script", "import subprocess, sys\nsubprocess.check_call([sys.executable, \"-m\", \"pip\", \"install\", \"{pkg}\"])\n"),
            ("Move the function to module level so it can be pickled", "def collate(batch):\n    xs, ys = zip(*batch)\n    return torch.stack(xs), torch.tensor(ys)\n\nloader = DataLoader(dataset, batch_size={bs}, num_workers={workers}, collate_fn=collate)\n"),
            ("Switch the sharing strategy to the file system", "import torch.multiprocessing\ntorch.multiprocessing.set_sharing_strategy(\"file_system\")\n"),
            ("Raise the open-file limit for the process", "import resource\nsoft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\nresource.setrlimit(resource.RLIMIT_NOFILE, (min({int}0, hard), hard))\n"),
        ],
        dead_ends: &[
            ("Add the site-packages folder to sys.path by hand", "Mixes two environments' binaries and fails later with an ABI error."),
            ("Use a lambda as collate_fn", "Lambdas cannot be pickled either."),
            ("sys.setrecursionlimit(10**6)", "Moves the failure from a RecursionError to a segmentation fault when the C stack overflows."),
        ],
        tags: &["pip", "pickle", "multiprocessing", "environment", "ulimit"],
    },
    Domain {
        name: "numpy",
        templates: &[
            ("ValueError: operands could not be broadcast together with shapes ({int},{dim}) ({int},)", "operands-could-not-broadcast", "shape_error", None),
            ("numpy.core._exceptions._ArrayMemoryError: Unable to allocate {gib} GiB for an array with shape ({big},) and data type {dtype}", "unable-to-allocate-array", "resource_exhaustion", None),
            ("AttributeError: module 'numpy' has no attribute 'float'. `np.float` was a deprecated alias for the builtin `float`.", "no-attribute-float", "version_mismatch", None),
            ("ValueError: setting an array element with a sequence. The requested array has an inhomogeneous shape after {small} dimensions.", "inhomogeneous-shape", "api_misuse", None),
            ("A module that was compiled using NumPy 1.x cannot be run in NumPy 2.{small}.0 as it may crash. To support both 1.x and 2.x versions of NumPy, modules must be compiled with NumPy 2.0.", "compiled-with-numpy-1x", "version_mismatch", None),
        ],
        causes: &[
            "Broadcasting aligns trailing dimensions; a 1-D array of length {int} cannot stretch along an axis of length {dim}.",
            "The array is materialised in memory at once; its size follows from the shape and the {dtype} item size.",
            "NumPy 1.24 removed the aliases `np.float`, `np.int` and `np.bool` that older libraries still use.",
            "A compiled extension was built against the NumPy 1.x C ABI, which NumPy 2 changed.",
        ],
        versions: &["NumPy 1.23.5", "NumPy 1.24.4", "NumPy 1.26.4", "NumPy 2.0.1", "NumPy 2.1.3"],
        workarounds: &[
            ("Add the missing axis explicitly", "import numpy as np\nb = b[:, np.newaxis]  # shape ({int}, 1) broadcasts against ({int}, {dim})\nc = a * b\n"),
            ("Memory-map the array instead of loading it", "import numpy as np\narr = np.memmap(\"{dir}/features.f32\", dtype=np.float32, mode=\"r\", shape=({big}, {dim}))\nchunk = np.asarray(arr[:{int}])\n"),
            ("Use the builtin type or the sized NumPy type", "import numpy as np\nx = np.zeros(({bs}, {dim}), dtype=np.float64)  # was np.float\n"),
            ("Pin numpy below 2 until the extension is rebuilt", "# pip install 'numpy<2'\nimport numpy\nassert numpy.__version__.startswith(\"1.\"), numpy.__version__\n"),
        ],
        dead_ends: &[
            ("Convert everything to Python lists", "Works for small inputs and takes minutes and tens of gigabytes for real ones."),
            ("np.seterr(all='ignore')", "Controls floating-point warnings, not shape errors."),
            ("Reinstall the extension from the same wheel", "The wheel was built against NumPy 1.x; reinstalling it changes nothing."),
        ],
        tags: &["broadcasting", "memory", "dtype", "abi", "deprecation"],
    },
    Domain {
        name: "huggingface",
        templates: &[
            ("OSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files and it looks like {pkg} is not the path to a directory containing a file named config.json.", "couldnt-connect-to-hub", "config_error", None),
            ("ValueError: Asking to pad but the tokenizer does not have a padding token. Please select a token to use as `pad_token` `(tokenizer.pad_token = tokenizer.eos_token e.g.)`", "tokenizer-no-padding-token", "api_misuse", None),
            ("RuntimeError: The size of tensor a ({int}) must match the size of tensor b ({dim}) at non-singleton dimension {small}", "size-of-tensor-must-match", "shape_error", None),
            ("ValueError: You are attempting to perform batched generation with padding_side='right' this may lead to unexpected behaviour for Flash Attention version of {pkg}.", "batched-generation-padding-right", "api_misuse", None),
        ],
        causes: &[
            "The machine has no network access and the model was never downloaded into the cache that `HF_HOME` points to.",
            "Decoder-only models ship without a pad token; batching needs one to make sequences the same length.",
            "The sequence is longer than the model's maximum position embeddings, so the position ids and the inputs disagree.",
        ],
        versions: &["transformers 4.36.2", "transformers 4.40.0", "transformers 4.44.2", "transformers 4.46.0", "tokenizers 0.19.1"],
        workarounds: &[
            ("Download once, then load offline", "import os\nos.environ[\"HF_HUB_OFFLINE\"] = \"1\"\nfrom transformers import AutoModel\nmodel = AutoModel.from_pretrained(\"{dir}/models/base\", local_files_only=True)\n"),
            ("Reuse the EOS token for padding and pad on the left", "tokenizer.pad_token = tokenizer.eos_token\ntokenizer.padding_side = \"left\"\nbatch = tokenizer(prompts, return_tensors=\"pt\", padding=True)\n"),
            ("Truncate inputs to the model's maximum length", "batch = tokenizer(texts, truncation=True, max_length=model.config.max_position_embeddings, return_tensors=\"pt\")\n"),
        ],
        dead_ends: &[
            ("Add a new [PAD] token without resizing embeddings", "The new token id is outside the embedding table and triggers a device-side assert."),
            ("Set trust_remote_code=True", "Unrelated to the error; it only allows custom model code to run."),
        ],
        tags: &["transformers", "tokenizer", "hub", "generation"],
    },
];

const VERIFICATION: &[&str] = &[
    "ai_generated",
    "ai_generated",
    "community_reported",
    "reproduced",
];
const STATUSES: &[&str] = &[
    "active",
    "active",
    "active",
    "fixed",
    "regression",
    "untested",
];
const GENERIC_CAUSES: &[&str] = &[
    "The failure only shows under load, which is why it passes in small local tests and appears on the cluster.",
    "The traceback points at {path}, line {line}, but the state that causes it was set up much earlier in the run.",
    "Versions matter: the behaviour changed between releases, and environments built months apart disagree.",
    "The defaults differ between Linux and macOS, so the same script behaves differently on a laptop and on the training host.",
    "Containers add their own limits (shared memory, open files, visible devices) that a bare-metal host does not have.",
    "Reports show the error on the {gpu} as well as on older cards, so the hardware is not the cause.",
];
const GENERIC_WORKAROUNDS: &[(&str, &str)] = &[
    ("Print the environment and compare it with a working machine", "import platform, sys, torch\nprint(sys.version, platform.platform())\nprint(torch.__version__, torch.version.cuda, torch.cuda.device_count())\n"),
    ("Reproduce with a minimal script before changing the training code", "import torch\nx = torch.randn({bs}, {dim}, device=\"cuda\")\nw = torch.randn({dim}, {dim}, device=\"cuda\", requires_grad=True)\n(x @ w).sum().backward()\nprint(\"ok\", w.grad.norm().item())\n"),
];
const GENERIC_DEAD_ENDS: &[(&str, &str)] = &[
    ("Restart the machine", "The error returns on the first run after the reboot, because nothing in the configuration changed."),
    ("Pin every package to the versions of an old requirements file", "Brings back other incompatibilities and does not touch the cause."),
];

/// Generate `n` entries. IDs are unique and sorted nowhere in particular; `related` only names
/// IDs of the set.
pub(crate) fn generate(rng: &mut Rng, n: usize) -> Vec<GenEntry> {
    // First every identity, so cross-references can name any entry.
    let mut idents: Vec<(usize, usize, String)> = Vec::with_capacity(n);
    let mut counters = vec![0usize; DOMAINS.iter().map(|d| d.templates.len()).sum()];
    for _ in 0..n {
        let d = rng.usize(..DOMAINS.len());
        let t = rng.usize(..DOMAINS[d].templates.len());
        let base: usize = DOMAINS[..d].iter().map(|x| x.templates.len()).sum();
        let c = &mut counters[base + t];
        *c += 1;
        let slug = if *c == 1 {
            DOMAINS[d].templates[t].1.to_string()
        } else {
            format!("{}-{}", DOMAINS[d].templates[t].1, *c)
        };
        idents.push((d, t, slug));
    }
    let ids: Vec<String> = idents
        .iter()
        .map(|(d, _, s)| format!("{}/{}", DOMAINS[*d].name, s))
        .collect();
    idents
        .into_iter()
        .enumerate()
        .map(|(i, (d, t, slug))| one(rng, &DOMAINS[d], t, slug, i, &ids))
        .collect()
}

/// One entry. The generator's draws happen in a fixed order (the sections top to bottom, then
/// tags, related IDs and aliases), so the same seed gives the same bytes.
fn one(
    rng: &mut Rng,
    dom: &'static Domain,
    t: usize,
    slug: String,
    me: usize,
    ids: &[String],
) -> GenEntry {
    let (tmpl, _, category, code) = dom.templates[t];
    let message = fill(rng, tmpl);
    let id = format!("{}/{slug}", dom.name);
    let mut b = String::with_capacity(3500);
    write_head(&mut b, rng, dom, &message, &id, t);
    write_root_cause(&mut b, rng, dom);
    write_versions(&mut b, rng, dom);
    write_workarounds(&mut b, rng, dom);
    write_dead_ends(&mut b, rng, dom);
    let tags: Vec<String> = distinct_k(rng, dom.tags.len(), 1..=3)
        .into_iter()
        .map(|i| dom.tags[i].to_string())
        .collect();
    let related = related(rng, me, ids);
    // Another wording of the same template; one that came out as the message itself (a
    // template without numbers or paths) is left out, as `check` asks (`W-alias`).
    let aliases = if rng.u8(..5) == 0 {
        vec![fill(rng, tmpl)]
    } else {
        Vec::new()
    };
    let aliases: Vec<String> = aliases.into_iter().filter(|a| *a != message).collect();
    GenEntry {
        id,
        domain: dom.name,
        slug,
        message,
        category,
        code: code.map(str::to_string),
        tags,
        related,
        aliases,
        body: b,
    }
}

/// The title line and the metadata bullets of template `t`'s entry.
fn write_head(b: &mut String, rng: &mut Rng, dom: &Domain, message: &str, id: &str, t: usize) {
    let (_, _, category, code) = dom.templates[t];
    let fix = rng.u32(35..=98);
    let _ = writeln!(b, "# {message}\n");
    let _ = writeln!(b, "- **ID:** `{id}`");
    let _ = writeln!(b, "- **Domain:** {}", dom.name);
    let _ = writeln!(b, "- **Category:** {category}");
    if let Some(c) = code {
        let _ = writeln!(b, "- **Error Code:** `{c}`");
    }
    let _ = writeln!(b, "- **Verification:** {}", pick(rng, VERIFICATION));
    let _ = writeln!(b, "- **Fix Rate:** {fix}%\n");
}

/// Two causes of the domain, then one to three generic ones, as one paragraph.
fn write_root_cause(b: &mut String, rng: &mut Rng, dom: &Domain) {
    b.push_str("## Root Cause\n\n");
    let mut cause = String::new();
    for i in distinct(rng, dom.causes.len(), 2) {
        if !cause.is_empty() {
            cause.push(' ');
        }
        cause.push_str(&fill(rng, dom.causes[i]));
    }
    for i in distinct_k(rng, GENERIC_CAUSES.len(), 1..=3) {
        cause.push(' ');
        cause.push_str(&fill(rng, GENERIC_CAUSES[i]));
    }
    let _ = writeln!(b, "{cause}\n");
}

/// The version table: four to seven of the domain's versions, in order.
fn write_versions(b: &mut String, rng: &mut Rng, dom: &Domain) {
    b.push_str("## Version Compatibility\n\n");
    b.push_str("| Version | Status | Introduced | Deprecated |\n");
    b.push_str("|---------|--------|------------|------------|\n");
    let mut rows = distinct_k(rng, dom.versions.len(), 4..=dom.versions.len().min(7));
    rows.sort_unstable();
    for r in rows {
        let status = pick(rng, STATUSES);
        let intro = if rng.u8(..4) == 0 {
            dom.versions[0]
        } else {
            "—"
        };
        let _ = writeln!(b, "| {} | {status} | {intro} | — |", dom.versions[r]);
    }
    b.push('\n');
}

/// Up to three of the domain's workarounds (and sometimes a generic one), best rate first,
/// each with its code block.
fn write_workarounds(b: &mut String, rng: &mut Rng, dom: &Domain) {
    b.push_str("## Workarounds\n\n");
    let nw = 3.min(dom.workarounds.len());
    let mut picks: Vec<(&str, &str)> = distinct(rng, dom.workarounds.len(), nw)
        .into_iter()
        .map(|i| dom.workarounds[i])
        .collect();
    if rng.bool() {
        picks.push(*pick(rng, GENERIC_WORKAROUNDS));
    }
    let mut rates: Vec<u32> = picks.iter().map(|_| rng.u32(40..=97)).collect();
    rates.sort_unstable_by(|a, b| b.cmp(a));
    for (k, ((summary, code), rate)) in picks.iter().zip(rates).enumerate() {
        let _ = writeln!(b, "{}. **{summary}.** ({rate}% success)", k + 1);
        b.push_str("   ```python\n");
        for line in fill(rng, code).lines() {
            if line.is_empty() {
                b.push('\n');
            } else {
                let _ = writeln!(b, "   {line}");
            }
        }
        b.push_str("   ```\n");
    }
    b.push('\n');
}

/// Two or three of the domain's dead ends (and sometimes a generic one), with failure rates.
fn write_dead_ends(b: &mut String, rng: &mut Rng, dom: &Domain) {
    b.push_str("## Dead Ends\n\n");
    let nd = rng.usize(2..=3.min(dom.dead_ends.len()));
    let mut dead: Vec<(&str, &str)> = distinct(rng, dom.dead_ends.len(), nd)
        .into_iter()
        .map(|i| dom.dead_ends[i])
        .collect();
    if rng.u8(..3) == 0 {
        dead.push(*pick(rng, GENERIC_DEAD_ENDS));
    }
    for (summary, reason) in dead {
        let _ = writeln!(
            b,
            "- **{summary}** — {} ({}% fail)",
            fill(rng, reason),
            rng.u32(50..=99)
        );
    }
}

/// Up to three other entries of `ids` (not entry `me`), for two entries in three.
fn related(rng: &mut Rng, me: usize, ids: &[String]) -> Vec<String> {
    let mut related = Vec::new();
    if ids.len() > 1 && rng.u8(..3) != 0 {
        for _ in 0..rng.usize(1..=3) {
            let j = rng.usize(..ids.len());
            if j != me && !related.contains(&ids[j]) {
                related.push(ids[j].clone());
            }
        }
    }
    related
}

/// A short reference to an entry for prose: the message's first clause.
pub(crate) fn short_message(e: &GenEntry) -> String {
    let m = e.message.split(". ").next().unwrap_or(&e.message);
    let m: String = m.chars().take(120).collect();
    m.replace('`', "")
}

/// Slug words of a message, for article ids.
pub(crate) fn message_slug(e: &GenEntry) -> String {
    slug(&short_message(e), 6)
}
