//! `errbook check`: run load, parse and link, print every diagnostic (compiler-style on stderr,
//! or as JSON or GitHub annotations on stdout) and a summary line, write nothing. Exit 1 when
//! there are errors (or, with `--strict`, warnings), 0 otherwise.

mod format;
mod summary;

use errbook_core::{Config, Diagnostics, Result};
use format::{Counts, Format};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use summary::{status, summary};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// List the inferred links of these files with their evidence.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    links: Vec<PathBuf>,
    /// How to print the diagnostics: like a compiler (stderr), JSON or GitHub annotations
    /// (stdout).
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
    /// Fail on warnings too.
    #[arg(long)]
    strict: bool,
    /// Also fetch every link out of the catalog (answers are cached a day in
    /// .errbook-cache/links.json).
    #[arg(long)]
    external: bool,
}

pub(crate) fn run(root: &Path, args: Args) -> Result<ExitCode> {
    if !root.join("book.toml").is_file() {
        return Err(errbook_core::Error::no_site(root));
    }
    // A book.toml that does not parse is a problem in the site's own files: report it like the
    // content's problems (exit 1), not as a failure of errbook (exit 2).
    let cfg = match Config::load(root) {
        Ok(c) => c,
        Err(errbook_core::Error::Config { diag, .. }) => {
            let mut diags = Diagnostics::default();
            diags.push(*diag);
            let counts = Counts {
                files: 0,
                entries: 0,
                articles: 0,
            };
            print(&diags, &counts, args.format, true);
            eprintln!("check: 1 error in book.toml; the content was not checked");
            return Ok(ExitCode::from(1));
        }
        Err(e) => return Err(e),
    };
    let mut state = errbook_site::check(root, &cfg)?;
    if args.external {
        let opts = errbook_site::ExternalOptions {
            cache: Some(root.join(".errbook-cache/links.json")),
            ..Default::default()
        };
        let found = errbook_site::check_external(&state, &opts);
        state.diags.extend(found);
        state.diags.sort();
    }
    let failed = status(&state.diags, args.strict) != 0;
    let counts = Counts {
        files: state.files.len(),
        entries: state.catalog.entries.len(),
        articles: state.catalog.articles.len(),
    };
    print(&state.diags, &counts, args.format, failed);
    for f in &args.links {
        print!("{}", errbook_site::explain_links(&state, f));
    }
    eprintln!("{}", summary(&state.diags, &counts));
    Ok(ExitCode::from(status(&state.diags, args.strict)))
}

fn print(diags: &Diagnostics, counts: &Counts, format: Format, failed: bool) {
    match format {
        Format::Human => super::print_diagnostics(diags),
        Format::Json => println!("{}", format::json(diags, counts, failed)),
        Format::Github => print!("{}", format::github(diags)),
    }
}
