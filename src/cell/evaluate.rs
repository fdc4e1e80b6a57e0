//! Where the answers on a cell's positions come from, for `analyze` and `play` (and any
//! other caller that values positions, as `serve` does): a saved table, loaded whole or,
//! when too large, read a few positions at a time; or an analyst that solves on request,
//! the exact retrograde analysis where it fits (or is asked for), else the proof search.
//! The choice is made here once (`AnalystConfig::source`, `AnalystConfig::analyst`); the
//! analyst itself is `analysis.rs`.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::cell::analysis::{Analyst, retro_fits, saved_too_large};
use crate::cell::plan::refuse_search_flags;
use crate::configs::{Ranked, Tables};
use crate::error::{Error, NoSearch, Result, Setting, count};
use crate::retro::{sampled, saved};
use crate::rules::cell::Cell;
use crate::rules::geometry::Board;
use crate::search::Limits;
use crate::support::memory;
use crate::support::progress::Progress;

/// How positions are valued when no saved table is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalystMethod {
    /// The exact retrograde analysis of the cell (from the position's wall count up):
    /// each answer a lookup, draws included.
    Retro,
    /// Proof search per position, one transposition table for all: no draws.
    Search,
    /// The analysis where it fits the memory budget, else the search.
    Auto,
}

/// How the answers are found: by which method, within which limits, or from which saved
/// table.
#[derive(Clone, Debug)]
pub struct AnalystConfig {
    pub method: AnalystMethod,
    /// The search's deepest iteration per position.
    pub max_depth: u8,
    /// The search's transposition table, at most.
    pub tt_bytes: u64,
    /// The search's time limit, counted from the start of the command.
    pub time_limit: Option<Duration>,
    /// Answer from this saved table instead of solving.
    pub table: Option<PathBuf>,
    pub threads: usize,
    pub memory_budget: u64,
    /// The settings that bound the search, each with whether it was given: refused where
    /// `AnalystMethod::Auto` chooses the analysis (`analyst`), which they would not bound.
    pub search_flags: [(Setting, bool); 3],
}

/// What the answers are read from.
pub enum Source {
    /// The cell's configuration tables: for the analysis, the search, or a saved table
    /// loaded whole.
    Tables(Tables),
    /// The ranked numbering of the cell's configurations, to read the saved table in the
    /// directory, too large to load with the tables (`AnalystConfig::table_too_large`).
    Ranked(Ranked, PathBuf),
}

