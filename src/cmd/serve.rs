//! `errbook serve`: build, serve on 127.0.0.1, rebuild on change, reload the browser.

use errbook::core::config::Config;
use errbook::serve::{http, reload::Reload, watch};
use errbook::site::rebuild::Live;
use errbook::site::BuildOptions;
use errbook::{Error, Result};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

pub(crate) fn run(root: &Path, port: u16, open: bool) -> Result<ExitCode> {
    let cfg = Config::load(root)?;
    let dest = root.join(&cfg.build.output_dir);
    let opts = BuildOptions {
        dest: dest.clone(),
        ..Default::default()
    };
    let reload = Arc::new(Reload::default());
    let mut live = report(
        Live::start(root, &opts).map(|(l, r, d)| (Some(l), r.pages, r.millis, d)),
        &reload,
    );

    let listener = std::net::TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| Error::Other(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
    http::spawn(listener, dest.clone(), reload.clone())?;
    let url = format!("http://127.0.0.1:{port}/");
    eprintln!("serving {} at {url} (Ctrl-C to stop)", dest.display());
    if open {
        if let Err(e) = opener::open(&url) {
            eprintln!("could not open a browser: {e}");
        }
    }
    let paths = watch::watched(root, &cfg);
    watch::run(&paths, |changed| {
        live = match live.take() {
            // Incremental: only what depends on the changed files is rendered and written.
            Some(mut l) => match l.update_then(&changed, &mut |page, ms| {
                eprintln!("written: {page} in {ms} ms (the pages linking to it follow)");
                reload.publish(String::new());
            }) {
                // Nothing really changed (a file saved as it was): no rebuild, no reload.
                Ok((u, _)) if u.rendered == 0 && !u.full => Some(l),
                Ok((u, d)) => {
                    for p in changed.iter().take(3) {
                        eprintln!("changed: {}", p.strip_prefix(root).unwrap_or(p).display());
                    }
                    eprintln!(
                        "{} files rendered, {} changed on disk{}",
                        u.rendered,
                        u.written.len(),
                        if u.full { " (full build)" } else { "" }
                    );
                    report(Ok((Some(l), u.written.len(), u.millis, d)), &reload)
                }
                // The last good state stays; the failed files are retried with the next change.
                Err(e) => {
                    report(Err(e), &reload);
                    Some(l)
                }
            },
            None => report(
                Live::start(root, &opts).map(|(l, r, d)| (Some(l), r.pages, r.millis, d)),
                &reload,
            ),
        };
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Print how a (re)build went and tell the open pages; hand back the state to keep.
fn report(
    result: Result<(Option<Live>, usize, u128, errbook::core::diag::Diagnostics)>,
    reload: &Reload,
) -> Option<Live> {
    match result {
        Ok((live, n, millis, diags)) => {
            diags.print();
            eprintln!("built: {n} pages in {millis} ms");
            reload.publish(String::new());
            live
        }
        Err(Error::Content { errors, diags }) => {
            diags.print();
            eprintln!("build failed with {errors} error(s); still serving the previous build");
            let text: Vec<String> = diags
                .items
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.render(false))
                .collect();
            reload.publish(text.join("\n"));
            None
        }
        Err(e) => {
            eprintln!("build failed: {e}");
            reload.publish(e.to_string());
            None
        }
    }
}
