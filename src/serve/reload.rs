//! The state shared by the rebuild loop and the HTTP workers: a build generation that pages
//! long-poll on, and the diagnostics of the last failed build to show in the browser.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct State {
    /// Goes up by one after every rebuild, successful or not.
    pub generation: u64,
    /// The last build's errors as plain text (empty when it succeeded).
    pub errors: String,
}

#[derive(Default)]
pub(super) struct Reload {
    state: Mutex<State>,
    changed: Condvar,
}

impl Reload {
    pub(super) fn current(&self) -> State {
        self.state.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Record a rebuild and wake every waiting page.
    pub(super) fn publish(&self, errors: String) {
        if let Ok(mut s) = self.state.lock() {
            s.generation += 1;
            s.errors = errors;
        }
        self.changed.notify_all();
    }

    /// Wait until the generation differs from `seen`, or `timeout` passes; returns the state.
    pub(super) fn wait_change(&self, seen: u64, timeout: Duration) -> State {
        let Ok(guard) = self.state.lock() else {
            return State::default();
        };
        match self
            .changed
            .wait_timeout_while(guard, timeout, |s| s.generation == seen)
        {
            Ok((s, _)) => s.clone(),
            Err(_) => State::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn waiters_wake_on_publish() {
        let r = Arc::new(Reload::default());
        let r2 = r.clone();
        let t = std::thread::spawn(move || r2.wait_change(0, Duration::from_secs(10)));
        std::thread::sleep(Duration::from_millis(50));
        r.publish("boom".into());
        let s = t.join().unwrap();
        assert_eq!((s.generation, s.errors.as_str()), (1, "boom"));
        // Nothing new: the wait times out with the same generation.
        assert_eq!(r.wait_change(1, Duration::from_millis(20)).generation, 1);
    }
}
