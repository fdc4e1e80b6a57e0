//! `solve --fewer-walls M`: the proof search of a cell pruned by the retrograde analysis of
//! the same board with fewer walls per player (`oracle::FewerWalls`: a wall in hand never
//! hurts). The analysis runs first within half of the budget: in memory, exact when every
//! layer fits that way (it then bounds the lengths too), else the outcomes of as many
//! layers from the start as fit; through a directory (`--scratch`) in parts, outcomes only,
//! going on from the layers an earlier run wrote there. The search has what it leaves.

use crate::cell::estimate::CellEstimate;
use crate::cell::plan::{Method, SolveOptions, retro_over_ranked};
use crate::configs::{Ranked, Tables};
use crate::error::{Bound, Error, Result, Setting, count};
use crate::retro::{self, ConfigSource, Keep, Solved, Storage};
use crate::rules::geometry::Board;
use crate::support::progress::Progress;

/// The configurations of the board with fewer walls: full tables, or the ranked numbering
/// where those do not fit half of the budget.
pub enum Configs {
    Tables(Tables),
    Ranked(Ranked),
}

impl Configs {
    pub fn source(&self) -> &dyn ConfigSource {
        match self {
            Configs::Tables(t) => t,
            Configs::Ranked(r) => r,
        }
    }

    pub fn bytes(&self) -> u64 {
        match self {
            Configs::Tables(t) => t.bytes(),
            Configs::Ranked(r) => r.bytes(),
        }
    }
}

/// The configurations of `board` with `fewer` walls per player, for the analysis within
/// half of `options`' budget; refused unless `fewer` is below the cell's `walls` and the
/// board has three rows or more (on two, a player who cannot act draws, and a wall in hand
/// can hurt).
pub fn configs(
    board: Board,
    walls: u8,
    fewer: u8,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<Configs> {
    if fewer >= walls {
        return Err(Error::Limit {
            setting: Setting::FewerWalls,
            value: i64::from(fewer),
            bound: Bound::AtMost(i64::from(walls) - 1),
        });
    }
    if board.height() < 3 {
        return Err(Error::Argument(format!(
            "a cell with fewer walls bounds one with more on boards of three rows or more, \
             not on {board}: on two rows a player who cannot act draws, so a wall in hand \
             can force a worse action"
        )));
    }
    retro::check_board(board)?;
    let half = analysis_options(options);
    if retro_over_ranked(&CellEstimate::new(board, fewer), &half) {
        progress.message("the bound: ranking the wall configurations");
        return Ok(Configs::Ranked(Ranked::build(board, fewer)));
    }
    Tables::build(board, fewer, half.memory_budget, progress).map(Configs::Tables)
}

/// What the analysis of fewer walls is asked: the retrograde analysis within half of the
/// budget, through the directory the options name if any.
fn analysis_options(options: &SolveOptions) -> SolveOptions {
    SolveOptions {
        method: Method::Retro,
        memory_budget: options.memory_budget / 2,
        fewer_walls: None,
        winner: None,
        checkpoint: None,
        ..options.clone()
    }
}

/// The analysis over `configs` within half of `options`' budget: exact keeping every layer
/// when that fits in memory, else outcomes only (through the options' directory, if any).
pub fn analyse<'t>(
    configs: &'t Configs,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    let half = analysis_options(options).memory_budget;
    let source = configs.source();
    let storage = match &options.save {
        Some(to) => Storage::Dir(to.clone()),
        None => Storage::Memory,
    };
    let exact = matches!(storage, Storage::Memory)
        && retro::cell_estimate(source).exact_fits(configs.bytes(), half, Keep::Every);
    let request = retro::Request {
        storage,
        ..if exact {
            retro::Request::exact(half)
        } else {
            retro::Request::outcomes(half)
        }
    };
    progress.message(&format!(
        "the bound: the {} analysis of {} with {} per player",
        if exact { "exact" } else { "compact" },
        source.board(),
        count(source.walls_per_player(), "wall"),
    ));
    retro::solve(source, &request, progress).map_err(|e| match e {
        // The budget it names is half of the one given: say so.
        Error::Memory {
            what,
            needed,
            budget,
        } => Error::Memory {
            what: format!("{what}, the bound of fewer walls, given half of the budget,"),
            needed,
            budget,
        },
        e => e,
    })
}
