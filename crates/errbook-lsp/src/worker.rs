//! The worker thread: it owns the `Workspace` and runs the whole check when asked, so that the
//! main thread answers the editor while a check runs. Jobs that queue up while one runs are
//! taken as one. A panic in the pipeline (a bug) is caught: the workspace is started afresh and
//! the error is reported like any other failure.

use crossbeam_channel::{Receiver, Sender};
use errbook_records::RecordSet;
use errbook_site::{Analysis, Workspace};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What changed since the last job.
pub(crate) struct Job {
    /// Editors' texts taken (`Some`) or let go (`None`), by path under the root.
    pub(crate) texts: Vec<(PathBuf, Option<Arc<str>>)>,
    /// Files changed (under the root); `None`: read everything again.
    pub(crate) changed: Option<Vec<PathBuf>>,
    /// The files whose links within the site are checked (the open ones).
    pub(crate) links_of: Vec<PathBuf>,
}

impl Default for Job {
    /// Nothing changed yet.
    fn default() -> Job {
        Job {
            texts: Vec::new(),
            changed: Some(Vec::new()),
            links_of: Vec::new(),
        }
    }
}

impl Job {
    /// `self` and then `next`, as one job.
    fn then(mut self, next: Job) -> Job {
        self.texts.extend(next.texts);
        self.changed = match (self.changed, next.changed) {
            (Some(mut a), Some(b)) => {
                a.extend(b);
                Some(a)
            }
            _ => None,
        };
        self.links_of = next.links_of;
        self
    }
}

/// What a check gave.
pub(crate) type Done = Result<(Analysis, Option<Arc<RecordSet>>), String>;

/// Start the worker for the catalog at `root`.
pub(crate) fn start(root: &Path) -> (Sender<Job>, Receiver<Done>) {
    let (job_tx, job_rx) = crossbeam_channel::unbounded::<Job>();
    let (done_tx, done_rx) = crossbeam_channel::unbounded();
    let root = root.to_path_buf();
    std::thread::spawn(move || {
        let mut workspace = Workspace::new(&root, true);
        let mut open = std::collections::HashMap::new();
        let mut fresh = true;
        while let Ok(mut job) = job_rx.recv() {
            while let Ok(next) = job_rx.try_recv() {
                job = job.then(next);
            }
            for (p, t) in &job.texts {
                match t {
                    Some(t) => open.insert(p.clone(), t.clone()),
                    None => open.remove(p),
                };
            }
            if fresh {
                job.changed = None;
            }
            let done = run(&mut workspace, &job);
            fresh = done.is_err();
            if fresh {
                workspace = Workspace::new(&root, true);
                for (p, t) in &open {
                    workspace.set_open(p, Some(t.clone()));
                }
            }
            if done_tx.send(done).is_err() {
                break;
            }
        }
    });
    (job_tx, done_rx)
}

fn run(workspace: &mut Workspace, job: &Job) -> Done {
    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        for (p, t) in &job.texts {
            workspace.set_open(p, t.clone());
        }
        let analysis = workspace.check(job.changed.as_deref(), Some(&job.links_of));
        analysis.map(|a| (a, workspace.records()))
    }));
    match checked {
        Ok(Ok(done)) => Ok(done),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("errbook hit a bug while checking the catalog; please report it".into()),
    }
}
