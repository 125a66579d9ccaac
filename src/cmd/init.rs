//! `errbook init [DIR]`: a new catalog in DIR (default: the current folder); prints what it wrote
//! and what to do next. Exit 1 when DIR already holds a catalog.

use errbook_core::Result;
use errbook_scaffold::Init;
use std::path::Path;
use std::process::ExitCode;

pub(crate) fn run(dir: &Path) -> Result<ExitCode> {
    match errbook_scaffold::init(dir)? {
        Init::Exists(toml) => {
            eprintln!(
                "error: {} already exists: this folder holds a catalog\n  help: `errbook new error DOMAIN/SLUG` adds an entry to it",
                toml.display()
            );
            Ok(ExitCode::from(1))
        }
        Init::Written(files) => {
            for f in &files {
                println!("{}", dir.join(f).display());
            }
            let cd = if dir == Path::new(".") {
                String::new()
            } else {
                format!("cd {} && ", dir.display())
            };
            eprintln!("a new catalog: one entry, one article, and the records of their snippets' runs. Next:");
            eprintln!("  {cd}errbook serve      # the site at http://127.0.0.1:3000/, rebuilt as you edit");
            eprintln!("  errbook check      # what is wrong, as a compiler says it");
            eprintln!(
                "  errbook verify     # run the code blocks marked `run` and record what they did"
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}
