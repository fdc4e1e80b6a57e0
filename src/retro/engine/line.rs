//! The cell's result from the solved values (`Solved::result`: the start's value and
//! length) and its principal line: at every position the first legal action
//! (in `legal_actions` order: pawn moves, then walls) whose result keeps the value. A
//! winner with remoteness `r` moves to a loss for the opponent of remoteness `r - 1`
//! (hurrying); a loser to a win of remoteness `r - 1` for the opponent (delaying, since
//! `r - 1` is the longest); a player in a draw to another draw. A win therefore ends on the
//! goal after exactly the start's remoteness; a draw ends when a position repeats.
//!
//! After an analysis of outcomes only, a draw's line is given (draw to draw), a win's is
//! not. After a streaming analysis only layers 0 and 1 have values: a line that needs a value
//! from a freed layer is not given at all (empty), never cut short or guessed.

use super::solved::Solved;
use super::solved::Wdl;
use super::store::Precision;
use super::value::RetroResult;
use super::value::Value;
use crate::rules::geometry::Player;
use crate::rules::position::{Action, Position};
use std::collections::HashMap;

impl Solved<'_> {
    /// The value of the cell, its length and a principal line. After an analysis of
    /// outcomes only: the winner, but no length (`plies` is `None`) and no line, except a
    /// draw's line when it stays in the layers kept.
    pub fn result(&self) -> RetroResult {
        let board = self.configs.board();
        let start = Position::start(board, self.configs.walls_per_player())
            .expect("the tables were built for a valid wall count");
        let value = match self.precision {
            Precision::Exact => self.value(&start),
            // No remoteness: any length stands for "a win" here and is dropped below.
            Precision::Compact => self.outcome(&start).map(|o| match o {
                Wdl::Win => Value::Win(1),
                Wdl::Loss => Value::Loss(0),
                Wdl::Draw => Value::Draw,
            }),
        }
        .expect("the start is a position of the cell in layer 0, always kept");
        let (winner, plies) = match value {
            Value::Win(r) => (Some(Player::One), Some(r)),
            Value::Loss(r) => (Some(Player::Two), Some(r)),
            Value::Draw => (None, None),
        };
        let plies = plies.filter(|_| self.precision == Precision::Exact);
        let (line, cycle_start) = principal_line(self, start);
        RetroResult {
            winner,
            plies,
            line,
            cycle_start,
            stats: self.stats,
        }
    }
}

/// A value the line needs lies in a layer freed while streaming.
struct Freed;

/// The line from `start` and, for a draw, the index in it where the repeating cycle starts:
/// the position after the whole line equals the position after `cycle_start` actions.
/// Empty (and `None`) when the line needs a freed layer.
pub fn principal_line(solved: &Solved, start: Position) -> (Vec<Action>, Option<usize>) {
    line_from(solved, start).unwrap_or_default()
}

fn line_from(solved: &Solved, start: Position) -> Result<(Vec<Action>, Option<usize>), Freed> {
    let board = solved.configs().board();
    let mut seen = HashMap::from([(start, 0usize)]);
    let mut pos = start;
    let mut line = Vec::new();
    loop {
        if pos.winner(board).is_some() {
            return Ok((line, None));
        }
        let Some(action) = best_action(solved, &pos)? else {
            // The player to move is stuck (only with H = 2): a draw without a cycle.
            return Ok((line, None));
        };
        line.push(action);
        pos = pos.play(action);
        if let Some(&i) = seen.get(&pos) {
            return Ok((line, Some(i)));
        }
        seen.insert(pos, line.len());
    }
}

/// The first legal action of `pos` that keeps its value (see the module doc). Every legal
/// action leads to a position of the cell, so a missing value means a freed layer.
fn best_action(solved: &Solved, pos: &Position) -> Result<Option<Action>, Freed> {
    let board = solved.configs().board();
    // The eager tables' reach is a lookup; without them each wall is checked by a flood fill.
    let actions = |pos: &Position| match solved.tables() {
        Some(tables) => pos.legal_actions_with(board, tables),
        None => pos.legal_actions(board),
    };
    if solved.precision() == Precision::Compact {
        // Outcomes only: a draw's line needs no remoteness, a win's does.
        if solved.outcome(pos).ok_or(Freed)? != Wdl::Draw {
            return Err(Freed);
        }
        for action in actions(pos) {
            if solved.outcome(&pos.play(action)).ok_or(Freed)? == Wdl::Draw {
                return Ok(Some(action));
            }
        }
        return Ok(None);
    }
    let here = solved.value(pos).ok_or(Freed)?;
    let want = match here {
        Value::Win(r) => Value::Loss(r - 1),
        Value::Loss(r) => Value::Win(r - 1),
        Value::Draw => Value::Draw,
    };
    for action in actions(pos) {
        if solved.value(&pos.play(action)).ok_or(Freed)? == want {
            return Ok(Some(action));
        }
    }
    debug_assert!(
        here == Value::Draw,
        "a decided position has a move that keeps its value"
    );
    Ok(None)
}
