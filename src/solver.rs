//! One cell (W, H, N) from start to result: build the configuration tables, run the
//! iterative-deepening proof search, and extract the principal line.

use crate::error::{Error, Result, count};
use crate::estimate::CellEstimate;
use crate::geometry::{Board, Player};
use crate::memory;
use crate::position::{Action, Position};
use crate::progress::Progress;
use crate::retro::{self, Keep, Precision, RetroEstimate, RetroResult, RetroStats, Solved, Wdl};
use crate::search::Checkpoint;
use crate::search::{self, Node, Oracle};
use crate::tables::{ConfigTables, OnDemand, Ranked, Tables};
use crate::walls::WallSet;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The least time `auto` gives the proof search before a retrograde analysis that fits.
pub const MIN_SEARCH_SECONDS: f64 = 5.0;

/// How long `auto` lets the proof search run before a retrograde analysis that fits, as a
/// multiple of the analysis's estimated time: a cell then costs at most about three times
/// the cheaper method. Twice, not once, because the estimate runs low on some boards while
/// the search there is cheaper from a few walls on (5x5 with 4 walls: search 14.8 s, the
/// analysis estimated at 8 s and measured at 11.8 s; with 5-10 walls the search takes
/// 15-28 s, the analysis 29-98 s).
pub const AUTO_SEARCH_SHARE: f64 = 2.0;

/// The default largest transposition table, when the budget allows it.
pub const DEFAULT_TT_BYTES: u64 = 1 << 30;

/// The least budget a proof search over configurations built on demand starts with. Of it
/// the transposition table takes a quarter and `ON_DEMAND_SLACK_BYTES` 32 MiB, which
/// leaves the store 16 MiB, a few tens of thousands of configurations (a record of 9x9 with
/// 3 walls is about 340 bytes): with less the store fills before the search has gone
/// anywhere, and the cell ends unknown after doing nothing.
pub const MIN_ON_DEMAND_BYTES: u64 = 64 << 20;

/// What the full tables leave beside them at the least: room for the transposition
/// table's first megabytes and the search's own allocations.
const EAGER_SLACK_BYTES: u64 = 16 << 20;

/// What a search over configurations built on demand leaves outside its store and table
/// (the stacks, the line, the allocator's own bookkeeping).
const ON_DEMAND_SLACK_BYTES: u64 = 32 << 20;

/// How a cell is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Iterative-deepening proof search only: wins and their lengths, never a draw.
    Search,
    /// Retrograde analysis of every position of the cell: wins, lengths and draws.
    Retro,
    /// Proof search; then, if neither player has won by its limit, retrograde analysis
    /// when it fits the memory budget.
    Auto,
}

#[derive(Clone, Debug)]
pub struct SolveOptions {
    pub method: Method,
    /// The deepest iteration (plies) to try before answering "unknown".
    pub max_depth: u8,
    /// Stop and answer "unknown" after this long.
    pub time_limit: Option<Duration>,
    /// Threads for table building and search (results do not depend on it).
    pub threads: usize,
    /// Bytes the tables and the transposition table may take together.
    pub memory_budget: u64,
    /// Transposition table bytes (capped by what the budget leaves after the tables).
    pub tt_bytes: u64,
    /// What the retrograde analysis stores per position; `None`: exact (a byte, every
    /// remoteness) when every layer fits the budget that way, else compact (2 bits, the
    /// length then proven by an oracle-guided proof search).
    pub precision: Option<Precision>,
    /// Write the exact analysis's values here (`retro::saved`); only with `Method::Retro`
    /// and an exact analysis that keeps every layer. Checked before any work is done.
    pub save: Option<retro::saved::Target>,
    /// Where the proof search reads configurations from.
    pub store: Store,
    /// Keep the proof search's transposition table in this file between runs
    /// (`search::Checkpoint`); only with `Method::Search`.
    pub checkpoint: Option<PathBuf>,
    /// Search only this player's wins (only with `Method::Search`): a guess at the winner
    /// that spares the other player's iterations. A win found is proven and its length
    /// exact (a player who can force a win leaves the other none); if the guess is wrong,
    /// the cell stays unknown.
    pub winner: Option<Player>,
}

