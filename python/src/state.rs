//! Positions from Python: a record in the project's notation (RULES.md), or a `State`, the
//! same position as numbers for a program that keeps its own game (a training loop): cells
//! and wall anchors as `(col, row)`, 0-based, `(0, 0)` being `a1`.

use pyo3::prelude::*;
use quoridor_solver::rules::cell::Cell;
use quoridor_solver::rules::geometry::{Board, Player, Square};
use quoridor_solver::rules::notation::{
    clash_text, format_record, parse_moves, parse_record, position_error_text, wall_name,
};
use quoridor_solver::rules::position::Position;
use quoridor_solver::rules::walls::{Orientation, Wall, WallSet};
use quoridor_solver::{Error, Result};

use crate::run::to_py;

/// A position as numbers (see the module doc). It carries no board: the board of the
/// table or call it is given to reads it, and checks it there.
#[pyclass(frozen, eq, hash, from_py_object, module = "quoridor_solver")]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Player 1's pawn, (col, row).
    #[pyo3(get)]
    p1: (i64, i64),
    /// Player 2's pawn, (col, row).
    #[pyo3(get)]
    p2: (i64, i64),
    /// Walls left to Player 1 and to Player 2.
    #[pyo3(get)]
    walls_left: (u8, u8),
    /// The player to move: 1 or 2.
    #[pyo3(get)]
    to_move: u8,
    /// Horizontal walls by anchor (col, row): the wall below the top-right corner of that
    /// cell, as "b2h" is (1, 1).
    #[pyo3(get)]
    horizontal: Vec<(i64, i64)>,
    /// Vertical walls by anchor (col, row).
    #[pyo3(get)]
    vertical: Vec<(i64, i64)>,
}

#[pymethods]
impl State {
    #[new]
    #[pyo3(signature = (p1, p2, walls_left, to_move=1, horizontal=Vec::new(), vertical=Vec::new()))]
    fn new(
        p1: (i64, i64),
        p2: (i64, i64),
        walls_left: (u8, u8),
        to_move: u8,
        horizontal: Vec<(i64, i64)>,
        vertical: Vec<(i64, i64)>,
    ) -> PyResult<State> {
        if !(1..=2).contains(&to_move) {
            return Err(to_py(Error::Argument(format!(
                "player to move: {to_move} is not 1 or 2"
            ))));
        }
        let mut horizontal = horizontal;
        let mut vertical = vertical;
        horizontal.sort_unstable();
        vertical.sort_unstable();
        Ok(State {
            p1,
            p2,
            walls_left,
            to_move,
            horizontal,
            vertical,
        })
    }

    /// The state of a record on `board`, e.g. `State.from_record("3x3", "- / - / b1 b3 / 2 2 / 1")`.
    #[staticmethod]
    fn from_record(board: &str, record: &str) -> PyResult<State> {
        let board = Board::parse(board).map_err(to_py)?;
        let pos = parse_record(board, record, None).map_err(to_py)?;
        Ok(State::of(board, &pos))
    }

    /// The start of a game on `board` with `walls` per player.
    #[staticmethod]
    fn start(board: &str, walls: i64) -> PyResult<State> {
        let Cell { board, walls } = crate::args::cell(board, walls).map_err(to_py)?;
        let pos = Position::start(board, walls).map_err(to_py)?;
        Ok(State::of(board, &pos))
    }

    /// The state after `moves` (notation, e.g. "c2 b2h" or ["c2", "b2h"]) on `board`, each
    /// checked legal.
    fn play(&self, board: &str, moves: Moves) -> PyResult<State> {
        let board = Board::parse(board).map_err(to_py)?;
        let pos = self.position(board, None).map_err(to_py)?;
        let after = parse_moves(board, pos, &moves.text()).map_err(to_py)?.1;
        Ok(State::of(board, &after))
    }

    /// The record of this state on `board`: "- / - / b1 b3 / 2 2 / 1".
    fn record(&self, board: &str) -> PyResult<String> {
        let board = Board::parse(board).map_err(to_py)?;
        let pos = self.position(board, None).map_err(to_py)?;
        Ok(format_record(board, &pos))
    }

    fn __repr__(&self) -> String {
        format!(
            "State(p1={:?}, p2={:?}, walls_left={:?}, to_move={}, horizontal={:?}, vertical={:?})",
            self.p1, self.p2, self.walls_left, self.to_move, self.horizontal, self.vertical
        )
    }
}

