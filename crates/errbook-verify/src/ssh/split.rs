//! Sharing a plan among SSH hosts by their GPUs: each job goes to a host with enough GPUs, the
//! one it leaves least loaded (GPU jobs by GPUs per GPU, CPU jobs by runs per slot), the
//! largest needs first. Where no host has enough GPUs, the job has none.

/// What one host offers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Offer {
    pub gpus: u32,
    /// Runs at a time.
    pub slots: usize,
}

/// The host of each job (`needs[i]` GPUs), or `None` where no host can run it.
pub(super) fn assign(needs: &[u32], hosts: &[Offer]) -> Vec<Option<usize>> {
    let mut order: Vec<usize> = (0..needs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(needs[i]));
    let mut gpu_load = vec![0f64; hosts.len()];
    let mut cpu_load = vec![0f64; hosts.len()];
    let mut out = vec![None; needs.len()];
    for i in order {
        let n = needs[i];
        let cost = |h: usize| -> f64 {
            if n > 0 {
                (gpu_load[h] + n as f64) / hosts[h].gpus as f64
            } else {
                (cpu_load[h] + 1.0) / hosts[h].slots.max(1) as f64
            }
        };
        let best = (0..hosts.len())
            .filter(|&h| hosts[h].gpus >= n)
            .min_by(|&a, &b| cost(a).total_cmp(&cost(b)));
        if let Some(h) = best {
            if n > 0 {
                gpu_load[h] += n as f64;
            } else {
                cpu_load[h] += 1.0;
            }
            out[i] = Some(h);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(a: &[Option<usize>], h: usize) -> usize {
        a.iter().filter(|x| **x == Some(h)).count()
    }

    #[test]
    fn hosts_share_by_their_gpus() {
        let hosts = [Offer { gpus: 2, slots: 4 }, Offer { gpus: 8, slots: 4 }];
        let a = assign(&[1; 10], &hosts);
        assert_eq!((count(&a, 0), count(&a, 1)), (2, 8), "{a:?}");
        let a = assign(&[4, 1, 1, 3], &hosts);
        assert_eq!(a[0], Some(1), "only the larger host has 4 GPUs");
        assert_eq!(a[3], Some(1));
        assert_eq!(assign(&[9], &hosts), vec![None]);
        let cpu = assign(&[0; 8], &hosts);
        assert_eq!(
            (count(&cpu, 0), count(&cpu, 1)),
            (4, 4),
            "CPU runs by slots"
        );
        let none = [Offer { gpus: 0, slots: 2 }];
        assert_eq!(assign(&[0, 1], &none), vec![Some(0), None]);
    }
}
