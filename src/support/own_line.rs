//! Values on cache lines of their own. A counter that one thread adds to while another reads
//! the fields beside it makes the line they share move between the cores at every write
//! (false sharing), and a counter that every thread adds to moves between them itself: the
//! proof search's node count and its table's claims, added to as each parallel child search
//! ends, cost a 2-thread search of 3x7 with 5 walls about 30 % of its time (docs/PERFORMANCE.md).
//! 128 bytes, two lines: the cores fetch lines in adjacent pairs.

use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug, Default)]
#[repr(align(128))]
pub struct OwnLine<T>(pub T);

impl<T> Deref for OwnLine<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for OwnLine<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

/// The calling thread's index among `threads` per-thread slots: its place in the current
/// rayon pool (folded into the slots), or the first slot outside any pool.
#[inline]
pub fn this_thread(threads: usize) -> usize {
    rayon::current_thread_index().unwrap_or(0) % threads
}

/// A count that the threads of the current rayon pool add to, each on its own lines, and
/// that is read as their sum (reads are rare: between iterations, for progress).
#[derive(Debug)]
pub struct Tally {
    /// One per thread of the pool; threads outside it add to the first.
    parts: Box<[OwnLine<AtomicU64>]>,
}

impl Default for Tally {
    fn default() -> Self {
        Tally::new(0)
    }
}

impl Tally {
    /// A tally starting at `value`, for the threads of the current rayon pool.
    pub fn new(value: u64) -> Tally {
        let tally = Tally {
            parts: (0..rayon::current_num_threads())
                .map(|_| OwnLine(AtomicU64::new(0)))
                .collect(),
        };
        tally.set(value);
        tally
    }

    pub fn add(&self, n: u64) {
        self.parts[this_thread(self.parts.len())].fetch_add(n, Ordering::Relaxed);
    }

    pub fn get(&self) -> u64 {
        self.parts.iter().map(|p| p.load(Ordering::Relaxed)).sum()
    }

    /// Sets the count to `value` (with no thread adding to it at the time).
    pub fn set(&self, value: u64) {
        for (i, part) in self.parts.iter().enumerate() {
            part.store(if i == 0 { value } else { 0 }, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    #[test]
    fn a_tally_sums_what_every_thread_adds() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        pool.install(|| {
            let tally = Tally::new(5);
            (0..1000u64).into_par_iter().for_each(|i| tally.add(i));
            tally.add(1); // from the installing thread, outside or inside the pool alike
            assert_eq!(tally.get(), 5 + 999 * 1000 / 2 + 1);
            tally.set(7);
            assert_eq!(tally.get(), 7);
        });
    }
}