impl AnalystConfig {
    /// Sets the configured threads for the rest of the process (these commands answer
    /// questions one after the other, between which a scoped pool could not hold the
    /// output).
    pub fn use_threads(&self) -> Result<()> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build_global()
            .map_err(|e| Error::ThreadPool {
                threads: "the threads".into(),
                why: e.to_string(),
            })
    }

    /// What the answers on the positions of `layers` (walls on the board) of the cell are
    /// read from: the ranked numbering where the saved table given is too large to load
    /// with the tables, else the tables.
    pub fn source(
        &self,
        board: Board,
        walls: u8,
        layers: Range<usize>,
        progress: &dyn Progress,
    ) -> Result<Source> {
        Ok(match self.table_too_large(board, walls, layers)? {
            Some(dir) => Source::Ranked(self.ranked(board, walls)?, dir.clone()),
            None => Source::Tables(self.tables(board, walls, progress)?),
        })
    }

    /// The analyst over `source` (`source`): a reader of the saved table too large to load,
    /// or the analyst of the tables by the configured method. The time limit, if any,
    /// counts from `started`; the questions asked must stay in `layers`.
    pub fn analyst<'s>(
        &self,
        source: &'s Source,
        layers: Range<usize>,
        started: Instant,
        progress: &dyn Progress,
    ) -> Result<Analyst<'s>> {
        match source {
            Source::Ranked(ranked, dir) => self.read_table(ranked, dir, progress),
            Source::Tables(tables) => self.analyst_of(tables, layers, started, progress),
        }
    }

    /// The configuration tables of the cell.
    fn tables(&self, board: Board, walls: u8, progress: &dyn Progress) -> Result<Tables> {
        Tables::build(board, walls, self.memory_budget, progress)
    }

    /// The saved table given (`table`) when it is too large to load with the cell's
    /// tables (`analysis::saved_too_large`); `None` when no table is given or it loads.
    fn table_too_large(
        &self,
        board: Board,
        walls: u8,
        layers: Range<usize>,
    ) -> Result<Option<&PathBuf>> {
        let Some(dir) = &self.table else {
            return Ok(None);
        };
        let budget = self.memory_budget;
        Ok(saved_too_large(dir, Cell::new(board, walls), layers, budget)?.then_some(dir))
    }

    /// The ranked numbering of the configurations of the cell, to read a saved table too
    /// large to load (`table_too_large`), checked against the memory budget first.
    fn ranked(&self, board: Board, walls: u8) -> Result<Ranked> {
        memory::check(
            &format!(
                "reading the saved table of {board} with {} (numbering the configurations)",
                count(walls, "wall")
            ),
            Ranked::estimate_bytes(board, 2 * walls as usize + 1),
            self.memory_budget,
        )?;
        Ok(Ranked::build(board, walls))
    }

    /// The analyst of the saved table `dir` of the cell of `ranked`, too large to load
    /// (`table_too_large`): it reads the positions asked a few at a time (`prepare`), from
    /// the files that hold them.
    fn read_table<'t>(
        &self,
        ranked: &'t Ranked,
        dir: &Path,
        progress: &dyn Progress,
    ) -> Result<Analyst<'t>> {
        progress.message(&format!(
            "{} does not fit the memory with the cell's tables: reading the positions asked \
             from its files, a pass each time",
            dir.display()
        ));
        let reader = sampled::Reader::open(ranked, dir)?;
        Ok(Analyst::from_reader(ranked.board(), reader))
    }

    /// The analyst of the cell of `tables`, by the configured method: the saved table
    /// given, loaded whole; else the analysis or the search (`AnalystMethod`). The
    /// retrograde analysis solves and keeps, and a saved table reads, only `layers`.
    fn analyst_of<'t>(
        &self,
        tables: &'t Tables,
        layers: Range<usize>,
        started: Instant,
        progress: &dyn Progress,
    ) -> Result<Analyst<'t>> {
        if let Some(dir) = &self.table {
            return Ok(Analyst::from_solved(saved::load(tables, dir, layers)?));
        }
        let budget = self.memory_budget;
        let retro = match self.method {
            AnalystMethod::Retro => true,
            AnalystMethod::Search => false,
            AnalystMethod::Auto => {
                crate::retro::handles(tables.board()) && retro_fits(tables, layers.clone(), budget)
            }
        };
        let what = format!(
            "the exact retrograde analysis of {} with {} placed",
            tables.board(),
            match layers.len() {
                1 => count(layers.start, "wall"),
                _ => format!("{} to {} walls", layers.start, layers.end - 1),
            }
        );
        if retro {
            if self.method == AnalystMethod::Auto {
                // Known only now, from the tables: refused rather than ignored.
                let why = NoSearch::AutoChoseRetro { what: what.clone() };
                refuse_search_flags(false, why, &self.search_flags)?;
            }
            progress.message(&format!("answering from {what}"));
            return Analyst::retro(tables, budget, layers, progress);
        }
        if self.method == AnalystMethod::Auto {
            progress.message(&format!(
                "answering by proof search: {what} does not fit the budget or the board"
            ));
        }
        let limits = Limits {
            checkpoint: None,
            max_depth: self.max_depth,
            deadline: self.time_limit.map(|t| started + t),
            tt_bytes: self.tt_bytes.min(budget.saturating_sub(tables.bytes())),
            parallel: self.threads > 1,
            winner: None,
            oracle: None,
        };
        Ok(Analyst::search(tables, &limits))
    }
}
