//! Where a position's code lives: one `Vec<Code>` per layer (walls on the board), made of
//! blocks, one per (configuration, split of walls left), configurations in id order and
//! splits by Player 1's walls left, ascending. A block holds every pawn placement for both
//! sides to move; slots where the pawns coincide or a pawn is cut off stay unused (they are
//! not positions, see `mod.rs`).
//!
//! ```text
//!  layer k:  | config c0, split 0 | config c0, split 1 | config c1, split 0 | ...
//!  block:    index = (side * S + p1) * S + p2      S = W * H cells, side 0 = Player 1 to move
//!            e.g. 2x3 (S = 6): Player 2 to move, p1 = a1 (0), p2 = b3 (5): (6 + 0) * 6 + 5 = 41
//! ```
//!
//! With `k` walls on the board the players hold `2N - k` walls between them, each at most
//! `N`: Player 1 holds `max(0, N - k) ..= min(N, 2N - k)`, one split per value.

use crate::configs::ConfigId;
use crate::geometry::{Cell, Player};
use crate::tables::Tables;

/// The shape of one layer of the store.
#[derive(Clone, Debug)]
struct Shape {
    /// The first configuration id of the layer.
    first: ConfigId,
    configs: usize,
    /// Player 1's fewest walls left in this layer.
    min_left: u8,
    splits: usize,
}

#[derive(Clone, Debug)]
pub struct Layout {
    cells: usize,
    walls_per_player: u8,
    shapes: Vec<Shape>,
}

/// Player 1's walls left in layer `k` of a cell with `n` walls each: the first value and
/// how many (0 when the players cannot have placed `k` walls).
pub fn splits(n: u8, k: usize) -> (u8, usize) {
    let n = n as usize;
    if k > 2 * n {
        return (0, 0);
    }
    let lo = n.saturating_sub(k);
    let hi = n.min(2 * n - k);
    (lo as u8, hi - lo + 1)
}

impl Layout {
    pub fn new(tables: &Tables) -> Layout {
        let n = tables.walls_per_player();
        let shapes = (0..tables.layers())
            .map(|k| {
                let ids = tables.layer(k);
                let (min_left, splits) = splits(n, k);
                Shape {
                    first: ids.start,
                    configs: (ids.end - ids.start) as usize,
                    min_left,
                    splits,
                }
            })
            .collect();
        Layout {
            cells: tables.board().cells(),
            walls_per_player: n,
            shapes,
        }
    }

    pub fn layers(&self) -> usize {
        self.shapes.len()
    }

    /// Slots of one block: every ordered pair of cells, both sides to move.
    #[inline(always)]
    pub fn block_len(&self) -> usize {
        2 * self.cells * self.cells
    }

    pub fn splits(&self, k: usize) -> usize {
        self.shapes[k].splits
    }

    /// Slots of layer `k`.
    pub fn layer_len(&self, k: usize) -> usize {
        self.shapes[k].configs * self.shapes[k].splits * self.block_len()
    }

    /// The first configuration id of layer `k`.
    pub fn first_config(&self, k: usize) -> ConfigId {
        self.shapes[k].first
    }

    /// Walls left of both players in split `j` of layer `k`.
    pub fn split_left(&self, k: usize, j: usize) -> [u8; 2] {
        let left1 = self.shapes[k].min_left + j as u8;
        let total = 2 * self.walls_per_player - k as u8;
        [left1, total - left1]
    }

    /// Where the block of `config` (in layer `k`) with Player 1 holding `left1` walls
    /// starts in the layer's vector. The split must exist in the layer.
    #[inline(always)]
    pub fn block_start(&self, k: usize, config: ConfigId, left1: u8) -> usize {
        let s = &self.shapes[k];
        debug_assert!(left1 >= s.min_left && ((left1 - s.min_left) as usize) < s.splits);
        let block = (config - s.first) as usize * s.splits + (left1 - s.min_left) as usize;
        block * self.block_len()
    }

    /// The slot of a position inside its block.
    #[inline(always)]
    pub fn index(&self, to_move: Player, p1: Cell, p2: Cell) -> usize {
        (to_move.index() * self.cells + p1 as usize) * self.cells + p2 as usize
    }

    /// The position of a slot: side to move, Player 1's cell, Player 2's cell.
    #[inline(always)]
    pub fn unindex(&self, i: usize) -> (Player, Cell, Cell) {
        let s = self.cells;
        (
            Player::from_index(i / (s * s)),
            (i / s % s) as Cell,
            (i % s) as Cell,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Board;
    use crate::progress::Silent;

    #[test]
    fn splits_sum_to_the_walls_in_hand() {
        assert_eq!(splits(3, 0), (3, 1));
        assert_eq!(splits(3, 1), (2, 2));
        assert_eq!(splits(3, 3), (0, 4));
        assert_eq!(splits(3, 5), (0, 2));
        assert_eq!(splits(3, 6), (0, 1));
        assert_eq!(splits(3, 7), (0, 0));
        assert_eq!(splits(0, 0), (0, 1));
    }

    #[test]
    fn blocks_tile_each_layer_and_indices_round_trip() {
        let board = Board::new(3, 3).unwrap();
        let tables = Tables::build(board, 2, u64::MAX, &Silent).unwrap();
        let layout = Layout::new(&tables);
        assert_eq!(layout.layers(), tables.layers());
        for k in 0..layout.layers() {
            let mut next = 0;
            for c in tables.layer(k) {
                for j in 0..layout.splits(k) {
                    let left = layout.split_left(k, j);
                    assert_eq!(left[0] as usize + left[1] as usize + k, 4);
                    assert!(left.iter().all(|&l| l <= 2));
                    assert_eq!(layout.block_start(k, c, left[0]), next);
                    next += layout.block_len();
                }
            }
            assert_eq!(next, layout.layer_len(k));
        }
        for i in 0..layout.block_len() {
            let (side, p1, p2) = layout.unindex(i);
            assert_eq!(layout.index(side, p1, p2), i);
        }
    }
}
