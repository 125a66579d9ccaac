//! `errbook build`: the whole pipeline into the output directory; on content errors the
//! diagnostics are printed and the previous output is left as it was.

use errbook::site::BuildOptions;
use errbook::Config;
use errbook::{Error, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub(crate) fn run(
    root: &Path,
    dest: Option<PathBuf>,
    offline: bool,
    single_thread: bool,
    no_infer: bool,
    drafts: bool,
) -> Result<ExitCode> {
    let cfg = Config::load(root)?;
    let dest = dest.unwrap_or_else(|| root.join(&cfg.build.output_dir));
    let opts = BuildOptions {
        dest: dest.clone(),
        offline,
        single_thread,
        no_infer,
        drafts,
    };
    match errbook::site::build(root, &cfg, &opts) {
        Ok((report, diags)) => {
            super::print_diagnostics(&diags);
            eprintln!(
                "built {} pages ({} files) into {} in {} ms{}",
                report.pages,
                report.files_written,
                dest.display(),
                report.millis,
                if offline {
                    " (offline bundle: open index.html from disk)"
                } else {
                    ""
                }
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(Error::Content { errors, diags }) => {
            super::print_diagnostics(&diags);
            eprintln!(
                "build failed: {errors} error(s); nothing was written, {} is unchanged",
                dest.display()
            );
            Ok(ExitCode::from(1))
        }
        Err(e) => Err(e),
    }
}
