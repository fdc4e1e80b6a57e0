//! What a caller asks of one cell: the method, the budgets and limits, where the
//! configurations come from, what to save (`SolveOptions`); and the constants the plan
//! divides a budget by.

use crate::error::{Bound, Error, Result, Setting};
use crate::retro::{self, Precision};
use crate::rules::geometry::Player;
use crate::search::INITIAL_TT_BYTES;
use crate::support::memory;
use std::path::PathBuf;
use std::time::Duration;

/// The least time `auto` gives the proof search before a retrograde analysis that fits.
pub const MIN_SEARCH_SECONDS: f64 = 1.0;

/// How long `auto` lets the proof search run before a retrograde analysis that fits, as a
/// share of the analysis's estimated time: a cell then costs at most about 1.25 times the
/// analysis. A quarter, since the exact analysis went a row at a time: in the table run of
/// ed8f6a3 (2026-11-28) every cell whose search took over a second was cheaper by the
/// analysis (9x3 with 5 walls: search 24.7 s, 3x9's analysis of as many positions 11.3 s;
/// 9x3 with 10: 28.9 s and 28.7 s), and the searches that failed first cost more than the
/// analysis after them (5x5 with 4 walls: 18.7 s, of which the analysis about 3.5 s). It was
/// twice the estimate (at least 5 s) when the analysis was three times slower. Checked
/// again on 2026-11-28 (3377054, 2 threads): 3x7 with 4 walls, search 2.35 s, analysis
/// 0.46 s; 3x7 with 6, 1.69 s and 0.77 s; 4x5 with 6, 1.01 s and 0.64 s; 5x5 with 3,
/// 1.64 s and 1.24 s.
pub const AUTO_SEARCH_SHARE: f64 = 0.25;

/// The default largest transposition table, when the budget allows it.
pub const DEFAULT_TT_BYTES: u64 = 1 << 30;

/// The least budget a proof search over configurations built on demand starts with. Of it
/// `ON_DEMAND_SLACK_BYTES` takes 32 MiB and the transposition table 16 (`on_demand_split`),
/// which leaves the store 16 MiB, a few tens of thousands of configurations (a record of 9x9 with
/// 3 walls is about 340 bytes): with less the store fills before the search has gone
/// anywhere, and the cell ends unknown after doing nothing.
pub const MIN_ON_DEMAND_BYTES: u64 = 64 << 20;

/// What the full tables leave beside them at the least: room for the transposition
/// table's first megabytes and the search's own allocations.
pub const EAGER_SLACK_BYTES: u64 = 16 << 20;

/// What a search over configurations built on demand leaves outside its store and table
/// (the stacks, the line, the allocator's own bookkeeping).
pub const ON_DEMAND_SLACK_BYTES: u64 = 32 << 20;

/// How a proof search over configurations built on demand shares `room` bytes: its
/// transposition table and its store, the rest less `ON_DEMAND_SLACK_BYTES`. The table
/// gets the largest power of two (its sizes) within half of what the slack leaves, and
/// within `given` (`--tt`) if set. Half, not the quarter it had: a full store is emptied
/// and the iteration tried again at little cost, since the table's facts stay true, while
/// a smaller table costs nodes (5x5 with 5 walls on demand, 2026-11-28: 54 emptyings
/// cost no nodes, a table 16 times smaller 62 % more; docs/PERFORMANCE.md). So before,
/// a search of 20 GiB kept a table of 1 GiB; now it keeps 8. The store is also left
/// without the table's first size when the table grows from it (`INITIAL_TT_BYTES`): the
/// table grows in place within the room it reserved, but one read back from a checkpoint
/// reserved only its own size, and moves (both held) if it grows past it. Returns (table,
/// store).
pub fn on_demand_split(room: u64, given: Option<u64>) -> (u64, u64) {
    let share = (room.saturating_sub(ON_DEMAND_SLACK_BYTES) / 2).min(given.unwrap_or(u64::MAX));
    let table = match share {
        0 => 0,
        s => 1 << (63 - s.leading_zeros()),
    };
    let growing = if table > INITIAL_TT_BYTES {
        INITIAL_TT_BYTES
    } else {
        0
    };
    (
        table,
        room.saturating_sub(table + growing + ON_DEMAND_SLACK_BYTES),
    )
}

