//! The two symmetries of the rules that the store folds (see `layout.rs`):
//!
//! - the left-right **mirror**: column `c` to `W-1-c`, walls with it; same players, same
//!   value;
//! - the **half turn** (180°) that also swaps the players: cell `x` to `S-1-x`, a wall at
//!   anchor `(c, r)` to `(W-2-c, H-2-r)`, Player 1's pawn and walls left to Player 2 and back,
//!   the other side to move. Goals swap with the players, so the value from the mover's
//!   view is the same, except in a position with both pawns home (never reached by play),
//!   which the rules give to Player 1 whoever moves.
//!
//! ```text
//!  3x2 board   cells     mirror    half turn
//!              3 4 5     5 4 3     2 1 0
//!              0 1 2     2 1 0     5 4 3
//! ```
//!
//! Also the exact count of mirror-symmetric configurations, for sizing the store before the
//! tables exist. Depends on geometry and walls only.

use crate::rules::bitboard::{Squares, bits};
use crate::rules::geometry::{Board, MAX_SQUARES, Square};
use crate::rules::walls::WallSet;

/// Index bit of `cell_maps` for the mirror.
pub const MIRROR: usize = 1;
/// Index bit of `cell_maps` for the half turn.
pub const TURN: usize = 2;

/// `maps[s][cell]`: the image of `cell` under the symmetry `s` (bit `MIRROR`, bit `TURN`;
/// the two commute). Squares past the board map to themselves.
pub fn cell_maps(board: Board) -> [[Square; MAX_SQUARES]; 4] {
    let s = board.squares();
    let mut maps = [[0 as Square; MAX_SQUARES]; 4];
    for (i, map) in maps.iter_mut().enumerate() {
        for (x, image) in map.iter_mut().enumerate() {
            let mut y = x as Square;
            if x < s {
                if i & MIRROR != 0 {
                    y = board.mirror_square(y);
                }
                if i & TURN != 0 {
                    y = (s - 1) as Square - y;
                }
            }
            *image = y;
        }
    }
    maps
}

/// The walls turned half a turn: anchor `(c, r)` to `(W-2-c, H-2-r)`, both orientations.
pub fn turn_walls(board: Board, walls: WallSet) -> WallSet {
    let turn = |set: Squares| {
        bits(set).fold(0 as Squares, |acc, a| {
            let (c, r) = (board.col(a), board.row(a));
            acc | 1 << board.square(board.width() - 2 - c, board.height() - 2 - r)
        })
    };
    WallSet {
        horizontal: turn(walls.horizontal),
        vertical: turn(walls.vertical),
    }
}

/// The number of configurations equal to their own mirror image with 0, 1, ... `layers - 1`
/// walls, by a profile dynamic programme like `configs::count_by_walls`, over the left half
/// of the anchor columns: a symmetric configuration is its left half `L` plus the mirror of
/// `L`. With `a = W-1` anchor columns, column `c` mirrors to `a-1-c`:
///
/// - `a` even: the innermost half column and its mirror are neighbours, so a horizontal wall
///   there would overlap its own mirror image: none allowed; every wall of `L` counts twice.
/// - `a` odd: the middle column is its own mirror; its walls count once, the others twice.
pub fn symmetric_by_walls(board: Board, layers: usize) -> Vec<u128> {
    let anchor_cols = board.width() - 1;
    let rows = board.height() - 1;
    let half = anchor_cols.div_ceil(2);
    let middle = anchor_cols % 2 == 1;
    let weight = |c: usize| if middle && c == half - 1 { 1 } else { 2 };
    let horizontal_fits = |c: usize| middle || c + 1 < half;
    crate::configs::enumerate::profile_count(half, rows, layers, weight, horizontal_fits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configs::ConfigId;
    use crate::configs::Tables;
    use crate::support::progress::Silent;

    #[test]
    fn cell_maps_are_involutions_that_commute() {
        let board = Board::new(3, 2).unwrap();
        let maps = cell_maps(board);
        assert_eq!(maps[MIRROR][..6], [2, 1, 0, 5, 4, 3]);
        assert_eq!(maps[TURN][..6], [5, 4, 3, 2, 1, 0]);
        assert_eq!(maps[MIRROR | TURN][..6], [3, 4, 5, 0, 1, 2]);
        for map in &maps {
            for x in 0..6 {
                assert_eq!(map[map[x] as usize] as usize, x);
            }
        }
    }

    /// The half turn maps configurations to configurations, is an involution, and commutes
    /// with the mirror.
    #[test]
    fn turned_configurations_exist() {
        for (w, h) in [(3, 3), (4, 3), (2, 5), (5, 4)] {
            let board = Board::new(w, h).unwrap();
            let t = Tables::build(board, 3, u64::MAX, &Silent).unwrap();
            for id in 0..t.len() as ConfigId {
                let walls = t.walls(id);
                let turned = turn_walls(board, walls);
                assert!(t.id_of(turned).is_some(), "{w}x{h} {walls:?}");
                assert_eq!(turn_walls(board, turned), walls);
                assert_eq!(turn_walls(board, walls.mirror(board)), turned.mirror(board));
            }
        }
    }

    /// The programme against a count of the tables' configurations equal to their mirror.
    #[test]
    fn symmetric_counts_equal_the_tables() {
        for (w, h, n) in [
            (2, 2, 2),
            (2, 5, 4),
            (3, 3, 4),
            (4, 3, 4),
            (5, 3, 4),
            (3, 5, 3),
            (4, 4, 3),
            (5, 4, 2),
            (6, 3, 3),
            (7, 2, 3),
        ] {
            let board = Board::new(w, h).unwrap();
            let t = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let mut want = vec![0u128; t.layers()];
            for id in 0..t.len() as ConfigId {
                if t.mirror(id) == id {
                    want[t.walls(id).len() as usize] += 1;
                }
            }
            assert_eq!(symmetric_by_walls(board, t.layers()), want, "{w}x{h} n={n}");
        }
    }
}
