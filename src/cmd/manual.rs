//! `errbook completions SHELL` and `errbook man [--dir DIR]`: shell completion scripts
//! (clap_complete) and manual pages (clap_mangen), both made from the command line's own
//! description, so that they say what `--help` says.

use errbook_core::error::IoContext;
use errbook_core::{Error, Result};
use std::path::Path;
use std::process::ExitCode;

/// The completion script for `shell` on stdout.
pub(crate) fn completions(shell: clap_complete::Shell, mut cmd: clap::Command) -> Result<ExitCode> {
    clap_complete::generate(shell, &mut cmd, "errbook", &mut std::io::stdout());
    Ok(ExitCode::SUCCESS)
}

/// `errbook(1)` on stdout, or with `dir` a page per command written there (`errbook.1`,
/// `errbook-build.1`, ...), each path printed.
pub(crate) fn man(cmd: clap::Command, dir: Option<&Path>) -> Result<ExitCode> {
    let Some(dir) = dir else {
        let mut out = Vec::new();
        clap_mangen::Man::new(cmd)
            .render(&mut out)
            .map_err(|e| Error::system("writing the manual page", e))?;
        std::io::Write::write_all(&mut std::io::stdout(), &out)
            .map_err(|e| Error::system("writing the manual page", e))?;
        return Ok(ExitCode::SUCCESS);
    };
    std::fs::create_dir_all(dir).at(dir)?;
    let cmd = cmd.name("errbook");
    clap_mangen::generate_to(cmd.clone(), dir).at(dir)?;
    let mut pages = vec!["errbook.1".to_string()];
    pages.extend(
        cmd.get_subcommands()
            .filter(|s| !s.is_hide_set())
            .map(|s| format!("errbook-{}.1", s.get_name())),
    );
    for p in pages {
        let path = dir.join(p);
        if path.is_file() {
            println!("{}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
