//! The flags shared by `analyze` and `play`: how positions are valued (`analysis.rs`) and
//! with what resources; and building the cell's tables and its `Analyst` from them.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use quoridor_solver::cell::analysis::{Analyst, retro_fits, saved_too_large};
use quoridor_solver::cell::solver::DEFAULT_TT_BYTES;
use quoridor_solver::configs::Ranked;
use quoridor_solver::configs::Tables;
use quoridor_solver::error::count;
use quoridor_solver::retro::{sampled, saved};
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::search::Limits;
use quoridor_solver::support::memory::{self, parse_size};
use quoridor_solver::support::progress::Progress;
use quoridor_solver::{Error, Result};

use super::progress::Bars;
use super::resources::{ResourceArgs, Resources};
use super::{max_depth, refuse_search_flags, time_limit};

#[derive(Args, Debug)]
pub struct AnalystArgs {
    /// How positions are valued: `retro` (the exact retrograde analysis of the cell from
    /// the position's wall count up, keeping the values the questions need: then each
    /// answer is a lookup, draws included), `search` (proof search per position, one
    /// transposition table for all: wins and their lengths; no draws, which come out
    /// "unknown"), or `auto` (retro when it fits the memory budget, else search)
    #[arg(long, value_enum, default_value_t = AnalystMethod::Auto)]
    method: AnalystMethod,

    /// Deepest search iteration in plies per position; a position neither player wins by
    /// then is "unknown" (never a guess) [default: 120]. Not where the analysis answers
    /// (--method retro, or auto where it fits)
    #[arg(long, value_name = "D")]
    max_depth: Option<u8>,

    /// Transposition table size of the search, e.g. 256M or 2G [default: 1G]. Not where
    /// the analysis answers (--method retro, or auto where it fits)
    #[arg(long, value_name = "SIZE")]
    tt: Option<String>,

    /// Answer from the saved table in DIR (`solve --method retro --save DIR`) instead of
    /// solving: every file is checked against its manifest first
    #[arg(long, value_name = "DIR", conflicts_with_all = ["method", "max_depth", "tt"])]
    table: Option<PathBuf>,

    #[command(flatten)]
    resources: ResourceArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AnalystMethod {
    Retro,
    Search,
    Auto,
}

/// Checked `AnalystArgs`, with the time limit of the command that uses them.
#[derive(Clone, Debug)]
pub struct AnalystConfig {
    method: AnalystMethod,
    max_depth: u8,
    tt_bytes: u64,
    time_limit: Option<Duration>,
    table: Option<PathBuf>,
    pub resources: Resources,
    /// The flags that bound the search, each with whether it was given: refused where
    /// `--method auto` chooses the analysis (`analyst`), which they would not bound.
    search_flags: [(&'static str, bool); 3],
}

impl AnalystArgs {
    /// `max_seconds`: the command's `--max-seconds`, if it has one.
    pub fn validate(&self, max_seconds: Option<f64>) -> Result<AnalystConfig> {
        let search_flags = [
            ("--tt", self.tt.is_some()),
            ("--max-depth", self.max_depth.is_some()),
            ("--max-seconds", max_seconds.is_some()),
        ];
        refuse_search_flags(
            self.method != AnalystMethod::Retro,
            "--method retro does not run",
            &search_flags,
        )?;
        Ok(AnalystConfig {
            method: self.method,
            max_depth: max_depth(self.max_depth)?,
            tt_bytes: self
                .tt
                .as_deref()
                .map(parse_size)
                .transpose()?
                .unwrap_or(DEFAULT_TT_BYTES),
            time_limit: max_seconds.map(time_limit).transpose()?,
            table: self.table.clone(),
            resources: self.resources.validate()?,
            search_flags,
        })
    }
}

impl AnalystConfig {
    /// Sets the configured threads for the rest of the process (these commands answer
    /// questions one after the other, between which a scoped pool could not hold the
    /// output).
    pub fn use_threads(&self) -> Result<()> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.resources.threads)
            .build_global()
            .map_err(|e| Error::Argument(format!("cannot start the threads: {e}")))
    }

