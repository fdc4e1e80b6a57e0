//! `Table`: a saved table (`solve --method retro --save DIR`, or a cell of `table --save`)
//! opened once, every layer read into memory with the cell's configuration tables, then
//! looked up position by position in microseconds: the explorer's query path (`serve
//! --table`), for the millions of lookups of a training loop.

use std::path::PathBuf;

use pyo3::prelude::*;
use quoridor_solver::cell::analysis::Analyst;
use quoridor_solver::cell::estimate::CellEstimate;
use quoridor_solver::configs::Tables;
use quoridor_solver::error::{count, format_bytes};
use quoridor_solver::retro::{Precision, Solved, saved, saved_dir};
use quoridor_solver::rules::cell::Cell;
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::rules::position::Position;
use quoridor_solver::support::memory;
use quoridor_solver::support::progress::Silent;
use quoridor_solver::{Error, Result};

use crate::args::{self, Size};
use crate::results::{Move, Value, moves_of};
use crate::run::{detached, pool, to_py};
use crate::state::{PositionArg, State};

/// The values and the tables they are read through. The values borrow the tables, which
/// are boxed so that they never move; the fields drop in order, the values first.
struct Loaded {
    solved: Solved<'static>,
    tables: Box<Tables>,
}

impl Loaded {
    fn read(board: Board, walls: u8, dir: &std::path::Path, budget: u64) -> Result<Loaded> {
        let tables = Box::new(Tables::build(board, walls, budget, &Silent)?);
        // SAFETY: the tables are on the heap, owned by the `Loaded` returned, never moved
        // out of their box nor changed, and dropped after the values (field order): the
        // values never see them gone. `'static` does not leave this struct: every borrow
        // of the values is as long as a borrow of the `Loaded`.
        let lent: &'static Tables = unsafe { &*(tables.as_ref() as *const Tables) };
        let solved = saved::load(lent, dir, 0..tables.layers())?;
        Ok(Loaded { solved, tables })
    }
}

/// A saved table opened once (see the module doc). `value` and `moves` take a position as
/// a record or a State, of this table's cell.
#[pyclass(frozen, module = "quoridor_solver")]
pub struct Table {
    loaded: Loaded,
    board: Board,
    walls: u8,
    dir: PathBuf,
}

#[pymethods]
impl Table {
    /// Open the saved table in `dir` (`solve --method retro --save DIR`; a directory of
    /// `table --save` holding one cell; or that cell's directory in it). Every file is
    /// checked against its manifest, and the whole table is read into memory: it must fit
    /// `memory` (default: 80% of the memory available now) with the cell's configuration
    /// tables. A table of outcomes only (`--precision compact`) is refused.
    #[staticmethod]
    #[pyo3(signature = (dir, memory=None, threads=None))]
    fn open(
        py: Python<'_>,
        dir: PathBuf,
        memory: Option<Size>,
        threads: Option<i64>,
    ) -> PyResult<Table> {
        let budget = args::memory(memory).map_err(to_py)?;
        let threads = args::threads(threads).map_err(to_py)?;
        detached(py, move || {
            let (dir, Cell { board, walls }) = one_table(&dir)?;
            check_fits(&dir, board, walls, budget)?;
            let loaded = pool(threads)?.install(|| Loaded::read(board, walls, &dir, budget))?;
            Ok(Table {
                loaded,
                board,
                walls,
                dir,
            })
        })
    }

    /// The value of `position` (a record or a State) for its player to move.
    fn value(&self, position: PositionArg) -> PyResult<Value> {
        let pos = self.position(&position).map_err(to_py)?;
        let verdict = Analyst::shared(&self.loaded.solved).verdict(&pos, &Silent);
        Ok(Value {
            verdict,
            mover: pos.to_move,
        })
    }

    /// Every legal move of `position` with its value for the mover, best first (none when
    /// the game is over): what `analyze --table` lists.
    fn moves(&self, position: PositionArg) -> PyResult<Vec<Move>> {
        let pos = self.position(&position).map_err(to_py)?;
        if pos.winner(self.board).is_some() {
            return Ok(Vec::new());
        }
        let moves = Analyst::shared(&self.loaded.solved).moves(&pos, &Silent);
        Ok(moves_of(self.board, pos.to_move, &moves))
    }

    /// The start of the cell's game.
    fn start(&self) -> State {
        let start = Position::start(self.board, self.walls).expect("a saved cell starts");
        State::of(self.board, &start)
    }

    /// The board, e.g. "5x5".
    #[getter]
    fn board(&self) -> String {
        self.board.to_string()
    }

    /// Walls per player.
    #[getter]
    fn walls(&self) -> u8 {
        self.walls
    }

    /// The directory the table was read from.
    #[getter]
    fn dir(&self) -> PathBuf {
        self.dir.clone()
    }

    /// The memory the values and the configuration tables take, in bytes.
    #[getter]
    fn bytes(&self) -> u64 {
        self.loaded.solved.bytes() + self.loaded.tables.bytes()
    }

    fn __repr__(&self) -> String {
        format!(
            "Table({} with {}, {}, {})",
            self.board,
            count(self.walls, "wall"),
            self.dir.display(),
            format_bytes(self.bytes())
        )
    }
}

impl Table {
    /// The checked position of this table's cell.
    fn position(&self, position: &PositionArg) -> Result<Position> {
        position.position(self.board, self.walls)
    }
}

/// The one saved table in `dir`, with its cell.
fn one_table(dir: &std::path::Path) -> Result<(PathBuf, Cell)> {
    let mut found = saved_dir::tables_in(dir)?;
    if found.len() != 1 {
        let names: Vec<String> = found.iter().map(|(_, cell)| cell.to_string()).collect();
        return Err(Error::Argument(format!(
            "{} holds {} saved tables ({}): open one of them, e.g. {}",
            dir.display(),
            found.len(),
            names.join(", "),
            found[0].0.display()
        )));
    }
    Ok(found.remove(0))
}

/// Refuses a table of outcomes only, and one that does not fit the budget whole with the
/// cell's configuration tables, before anything large is read.
fn check_fits(dir: &std::path::Path, board: Board, walls: u8, budget: u64) -> Result<()> {
    let header = saved::header(dir)?;
    if saved::precision_of(&header) != Some(Precision::Exact) {
        return Err(Error::Argument(format!(
            "{} holds outcomes only (a compact analysis: no lengths), which `verify` checks; \
             a Table reads an exact table",
            dir.display()
        )));
    }
    let values: u64 = header.layers.iter().flatten().map(|f| f.bytes).sum();
    let tables = CellEstimate::new(board, walls).tables.bytes;
    memory::check(
        &format!(
            "reading the saved table {} of {board} with {} whole",
            dir.display(),
            count(walls, "wall")
        ),
        tables.saturating_add(values),
        budget,
    )
}
