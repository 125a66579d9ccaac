//! SSH hosts (in progress).
use super::gpu::Host;
use super::job::{Backend, Job, Update};
use super::options::SshHost;
use super::wire::WorkPlan;
use crate::core::config::SshConfig;
use crate::core::error::{Error, Result};
use std::sync::atomic::AtomicBool;

pub(crate) struct Ssh {
    host: Host,
}

impl Ssh {
    pub(crate) fn prepare(_h: &[SshHost], _c: &SshConfig, _p: WorkPlan) -> Result<Ssh> {
        Err(Error::Other("ssh: not yet".into()))
    }
}

impl Backend for Ssh {
    fn host(&self) -> &Host {
        &self.host
    }
    fn max_gpus(&self) -> u32 {
        0
    }
    fn jobs(&self) -> usize {
        0
    }
    fn describe(&self) -> String {
        String::new()
    }
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }
    fn run(&mut self, _jobs: Vec<Job>, _c: &AtomicBool, _s: &mut dyn FnMut(Update)) {}
}