    /// The configuration tables of the cell.
    pub fn tables(&self, board: Board, walls: u8, bars: &Bars) -> Result<Tables> {
        Tables::build(board, walls, self.resources.memory_budget, bars)
    }

    /// The saved table given (`--table`) when it is too large to load with the cell's
    /// tables (`analysis::saved_too_large`); `None` when no table is given or it loads.
    pub fn table_too_large(
        &self,
        board: Board,
        walls: u8,
        layers: Range<usize>,
    ) -> Result<Option<&PathBuf>> {
        let Some(dir) = &self.table else {
            return Ok(None);
        };
        let budget = self.resources.memory_budget;
        Ok(saved_too_large(dir, (board, walls), layers, budget)?.then_some(dir))
    }

    /// The ranked numbering of the configurations of the cell, to read a saved table too
    /// large to load (`table_too_large`), checked against the memory budget first.
    pub fn ranked(&self, board: Board, walls: u8) -> Result<Ranked> {
        memory::check(
            &format!(
                "reading the saved table of {board} with {} (numbering the configurations)",
                count(walls, "wall")
            ),
            Ranked::estimate_bytes(board, 2 * walls as usize + 1),
            self.resources.memory_budget,
        )?;
        Ok(Ranked::build(board, walls))
    }

    /// The analyst of the saved table `dir` of the cell of `ranked`, too large to load
    /// (`table_too_large`): it reads the positions asked a few at a time (`prepare`), from
    /// the files that hold them.
    pub fn read_table<'t>(
        &self,
        ranked: &'t Ranked,
        dir: &Path,
        bars: &Bars,
    ) -> Result<Analyst<'t>> {
        bars.message(&format!(
            "{} does not fit the memory with the cell's tables: reading the positions asked \
             from its files, a pass each time",
            dir.display()
        ));
        let reader = sampled::Reader::open(ranked, dir)?;
        Ok(Analyst::from_reader(ranked.board(), reader))
    }

    /// The analyst of the cell of `tables`, by the configured method (see `AnalystArgs`).
    /// The time limit, if any, counts from `started`. The retrograde analysis solves and
    /// keeps, and a saved table reads, only `layers` (walls on the board): the questions
    /// asked must stay in them.
    pub fn analyst<'t>(
        &self,
        tables: &'t Tables,
        layers: Range<usize>,
        started: Instant,
        bars: &Bars,
    ) -> Result<Analyst<'t>> {
        if let Some(dir) = &self.table {
            return Ok(Analyst::from_solved(saved::load(tables, dir, layers)?));
        }
        let budget = self.resources.memory_budget;
        let retro = match self.method {
            AnalystMethod::Retro => true,
            AnalystMethod::Search => false,
            AnalystMethod::Auto => {
                quoridor_solver::retro::handles(tables.board())
                    && retro_fits(tables, layers.clone(), budget)
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
                refuse_search_flags(
                    false,
                    &format!(
                        "--method auto does not run here: {what} fits the budget and \
                         answers (--method search asks for the search)"
                    ),
                    &self.search_flags,
                )?;
            }
            bars.message(&format!("answering from {what}"));
            return Analyst::retro(tables, budget, layers, bars);
        }
        if self.method == AnalystMethod::Auto {
            bars.message(&format!(
                "answering by proof search: {what} does not fit the budget or the board"
            ));
        }
        let limits = Limits {
            checkpoint: None,
            max_depth: self.max_depth,
            deadline: self.time_limit.map(|t| started + t),
            tt_bytes: self.tt_bytes.min(budget.saturating_sub(tables.bytes())),
            parallel: self.resources.threads > 1,
            winner: None,
            oracle: None,
        };
        Ok(Analyst::search(tables, &limits))
    }
}
