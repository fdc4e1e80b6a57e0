//! The options that bound a long computation's resources: threads and memory.

use clap::Args;
use quoridor_solver::error::{Bound, Setting, format_bytes};
use quoridor_solver::support::memory::{default_budget, parse_size, physical_bytes};
use quoridor_solver::{Error, Result};

#[derive(Args, Debug, Clone)]
pub struct ResourceArgs {
    /// Worker threads (default: one per core). Results do not depend on it
    #[arg(long, value_name = "T")]
    threads: Option<usize>,

    /// Memory budget, e.g. 4G or 512M (default: 80% of the memory available now), at most
    /// the machine's physical memory. Work that would need more is refused with an error
    /// before anything large is allocated
    #[arg(long, value_name = "SIZE")]
    memory: Option<String>,
}

/// Checked resource limits.
#[derive(Clone, Copy, Debug)]
pub struct Resources {
    pub threads: usize,
    pub memory_budget: u64,
}

impl ResourceArgs {
    pub fn validate(&self) -> Result<Resources> {
        let threads = match self.threads {
            Some(0) => return Err(Error::limit(Setting::Threads, 0, Bound::AtLeast(1))),
            Some(t) if t > 256 => {
                return Err(Error::limit(Setting::Threads, t as i64, Bound::AtMost(256)));
            }
            Some(t) => t,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let memory_budget = match &self.memory {
            Some(text) => within_physical(text, parse_size(text)?)?,
            None => default_budget(),
        };
        Ok(Resources {
            threads,
            memory_budget,
        })
    }
}

/// Refuses a budget above the machine's physical memory: every check against it would
/// pass, and the work would fail later, when the system cannot give what was allowed (an
/// allocation failure and an abort, not an error message). Unknown physical memory lets
/// the budget stand.
fn within_physical(text: &str, budget: u64) -> Result<u64> {
    match physical_bytes() {
        Some(physical) if budget > physical => Err(Error::Argument(format!(
            "--memory {}: {} is more than this machine's physical memory, {}",
            quoridor_solver::error::clip(text),
            format_bytes(budget),
            format_bytes(physical)
        ))),
        _ => Ok(budget),
    }
}
