//! `solve --fewer-walls M`: the proof search of a cell pruned by the retrograde analysis of
//! the same board with fewer walls per player (`oracle::FewerWalls`: a wall in hand never
//! hurts). The analysis runs first within half of the budget: in memory, exact when every
//! layer fits that way (it then bounds the lengths too), else the outcomes of as many
//! layers from the start as fit; through a directory (`--scratch`) in parts, outcomes only,
//! going on from the layers an earlier run wrote there. The search has what it leaves.

use crate::cell::estimate::CellEstimate;
use crate::cell::plan::{DEFAULT_TT_BYTES, Method, SolveOptions, retro_over_ranked};
use crate::configs::{Ranked, Tables};
use crate::error::{Bound, Error, Result, Setting, count};
use crate::retro::{self, ConfigSource, Keep, Precision, Prefix, RetroEstimate, Solved, Storage};
use crate::rules::cell::Cell;
use crate::rules::geometry::Board;
use crate::support::progress::Progress;

/// The configurations of the board with fewer walls: full tables, or the ranked numbering
/// where those do not fit half of the budget, or the first layers of the cell's own tables
/// where the caller has them (`Prefix`: nothing to build).
pub enum Configs<'t> {
    Tables(Tables),
    Ranked(Ranked),
    Prefix(Prefix<'t>),
}

impl Configs<'_> {
    pub fn source(&self) -> &dyn ConfigSource {
        match self {
            Configs::Tables(t) => t,
            Configs::Ranked(r) => r,
            Configs::Prefix(p) => p,
        }
    }

    pub fn bytes(&self) -> u64 {
        self.source().bytes()
    }

    fn over_own_tables(&self) -> bool {
        matches!(self, Configs::Prefix(_))
    }
}

/// The configurations of `board` with `fewer` walls per player, for the analysis within
/// `budget` (`half` of `options`' for `solve --fewer-walls`): the first layers of `own`,
/// the cell's tables, where given and the analysis runs in memory; refused unless `fewer`
/// is below the cell's `walls` and the board has three rows or more (on two, a player who
/// cannot act draws, and a wall in hand can hurt).
pub fn configs<'t>(
    (board, walls, own): (Board, u8, Option<&'t Tables>),
    fewer: u8,
    (options, budget): (&SolveOptions, u64),
    progress: &dyn Progress,
) -> Result<Configs<'t>> {
    check(board, walls, fewer)?;
    if let Some(prefix) = own
        .filter(|_| options.save.is_none())
        .and_then(|t| Prefix::new(t, fewer))
    {
        return Ok(Configs::Prefix(prefix));
    }
    let share = analysis_options(options, budget);
    let e = CellEstimate::new(board, fewer);
    // Exact through a directory, the layers kept in memory are what bounds the search, and
    // full tables would leave room for fewer of them than the ranked numbering does (5x5
    // with 4 walls within 700 MiB: every layer over the numbering, 8 of 9 beside the
    // tables). In memory the tables stay: the analysis over them is faster.
    let kept = |room: u64| e.retro.kept_layers(Precision::Exact, room).unwrap_or(0);
    let crowded = options.save.is_some()
        && options.precision == Some(Precision::Exact)
        && kept(budget.saturating_sub(e.tables.bytes)) < kept(budget);
    if crowded || retro_over_ranked(&e, &share) {
        progress.message("the bound: ranking the wall configurations");
        return Ok(Configs::Ranked(Ranked::build(board, fewer)));
    }
    Tables::build(board, fewer, budget, progress).map(Configs::Tables)
}

/// Refuses a bound of `fewer` walls for the cell of `board` with `walls` unless `fewer` is
/// below `walls` and the board has three rows or more (on two, a player who cannot act
/// draws, and a wall in hand can hurt), and the analysis takes the board.
pub fn check(board: Board, walls: u8, fewer: u8) -> Result<()> {
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
    retro::check_board(board)
}

