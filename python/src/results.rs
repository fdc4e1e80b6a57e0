//! What the calls return, as Python objects with read-only attributes. An outcome is the
//! winner as the results table writes it: `1`, `2`, `"D"` (a draw), or `None` where the
//! work did not decide (proof search finds no draws: what neither player wins within its
//! depth is undecided, never a guess).

use pyo3::prelude::*;
use pyo3::types::PyString;
use quoridor_solver::cell::analysis::Verdict;
use quoridor_solver::cell::solver::{CellResult, Outcome};
use quoridor_solver::error::count;
use quoridor_solver::rules::geometry::{Board, Player};
use quoridor_solver::rules::notation::{action_name, format_moves};

/// `1`, `2`, `"D"` or `None`.
fn outcome_object(py: Python<'_>, outcome: Outcome) -> Py<PyAny> {
    match outcome {
        Outcome::Player1 => 1u8.into_pyobject(py).expect("an int").into_any().unbind(),
        Outcome::Player2 => 2u8.into_pyobject(py).expect("an int").into_any().unbind(),
        Outcome::Draw => PyString::new(py, "D").into_any().unbind(),
        Outcome::Unknown => py.None(),
    }
}

/// The winner of a position whose player to move is `mover` and whose verdict (from the
/// mover's view) is `verdict`.
fn outcome_of(verdict: Verdict, mover: Player) -> Outcome {
    match verdict {
        Verdict::Win { .. } => Outcome::winner(mover),
        Verdict::Loss { .. } => Outcome::winner(mover.other()),
        Verdict::Draw => Outcome::Draw,
        Verdict::Unknown { .. } => Outcome::Unknown,
    }
}

fn plies_of(verdict: Verdict) -> Option<u32> {
    match verdict {
        Verdict::Win { plies } | Verdict::Loss { plies } => Some(plies),
        _ => None,
    }
}

fn kind_of(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Win { .. } => "win",
        Verdict::Loss { .. } => "loss",
        Verdict::Draw => "draw",
        Verdict::Unknown { .. } => "unknown",
    }
}

fn depth_of(verdict: Verdict) -> Option<u32> {
    match verdict {
        Verdict::Unknown { depth } => Some(depth),
        _ => None,
    }
}

/// The value of a position: who wins and in how many plies from it, under best play.
#[pyclass(frozen, module = "quoridor_solver")]
#[derive(Clone, Copy)]
pub struct Value {
    pub verdict: Verdict,
    /// The player to move in the position.
    pub mover: Player,
}

#[pymethods]
impl Value {
    /// The winner: 1, 2, "D" (a draw) or None (undecided).
    #[getter]
    fn outcome(&self, py: Python<'_>) -> Py<PyAny> {
        outcome_object(py, outcome_of(self.verdict, self.mover))
    }

    /// Plies to the end under best play (the winner hurries, the loser holds out); None
    /// for a draw or an undecided position.
    #[getter]
    fn plies(&self) -> Option<u32> {
        plies_of(self.verdict)
    }

    /// For the player to move: "win", "loss", "draw" or "unknown".
    #[getter]
    fn kind(&self) -> &'static str {
        kind_of(self.verdict)
    }

    /// For "unknown": the depth within which neither player wins.
    #[getter]
    fn depth(&self) -> Option<u32> {
        depth_of(self.verdict)
    }

    /// In words, as `analyze` prints it: "Player 2 wins in 12 plies".
    #[getter]
    fn text(&self) -> String {
        self.verdict.text(self.mover)
    }

    fn __repr__(&self) -> String {
        format!("Value({})", self.text())
    }

    fn __eq__(&self, other: &Value) -> bool {
        self.verdict == other.verdict && self.mover == other.mover
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (
            kind_of(self.verdict),
            plies_of(self.verdict),
            depth_of(self.verdict),
        )
            .hash(&mut h);
        self.mover.number().hash(&mut h);
        h.finish()
    }
}

