//! `errbook lsp`: the language server on stdin and stdout, for editors (docs/editors.md).

use errbook_core::Result;
use std::path::Path;
use std::process::ExitCode;

pub(crate) fn run(root: &Path) -> Result<ExitCode> {
    errbook_lsp::run_stdio(root)?;
    Ok(ExitCode::SUCCESS)
}
