//! Slurm (in progress).
use super::gpu::Host;
use super::job::{Backend, Job, Update};
use super::options::Options;
use super::wire::WorkPlan;
use crate::core::config::Config;
use crate::core::error::{Error, Result};
use std::path::Path;
use std::sync::atomic::AtomicBool;

pub(crate) struct Slurm {
    host: Host,
}

impl Slurm {
    pub(crate) fn prepare(_r: &Path, _c: &Config, _o: &Options, _p: WorkPlan) -> Result<Slurm> {
        Err(Error::Other("slurm: not yet".into()))
    }
}

impl Backend for Slurm {
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
