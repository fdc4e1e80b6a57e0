//! The eager tables' per-configuration record: its walls (horizontal and vertical anchor
//! sets) and the cells from which each player reaches their goal. Four cell sets, kept in
//! 64-bit words: on boards of at most 64 cells one 32-byte quad per configuration (the
//! size records had before boards could be wider, so a big cell's tables stay as small and
//! its search reads no more cache lines), on wider boards two quads, each set as its low word
//! then its high word.

use crate::rules::bitboard::Squares;
use crate::rules::geometry::Board;
use crate::rules::walls::WallSet;
use crate::support::memory::huge_vec;
use rayon::prelude::*;

/// The sets of a record, in order.
pub const HORIZONTAL: usize = 0;
pub const VERTICAL: usize = 1;
/// `REACH + player index`.
pub const REACH: usize = 2;

/// Four words, aligned so that a record never straddles two cache lines.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct Quad([u64; 4]);

pub struct Records {
    /// Two quads per configuration (boards of over 64 cells), else one.
    wide: bool,
    quads: Vec<Quad>,
}

impl Records {
    /// Bytes per configuration on `board`.
    pub fn bytes_per_config(board: Board) -> usize {
        std::mem::size_of::<Quad>() * quads_per_config(board)
    }

    /// One record per chunk of `extra_per` items of `extra`, each filled by `fill(index,
    /// its chunk)`, which returns the record's four sets and may write the chunk (the
    /// tables' hot bytes are filled in the same pass), in parallel.
    pub fn build<X: Send>(
        board: Board,
        extra: &mut [X],
        extra_per: usize,
        fill: impl Fn(usize, &mut [X]) -> [Squares; 4] + Sync + Send,
    ) -> Records {
        let per = quads_per_config(board);
        let count = extra.len() / extra_per;
        let mut quads = huge_vec(count * per, Quad::default());
        quads
            .par_chunks_mut(per)
            .zip(extra.par_chunks_mut(extra_per))
            .enumerate()
            .with_min_len(4096)
            .for_each(|(i, (quads, extra))| {
                let sets = fill(i, extra);
                if per == 1 {
                    quads[0] = Quad(sets.map(|s| s as u64));
                } else {
                    let words = |k: usize| [sets[k] as u64, (sets[k] >> 64) as u64];
                    let [a, b] = [words(0), words(1)];
                    let [c, d] = [words(2), words(3)];
                    quads[0] = Quad([a[0], a[1], b[0], b[1]]);
                    quads[1] = Quad([c[0], c[1], d[0], d[1]]);
                }
            });
        Records {
            wide: per == 2,
            quads,
        }
    }

    pub fn len(&self) -> usize {
        self.quads.len() >> usize::from(self.wide)
    }

    /// Set `k` (`HORIZONTAL`, `VERTICAL`, `REACH + player`) of configuration `id`.
    #[inline(always)]
    pub fn set(&self, id: usize, k: usize) -> Squares {
        if self.wide {
            let quad = &self.quads[2 * id + k / 2].0;
            let j = 2 * (k % 2);
            quad[j] as Squares | (quad[j + 1] as Squares) << 64
        } else {
            self.quads[id].0[k] as Squares
        }
    }

    #[inline(always)]
    pub fn walls(&self, id: usize) -> WallSet {
        WallSet {
            horizontal: self.set(id, HORIZONTAL),
            vertical: self.set(id, VERTICAL),
        }
    }
}

fn quads_per_config(board: Board) -> usize {
    if board.squares() <= 64 { 1 } else { 2 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every set comes back as it went in, on a board of at most 64 cells and on a wider one.
    #[test]
    fn sets_round_trip() {
        for (w, h) in [(8, 8), (9, 9), (16, 8)] {
            let board = Board::new(w, h).unwrap();
            let all = board.all_squares();
            let sets = |i: usize| {
                [0, 1, 2, 3].map(|k| (all / 3).rotate_left((7 * i + 13 * k) as u32) & all)
            };
            let mut extra = vec![0u8; 1000];
            let records = Records::build(board, &mut extra, 1, |i, x| {
                x[0] = i as u8;
                sets(i)
            });
            assert!(extra.iter().enumerate().all(|(i, &x)| x == i as u8));
            assert_eq!(records.len(), 1000);
            for i in 0..1000 {
                for k in 0..4 {
                    assert_eq!(records.set(i, k), sets(i)[k], "{board} {i} {k}");
                }
                assert_eq!(records.walls(i).vertical, sets(i)[VERTICAL]);
            }
        }
        assert_eq!(Records::bytes_per_config(Board::new(8, 8).unwrap()), 32);
        assert_eq!(Records::bytes_per_config(Board::new(9, 9).unwrap()), 64);
    }
}