/// Where the proof search reads wall configurations from (`tables/`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Store {
    /// Every configuration built up front (the fastest; the retrograde analysis needs it).
    Full,
    /// Each configuration built when the search first meets it, within the budget.
    OnDemand,
    /// Full where it fits the memory budget, else on demand for a proof search.
    #[default]
    Auto,
}

/// The value of a cell, as reported: `1`, `2`, `D` or `unknown` in CSV and JSON
/// (docs/FORMATS.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String")]
pub enum Outcome {
    #[serde(rename = "1")]
    Player1,
    #[serde(rename = "2")]
    Player2,
    #[serde(rename = "D")]
    Draw,
    #[serde(rename = "unknown")]
    Unknown,
}

impl Outcome {
    pub const ALL: [Outcome; 4] = [
        Outcome::Player1,
        Outcome::Player2,
        Outcome::Draw,
        Outcome::Unknown,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Outcome::Player1 => "1",
            Outcome::Player2 => "2",
            Outcome::Draw => "D",
            Outcome::Unknown => "unknown",
        }
    }

    pub fn winner(player: Player) -> Outcome {
        match player {
            Player::One => Outcome::Player1,
            Player::Two => Outcome::Player2,
        }
    }

    /// The winner, for a win.
    pub fn winning_player(self) -> Option<Player> {
        match self {
            Outcome::Player1 => Some(Player::One),
            Outcome::Player2 => Some(Player::Two),
            _ => None,
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

impl TryFrom<String> for Outcome {
    type Error = String;
    fn try_from(text: String) -> std::result::Result<Outcome, String> {
        Outcome::ALL
            .into_iter()
            .find(|o| o.code() == text)
            .ok_or_else(|| {
                format!(
                    "outcome '{}' is not 1, 2, D or unknown",
                    crate::error::clip(&text)
                )
            })
    }
}

/// How a cell was decided, as reported: `proof-search`, `retrograde` or
/// `retrograde+search` in CSV and JSON (docs/FORMATS.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String")]
pub enum MethodUsed {
    /// Proof search alone (or nothing yet, for an undecided cell).
    #[serde(rename = "proof-search")]
    Search,
    /// The retrograde analysis: outcome, and the length when it was exact.
    #[serde(rename = "retrograde")]
    Retro,
    /// The compact analysis for the outcome, proof search guided by it for the length.
    #[serde(rename = "retrograde+search")]
    RetroSearch,
}

impl MethodUsed {
    pub const ALL: [MethodUsed; 3] = [
        MethodUsed::Search,
        MethodUsed::Retro,
        MethodUsed::RetroSearch,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MethodUsed::Search => "proof-search",
            MethodUsed::Retro => "retrograde",
            MethodUsed::RetroSearch => "retrograde+search",
        }
    }

    /// Whether the retrograde analysis decided the outcome.
    pub fn is_retro(self) -> bool {
        self != MethodUsed::Search
    }
}

impl std::fmt::Display for MethodUsed {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl TryFrom<String> for MethodUsed {
    type Error = String;
    fn try_from(text: String) -> std::result::Result<MethodUsed, String> {
        MethodUsed::ALL
            .into_iter()
            .find(|m| m.name() == text)
            .ok_or_else(|| {
                format!(
                    "method '{}' is not proof-search, retrograde or retrograde+search",
                    crate::error::clip(&text)
                )
            })
    }
}

/// The result of solving one cell.
#[derive(Clone, Debug, Serialize)]
pub struct CellResult {
    pub width: usize,
    pub height: usize,
    pub walls: u8,
    pub outcome: Outcome,
    /// Plies of the win under best play (the winner hurries, the loser holds out).
    pub plies: Option<u32>,
    /// The deepest search iteration completed.
    pub depth_reached: u32,
    /// Each player's deepest search iteration known to hold no win for them (Player 1,
    /// Player 2): they differ when one player's wins were searched (`SolveOptions::winner`).
    pub no_win: [u32; 2],
    pub method: MethodUsed,
    pub nodes: u64,
    pub seconds: f64,
    pub peak_bytes: u64,
    /// The principal line: for a win, the winner's exact line; for a draw, moves from the
    /// start into the cycle both players keep to. (Written in notation as `pv` by the CLI,
    /// which knows the board.)
    #[serde(skip)]
    pub line: Vec<Action>,
    /// For a draw: the index in `line` where the repeating cycle starts.
    pub cycle_start: Option<usize>,
    /// Counts over every position of the cell, when retrograde analysis ran.
    #[serde(flatten)]
    pub stats: Option<RetroStats>,
    /// With the counts: the placements the analysis leaves out (a pawn cut off from its
    /// goal: no legal play reaches them), so that totals compare with counts that include
    /// every placement.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_out: Option<u64>,
    /// With a checkpoint: how its last save went (the bounds saved, or why it failed);
    /// `None` when no save was made.
    #[serde(skip)]
    pub checkpoint_saved: Option<std::result::Result<search::NoWin, String>>,
}

impl CellResult {
    /// A cell not decided yet.
    fn undecided(board: Board, walls: u8) -> CellResult {
        CellResult {
            width: board.width(),
            height: board.height(),
            walls,
            outcome: Outcome::Unknown,
            plies: None,
            depth_reached: 0,
            no_win: [0; 2],
            method: MethodUsed::Search,
            nodes: 0,
            seconds: 0.0,
            peak_bytes: 0,
            line: Vec::new(),
            cycle_start: None,
            stats: None,
            left_out: None,
            checkpoint_saved: None,
        }
    }
}

/// Solves the cell by the chosen method.
pub fn solve(
    board: Board,
    walls: u8,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<CellResult> {
    let started = Instant::now();
    if options.method == Method::Retro {
        crate::retro::check_board(board)?;
    }
    memory::reset_peak();
    let estimate = CellEstimate::new(board, walls);
    if options.checkpoint.is_some() && options.method != Method::Search {
        return Err(Error::Argument(
            "a checkpoint keeps a proof search's table: use --method search".into(),
        ));
    }
    if options.winner.is_some() && options.method != Method::Search {
        return Err(Error::Argument(
            "a guessed winner steers the proof search: use --method search".into(),
        ));
    }
    if options.store == Store::OnDemand && options.method != Method::Search {
        return Err(Error::Argument(
            "configurations built on demand serve the proof search only: use --method search"
                .into(),
        ));
    }
    // Before the tables and the analysis: a destination refused at the end would lose them.
    if let Some(to) = &options.save {
        crate::retro::saved::check_destination(to)?;
    }
    let need = Need::new(board, &estimate, options);
    let on_demand = need.on_demand;
    memory::check(
        &need.what(board, walls, &estimate),
        need.bytes,
        options.memory_budget,
    )?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| {
            Error::Argument(format!(
                "cannot start {}: {e}",
                count(options.threads, "thread")
            ))
        })?;
    pool.install(|| {
        let mut result = CellResult::undecided(board, walls);
        if on_demand {
            search_on_demand(board, walls, options, started, progress, &mut result)?;
        } else if need.ranked {
            retro_ranked(board, walls, options, progress, &mut result)?;
        } else {
            solve_with_tables(
                board,
                walls,
                &estimate,
                options,
                started,
                progress,
                &mut result,
            )?;
        }
        result.seconds = started.elapsed().as_secs_f64();
        result.peak_bytes = memory::peak_bytes();
        Ok(result)
    })
}

/// How `solve` runs a cell within the options' budget, and the least budget that takes.
#[derive(Clone, Copy, Debug)]
pub struct Need {
    /// Whether the proof search builds its configurations on demand.
    pub on_demand: bool,
    /// Whether the retrograde analysis reads the ranked numbering of the configurations
    /// instead of the tables (`retro_over_ranked`).
    pub ranked: bool,
    pub bytes: u64,
    what: &'static str,
}

impl Need {
    pub fn new(board: Board, estimate: &CellEstimate, options: &SolveOptions) -> Need {
        // Proof search builds the configurations it meets when the full tables do not fit,
        // or cannot be numbered (boards of more than 64 wall anchors, `configs::keys_fit`).
        let eager_bytes = estimate.tables.bytes.saturating_add(EAGER_SLACK_BYTES);
        let keys_fit = crate::configs::keys_fit(board);
        let on_demand = match options.store {
            Store::Full => false,
            Store::OnDemand => true,
            Store::Auto => {
                options.method != Method::Retro
                    && (eager_bytes > options.memory_budget || !keys_fit)
            }
        };
        let ranked = retro_over_ranked(estimate, options);
        let (what, bytes) = match options.method {
            Method::Retro if ranked => (
                "retrograde analysis (configurations ranked, no tables) of",
                ranked_need(estimate, options),
            ),
            Method::Retro => ("retrograde analysis of", tables_need(estimate, options)),
            // Neither store fits the budget: name the smaller need, the least budget that
            // would do (a small cell's full tables need less than the on-demand floor).
            _ if on_demand
                && options.store == Store::Auto
                && keys_fit
                && eager_bytes < MIN_ON_DEMAND_BYTES =>
            {
                return Need {
                    on_demand: false,
                    ranked: false,
                    bytes: eager_bytes,
                    what: "solving",
                };
            }
            _ if on_demand => ("proof search on", MIN_ON_DEMAND_BYTES),
            _ => ("solving", eager_bytes),
        };
        Need {
            on_demand,
            ranked: ranked && options.method == Method::Retro,
            bytes,
            what,
        }
    }

    /// The least budget the cell can be solved with by `options`' method and store (the
    /// budget in `options` aside).
    pub fn least(board: Board, estimate: &CellEstimate, options: &SolveOptions) -> Need {
        let unbounded = SolveOptions {
            memory_budget: 0,
            ..options.clone()
        };
        Need::new(board, estimate, &unbounded)
    }

    /// What needs the bytes, as the memory error names it.
    pub fn what(&self, board: Board, walls: u8, estimate: &CellEstimate) -> String {
        format!(
            "{} {board} with {} ({} positions)",
            self.what,
            count(walls, "wall"),
            estimate.retro.positions
        )
    }
}

/// The cell with every configuration built first: proof search, the retrograde analysis,
/// or the search and then the analysis (`Method::Auto`), into `result`.
fn solve_with_tables(
    board: Board,
    walls: u8,
    estimate: &CellEstimate,
    options: &SolveOptions,
    started: Instant,
    progress: &dyn Progress,
    result: &mut CellResult,
) -> Result<()> {
    let tables = Tables::build(board, walls, options.memory_budget, progress)?;
    // With a time limit, retrograde analysis runs only if its estimated time fits too.
    let retro_seconds = estimate.retro_seconds();
    let retro_fits = crate::retro::handles(board)
        && estimate.retro_bytes(options.precision) <= options.memory_budget
        && options
            .time_limit
            .is_none_or(|t| retro_seconds <= t.as_secs_f64());
    if options.method != Method::Retro {
        // When the analysis can follow, the search gets no longer than twice what the
        // analysis would take (at least a few seconds).
        let search_limit = match options.method {
            Method::Auto if retro_fits => {
                let slice = Duration::from_secs_f64(
                    (retro_seconds * AUTO_SEARCH_SHARE).max(MIN_SEARCH_SECONDS),
                );
                Some(options.time_limit.map_or(slice, |t| t.min(slice)))
            }
            _ => options.time_limit,
        };
        let room = options.memory_budget.saturating_sub(tables.bytes());
        let checkpoint = open_checkpoint(&tables, options, room)?;
        let run = SearchRun {
            time_limit: search_limit,
            oracle: None,
            winner: options.winner,
            tt_room: room,
            checkpoint: checkpoint.as_ref(),
        };
        search_cell(&tables, options, started, &run, progress, result)?;
    }
    let undecided = result.outcome == Outcome::Unknown;
    if options.method == Method::Retro || options.method == Method::Auto && undecided && retro_fits
    {
        retro_cell(&tables, options, progress, result)?;
    }
    Ok(())
}

/// Proof search from the start over configuration records built on demand (the full
/// tables do not fit): the transposition table gets its usual size, at most a quarter of the
/// budget, and the store the rest.
fn search_on_demand(
    board: Board,
    walls: u8,
    options: &SolveOptions,
    started: Instant,
    progress: &dyn Progress,
    result: &mut CellResult,
) -> Result<()> {
    let tt_room = options.tt_bytes.min(options.memory_budget / 4);
    let store_budget = options
        .memory_budget
        .saturating_sub(tt_room + ON_DEMAND_SLACK_BYTES);
    let mut store = OnDemand::new(board, walls, store_budget);
    let checkpoint = open_checkpoint(&store, options, tt_room)?;
    let run = SearchRun {
        time_limit: options.time_limit,
        oracle: None,
        winner: options.winner,
        tt_room,
        checkpoint: checkpoint.as_ref(),
    };
    let limits = search_limits(options, started, &run);
    let start = Position::start(board, walls)?;
    let (found, emptied) = search::solve_forgetting(&mut store, &start, &limits, progress);
    record_found(&found, options, &start, result);
    result.checkpoint_saved = checkpoint.as_ref().and_then(Checkpoint::last_outcome);
    progress.message(&format!(
        "configurations built on demand: {} with their mirror images, of {} ({}){}",
        store.built(),
        store.configurations(),
        crate::error::format_bytes(store.bytes()),
        if emptied > 0 {
            format!(
                ", since the store was last emptied ({})",
                count(emptied, "time")
            )
        } else {
            String::new()
        }
    ));
    if found.out_of_memory {
        progress.message(&format!(
            "the configuration store filled its {}: stopped at depth {}",
            crate::error::format_bytes(store_budget),
            found.depth_reached
        ));
    }
    Ok(())
}

/// How one proof search runs.
struct SearchRun<'a> {
    time_limit: Option<Duration>,
    /// Known outcomes to prune with.
    oracle: Option<&'a dyn Oracle>,
    /// The winner, when known: only their depths are asked (`None`: both players').
    winner: Option<Player>,
    /// Bytes the transposition table may take at most.
    tt_room: u64,
    /// Where the table is kept between runs.
    checkpoint: Option<&'a Checkpoint>,
}

/// The checkpoint the options name, if any, with its table read back when its file
/// exists, which must fit `tt_room`.
fn open_checkpoint<T: ConfigTables>(
    tables: &T,
    options: &SolveOptions,
    tt_room: u64,
) -> Result<Option<Checkpoint>> {
    let Some(path) = &options.checkpoint else {
        return Ok(None);
    };
    let checkpoint = Checkpoint::open(path, tables)?;
    if let Some(bytes) = checkpoint.table_bytes()
        && bytes > options.tt_bytes.min(tt_room)
    {
        return Err(Error::Argument(format!(
            "the table in {} takes {}, more than this run gives its table ({}): run with \
             --tt {} (and a memory budget that leaves room for it)",
            path.display(),
            crate::error::format_bytes(bytes),
            crate::error::format_bytes(options.tt_bytes.min(tt_room)),
            crate::error::format_bytes(bytes)
                .replace(' ', "")
                .replace("iB", ""),
        )));
    }
    Ok(Some(checkpoint))
}

/// Proof search from the start (for the known winner only, if any) into `result`.
fn search_cell<T: ConfigTables>(
    tables: &T,
    options: &SolveOptions,
    started: Instant,
    run: &SearchRun,
    progress: &dyn Progress,
    result: &mut CellResult,
) -> Result<search::SearchResult> {
    let limits = search_limits(options, started, run);
    let start = Position::start(tables.board(), tables.walls_per_player())?;
    let found = search::solve(tables, &start, &limits, progress);
    record_found(&found, options, &start, result);
    result.checkpoint_saved = run.checkpoint.and_then(Checkpoint::last_outcome);
    Ok(found)
}

/// The search's limits for one run.
fn search_limits<'a>(
    options: &SolveOptions,
    started: Instant,
    run: &SearchRun<'a>,
) -> search::Limits<'a> {
    search::Limits {
        max_depth: options.max_depth,
        deadline: run.time_limit.map(|t| started + t),
        tt_bytes: options.tt_bytes.min(run.tt_room),
        parallel: options.threads > 1,
        winner: run.winner,
        oracle: run.oracle,
        checkpoint: run.checkpoint,
    }
}

