//! `solve`: one cell from Python, as the command `solve` solves it (`solver::solve`), with
//! the options that make sense in a library and the command line's refusals of them.

use pyo3::prelude::*;
use quoridor_solver::cell::plan;
use quoridor_solver::cell::solver::{Method, SolveOptions};
use quoridor_solver::error::{Bound, Clash, Setting};
use quoridor_solver::retro::Precision;
use quoridor_solver::rules::cell::Cell;
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::support::progress::Silent;
use quoridor_solver::{Error, Result};

use crate::args::{self, Size};
use crate::results::Solution;
use crate::run::{detached, to_py};

/// The deepest search iteration when `max_depth` is not given (the command line's).
const DEFAULT_MAX_DEPTH: u8 = 120;

/// Solve a cell: who wins from the start, in how many plies, and a line of best play.
///
/// `board` is "WxH" (e.g. "4x4"), `walls` the walls per player. `method`: "search" (proof
/// search: wins and exact lengths), "retro" (retrograde analysis: draws too), or "auto"
/// (search, then the analysis where it left the cell undecided and fits the memory).
/// `precision` ("exact" or "compact"): what the analysis keeps per position. `memory`: the
/// budget, bytes or text such as "4G" (default: 80% of the memory available now); work
/// that needs more is refused before it starts. `threads` (default: one per core);
/// `max_seconds` and `max_depth` bound the proof search (then the outcome may be None).
///
/// Runs with the GIL released; Ctrl-C stops it and raises KeyboardInterrupt. Bad input
/// raises QuoridorError (a ValueError) with the command line's message.
#[pyfunction]
#[pyo3(signature = (board, walls, method="auto", precision=None, memory=None, threads=None, max_seconds=None, max_depth=None))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    board: &str,
    walls: i64,
    method: &str,
    precision: Option<&str>,
    memory: Option<Size>,
    threads: Option<i64>,
    max_seconds: Option<f64>,
    max_depth: Option<i64>,
) -> PyResult<Solution> {
    let asked = Asked {
        method,
        precision,
        max_seconds,
        max_depth,
    };
    let (board, walls, options) = asked
        .options(board, walls, memory, threads)
        .map_err(to_py)?;
    let result = detached(py, move || {
        quoridor_solver::cell::solver::solve(board, walls, &options, &Silent)
    })?;
    Ok(Solution { board, result })
}

/// The options as given, for the refusals that depend on which were given.
struct Asked<'a> {
    method: &'a str,
    precision: Option<&'a str>,
    max_seconds: Option<f64>,
    max_depth: Option<i64>,
}

impl Asked<'_> {
    /// The checked cell and options, refused as `solve`'s flags are (`cli/solve.rs`,
    /// `cell/plan/refuse.rs`).
    fn options(
        &self,
        board: &str,
        walls: i64,
        memory: Option<Size>,
        threads: Option<i64>,
    ) -> Result<(Board, u8, SolveOptions)> {
        let method = [Method::Search, Method::Retro, Method::Auto][args::choice(
            "--method <METHOD>",
            self.method,
            &["search", "retro", "auto"],
        )?];
        let precision = self
            .precision
            .map(|p| args::choice("--precision <PRECISION>", p, &["exact", "compact"]))
            .transpose()?
            .map(|i| [Precision::Exact, Precision::Compact][i]);
        let max_depth = match self.max_depth {
            None => DEFAULT_MAX_DEPTH,
            Some(0) => return Err(Error::limit(Setting::MaxDepth, 0, Bound::AtLeast(1))),
            Some(d) => u8::try_from(d).map_err(|_| {
                Error::Argument(format!(
                    "invalid value '{d}' for '--max-depth <D>': {d} is not in 0..=255"
                ))
            })?,
        };
        let Cell { board, walls } = args::cell(board, walls)?;
        let time_limit = self.max_seconds.map(args::time_limit).transpose()?;
        if precision.is_some() && method == Method::Search {
            return Err(Error::Options(Clash::PrecisionWithSearch));
        }
        let options = SolveOptions {
            method,
            max_depth,
            time_limit,
            threads: args::threads(threads)?,
            memory_budget: args::memory(memory)?,
            precision,
            ..SolveOptions::default()
        };
        let cell = Cell::new(board, walls);
        self.refuse_ignored_search_limits(cell, &options)?;
        plan::refuse_ignored_precision(cell, &options, self.precision.is_some())?;
        Ok((board, walls, options))
    }

    /// Refuses the limits of the proof search where none runs, the exact analysis (as
    /// `solve --method retro` refuses `--max-seconds` and `--max-depth` there).
    fn refuse_ignored_search_limits(&self, cell: Cell, options: &SolveOptions) -> Result<()> {
        let given = [
            (Setting::MaxDepth, self.max_depth.is_some()),
            (Setting::MaxSeconds, self.max_seconds.is_some()),
        ];
        plan::refuse_ignored_search_flags(cell, options, &given, self.precision.is_some())
    }
}
