//! `errbook build`: the whole pipeline into the output directory (`book/`, or `book-offline/` for
//! `--offline`); on content errors the
//! diagnostics are printed and the previous output is left as it was. On a terminal (and not in
//! CI), a build that takes longer than a second shows the pages rendered of all.

use errbook_core::Config;
use errbook_core::{Error, Result};
use errbook_site::{BuildOptions, OnProgress};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub(crate) fn run(
    root: &Path,
    dest: Option<PathBuf>,
    offline: bool,
    single_thread: bool,
    no_infer: bool,
    drafts: bool,
) -> Result<ExitCode> {
    let cfg = Config::load(root)?;
    // An offline bundle differs from the hosted site in every link: it has a folder of its own
    // (`book-offline` beside `book`), so that it never replaces the site being published.
    let dest = dest.unwrap_or_else(|| {
        let out = root.join(&cfg.build.output_dir);
        if offline {
            let mut name = out.file_name().unwrap_or_default().to_os_string();
            name.push("-offline");
            out.with_file_name(name)
        } else {
            out
        }
    });
    let opts = BuildOptions {
        dest: dest.clone(),
        offline,
        single_thread,
        no_infer,
        drafts,
        progress: None,
    };
    let bar = show_progress().then(Bar::new);
    let opts = BuildOptions {
        progress: bar.as_ref().map(Bar::callback),
        ..opts
    };
    let built = errbook_site::build(root, &cfg, &opts);
    if let Some(b) = bar {
        b.pb.finish_and_clear();
    }
    // As users name it: `book`, not `./book`.
    let dest = dest
        .strip_prefix(".")
        .map_or(dest.clone(), Path::to_path_buf);
    match built {
        Ok((report, diags)) => {
            super::print_diagnostics(&diags);
            for over in report.size.over() {
                eprintln!("warning: {over}; see docs/publishing.md");
            }
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

/// Whether to draw progress: stderr is a terminal and this is not CI (`CI` set).
fn show_progress() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal() && std::env::var_os("CI").is_none()
}

/// How long a build runs before its bar is drawn: a second, or `ERRBOOK_PROGRESS_AFTER_MS`
/// (the tests draw it at once, whatever the machine's speed).
fn progress_after() -> Duration {
    std::env::var("ERRBOOK_PROGRESS_AFTER_MS")
        .ok()
        .and_then(|ms| ms.trim().parse().ok())
        .map_or(Duration::from_secs(1), Duration::from_millis)
}

/// Pages rendered of all, drawn once the build has taken a second (a quick build shows nothing).
struct Bar {
    pb: ProgressBar,
    start: Instant,
    shown: Arc<AtomicBool>,
}

impl Bar {
    fn new() -> Bar {
        let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template("rendering {bar:30} {pos}/{len} pages {elapsed}");
        pb.set_style(style.unwrap_or_else(|_| ProgressStyle::default_bar()));
        Bar {
            pb,
            start: Instant::now(),
            shown: Arc::new(AtomicBool::new(false)),
        }
    }

    fn callback(&self) -> OnProgress {
        let (pb, start, shown) = (self.pb.clone(), self.start, self.shown.clone());
        let after = progress_after();
        OnProgress(Arc::new(move |done, total| {
            if !shown.load(Ordering::Relaxed) {
                if start.elapsed() < after {
                    return;
                }
                if shown.swap(true, Ordering::AcqRel) {
                    return;
                }
                pb.set_length(total as u64);
                pb.set_draw_target(ProgressDrawTarget::stderr());
            }
            pb.set_position(done as u64);
        }))
    }
}