/// What a search from `start` found, into the cell's result.
fn record_found(
    found: &search::SearchResult,
    options: &SolveOptions,
    start: &Position,
    result: &mut CellResult,
) {
    result.depth_reached = match options.winner {
        // The guess left the other player's iterations out: the cell is known to hold no
        // win within fewer plies than the guessed player's last iteration.
        Some(_) if found.win.is_none() => found.no_win.neither_within(start.to_move),
        _ => found.depth_reached,
    } as u32;
    result.no_win = found.no_win.0.map(u32::from);
    result.nodes += found.nodes;
    if let Some(win) = &found.win {
        result.outcome = Outcome::winner(win.winner);
        result.plies = Some(win.plies as u32);
        result.line = win.line.clone();
    }
}

/// The precision `--method retro` runs at: the one asked for, else exact when every layer
/// fits at a byte in what the budget leaves beside the finished tables (`tables_bytes`),
/// else compact (2 bits; the length then comes from a proof search). One rule for the CLI,
/// which refuses the search's flags where the analysis will be exact (from the estimates,
/// before anything is built), and for `retro_cell`, which runs it.
pub fn retro_precision(e: &RetroEstimate, tables_bytes: u64, options: &SolveOptions) -> Precision {
    options
        .precision
        .unwrap_or(match e.exact_fits(tables_bytes, options.memory_budget, Keep::Every) {
            true => Precision::Exact,
            false => Precision::Compact,
        })
}

