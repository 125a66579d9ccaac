//! `errbook verify`'s arguments, and their translation into the library's `verify::Options`
//! (where the runner and the GPU list are parsed and checked; the sandbox, sizes and the GPU
//! memory cap are book.toml's types, parsed by clap).

use errbook_core::config::{MemCap, Mib, SandboxKind};
use errbook_core::Result;
use errbook_verify::{Options, Runner, SandboxChoice, SlurmChoice, DEFAULT_LOG_BYTES};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Where runs happen: `local` (this machine), `ssh://[user@]host[:port]` (repeatable: the
    /// hosts share the plan by their GPUs), or `slurm` (a job array per plan).
    #[arg(long, value_name = "RUNNER")]
    pub runner: Vec<String>,
    /// How runs are contained: `bwrap` (bubblewrap, the default) or `none` (unconfined: warned
    /// about and recorded).
    #[arg(long, value_name = "SANDBOX")]
    pub sandbox: Option<SandboxKind>,
    /// The bubblewrap binary (default: `bwrap` on PATH; book.toml: verify.bwrap).
    #[arg(long, value_name = "PATH")]
    pub bwrap: Option<PathBuf>,
    /// Memory a run may use (`16G`; default: half of the host's memory).
    #[arg(long, value_name = "SIZE")]
    pub memory_limit: Option<Mib>,
    /// Tasks (processes and threads) a run may have at once (default 8192).
    #[arg(long, value_name = "N")]
    pub tasks_limit: Option<u64>,
    /// Runs at a time (default: the CPU count; GPU runs are also limited by the GPUs).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Run again even where a record for the same hash exists.
    #[arg(long)]
    pub force: bool,
    /// Only the snippets whose `entry/<id>#<snippet>` or `article/<id>#<snippet>` contains this
    /// text (repeatable).
    #[arg(long, value_name = "TEXT")]
    pub only: Vec<String>,
    /// Print the plan and run nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Exit 0 even when a run contradicts its claim (the finding is still recorded).
    #[arg(long)]
    pub allow_contradictions: bool,
    /// GPU indices to use (`0,1`), or `none`; default: every GPU nvidia-smi lists.
    #[arg(long, value_name = "LIST")]
    pub gpus: Option<String>,
    /// A variable of errbook's environment to pass to runs, by name (repeatable); its value is
    /// redacted from records.
    #[arg(long, value_name = "NAME")]
    pub keep_env: Vec<String>,
    /// Bytes of each run's output kept in its record (half from the start, half from the end).
    #[arg(long, default_value_t = DEFAULT_LOG_BYTES)]
    pub log_bytes: usize,
    /// Delete records that match no runnable snippet any more.
    #[arg(long)]
    pub prune: bool,
    /// Read the records' findings again from their logs with this errbook's traceback reader
    /// (records whose log is whole; nothing runs again for it).
    #[arg(long)]
    pub reread: bool,
    /// How much of each GPU's memory the runs packed onto it may plan to use together: a share
    /// (`90%`), an amount (`60GiB`), or `0` for one run per GPU (default: book.toml's
    /// `verify.gpu_mem_cap`, itself 90%).
    #[arg(long, value_name = "CAP")]
    pub gpu_mem_cap: Option<MemCap>,
    /// Also write the session (plan, packing timeline, verdicts) as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Slurm partition (book.toml: verify.slurm.partition).
    #[arg(long, value_name = "NAME")]
    pub partition: Option<String>,
    /// Slurm account (verify.slurm.account).
    #[arg(long, value_name = "NAME")]
    pub account: Option<String>,
    /// Slurm QOS (verify.slurm.qos).
    #[arg(long, value_name = "NAME")]
    pub qos: Option<String>,
    /// Another sbatch flag (`--sbatch-flag=--constraint=h100`; repeatable).
    #[arg(long, value_name = "FLAG", allow_hyphen_values = true)]
    pub sbatch_flag: Vec<String>,
}

impl Args {
    /// The session's options; a malformed runner or `--gpus` list is an error.
    pub(crate) fn options(self) -> Result<Options> {
        Ok(Options {
            runner: Runner::parse(&self.runner)?,
            jobs: self.jobs,
            force: self.force,
            only: self.only,
            dry_run: self.dry_run,
            gpus: match self.gpus {
                Some(list) => list.parse()?,
                None => Default::default(),
            },
            keep_env: self.keep_env,
            sandbox: SandboxChoice {
                kind: self.sandbox,
                bwrap: self.bwrap,
                memory: self.memory_limit,
                tasks: self.tasks_limit,
            },
            slurm: SlurmChoice {
                partition: self.partition,
                account: self.account,
                qos: self.qos,
                flags: self.sbatch_flag,
            },
            log_bytes: self.log_bytes,
            prune: self.prune,
            reread: self.reread,
            gpu_mem_cap: self.gpu_mem_cap,
            report: self.report,
            ..Options::default()
        })
    }
}
