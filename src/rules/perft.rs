//! Perft: the number of action sequences of a given length, for checking move generation
//! against known counts and against the reference engine.

use crate::rules::geometry::Board;
use crate::rules::movegen::PathOracle;
use crate::rules::position::Position;

/// Number of action sequences of exactly `depth` plies from `pos`; a sequence stops early at
/// a finished game (a winner, or a player with no action), which counts once.
pub fn perft(board: Board, pos: &Position, depth: u32, oracle: &impl PathOracle) -> u64 {
    if depth == 0 {
        return 1;
    }
    let actions = pos.legal_actions_with(board, oracle);
    if actions.is_empty() {
        return 1;
    }
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .iter()
        .map(|&a| perft(board, &pos.play(a), depth - 1, oracle))
        .sum()
}

/// The most actions a position of `board` can offer when walls are left: 5 pawn moves (3
/// steps and 2 sideways jumps beside the other pawn) and every groove in both orientations.
pub fn most_actions(board: Board, walls_left: bool) -> u64 {
    let grooves = 2 * (board.width() as u64 - 1) * (board.height() as u64 - 1);
    5 + if walls_left { grooves } else { 0 }
}

/// The deepest count `perft` may be asked for from `pos`: the most plies whose count is
/// sure to fit a `u64` (at most `most_actions` a ply). Quoridor has no longest game (pawns
/// may walk back and forth for ever), so no depth is past its end; this bound keeps every
/// count exact, and any count near it takes far longer than anyone would wait.
pub fn max_depth(board: Board, pos: &Position) -> u32 {
    let branching = most_actions(board, pos.left.iter().any(|&n| n > 0));
    let mut depth = 0;
    let mut bound: u64 = 1;
    while let Some(next) = bound.checked_mul(branching) {
        bound = next;
        depth += 1;
    }
    depth
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen::FloodFill;

    #[test]
    fn the_bound_holds_and_fits() {
        let board = Board::new(3, 3).unwrap();
        let start = Position::start(board, 1).unwrap();
        assert_eq!(most_actions(board, true), 13);
        assert_eq!(max_depth(board, &start), 17, "13^17 < 2^64 < 13^18");
        assert_eq!(max_depth(board, &Position::start(board, 0).unwrap()), 27);
        // No count exceeds the bound's power.
        for depth in 1..=4 {
            let count = perft(board, &start, depth, &FloodFill);
            assert!(count <= 13u64.pow(depth), "{depth}: {count}");
        }
    }
}