/// Whether `--method retro` reads the ranked numbering of the configurations
/// (`tables::Ranked`, a bit per wall-slot list) instead of building the tables: when the
/// analysis with the tables does not fit the budget and the one with the numbering needs
/// less (unless `--store full` asks for the tables). The tables are faster to read and
/// serve the length's search directly; the numbering takes a few bytes per configuration
/// where the tables take hundreds.
pub fn retro_over_ranked(estimate: &CellEstimate, options: &SolveOptions) -> bool {
    let (eager, ranked) = (
        tables_need(estimate, options),
        ranked_need(estimate, options),
    );
    // Saving, where two layers do not fit beside the tables the analysis runs in parts
    // (`retro::parts`), and the tables would only make its parts smaller.
    let e = &estimate.retro;
    let storing = e.peak_storing(Precision::Exact, 0..e.layers.min(2));
    let in_parts = options.save.is_some()
        && estimate.tables.bytes.saturating_add(storing) > options.memory_budget;
    // Where neither fits, the smaller need: the refusal names the least budget that does.
    options.store != Store::Full
        && (eager > options.memory_budget || in_parts)
        && (ranked <= options.memory_budget || ranked < eager)
}

/// The least memory of `retro_ranked`: the analysis, and where it may be compact, room for
/// the length's search over configurations built on demand (at least the store's floor).
fn ranked_need(estimate: &CellEstimate, options: &SolveOptions) -> u64 {
    let precision = options.precision;
    if options.save.is_some() {
        let saving = estimate
            .ranked_bytes
            .saturating_add(saving_bytes(estimate, precision));
        // The compact analysis leaves the length's search its floor (`retro_ranked`).
        return match precision {
            Some(Precision::Compact) => saving + MIN_ON_DEMAND_BYTES + ON_DEMAND_SLACK_BYTES,
            _ => saving,
        };
    }
    let need = estimate.retro_ranked_bytes(precision);
    if precision == Some(Precision::Exact) {
        return need;
    }
    let analysis = estimate.retro_ranked_bytes(Some(Precision::Compact)) / 3 * 2;
    need.max(analysis + MIN_ON_DEMAND_BYTES + ON_DEMAND_SLACK_BYTES)
}

