//! Perft: the number of action sequences of a given length, for checking move generation
//! against known counts and against the reference engine.

use crate::geometry::Board;
use crate::movegen::PathOracle;
use crate::position::Position;

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