/// A legal move and its value for the player who makes it (as `analyze --json` gives it:
/// the plies count the move itself).
#[pyclass(frozen, module = "quoridor_solver")]
#[derive(Clone)]
pub struct Move {
    pub name: String,
    pub verdict: Verdict,
    pub mover: Player,
}

#[pymethods]
impl Move {
    /// The move in the project's notation: a cell ("c2") or a wall ("b2h").
    #[getter(r#move)]
    fn name(&self) -> &str {
        &self.name
    }

    /// The winner after this move: 1, 2, "D" or None (undecided).
    #[getter]
    fn outcome(&self, py: Python<'_>) -> Py<PyAny> {
        outcome_object(py, outcome_of(self.verdict, self.mover))
    }

    /// Plies to the end after this move, counting it; None for a draw or undecided.
    #[getter]
    fn plies(&self) -> Option<u32> {
        plies_of(self.verdict)
    }

    /// For the player who makes the move: "win", "loss", "draw" or "unknown".
    #[getter]
    fn kind(&self) -> &'static str {
        kind_of(self.verdict)
    }

    /// For "unknown": the depth within which neither player wins.
    #[getter]
    fn depth(&self) -> Option<u32> {
        depth_of(self.verdict)
    }

    #[getter]
    fn text(&self) -> String {
        self.verdict.text(self.mover)
    }

    fn __repr__(&self) -> String {
        format!("Move({}: {})", self.name, self.text())
    }
}

/// Every legal move of a position of `board`, best first, as Python objects.
pub fn moves_of(
    board: Board,
    mover: Player,
    moves: &[quoridor_solver::cell::analysis::MoveVerdict],
) -> Vec<Move> {
    moves
        .iter()
        .map(|m| Move {
            name: action_name(board, m.action),
            verdict: m.verdict,
            mover,
        })
        .collect()
}

/// The answer of `analyze`: the position's value and every legal move's, best first.
#[pyclass(frozen, module = "quoridor_solver")]
pub struct Analysis {
    pub board: Board,
    pub walls: u8,
    pub record: String,
    pub value: Value,
    pub moves: Vec<Move>,
    pub retro: bool,
    pub nodes: u64,
    pub seconds: f64,
    /// The answer as `analyze --json` prints it.
    pub json: String,
}

#[pymethods]
impl Analysis {
    /// The board, e.g. "3x3".
    #[getter]
    fn board(&self) -> String {
        self.board.to_string()
    }

    /// Walls per player.
    #[getter]
    fn walls(&self) -> u8 {
        self.walls
    }

    /// The position as a record: "- / - / b1 b3 / 2 2 / 1".
    #[getter]
    fn position(&self) -> &str {
        &self.record
    }

    /// The player to move: 1 or 2.
    #[getter]
    fn to_move(&self) -> u8 {
        self.value.mover.number()
    }

    /// The position's value.
    #[getter]
    fn value(&self) -> Value {
        self.value
    }

    /// The winner from the position: 1, 2, "D" or None (undecided).
    #[getter]
    fn outcome(&self, py: Python<'_>) -> Py<PyAny> {
        self.value.outcome(py)
    }

    /// Plies to the end from the position under best play; None for a draw or undecided.
    #[getter]
    fn plies(&self) -> Option<u32> {
        self.value.plies()
    }

    #[getter]
    fn text(&self) -> String {
        self.value.text()
    }

    /// Every legal move with its value, best first (none when the game is over).
    #[getter]
    fn moves(&self) -> Vec<Move> {
        self.moves.clone()
    }