/// The least memory of the analysis that `--save` runs beside its configurations (exact
/// unless `precision` says compact): every layer in parts of a group through the disk
/// (`retro::parts`), or for the exact one, two layers, the last one stored too (it is
/// written, `RetroEstimate::peak_storing`), where that is less.
fn saving_bytes(estimate: &CellEstimate, precision: Option<Precision>) -> u64 {
    let e = &estimate.retro;
    let precision = precision.unwrap_or(Precision::Exact);
    let parts = e.peak_in_parts(precision, e.least_part(precision));
    match precision {
        Precision::Exact => e
            .peak_storing(Precision::Exact, 0..e.layers.min(2))
            .min(parts),
        Precision::Compact => parts,
    }
}

/// The least memory of the analysis over the tables (`retro_ranked` for the numbering).
fn tables_need(estimate: &CellEstimate, options: &SolveOptions) -> u64 {
    match options.save {
        // The compact analysis takes two thirds of what the tables leave (`retro_cell`).
        Some(_) => estimate
            .tables
            .bytes
            .saturating_add(match options.precision {
                Some(Precision::Compact) => saving_bytes(estimate, options.precision) / 2 * 3,
                _ => saving_bytes(estimate, options.precision),
            }),
        None => estimate.retro_bytes(options.precision),
    }
}