impl SolveOptions {
    /// The transposition table's limit beside full tables that leave `room` bytes.
    pub fn tt_beside_tables(&self, room: u64) -> u64 {
        self.tt_bytes.unwrap_or(DEFAULT_TT_BYTES).min(room)
    }
}

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
    /// How the cell is decided (default `Auto`, as `solve --method`).
    pub method: Method,
    /// The deepest iteration (plies) to try before answering "unknown" (default
    /// `DEFAULT_MAX_DEPTH`, 120).
    pub max_depth: u8,
    /// Stop and answer "unknown" after this long (default `None`: no limit).
    pub time_limit: Option<Duration>,
    /// Threads for table building and search (results do not depend on it; default one
    /// per core).
    pub threads: usize,
    /// Bytes the tables and the transposition table may take together (default
    /// `memory::default_budget`, 80% of the memory available now).
    pub memory_budget: u64,
    /// Transposition table bytes, at most (capped by what the budget leaves after the
    /// tables). Default `None`: the solver's choice, `DEFAULT_TT_BYTES` (1 GiB) beside full
    /// tables and `on_demand_split`'s share where configurations are built on demand.
    pub tt_bytes: Option<u64>,
    /// What the retrograde analysis stores per position; `None`: exact (a byte, every
    /// remoteness) when every layer fits the budget that way, else compact (2 bits, the
    /// length then proven by an oracle-guided proof search). Default `None`.
    pub precision: Option<Precision>,
    /// Write the exact analysis's values here (`retro::saved`); only with `Method::Retro`
    /// and an exact analysis that keeps every layer. Checked before any work is done.
    /// Default `None`: nothing saved.
    pub save: Option<retro::saved_dir::Target>,
    /// Where the proof search reads configurations from (default `Store::Auto`).
    pub store: Store,
    /// Keep the proof search's transposition table in this file between runs
    /// (`search::Checkpoint`); only with `Method::Search`. Default `None`.
    pub checkpoint: Option<PathBuf>,
    /// The cell is one of a table run that goes on across runs (`table --scratch`,
    /// `--campaign`), which differs from `solve --checkpoint` in two ways. A checkpoint
    /// file this run cannot take (damaged, another cell's, a table larger than its room, a
    /// store that cannot number its keys) is warned about, left as it is, and the search
    /// goes on without it, instead of refusing the run. And `time_limit` is the cell's
    /// over all its runs, as its row counts its seconds: the seconds the checkpoint says
    /// earlier runs took come off this run's (a `solve` run gets its own limit whole).
    /// Default `false`: a `solve` run.
    pub in_campaign: bool,
    /// Search only this player's wins (only with `Method::Search`): a guess at the winner
    /// that spares the other player's iterations. A win found is proven and its length
    /// exact (a player who can force a win leaves the other none); if the guess is wrong,
    /// the cell stays unknown. Default `None`: both players' wins.
    pub winner: Option<Player>,
    /// Prune the proof search by the retrograde analysis of the same board with this many
    /// walls per player, fewer than the cell's (`cell::fewer`): a player who cannot win a
    /// position even when the other holds that many fewer walls cannot win it here, nor
    /// sooner than there, and an exact win holding that many fewer themselves is a win here
    /// as soon or sooner (a wall in hand never hurts, `oracle::FewerWalls`). With
    /// `Method::Search` the search from the start, the analysis run first (its precision
    /// and directory are then `precision` and `save`); with `Method::Retro` the search for
    /// the length after a compact analysis, beside its outcomes, the exact analysis of
    /// fewer walls run after the cell's (through `fewer_scratch`, if given). Default `None`.
    pub fewer_walls: Option<u8>,
    /// With `Method::Retro` and no `fewer_walls`: prune the search for the length after a
    /// compact analysis by the exact analysis of one wall fewer too, where every layer of it
    /// fits in memory within its share (`fewer::default_bound`). Default `true`; `false`
    /// searches on the cell's outcomes alone (`solve --no-bound`), the slower twin.
    pub default_bound: bool,
    /// With `Method::Retro` and `fewer_walls`: the directory the exact analysis of fewer
    /// walls goes through (in parts where it does not fit, going on from the layers an
    /// earlier run wrote there, or read back). Default `None`: in memory.
    pub fewer_scratch: Option<retro::saved_dir::Target>,
}

/// What `solve` asks with no flags. The threads and the memory budget are this machine's
/// (one per core, 80% of the memory available now, as `--threads` and `--memory` default
/// to), so a caller that needs the same answer everywhere sets both; it names only the
/// fields it sets apart from these: `SolveOptions { method: Method::Retro,
/// ..SolveOptions::default() }`.
impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            method: Method::Auto,
            max_depth: DEFAULT_MAX_DEPTH,
            time_limit: None,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            memory_budget: memory::default_budget(),
            tt_bytes: None,
            precision: None,
            save: None,
            store: Store::Auto,
            checkpoint: None,
            in_campaign: false,
            winner: None,
            fewer_walls: None,
            default_bound: true,
            fewer_scratch: None,
        }
    }
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

/// The deepest search iteration when `--max-depth` is not given.
pub const DEFAULT_MAX_DEPTH: u8 = 120;

/// The checked `--max-depth`, or its default.
pub fn max_depth(given: Option<u8>) -> Result<u8> {
    match given {
        Some(0) => Err(Error::limit(Setting::MaxDepth, 0, Bound::AtLeast(1))),
        d => Ok(d.unwrap_or(DEFAULT_MAX_DEPTH)),
    }
}

/// The largest `--max-seconds`: a year, far beyond any cell's need. A bound is needed
/// because the limit becomes a `Duration` added to the start time, which cannot hold every
/// float (1e30 seconds panicked).
pub const MAX_SECONDS: u64 = 365 * 24 * 3600;

/// The checked time limit of `--max-seconds`. One message for every value refused (zero,
/// negative, not a number, infinite, too large, or too small to be a nanosecond), so it
/// names the whole accepted range.
pub fn time_limit(seconds: f64) -> Result<Duration> {
    (seconds > 0.0 && seconds <= MAX_SECONDS as f64)
        .then(|| Duration::from_secs_f64(seconds))
        .filter(|d| !d.is_zero())
        .ok_or(Error::Seconds {
            setting: Setting::MaxSeconds,
            most: MAX_SECONDS,
        })
}
