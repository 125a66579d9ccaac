//! `errbook verify-worker` (hidden): errbook on a remote host, started by a session's SSH or
//! Slurm runner. Over SSH it reads the plan on stdin and writes each job's start and end to
//! stdout (`errbook_verify::worker::stream`); under Slurm it runs one job of a plan file and
//! writes its end into a results folder (`worker::item`).

use errbook_core::Result;
use errbook_verify::worker;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// A plan file (Slurm); without it the plan comes on stdin (SSH).
    #[arg(long, value_name = "FILE", requires = "out")]
    plan: Option<PathBuf>,
    /// Say what this node has (to the file `--out`), run nothing.
    #[arg(long, requires = "plan")]
    probe: bool,
    /// The job of the plan to run (Slurm: the array task id).
    #[arg(long, value_name = "N")]
    item: Option<usize>,
    /// Where the job's end is written (`<out>/<N>.json`; with `--probe`, the file).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    match (args.plan, args.item, args.out) {
        (Some(plan), _, Some(out)) if args.probe => worker::probe(&plan, &out)?,
        (Some(plan), Some(item), Some(out)) => worker::item(&plan, item, &out)?,
        _ => {
            let stdin = std::io::BufReader::new(std::io::stdin());
            worker::stream(stdin, &mut std::io::stdout().lock())?
        }
    }
    Ok(ExitCode::SUCCESS)
}