/// The bytes of what the analysis reads the configurations from (the finished tables or
/// the ranked numbering): what `retro_precision` leaves aside.
pub fn retro_configs_bytes(estimate: &CellEstimate, options: &SolveOptions) -> u64 {
    match retro_over_ranked(estimate, options) {
        true => estimate.ranked_bytes,
        false => estimate.tables.finished_bytes,
    }
}

/// Retrograde analysis of the whole cell: the start's value, its line, and the counts.
/// Exact when asked for or when every layer fits that way; else compact, and the length
/// and line come from a proof search that prunes with the compact analysis's outcomes.
fn retro_cell(
    tables: &Tables,
    options: &SolveOptions,
    progress: &dyn Progress,
    result: &mut CellResult,
) -> Result<()> {
    let e = retro::cell_estimate(tables);
    let room = options.memory_budget.saturating_sub(tables.bytes());
    let precision = retro_precision(&e, tables.bytes(), options);
    if precision == Precision::Exact {
        return retro_exact(tables, options, progress, result);
    }
    // The layers kept take at most two thirds of what the tables leave (more layers make a
    // better oracle); the rest is for the search's table and slack.
    let solved = outcomes(tables, tables.bytes() + room / 3 * 2, options, progress)?;
    let r = solved.result();
    record_retro(&r, e.positions, result);
    if let Some(winner) = r.winner {
        // The length: proof search for the winner only, pruned by the outcomes. Its proof
        // of the win stands on its own; that no shorter win exists rests on the outcomes.
        let oracle = RetroOracle(&solved);
        let run = SearchRun {
            time_limit: options.time_limit,
            oracle: Some(&oracle),
            winner: Some(winner),
            tt_room: room.saturating_sub(solved.held_bytes()),
            checkpoint: None,
        };
        let mut found = result.clone();
        found.outcome = Outcome::Unknown;
        // The time limit bounds this search on its own: the analysis is not interrupted.
        search_cell(tables, options, Instant::now(), &run, progress, &mut found)?;
        take_length(found, result);
    }
    Ok(())
}

