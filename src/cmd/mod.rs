//! The commands: one module each, `run(...) -> Result<ExitCode>`. They turn arguments into the
//! library's options and print what it reports; the work lives in the library.

pub(crate) mod build;
pub(crate) mod check;
pub(crate) mod init;
pub(crate) mod lsp;
pub(crate) mod new;
pub(crate) mod search;
pub(crate) mod serve;
pub(crate) mod verify;
pub(crate) mod worker;

use errbook_core::Diagnostics;

/// Every diagnostic to stderr, rendered like a compiler's (colour on a terminal, not under
/// NO_COLOR).
pub(crate) fn print_diagnostics(diags: &Diagnostics) {
    use std::io::IsTerminal;
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    for d in &diags.items {
        eprintln!("{}", d.render(color));
    }
}