    /// "retrograde" (exact, draws included) or "proof-search" (no draws).
    #[getter]
    fn method(&self) -> &'static str {
        match self.retro {
            true => "retrograde",
            false => "proof-search",
        }
    }

    /// Search nodes spent (0 for the retrograde analysis).
    #[getter]
    fn nodes(&self) -> u64 {
        self.nodes
    }

    #[getter]
    fn seconds(&self) -> f64 {
        self.seconds
    }

    /// The answer as `analyze --json` prints it (docs/FORMATS.md).
    fn to_json(&self) -> &str {
        &self.json
    }

    fn __repr__(&self) -> String {
        format!(
            "Analysis({} with {}, {}: {}, {})",
            self.board,
            count(self.walls, "wall"),
            self.record,
            self.text(),
            count(self.moves.len(), "legal move")
        )
    }
}

/// The answer of `solve`: the cell's outcome, the length of the win and a line of best play.
#[pyclass(frozen, module = "quoridor_solver")]
pub struct Solution {
    pub board: Board,
    pub result: CellResult,
}

#[pymethods]
impl Solution {
    /// The board, e.g. "4x4".
    #[getter]
    fn board(&self) -> String {
        self.board.to_string()
    }

    /// Walls per player.
    #[getter]
    fn walls(&self) -> u8 {
        self.result.walls
    }

    /// The winner: 1, 2, "D" (a draw) or None (undecided within the limits).
    #[getter]
    fn outcome(&self, py: Python<'_>) -> Py<PyAny> {
        outcome_object(py, self.result.outcome)
    }

    /// Plies of the win under best play (the winner hurries, the loser holds out); None for
    /// a draw, an undecided cell, or a win whose length was not found.
    #[getter]
    fn plies(&self) -> Option<u32> {
        self.result.plies
    }

    /// A line of best play from the start, each move in the project's notation ("c2",
    /// "b1h"); for a draw, into the cycle both players keep to. Empty when undecided, or
    /// when the analysis streamed its layers to fit the memory budget.
    #[getter]
    fn line(&self) -> Vec<String> {
        self.result
            .line
            .iter()
            .map(|&a| action_name(self.board, a))
            .collect()
    }

    /// The line numbered as `solve` prints it ("1. b1h d3 2. c2h c3"), which `analyze`
    /// takes as `moves`.
    #[getter]
    fn line_text(&self) -> String {
        format_moves(self.board, Player::One, &self.result.line)
    }

    /// For a draw: the index in `line` where the repeating cycle starts.
    #[getter]
    fn cycle_start(&self) -> Option<usize> {
        self.result.cycle_start
    }

    /// "proof-search", "retrograde" or "retrograde+search".
    #[getter]
    fn method(&self) -> &'static str {
        self.result.method.name()
    }

    #[getter]
    fn nodes(&self) -> u64 {
        self.result.nodes
    }

    #[getter]
    fn seconds(&self) -> f64 {
        self.result.seconds
    }

    /// The deepest search iteration completed.
    #[getter]
    fn depth_reached(&self) -> u32 {
        self.result.depth_reached
    }

    /// This process's peak resident memory when the solve ended, in bytes.
    #[getter]
    fn peak_bytes(&self) -> u64 {
        self.result.peak_bytes
    }

    /// In words, as `solve` prints its first line.
    #[getter]
    fn text(&self) -> String {
        let r = &self.result;
        let cell = format!("{} with {} per player", self.board, count(r.walls, "wall"));
        match (r.outcome, r.plies) {
            (Outcome::Player1 | Outcome::Player2, Some(plies)) => format!(
                "{cell}: Player {} wins in {}",
                r.outcome.code(),
                count(plies, "ply")
            ),
            (Outcome::Player1 | Outcome::Player2, None) => {
                format!("{cell}: Player {} wins", r.outcome.code())
            }
            (Outcome::Draw, _) => format!("{cell}: draw"),
            (Outcome::Unknown, _) => format!(
                "{cell}: unknown (neither player wins within {})",
                count(r.depth_reached, "ply")
            ),
        }
    }

    fn __repr__(&self) -> String {
        format!("Solution({}, {})", self.text(), self.method())
    }
}
