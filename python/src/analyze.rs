//! `analyze`: a position's value and every legal move's, as the command `analyze` finds
//! them (`report::analyze`, which `serve` answers with too): the same numbers as
//! `analyze --json`, whose text `Analysis.to_json` gives.

use std::path::{Path, PathBuf};
use std::time::Instant;

use pyo3::prelude::*;
use quoridor_solver::cell::analysis::{Analyst, retro_fits, saved_too_large};
use quoridor_solver::cell::solver::DEFAULT_TT_BYTES;
use quoridor_solver::configs::{Ranked, Tables};
use quoridor_solver::error::count;
use quoridor_solver::output::report;
use quoridor_solver::retro::{self, sampled, saved};
use quoridor_solver::rules::cell::Cell;
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::rules::notation::{format_record, parse_moves};
use quoridor_solver::rules::position::Position;
use quoridor_solver::search::Limits;
use quoridor_solver::support::memory;
use quoridor_solver::support::progress::Silent;
use quoridor_solver::{Error, Result};

use crate::args::{self, Size};
use crate::results::{Analysis, Value, moves_of};
use crate::run::{detached, pool, to_py};
use crate::state::{Moves, PositionArg};

/// The deepest search iteration per position where proof search answers (the command
/// line's default).
const MAX_DEPTH: u8 = 120;

/// Value a position and every legal move from it.
///
/// The position is the start of the cell (`board`, `walls` per player), or `position` (a
/// record such as "b2 / a1c3 / c2 c4 / 2 3 / 1", or a State), or the start followed by
/// `moves` ("1. c2 c4 2. b2h c3", or a list of moves). `table`: answer from the saved
/// table in that directory (`solve --method retro --save DIR`) instead of solving.
/// `method`: "retro" (the exact analysis of the cell: draws too), "search" (proof search:
/// no draws, which come out undecided) or "auto" (retro where it fits the memory).
///
/// Runs with the GIL released; Ctrl-C stops it and raises KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (board, walls, moves=None, position=None, table=None, method=None, memory=None, threads=None))]
#[allow(clippy::too_many_arguments)]
pub fn analyze(
    py: Python<'_>,
    board: &str,
    walls: i64,
    moves: Option<Moves>,
    position: Option<PositionArg>,
    table: Option<PathBuf>,
    method: Option<&str>,
    memory: Option<Size>,
    threads: Option<i64>,
) -> PyResult<Analysis> {
    let asked = check(
        board, walls, moves, position, table, method, memory, threads,
    )
    .map_err(to_py)?;
    detached(py, move || {
        let threads = pool(asked.threads)?;
        threads.install(|| asked.answer())
    })
}

/// Which analyst answers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Way {
    Retro,
    Search,
    Auto,
}

/// A checked `analyze` request.
struct Asked {
    board: Board,
    walls: u8,
    position: Position,
    way: Way,
    table: Option<PathBuf>,
    budget: u64,
    threads: usize,
}

/// The request checked as `analyze`'s flags are (`cli/analyze.rs`, `cli/analyst.rs`).
#[allow(clippy::too_many_arguments)]
fn check(
    board: &str,
    walls: i64,
    moves: Option<Moves>,
    position: Option<PositionArg>,
    table: Option<PathBuf>,
    method: Option<&str>,
    memory: Option<Size>,
    threads: Option<i64>,
) -> Result<Asked> {
    let way = match method {
        None => Way::Auto,
        Some(m) => [Way::Retro, Way::Search, Way::Auto]
            [args::choice("--method <METHOD>", m, &["retro", "search", "auto"])?],
    };
    if table.is_some() && method.is_some() {
        return Err(Error::Argument(
            "the argument '--table <DIR>' cannot be used with '--method <METHOD>'".into(),
        ));
    }
    let Cell { board, walls } = args::cell(board, walls)?;
    let position = match (position, moves) {
        (Some(_), Some(_)) => {
            return Err(Error::Argument(
                "--position and --moves cannot be used together: give one or the other".into(),
            ));
        }
        (Some(p), None) => p.position(board, walls)?,
        (None, moves) => {
            let start = Position::start(board, walls)?;
            match moves {
                Some(m) => parse_moves(board, start, &m.text())?.1,
                None => start,
            }
        }
    };
    Ok(Asked {
        board,
        walls,
        position,
        way,
        table,
        threads: args::threads(threads)?,
        budget: args::memory(memory)?,
    })
}

impl Asked {
    /// The answer, as `analyze` finds it (`cli/analyze.rs`'s `run`).
    fn answer(&self) -> Result<Analysis> {
        let started = Instant::now();
        let layers = report::analyze::layers(&self.position, None);
        let (tables, ranked);
        let mut analyst = match self.table_too_large(layers.clone())? {
            Some(dir) => {
                memory::check(
                    &format!(
                        "reading the saved table of {} with {} (numbering the configurations)",
                        self.board,
                        count(self.walls, "wall")
                    ),
                    Ranked::estimate_bytes(self.board, 2 * self.walls as usize + 1),
                    self.budget,
                )?;
                ranked = Ranked::build(self.board, self.walls);
                let reader = sampled::Reader::open(&ranked, dir)?;
                let mut analyst = Analyst::from_reader(self.board, reader);
                let asked = report::analyze::asked(self.board, &self.position, None);
                analyst.prepare(&asked, &Silent)?;
                analyst
            }
            None => {
                tables = Tables::build(self.board, self.walls, self.budget, &Silent)?;
                self.analyst(&tables, layers)?
            }
        };
        let answer = report::analyze::answer(&mut analyst, &self.position, None, &Silent);
        let seconds = started.elapsed().as_secs_f64();
        let json = report::analyze::json(self.board, self.walls, &self.position, &answer, seconds);
        let mover = self.position.to_move;
        Ok(Analysis {
            board: self.board,
            walls: self.walls,
            record: format_record(self.board, &self.position),
            value: Value {
                verdict: answer.verdict,
                mover,
            },
            moves: moves_of(self.board, mover, answer.moves.as_deref().unwrap_or(&[])),
            retro: answer.retro,
            nodes: answer.nodes,
            seconds,
            json,
        })
    }

    /// The saved table given when it is too large to load with the cell's tables: then
    /// the positions asked are read from its files (as `analyze --table` does).
    fn table_too_large(&self, layers: std::ops::Range<usize>) -> Result<Option<&Path>> {
        let Some(dir) = &self.table else {
            return Ok(None);
        };
        let cell = Cell::new(self.board, self.walls);
        Ok(saved_too_large(dir, cell, layers, self.budget)?.then_some(dir.as_path()))
    }

    /// The analyst of the cell of `tables` (as `cell::evaluate::AnalystConfig::analyst`
    /// chooses it for `analyze`).
    fn analyst<'t>(
        &self,
        tables: &'t Tables,
        layers: std::ops::Range<usize>,
    ) -> Result<Analyst<'t>> {
        if let Some(dir) = &self.table {
            return Ok(Analyst::from_solved(saved::load(tables, dir, layers)?));
        }
        let retro = match self.way {
            Way::Retro => true,
            Way::Search => false,
            Way::Auto => {
                retro::handles(tables.board()) && retro_fits(tables, layers.clone(), self.budget)
            }
        };
        if retro {
            return Analyst::retro(tables, self.budget, layers, &Silent);
        }
        let limits = Limits {
            parallel: self.threads > 1,
            ..Limits::new(
                MAX_DEPTH,
                DEFAULT_TT_BYTES.min(self.budget.saturating_sub(tables.bytes())),
            )
        };
        Ok(Analyst::search(tables, &limits))
    }
}
