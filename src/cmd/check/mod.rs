//! `errbook check`: run load, parse and link, print every diagnostic compiler-style to stderr and
//! a summary line, write nothing. Exit 1 when there are errors (warnings do not fail), 0 otherwise.

use errbook::Config;
use errbook::Result;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod summary;
use summary::{status, summary};

pub(crate) fn run(root: &Path, links_of: &[PathBuf]) -> Result<ExitCode> {
    if !root.join("book.toml").is_file() {
        return Err(errbook::Error::Other(format!(
            "no book.toml in {}: run errbook in the site root, or pass `--root DIR`",
            root.display()
        )));
    }
    // A book.toml that does not parse is a problem in the site's own files: report it like the
    // content's problems (exit 1), not as a failure of errbook (exit 2).
    let cfg = match Config::load(root) {
        Ok(c) => c,
        Err(e @ errbook::Error::Config { .. }) => {
            eprintln!("error[E-config]: {e}");
            eprintln!("check: 1 error in book.toml; the content was not checked");
            return Ok(ExitCode::from(1));
        }
        Err(e) => return Err(e),
    };
    let state = errbook::site::check(root, &cfg)?;
    super::print_diagnostics(&state.diags);
    for f in links_of {
        print!("{}", errbook::site::explain_links(&state, f));
    }
    eprintln!(
        "{}",
        summary(
            &state.diags,
            state.files.len(),
            state.catalog.entries.len(),
            state.catalog.articles.len()
        )
    );
    Ok(ExitCode::from(status(&state.diags)))
}
