//! The state shared by the rebuild loop and the HTTP side: a build generation that pages
//! long-poll on, and the diagnostics of the last failed build to show in the browser.
//!
//! A tokio `watch` channel holds it: the rebuild loop publishes from its own thread, and each
//! long poll waits on the channel as a task, holding no thread (a thread per waiting page is what
//! let a few hundred open pages starve the file reads of the blocking pool).

use std::time::Duration;
use tokio::sync::watch;

#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct State {
    /// Goes up by one after every rebuild, successful or not.
    pub generation: u64,
    /// The last build's errors as plain text (empty when it succeeded).
    pub errors: String,
    /// Only content pages changed (no theme, static file or configuration): an open page may
    /// swap in its new `<main>` instead of reloading everything.
    pub soft: bool,
}

pub(super) struct Reload {
    tx: watch::Sender<State>,
}

impl Default for Reload {
    fn default() -> Self {
        Reload {
            tx: watch::Sender::new(State::default()),
        }
    }
}

impl Reload {
    pub(super) fn current(&self) -> State {
        self.tx.borrow().clone()
    }

    /// Record a rebuild and wake every waiting page.
    pub(super) fn publish(&self, errors: String) {
        self.tx.send_modify(|s| {
            s.generation += 1;
            s.errors = errors;
            s.soft = false;
        });
    }

    /// Record a rebuild that changed content pages only, and wake every waiting page.
    pub(super) fn publish_pages(&self) {
        self.tx.send_modify(|s| {
            s.generation += 1;
            s.errors = String::new();
            s.soft = true;
        });
    }

    /// Wait until the generation differs from `seen`, or `timeout` passes; returns the state.
    pub(super) async fn wait_change(&self, seen: u64, timeout: Duration) -> State {
        let mut rx = self.tx.subscribe();
        let changed = async {
            rx.wait_for(|s| s.generation != seen)
                .await
                .map(|s| s.clone())
        };
        match tokio::time::timeout(timeout, changed).await {
            Ok(Ok(s)) => s,
            _ => self.current(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn waiters_wake_on_publish() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let r = Arc::new(Reload::default());
        let r2 = r.clone();
        let waiter = rt.spawn(async move { r2.wait_change(0, Duration::from_secs(10)).await });
        std::thread::sleep(Duration::from_millis(20));
        r.publish("boom".into());
        let s = rt.block_on(waiter).unwrap();
        assert_eq!((s.generation, s.errors.as_str()), (1, "boom"));
        // Nothing new: the wait times out with the same generation.
        let same = rt.block_on(r.wait_change(1, Duration::from_millis(20)));
        assert_eq!(same.generation, 1);
    }
}
