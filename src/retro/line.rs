//! The principal line from the solved values: at every position the first legal action
//! (in `legal_actions` order: pawn moves, then walls) whose result keeps the value. A
//! winner with remoteness `r` moves to a loss for the opponent of remoteness `r - 1`
//! (hurrying); a loser to a win of remoteness `r - 1` for the opponent (delaying, since
//! `r - 1` is the longest); a player in a draw to another draw. A win therefore ends on the
//! goal after exactly the start's remoteness; a draw ends when a position repeats.

use super::{Solved, Value};
use crate::position::{Action, Position};
use std::collections::HashMap;

/// The line from `start` and, for a draw, the index in it where the repeating cycle starts:
/// the position after the whole line equals the position after `cycle_start` actions.
pub fn principal_line(solved: &Solved, start: Position) -> (Vec<Action>, Option<usize>) {
    let board = solved.tables().board();
    let mut seen = HashMap::from([(start, 0usize)]);
    let mut pos = start;
    let mut line = Vec::new();
    loop {
        if pos.winner(board).is_some() {
            return (line, None);
        }
        let Some(action) = best_action(solved, &pos) else {
            // The player to move is stuck (only with H = 2): a draw without a cycle.
            return (line, None);
        };
        line.push(action);
        pos = pos.play(action);
        if let Some(&i) = seen.get(&pos) {
            return (line, Some(i));
        }
        seen.insert(pos, line.len());
    }
}

/// The first legal action of `pos` that keeps its value (see the module doc).
fn best_action(solved: &Solved, pos: &Position) -> Option<Action> {
    let tables = solved.tables();
    let want = match solved.value(pos)? {
        Value::Win(r) => Value::Loss(r - 1),
        Value::Loss(r) => Value::Win(r - 1),
        Value::Draw => Value::Draw,
    };
    let found = pos
        .legal_actions_with(tables.board(), tables)
        .into_iter()
        .find(|&a| solved.value(&pos.play(a)) == Some(want));
    debug_assert!(
        found.is_some() || solved.value(pos) == Some(Value::Draw),
        "a decided position has a move that keeps its value"
    );
    found
}
