//! The options that bound a long computation's resources: threads and memory.

use clap::Args;
use quoridor_solver::memory::{default_budget, parse_size};
use quoridor_solver::{Error, Result};

#[derive(Args, Debug, Clone)]
pub struct ResourceArgs {
    /// Worker threads (default: one per core). Results do not depend on it
    #[arg(long, value_name = "T")]
    threads: Option<usize>,

    /// Memory budget, e.g. 4G or 512M (default: 80% of the memory available now). Work that
    /// would need more is refused with an error before anything large is allocated
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
            Some(0) => return Err(Error::Argument("--threads must be at least 1".into())),
            Some(t) if t > 256 => {
                return Err(Error::Argument(format!("--threads {t}: at most 256")));
            }
            Some(t) => t,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let memory_budget = match &self.memory {
            Some(text) => parse_size(text)?,
            None => default_budget(),
        };
        Ok(Resources {
            threads,
            memory_budget,
        })
    }
}