/// The exact analysis of the cell over `configs`, saved if the options say so, into
/// `result` (its length is the analysis's own).
fn retro_exact(
    configs: &dyn retro::ConfigSource,
    options: &SolveOptions,
    progress: &dyn Progress,
    result: &mut CellResult,
) -> Result<()> {
    let solved = match &options.save {
        // Each layer goes to disk as it is solved: the memory is the analysis's own.
        Some(to) => {
            let budget = options.memory_budget;
            retro::saved::save_through(configs, budget, Precision::Exact, to, progress)?.0
        }
        None => retro::analyse(configs, options.memory_budget, progress)?,
    };
    record_retro(
        &solved.result(),
        retro::cell_estimate(configs).positions,
        result,
    );
    Ok(())
}

/// The compact analysis of the cell over `configs` within `budget`, saved if the options
/// say so (then every layer goes through the disk in parts, `retro::parts`).
fn outcomes<'t>(
    configs: &'t dyn retro::ConfigSource,
    budget: u64,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<retro::Solved<'t>> {
    match &options.save {
        Some(to) => {
            let saved =
                retro::saved::save_through(configs, budget, Precision::Compact, to, progress)?;
            Ok(saved.0)
        }
        None => retro::analyse_outcomes(configs, budget, progress),
    }
}

/// After a compact analysis, what the search for the length found (`found`, a copy of
/// `result` searched on: its nodes hold the analysis's positions already): the length and
/// line when it agrees on the winner, the nodes and depth whatever it found.
fn take_length(found: CellResult, result: &mut CellResult) {
    result.nodes = found.nodes;
    result.depth_reached = found.depth_reached;
    if found.outcome == result.outcome {
        result.method = MethodUsed::RetroSearch;
        result.plies = found.plies;
        result.line = found.line;
    }
}

