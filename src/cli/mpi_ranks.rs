//! MPI's ranks for the analysis across ranks (`solve --distributed` under `mpirun`), behind
//! the `mpi` feature: the library's `Ranks` over MPI's world communicator, its exchange
//! one `MPI_Alltoall` of the sizes and one `MPI_Alltoallv` of the bytes; and `solve` run
//! as one rank of the job (`as_a_rank`).

use mpi::Count;
use mpi::datatype::{Partition, PartitionMut};
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use quoridor_solver::cell::solve::{RankEnd, solve_as_rank};
use quoridor_solver::cell::solver::SolveOptions;
use quoridor_solver::retro::ranks::Ranks;
use quoridor_solver::rules::cell::Cell;
use quoridor_solver::{Error, Result};
use std::process::ExitCode;
use std::sync::Mutex;

/// `solve --distributed` of `cell` under `options`: this process becomes a rank of the MPI
/// job (`cell::solve::solve_as_rank`). Rank 0 runs `here`, which solves as one process
/// would (the ranks in the options it is given) and prints; any other rank solves its share
/// of every layer and prints nothing. Refusals that every rank makes alike are printed by
/// rank 0 alone, and the job ends with its status 2. Any other error stops the whole job:
/// the rank prints it, naming itself and the layer, and aborts every rank.
pub fn as_a_rank(
    cell: Cell,
    options: SolveOptions,
    here: impl FnOnce(SolveOptions) -> Result<ExitCode>,
) -> Result<ExitCode> {
    let ranks = std::sync::Arc::new(MpiRanks::start()?);
    match solve_as_rank(cell, options, ranks.clone(), here) {
        RankEnd::Done(code) => Ok(code.unwrap_or(ExitCode::SUCCESS)),
        RankEnd::Refused(e) => Err(e),
        RankEnd::Quiet => Ok(ExitCode::SUCCESS),
        RankEnd::Abort(e) => {
            eprintln!("error: {}", super::error_text(&e));
            ranks.abort(2)
        }
    }
}

pub struct MpiRanks {
    rank: usize,
    size: usize,
    world: Mutex<SimpleCommunicator>,
    /// Dropped last, with this: MPI is finalised then.
    _universe: Universe,
}

// SAFETY: MPI is initialised for serialized threads (any thread, one at a time), and every
// call goes through the mutex.
unsafe impl Send for MpiRanks {}
unsafe impl Sync for MpiRanks {}

impl MpiRanks {
    /// Initialises MPI (a process started without `mpirun` is one rank of one).
    pub fn start() -> Result<MpiRanks> {
        let (universe, threading) = mpi::initialize_with_threading(mpi::Threading::Serialized)
            .ok_or_else(|| Error::Argument("MPI was initialised already".into()))?;
        if threading < mpi::Threading::Serialized {
            return Err(Error::Argument(format!(
                "this MPI gives threads {threading:?}, the analysis needs Serialized"
            )));
        }
        let world = universe.world();
        Ok(MpiRanks {
            rank: world.rank() as usize,
            size: world.size() as usize,
            world: Mutex::new(world),
            _universe: universe,
        })
    }

    /// Ends every rank of the job with exit status `code` (`MPI_Abort`).
    pub fn abort(&self, code: i32) -> ! {
        // A poisoned lock still holds the communicator: abort is what is wanted anyway.
        let world = self.world.lock().unwrap_or_else(|e| e.into_inner());
        world.abort(code)
    }
}

impl Ranks for MpiRanks {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn exchange(&self, send: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        let world = self.world.lock().expect("no rank thread panicked");
        let counts: Vec<Count> = send
            .iter()
            .map(|m| Count::try_from(m.len()).expect("a message of less than 2 GiB"))
            .collect();
        let mut received = vec![0 as Count; self.size];
        world.all_to_all_into(&counts[..], &mut received[..]);
        let (send_at, receive_at) = (displacements(&counts), displacements(&received));
        // Never an empty allocation: an empty vector's dangling address is 1, which is
        // OpenMPI's MPI_IN_PLACE.
        let mut flat = Vec::with_capacity(counts.iter().map(|&c| c as usize).sum::<usize>() + 1);
        send.iter().for_each(|m| flat.extend_from_slice(m));
        let total: usize = received.iter().map(|&c| c as usize).sum();
        let mut into = Vec::with_capacity(total + 1);
        into.resize(total, 0u8);
        {
            let from = Partition::new(&flat[..], &counts[..], &send_at[..]);
            let mut to = PartitionMut::new(&mut into[..], &received[..], &receive_at[..]);
            world.all_to_all_varcount_into(&from, &mut to);
        }
        received
            .iter()
            .zip(&receive_at)
            .map(|(&c, &at)| into[at as usize..(at + c) as usize].to_vec())
            .collect()
    }
}

/// Where each rank's message starts in the flat buffer of messages of `counts` bytes.
fn displacements(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0 as Count, |at, &c| {
            let start = *at;
            *at = at
                .checked_add(c)
                .expect("the messages of a round under 2 GiB");
            Some(start)
        })
        .collect()
}
