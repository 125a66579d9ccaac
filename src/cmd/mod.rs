//! The commands: one module each, `run(...) -> Result<ExitCode>`. They turn arguments into the
//! library's options and print what it reports; the work lives in the library.

pub(crate) mod build;
pub(crate) mod check;
pub(crate) mod claims;
pub(crate) mod init;
pub(crate) mod lsp;
pub(crate) mod manual;
pub(crate) mod new;
pub(crate) mod search;
pub(crate) mod serve;
pub(crate) mod verify;
pub(crate) mod worker;

use errbook_core::{Diagnostics, Error};
use std::process::ExitCode;

/// Every diagnostic to stderr, rendered like a compiler's (colour on a terminal, not under
/// NO_COLOR).
pub(crate) fn print_diagnostics(diags: &Diagnostics) {
    use std::io::IsTerminal;
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    for d in &diags.items {
        eprintln!("{}", d.render(color));
    }
}

/// A command that could not do its work: say why on stderr, with what to do where there is
/// something to do, and give the exit status docs/commands.md lists: 1 when the catalog's own
/// files say no (an invalid book.toml, a file already there), 2 for a usage error (no catalog
/// where one is needed), 3 when errbook itself could not work (I/O, a busy port, a sandbox).
pub(crate) fn failed(e: &Error) -> ExitCode {
    match e {
        Error::Config { diag, .. } => {
            let mut diags = Diagnostics::default();
            diags.push((**diag).clone());
            print_diagnostics(&diags);
            ExitCode::from(1)
        }
        Error::NoSite { .. } => {
            eprintln!("error: {e}");
            eprintln!("  help: run `errbook init` to start a catalog here, or pass `--root DIR`");
            ExitCode::from(2)
        }
        Error::Exists { .. } | Error::Content { .. } => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
        _ => {
            eprintln!("error: {e}");
            ExitCode::from(3)
        }
    }
}