/// Retrograde analysis over the ranked numbering of the configurations (the tables do not
/// fit). As `retro_cell`, but a compact analysis's length comes from a proof search over
/// configurations built on demand, asking the outcomes by wall set.
fn retro_ranked(
    board: Board,
    walls: u8,
    options: &SolveOptions,
    progress: &dyn Progress,
    result: &mut CellResult,
) -> Result<()> {
    progress.message("ranking the wall configurations (the tables do not fit the budget)");
    let ranked = Ranked::build(board, walls);
    let e = retro::cell_estimate(&ranked);
    let room = options.memory_budget.saturating_sub(ranked.bytes());
    let precision = retro_precision(&e, ranked.bytes(), options);
    if precision == Precision::Exact {
        return retro_exact(&ranked, options, progress, result);
    }
    // The layers kept take at most two thirds of the room, and leave the search its floor.
    let search_floor = MIN_ON_DEMAND_BYTES + ON_DEMAND_SLACK_BYTES;
    let analysis = (room / 3 * 2).min(room.saturating_sub(search_floor));
    let solved = outcomes(&ranked, ranked.bytes() + analysis, options, progress)?;
    let r = solved.result();
    record_retro(&r, e.positions, result);
    let Some(winner) = r.winner else {
        return Ok(());
    };
    let left = room.saturating_sub(solved.held_bytes());
    let tt_room = options.tt_bytes.min(left / 4);
    let store_bytes = left.saturating_sub(tt_room + ON_DEMAND_SLACK_BYTES);
    if store_bytes < MIN_ON_DEMAND_BYTES {
        progress.warn(&format!(
            "no room left for the search for the length ({} of {} needed): the winner is \
             known, the length is not",
            crate::error::format_bytes(store_bytes),
            crate::error::format_bytes(MIN_ON_DEMAND_BYTES)
        ));
        return Ok(());
    }
    let mut store = OnDemand::new(board, walls, store_bytes);
    let oracle = RetroOracle(&solved);
    let run = SearchRun {
        time_limit: options.time_limit,
        oracle: Some(&oracle),
        winner: Some(winner),
        tt_room,
        checkpoint: None,
    };
    let limits = search_limits(options, Instant::now(), &run);
    let start = Position::start(board, walls)?;
    let (found, _) = search::solve_forgetting(&mut store, &start, &limits, progress);
    let mut searched = result.clone();
    searched.outcome = Outcome::Unknown;
    record_found(&found, options, &start, &mut searched);
    take_length(searched, result);
    Ok(())
}

/// The analysis's answer into the cell's result (no length after a compact analysis).
/// `placements`: every placement of the pawns in every configuration and split, both sides
/// to move (`RetroEstimate::positions`), of which the analysis leaves out those with a pawn
/// cut off from its goal.
fn record_retro(r: &RetroResult, placements: u128, result: &mut CellResult) {
    result.method = MethodUsed::Retro;
    result.outcome = r.winner.map_or(Outcome::Draw, Outcome::winner);
    result.plies = r.plies;
    result.line = r.line.clone();
    result.cycle_start = r.cycle_start;
    result.nodes += r.stats.positions;
    result.stats = Some(r.stats);
    result.left_out = u64::try_from(placements - r.stats.positions as u128).ok();
}

/// A retrograde analysis's outcomes (either precision) as the search's oracle.
pub struct RetroOracle<'s, 't>(pub &'s Solved<'t>);

impl Oracle for RetroOracle<'_, '_> {
    fn wins(&self, node: &Node, walls: &dyn Fn() -> WallSet, player: Player) -> Option<bool> {
        // The eager tables number configurations as the search does; else by wall set.
        let config = match self.0.tables() {
            Some(_) => node.config,
            None => self.0.configs().id_of(walls())?,
        };
        let mover = self
            .0
            .outcome_of(config, node.left, node.pawns, node.to_move)?;
        Some(match mover {
            Wdl::Win => node.to_move == player,
            Wdl::Loss => node.to_move != player,
            Wdl::Draw => false,
        })
    }
}
