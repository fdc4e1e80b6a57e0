//! Sets of cells as `Cells` bit masks (bit `row * W + col`, see `geometry.rs`), and the
//! open-edge masks that make pawn moves, flood fills and distances a few shifts.

pub use crate::geometry::Cells;
use crate::geometry::{Board, Cell, Dir, MAX_CELLS};

/// Iterates the indices of the set bits, lowest first.
#[inline]
pub fn bits(mut set: Cells) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let i = set.trailing_zeros() as Cell;
            set &= set - 1;
            Some(i)
        }
    })
}

/// Iterates the indices of the set bits of a `u128`, lowest first.
#[inline]
pub fn bits128(mut set: u128) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let i = set.trailing_zeros();
            set &= set - 1;
            Some(i)
        }
    })
}

/// Distance value for a cell that cannot reach the goal at all.
pub const UNREACHABLE: u8 = u8::MAX;

/// For each direction, the cells from which a step that way stays on the board and crosses
/// no wall. Edges are symmetric, so the same masks serve moves and reverse flood fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenEdges {
    board: Board,
    /// Indexed by `Dir as usize`: up, down, right, left.
    open: [Cells; 4],
}

impl OpenEdges {
    /// Open edges given the cells whose upward edge and whose rightward edge are blocked.
    pub fn new(board: Board, blocked_up: Cells, blocked_right: Cells) -> OpenEdges {
        let w = board.width();
        let all = board.all_cells();
        let not_top = all >> w;
        let not_bottom = all & !board.row_mask(0);
        let not_right = board.not_last_col();
        let not_left = board.not_first_col();
        OpenEdges {
            board,
            open: [
                not_top & !blocked_up,
                not_bottom & !(blocked_up << w),
                not_right & !blocked_right,
                not_left & !(blocked_right << 1),
            ],
        }
    }

    #[inline(always)]
    pub fn open(&self, dir: Dir) -> Cells {
        self.open[dir as usize]
    }

    /// Every cell one open step away from a cell of `set`.
    #[inline(always)]
    pub fn expand(&self, set: Cells) -> Cells {
        let w = self.board.width();
        ((set & self.open[0]) << w)
            | ((set & self.open[1]) >> w)
            | ((set & self.open[2]) << 1)
            | ((set & self.open[3]) >> 1)
    }

    /// The cells connected to `from` by open edges (including `from`): a flood fill.
    pub fn reach(&self, from: Cells) -> Cells {
        let mut set = from;
        loop {
            let next = set | self.expand(set);
            if next == set {
                return set;
            }
            set = next;
        }
    }

    /// Steps from every cell to the nearest cell of `goal` (`UNREACHABLE` if cut off),
    /// indexed by cell; entries past the board's cells are `UNREACHABLE`.
    pub fn distances(&self, goal: Cells) -> [u8; MAX_CELLS] {
        let mut dist = [UNREACHABLE; MAX_CELLS];
        let mut seen = goal;
        let mut frontier = goal;
        let mut d = 0u8;
        while frontier != 0 {
            for c in bits(frontier) {
                dist[c as usize] = d;
            }
            frontier = self.expand(frontier) & !seen;
            seen |= frontier;
            d += 1;
        }
        dist
    }

    /// The cells a pawn on `me` may move to when the other pawn is on `opp` (RULES.md: steps,
    /// the straight jump, and the diagonal jumps only when the straight one is impossible).
    #[inline]
    pub fn pawn_destinations(&self, me: Cell, opp: Cell) -> Cells {
        let me: Cells = 1 << me;
        let opp: Cells = 1 << opp;
        let mut out = 0;
        for dir in Dir::ALL {
            if me & self.open(dir) == 0 {
                continue;
            }
            let next = self.board.shift(me, dir);
            if next != opp {
                out |= next;
            } else if opp & self.open(dir) != 0 {
                out |= self.board.shift(opp, dir);
            } else {
                for side in dir.perpendicular() {
                    if opp & self.open(side) != 0 {
                        out |= self.board.shift(opp, side);
                    }
                }
            }
        }
        out
    }
}

/// Draws a cell set as rows of `.` and `#`, top row first (for debugging and test messages).
pub fn render(board: Board, set: Cells) -> String {
    let mut s = String::new();
    for row in (0..board.height()).rev() {
        for col in 0..board.width() {
            let bit = set >> board.cell(col, row) & 1;
            s.push(if bit == 1 { '#' } else { '.' });
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_board_distances_and_moves() {
        let b = Board::new(3, 3).unwrap();
        let e = OpenEdges::new(b, 0, 0);
        assert_eq!(e.reach(b.row_mask(2)), b.all_cells());
        let d = e.distances(b.row_mask(2));
        assert_eq!(d[b.cell(1, 0) as usize], 2);
        assert_eq!(d[b.cell(0, 2) as usize], 0);
        // b1 with the other pawn on b2: straight jump to b3, steps to a1 and c1.
        let dest = e.pawn_destinations(b.cell(1, 0), b.cell(1, 1));
        let want = 1 << b.cell(1, 2) | 1 << b.cell(0, 0) | 1 << b.cell(2, 0);
        assert_eq!(dest, want, "\n{}", render(b, dest));
        // b2 with the other pawn on b3 (board edge behind): diagonals a3 and c3.
        let dest = e.pawn_destinations(b.cell(1, 1), b.cell(1, 2));
        assert_eq!(dest & b.row_mask(2), 1 << b.cell(0, 2) | 1 << b.cell(2, 2));
    }
}