impl State {
    /// The state of `pos` on `board`.
    pub fn of(board: Board, pos: &Position) -> State {
        let at = |c: Square| (board.col(c) as i64, board.row(c) as i64);
        let anchors = |bits| {
            let mut v: Vec<(i64, i64)> = quoridor_solver::rules::bitboard::bits(bits)
                .map(at)
                .collect();
            v.sort_unstable();
            v
        };
        State {
            p1: at(pos.pawns[0]),
            p2: at(pos.pawns[1]),
            walls_left: (pos.left[0], pos.left[1]),
            to_move: pos.to_move.number(),
            horizontal: anchors(pos.walls.horizontal),
            vertical: anchors(pos.walls.vertical),
        }
    }

    /// The position on `board`, checked as a record is (`Position::validate`; with
    /// `walls_per_player`, a position of that cell).
    pub fn position(&self, board: Board, walls_per_player: Option<u8>) -> Result<Position> {
        let bad = |m: String| Error::Notation(format!("state {}: {m}", self.short()));
        let cell = |(c, r): (i64, i64), what: &str| -> Result<Square> {
            match (usize::try_from(c), usize::try_from(r)) {
                (Ok(c), Ok(r)) if c < board.width() && r < board.height() => Ok(board.square(c, r)),
                _ => Err(bad(format!("{what} ({c}, {r}) is off a {board} board"))),
            }
        };
        let mut walls = WallSet::EMPTY;
        for (anchors, orientation, name) in [
            (&self.horizontal, Orientation::Horizontal, "horizontal wall"),
            (&self.vertical, Orientation::Vertical, "vertical wall"),
        ] {
            for &(c, r) in anchors {
                let off = || {
                    bad(format!(
                        "{name} ({c}, {r}) is off a {board} board's anchors"
                    ))
                };
                let anchor = cell((c, r), name).map_err(|_| off())?;
                if board.anchors() >> anchor & 1 == 0 {
                    return Err(off());
                }
                let wall = Wall {
                    anchor,
                    orientation,
                };
                if let Some(clash) = walls.clash(board, wall) {
                    return Err(bad(format!(
                        "the wall {}: {}",
                        wall_name(board, wall),
                        clash_text(board, clash)
                    )));
                }
                walls = walls.with(wall);
            }
        }
        let pos = Position {
            walls,
            pawns: [
                cell(self.p1, "Player 1's pawn")?,
                cell(self.p2, "Player 2's pawn")?,
            ],
            left: [self.walls_left.0, self.walls_left.1],
            to_move: match self.to_move {
                1 => Player::One,
                _ => Player::Two,
            },
        };
        pos.validate(board, walls_per_player)
            .map_err(|e| bad(position_error_text(board, e)))?;
        Ok(pos)
    }

    /// The state in one short line for messages.
    fn short(&self) -> String {
        format!(
            "p1={:?} p2={:?} walls_left={:?} to_move={}",
            self.p1, self.p2, self.walls_left, self.to_move
        )
    }
}

/// A position given from Python: a `State` or a record.
pub enum PositionArg {
    State(State),
    Record(String),
}

impl<'a, 'py> FromPyObject<'a, 'py> for PositionArg {
    type Error = PyErr;

    /// A State first, by its type (a failed extraction would cost a Python exception on
    /// every lookup of a record), else a record.
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(state) = obj.cast::<State>() {
            return Ok(PositionArg::State(state.get().clone()));
        }
        obj.extract::<String>()
            .map(PositionArg::Record)
            .map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(
                    "a position is a record (str), e.g. \"- / - / b1 b3 / 2 2 / 1\", or a State",
                )
            })
    }
}

impl PositionArg {
    /// The checked position of the cell (`board`, `walls` per player).
    pub fn position(&self, board: Board, walls: u8) -> Result<Position> {
        match self {
            PositionArg::Record(text) => parse_record(board, text, Some(walls)),
            PositionArg::State(state) => state.position(board, Some(walls)),
        }
    }
}

/// Moves given from Python: one text ("1. c2 c4 2. b2h") or a list of moves.
#[derive(FromPyObject)]
pub enum Moves {
    Text(String),
    List(Vec<String>),
}

impl Moves {
    pub fn text(&self) -> String {
        match self {
            Moves::Text(t) => t.clone(),
            Moves::List(l) => l.join(" "),
        }
    }
}
