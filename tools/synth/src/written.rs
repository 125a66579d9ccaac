//! Articles as the catalog writes them (`--as-written`): no `errors:` front matter and no
//! annotation, and examples that claim in words only: a failing one under a heading that says
//! so with a comment that says so, a fix that continues it ("# ... (data generation as in
//! Example 1) ..."), a shell line and an output listing with no claim, and prose after each.

use super::text::{fill, fill_pick};
use fastrand::Rng;
use std::fmt::Write;

const FAILING_HEADS: &[&str] = &[
    "The Problematic Approach",
    "Incorrect Initialization (Error Prone)",
    "What Not to Do",
    "A Naive First Attempt",
];
const FAILING_COMMENTS: &[&str] = &[
    "# This loop will likely fail once the workers start.",
    "# This line often triggers the error.",
    "# Error prone!",
    "# This raises the error on the first batch.",
];
const FAILING_AFTER: &[&str] = &[
    "This example is flawed because the parent initializes CUDA before the workers are created, so each worker inherits a context it cannot use.",
    "This demonstrates the common mistake: the device is touched before the start method is chosen, which does not solve the underlying problem.",
];
const WORKING_HEADS: &[&str] = &[
    "Correct Initialization",
    "Using a Custom Worker Initialization",
    "The Recommended Approach",
    "Moving the Transfer into the Main Process",
];
const WORKING_AFTER: &[&str] = &[
    "This improved version creates the loader after the start method is set, so no worker inherits the parent's state.",
    "This approach is more robust: it avoids the race condition by keeping every CUDA call in the main process.",
    "With this change the loop runs cleanly on one GPU and on several.",
];
const SETUP: &str = "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n\n# Generate some sample data\ndata = torch.randn({int}, {dim})\nlabels = torch.randint(0, 10, ({int},))\ndataset = TensorDataset(data, labels)\n";
const FAILING_LOOP: &str = "\nloader = DataLoader(dataset, batch_size={bs}, num_workers={workers})\n\n{comment}\nfor inputs, targets in loader:\n    inputs = inputs.cuda()\n    # ... rest of the training loop ...\n";
const FIX: &str = "import torch\nimport torch.multiprocessing as mp\nfrom torch.utils.data import DataLoader\n\n# ... (data generation as in Example 1) ...\n\nif __name__ == \"__main__\":\n    mp.set_start_method(\"spawn\", force=True)\n    loader = DataLoader(dataset, batch_size={bs}, num_workers={workers})\n    for inputs, targets in loader:\n        inputs = inputs.cuda()\n";

/// The examples section of an article as written: failing, continued fix, shell, output.
pub(crate) fn examples(rng: &mut Rng, b: &mut String) {
    let comment = fill_pick(rng, FAILING_COMMENTS);
    let _ = writeln!(b, "**Example 1: {}**\n", fill_pick(rng, FAILING_HEADS));
    let code = format!(
        "{}{}",
        fill(rng, SETUP),
        fill(rng, FAILING_LOOP).replace("{comment}", &comment)
    );
    let _ = writeln!(b, "```python\n{code}```\n");
    let _ = writeln!(b, "{}\n", fill_pick(rng, FAILING_AFTER));
    let _ = writeln!(b, "**Example 2: {}**\n", fill_pick(rng, WORKING_HEADS));
    let _ = writeln!(b, "```python\n{}```\n", fill(rng, FIX));
    let _ = writeln!(b, "{}\n", fill_pick(rng, WORKING_AFTER));
    b.push_str("Install the versions the examples were written for:\n\n```bash\npip install torch numpy\n```\n\n");
    b.push_str("The failing run prints:\n\n```\nRuntimeError: Cannot re-initialize CUDA in forked subprocess.\n```\n\n");
}