/// What the exact analysis of fewer walls is asked where it bounds the search for the
/// length after a compact analysis (`solve --method retro --fewer-walls`): exact, through
/// the options' `fewer_scratch` if any (the cell's own directory is the cell's).
pub fn length_bound_options(options: &SolveOptions) -> SolveOptions {
    SolveOptions {
        precision: Some(Precision::Exact),
        save: options.fewer_scratch.clone(),
        fewer_scratch: None,
        ..options.clone()
    }
}

/// The bound the search for the length after a compact analysis of `board` with `walls`
/// takes unasked (`SolveOptions::default_bound`): the exact analysis of one wall fewer,
/// where every layer of it fits in memory within `share` beside its configurations, or
/// over the cell's own tables (`own_tables`, `Prefix`) where at least its first two layers
/// do (`kept_from_start`). It has fewer positions than the cell's own analysis, and it cut
/// that search 2.7 to 75 times on the cells measured (docs/PERFORMANCE.md). `None` where
/// it is not asked or does not fit, or on a board a bound does not hold on.
pub fn default_bound(
    (board, walls, own_tables): (Board, u8, bool),
    share: u64,
    options: &SolveOptions,
) -> Option<u8> {
    let fewer = walls.checked_sub(1)?;
    if !options.default_bound || check(board, walls, fewer).is_err() {
        return None;
    }
    let e = CellEstimate::new(board, fewer);
    let bound_options = length_bound_options(options);
    if own_tables && bound_options.save.is_none() {
        return kept_from_start(&e.retro, 0, budgets(true, share)).map(|_| fewer);
    }
    let asked = analysis_options(&bound_options, share);
    let configs = match retro_over_ranked(&e, &asked) {
        true => e.ranked_bytes,
        false => e.tables.bytes,
    };
    e.retro
        .exact_fits(configs, share, Keep::Every)
        .then_some(fewer)
}

/// What the exact analysis of fewer walls given `share` may take while it runs, and keep
/// once it returns. Over the cell's own tables (`Prefix`) nothing of it but the layers kept
/// outlives it, so it may take twice `share` (the whole of what the search gets after it)
/// and keep `share`; beside configurations of its own, `share` bounds the whole run.
fn budgets(over_own_tables: bool, share: u64) -> (u64, u64) {
    match over_own_tables {
        true => (share.saturating_mul(2), share),
        false => (share, u64::MAX),
    }
}

/// The layers from the start the exact analysis keeps within `budgets` beside
/// configurations of `configs_bytes`: at least two, every one at most.
fn kept_from_start(
    e: &RetroEstimate,
    configs_bytes: u64,
    (run, keep): (u64, u64),
) -> Option<usize> {
    e.kept_layers_within(Precision::Exact, run.saturating_sub(configs_bytes), keep)
}

/// The share of `options`' budget the analysis of fewer walls gets in `solve
/// --fewer-walls`: half; the search has the rest.
pub fn half(options: &SolveOptions) -> u64 {
    options.memory_budget / 2
}

/// What the search of a pair's second cell keeps at the least when its full tables do not
/// fit beside the first cell's analysis: configurations built on demand within this. Its
/// searches are short (4x7 with 8 walls: 304,146 nodes) and the layers kept bound more.
const PAIR_ON_DEMAND_BYTES: u64 = 2 << 30;

/// The share of `options`' budget for the exact analysis of `board` with `walls` over full
/// tables, keeping as many layers from the start as fit (every one, at best), that leaves
/// the proof search of the next wall count its full tables and a transposition table of
/// the default size, or where those do not fit beside two layers, `PAIR_ON_DEMAND_BYTES`:
/// `None` where not even that fits. What `solver::solve_pair` needs to bound that cell on
/// both sides.
pub fn pair_budget(board: Board, walls: u8, options: &SolveOptions) -> Option<u64> {
    let e = CellEstimate::new(board, walls);
    let search = SolveOptions {
        method: Method::Search,
        fewer_walls: None,
        ..options.clone()
    };
    let need = crate::cell::plan::decide(Cell::new(board, walls + 1), &search).need;
    let beside = |reserve: u64| {
        let share = options.memory_budget.checked_sub(reserve)?;
        let room = share.checked_sub(e.tables.bytes)?;
        let fits = !retro_over_ranked(&e, &analysis_options(options, share))
            && e.retro.kept_layers(Precision::Exact, room).is_some();
        fits.then_some(share)
    };
    let full = need.bytes.saturating_add(DEFAULT_TT_BYTES);
    (!need.on_demand)
        .then(|| beside(full))
        .flatten()
        .or_else(|| beside(PAIR_ON_DEMAND_BYTES))
}

