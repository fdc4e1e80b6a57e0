//! The ranks an analysis runs on (`across.rs`): processes that each solve a share of every
//! layer and meet in collective exchanges. The library knows them through this trait only;
//! MPI's ranks (`mpirun`, the `mpi` feature) implement it at the edge (`cli/mpi_ranks.rs`),
//! and `InProcess` runs ranks as threads of one process, for the tests and for machines
//! without MPI.

use crate::error::Error;
use std::sync::{Arc, Barrier, Mutex};

/// One rank among `size()`, and the collectives the analysis needs. Every rank makes the
/// same calls in the same order (they are collective).
pub trait Ranks: Send + Sync {
    /// This rank, from 0; rank 0 writes the files every rank shares and prints.
    fn rank(&self) -> usize;

    /// The number of ranks.
    fn size(&self) -> usize;

    /// All to all: `send[r]` goes to rank `r`; returns what each rank sent to this one, in
    /// rank order.
    fn exchange(&self, send: Vec<Vec<u8>>) -> Vec<Vec<u8>>;
}

/// The ranks of a run, shared by its options (`saved_dir::Target::ranks`).
#[derive(Clone)]
pub struct SharedRanks(pub Arc<dyn Ranks>);

impl std::fmt::Debug for SharedRanks {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "rank {} of {}", self.0.rank(), self.0.size())
    }
}

/// Every rank's `bytes`, on every rank, in rank order.
pub fn all_gather(ranks: &dyn Ranks, bytes: &[u8]) -> Vec<Vec<u8>> {
    ranks.exchange(vec![bytes.to_vec(); ranks.size()])
}

/// Waits until every rank is here.
pub fn barrier(ranks: &dyn Ranks) {
    all_gather(ranks, &[]);
}

/// The largest of every rank's `value`.
pub fn all_max(ranks: &dyn Ranks, value: u64) -> u64 {
    all_gather(ranks, &value.to_le_bytes())
        .iter()
        .map(|b| u64::from_le_bytes(b[..8].try_into().expect("8 bytes")))
        .max()
        .unwrap_or(value)
}

/// Ranks as threads of this process: `InProcess::ranks(n)` gives one handle a rank, each
/// to be moved to its own thread. The exchanges go through shared memory.
pub struct InProcess {
    rank: usize,
    shared: Arc<Mailbox>,
}

/// What the ranks of one process post for each other: by sender, by receiver.
struct Mailbox {
    size: usize,
    posted: Mutex<Vec<Vec<Option<Vec<u8>>>>>,
    /// Once everyone has posted; once everyone has taken its own.
    posted_all: Barrier,
    taken_all: Barrier,
}

impl InProcess {
    /// `n` ranks, the handle of rank `r` at index `r`.
    pub fn ranks(n: usize) -> Vec<InProcess> {
        let shared = Arc::new(Mailbox {
            size: n,
            posted: Mutex::new(vec![Vec::new(); n]),
            posted_all: Barrier::new(n),
            taken_all: Barrier::new(n),
        });
        (0..n)
            .map(|rank| InProcess {
                rank,
                shared: Arc::clone(&shared),
            })
            .collect()
    }
}

impl Ranks for InProcess {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.shared.size
    }

    fn exchange(&self, send: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        assert_eq!(send.len(), self.shared.size, "one message a rank");
        let posted = || self.shared.posted.lock().expect("no rank panicked");
        posted()[self.rank] = send.into_iter().map(Some).collect();
        self.shared.posted_all.wait();
        let received = (0..self.shared.size)
            .map(|from| posted()[from][self.rank].take().expect("posted once"))
            .collect();
        self.shared.taken_all.wait();
        received
    }
}

/// Error `e` of a rank, its message led by `who` (the rank, and the layer where there is
/// one); refusals every rank makes alike are left as they are. An I/O error is wrapped
/// whole (`Error::Rank`), so that it keeps its source.
pub fn naming(e: Error, who: &str) -> Error {
    match e {
        e @ (Error::Io { .. } | Error::System(_)) => Error::Rank {
            who: who.to_string(),
            error: Box::new(e),
        },
        Error::Damaged(m) => Error::Damaged(format!("{who}: {m}")),
        Error::Disk {
            dir,
            what,
            needed,
            free,
        } => Error::Disk {
            dir,
            what: format!("{who}: {what}"),
            needed,
            free,
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rank_gets_what_each_sent_it() {
        let handles: Vec<_> = InProcess::ranks(3)
            .into_iter()
            .map(|r| {
                std::thread::spawn(move || {
                    let me = r.rank() as u8;
                    let send = (0..3u8).map(|to| vec![me, to]).collect();
                    let first = r.exchange(send);
                    let second = all_max(&r, me as u64 * 10);
                    (first, second)
                })
            })
            .collect();
        for (me, h) in handles.into_iter().enumerate() {
            let (got, max) = h.join().unwrap();
            let want: Vec<Vec<u8>> = (0..3u8).map(|from| vec![from, me as u8]).collect();
            assert_eq!(got, want);
            assert_eq!(max, 20);
        }
    }
}
