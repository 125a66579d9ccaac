//! What errbook does, on stderr, for a person finding out why it is slow or stuck: the `tracing`
//! subscriber the binary installs (the library crates only emit spans and events). `--debug`
//! shows errbook's own debug events (the commands `verify` runs over SSH and Slurm, each sandboxed
//! run, what `serve`'s watcher reports, each request `serve` answers) and every stage's time as it
//! ends; `RUST_LOG` picks any other set (`EnvFilter`'s syntax: `RUST_LOG=errbook_site=info` for
//! the build's stages alone). With neither, no subscriber is installed and errbook prints what it
//! always has.

use std::io::IsTerminal;
use tracing_subscriber::fmt::format::FmtSpan;
use tracing_subscriber::EnvFilter;

/// What `--debug` shows: every errbook crate (a directive's target is a prefix of the targets it
/// matches: `errbook` takes in `errbook_site::build` and the binary's own `errbook::cmd`), and
/// tower-http's trace of each request `serve` answers.
const DEBUG: &str = "errbook=debug,tower_http=debug";

/// The directives for `--debug` (`debug`) and `RUST_LOG` (`env`); `None`: print nothing more.
fn directives(debug: bool, env: Option<String>) -> Option<String> {
    let env = env.filter(|e| !e.trim().is_empty());
    match (debug, env) {
        (false, None) => None,
        (true, None) => Some(DEBUG.to_string()),
        (false, Some(env)) => Some(env),
        // RUST_LOG's come after, and so refine or override what --debug shows.
        (true, Some(env)) => Some(format!("{DEBUG},{env}")),
    }
}

/// Install the subscriber when `--debug` or `RUST_LOG` asks for one: lines on stderr, each span
/// told when it closes with its time (`time.busy`: running, `time.idle`: entered but waiting).
pub(crate) fn install(debug: bool) {
    let Some(directives) = directives(debug, std::env::var("RUST_LOG").ok()) else {
        return;
    };
    // A directive that does not parse is named on stderr and left out.
    let filter = EnvFilter::builder().parse_lossy(directives);
    // Fails only when one is installed already, which cannot happen here.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_span_events(FmtSpan::CLOSE)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing::subscriber::with_default;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::Registry;

    #[test]
    fn debug_and_rust_log_choose_the_directives() {
        assert_eq!(directives(false, None), None);
        assert_eq!(directives(false, Some(" ".into())), None);
        assert_eq!(directives(true, None).as_deref(), Some(DEBUG));
        let env = Some("errbook_site=info".to_string());
        assert_eq!(directives(false, env.clone()), env);
        assert_eq!(
            directives(true, env).as_deref(),
            Some("errbook=debug,tower_http=debug,errbook_site=info")
        );
    }

    /// Whether `filter` lets an event of `target` at debug level through.
    fn lets_through(filter: &str, target: &'static str) -> bool {
        let seen = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let s = seen.clone();
        let layer = tracing_subscriber::fmt::layer().with_writer(move || {
            s.store(true, std::sync::atomic::Ordering::Relaxed);
            std::io::sink()
        });
        let subscriber = Registry::default().with(EnvFilter::new(filter)).with(layer);
        with_default(subscriber, || match target {
            "errbook_site::build" => tracing::debug!(target: "errbook_site::build", "x"),
            "errbook_verify::slurm" => tracing::debug!(target: "errbook_verify::slurm", "x"),
            "errbook" => tracing::debug!(target: "errbook", "x"),
            _ => tracing::debug!(target: "notify::inotify", "x"),
        });
        seen.load(std::sync::atomic::Ordering::Relaxed)
    }

    #[test]
    fn errbook_debug_takes_in_every_errbook_crate_and_nothing_else() {
        for target in ["errbook_site::build", "errbook_verify::slurm", "errbook"] {
            assert!(lets_through(DEBUG, target), "{target}");
        }
        assert!(!lets_through(DEBUG, "notify::inotify"));
        assert!(!lets_through("errbook_site=info", "errbook_site::build"));
    }
}