/// What the analysis of fewer walls is asked: the retrograde analysis within `budget`,
/// through the directory the options name if any.
fn analysis_options(options: &SolveOptions, budget: u64) -> SolveOptions {
    SolveOptions {
        method: Method::Retro,
        memory_budget: budget,
        fewer_walls: None,
        winner: None,
        checkpoint: None,
        ..options.clone()
    }
}

/// The analysis over `configs` within `budget`: exact keeping every layer when that fits
/// in memory, else (`first_layers`, or the options' precision exact) exact keeping as many
/// layers from the start as fit, or outcomes only; through the options' directory, if any,
/// outcomes only unless their precision is exact. A precision of compact asked keeps
/// outcomes only.
pub fn analyse<'t>(
    configs: &'t Configs<'_>,
    (options, half, first_layers): (&SolveOptions, u64, bool),
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    let source = configs.source();
    let (request, what) = request(configs, (options, half, first_layers));
    progress.message(&format!(
        "the bound: the {what} analysis of {} with {} per player",
        source.board(),
        count(source.walls_per_player(), "wall"),
    ));
    retro::solve(source, &request, progress).map_err(|e| match e {
        // The budget it names is the analysis's share of the one given: say so.
        Error::Memory {
            what,
            needed,
            budget,
        } => Error::Memory {
            what: format!("{what}, the bound of fewer walls, given its share of the budget,"),
            needed,
            budget,
        },
        e => e,
    })
}

/// Whether `analyse` with these options would be exact (and so bound the lengths too).
pub fn exact(
    configs: &Configs<'_>,
    (options, half, first_layers): (&SolveOptions, u64, bool),
) -> bool {
    request(configs, (options, half, first_layers)).0.precision == Precision::Exact
}

/// What `analyse` asks the analysis, and the words for it.
fn request(
    configs: &Configs<'_>,
    (options, half, first_layers): (&SolveOptions, u64, bool),
) -> (retro::Request, String) {
    let source = configs.source();
    let storage = match &options.save {
        Some(to) => Storage::Dir(to.clone()),
        None => Storage::Memory,
    };
    let e = retro::cell_estimate(source);
    let asked = options.precision;
    let in_memory = matches!(storage, Storage::Memory);
    let exact = in_memory
        && asked != Some(Precision::Compact)
        && e.exact_fits(configs.bytes(), half, Keep::Every);
    // The layers from the start that fit (those near the root bound the most).
    let (run, keep) = budgets(configs.over_own_tables(), half);
    let first = (in_memory && !exact && (first_layers || asked == Some(Precision::Exact)))
        .then(|| kept_from_start(&e, configs.bytes(), (run, keep)))
        .flatten();
    match (exact, first) {
        (true, _) => (retro::Request::exact(half), "exact".to_string()),
        // Through the directory, exact where asked: the layers kept are those that fit.
        _ if !in_memory && asked == Some(Precision::Exact) => (
            retro::Request {
                storage,
                ..retro::Request::exact(half)
            },
            "exact".to_string(),
        ),
        (false, Some(kept)) => (
            retro::Request {
                keep: retro::Layers::Only(0..kept),
                ..retro::Request::exact(run)
            },
            format!("exact (its first {} kept)", count(kept, "layer")),
        ),
        (false, None) => (
            retro::Request {
                storage,
                ..retro::Request::outcomes(half)
            },
            "compact".to_string(),
        ),
    }
}
