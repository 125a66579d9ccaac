//! `errbook verify`: run the runnable snippets and record the results. The session is the
//! library's (`errbook_verify::run`); this command turns its arguments into options (`args`),
//! prints what the session reports as it goes (`plan`, `progress`) and at the end (`table`), and picks
//! the exit status: 1 when a claim is contradicted (unless allowed), 2 for a malformed runner or
//! GPU list, 3 when a record could not be written, 130 when Ctrl-C cancelled the session.

mod args;
mod plan;
mod progress;
mod table;
mod text;

pub(crate) use args::Args;
use errbook_core::{Error, Result};
use errbook_verify::{self as verify, Exit};
use std::path::Path;
use std::process::ExitCode;

pub(crate) fn run(root: &Path, args: Args) -> Result<ExitCode> {
    let allow_contradictions = args.allow_contradictions;
    // A malformed runner or GPU list is a usage error, as clap's are.
    let opts = match args.options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    // Ctrl-C: runs in flight are killed, Slurm jobs cancelled, finished records kept; a second
    // one leaves at once.
    let cancel = opts.cancel.clone();
    let _ = ctrlc::set_handler(move || {
        if cancel.swap(true, std::sync::atomic::Ordering::Relaxed) {
            std::process::exit(130);
        }
        eprintln!("verify: cancelling (runs in flight are stopped; Ctrl-C again to leave now)");
    });
    let mut printer = progress::Printer::default();
    let summary = match verify::run(root, &opts, &mut printer) {
        Err(Error::Content { diags, .. }) => {
            crate::cmd::print_diagnostics(&diags);
            eprintln!("verify: the content has errors; fix them first (`errbook check`)");
            return Ok(ExitCode::from(1));
        }
        other => other?,
    };
    if opts.dry_run {
        plan::list(&summary.plan);
        return Ok(ExitCode::SUCCESS);
    }
    if opts.cancel.load(std::sync::atomic::Ordering::Relaxed) {
        eprintln!("verify: cancelled; the records of finished runs are written");
        return Ok(ExitCode::from(130));
    }
    Ok(match summary.exit(allow_contradictions) {
        Exit::Clean => ExitCode::SUCCESS,
        Exit::WriteFailed => ExitCode::from(3),
        Exit::Findings(n) => {
            eprintln!(
                "verify: {n} claim(s) contradicted by their run (recorded; --allow-contradictions exits 0)"
            );
            ExitCode::from(1)
        }
    })
}
