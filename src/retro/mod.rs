//! Exact retrograde analysis of a cell (W, H, N): the value of every position, with its
//! remoteness, and so the value of the start, its exact length and a principal line. Unlike
//! proof search it can prove a draw (8x3 with 3 walls is one), and it gives a second,
//! independent answer for every cell small enough to enumerate.
//!
//! Depends on the configuration tables (`tables.rs`), positions and move generation (for
//! the line); `solver.rs` and the CLI sit above it.
//!
//! # Positions
//!
//! The positions of a cell are every configuration `c` of its tables (`k` walls on the
//! board), every split of walls left `(l1, l2)` with `l1 + l2 = 2N - k` and both at most
//! `N`, every pair of distinct pawn cells, and both sides to move, **except** those in which
//! a pawn cannot reach its goal row in `c`: a wall that cuts a pawn off is illegal, so no
//! legal play reaches them, and they are left out of everything (values and counts).
//! Positions that are over (Player 1's pawn on row H-1, else Player 2's on row 0) have
//! remoteness 0 and no moves; a position whose player to move has no legal action (only
//! possible with H = 2) is a draw.
//!
//! # Values
//!
//! From the view of the player to move: `Win(r)`, `Loss(r)` or `Draw`, where `r`, the
//! remoteness, is the number of plies to the end under best play: the winner hurries, the
//! loser holds out. A draw is a position in which neither player can force a win. The value
//! of the cell is the value of the start; a win's remoteness there is the smallest `d` such
//! that the winner can force reaching the goal within `d` plies, the length proof search
//! reports.
//!
//! # Method
//!
//! Walls only increase, so the layers by walls placed form a DAG; they are solved from the
//! most walls down to none. Inside a layer a *block* (configuration, split) is a pawn game
//! whose wall moves exit to the layer below, already solved; `block.rs` solves it by
//! backward induction in order of increasing remoteness, and what stays undecided is a draw.
//! The groups of configurations of a layer run in parallel (`layer.rs`), each block of an
//! orbit under the symmetries solved once; the answer does not depend on the thread count.
//!
//! # Memory
//!
//! Two precisions (`store.rs`): **exact**, one byte per stored slot (`code.rs`), remoteness
//! included, up to `MAX_REMOTENESS` (252) plies, a longer one refused with an error (the
//! longest seen so far is 54, in 3x9 with 10 walls); **compact**, 2 bits per slot, win,
//! loss or draw only. Both solve the same blocks the same way; the compact one reads its
//! wall moves' outcomes without remoteness, so its blocks' outcomes are exact and their
//! remoteness is not, and it stores outcomes only. The caller finds the start's length by
//! a proof search that uses the outcomes as an oracle (`solver.rs`).
//!
//! The store folds the mirror and the half turn that swaps the players (`symmetry.rs`,
//! `layout.rs`): it keeps only positions with Player 1 to move, of the configurations that
//! are not the mirror of a smaller one, and none that is over (its value is known):
//! `(S - W)^2` slots per block (padded to a multiple of 4), fewer than a quarter of the
//! `2 * S * (S - 1)` positions per block. Each orbit of blocks is solved once, so the work
//! is about a quarter too.
//!
//! Solving layer `k` reads only layer `k + 1` (the wall moves), and finer: the splits of a
//! layer are solved in pairs (`layout::split_pairs`), and a pair reads two splits of the
//! layer above that nothing else reads. So the analysis keeps layers `0..kept` to the end
//! and frees any other split once the pair that reads it is solved: the peak is about the
//! largest layer plus a pair of splits, not two whole layers (4x7 with 10 walls at a byte:
//! 11.6 GiB against 19.7 GiB).
//!
//! - the exact analysis keeps **every layer** when they fit the budget with the tables:
//!   then `value` answers for every position and `result` gives the full principal line;
//!   else **two layers** (*streaming*, `kept` = 2). The start's value, remoteness and the counts are exact as before, but `value`
//!   answers only in layers 0 and 1 and the principal line is given only when it stays
//!   there (a draw that dances in layer 0, such as 8x3 with 3 walls); otherwise it is
//!   empty, and the caller must take a win's line from proof search;
//! - the compact analysis keeps as many layers from layer 0 up as the budget allows (at
//!   least two): the more it keeps, the more of the search's nodes the oracle answers.
//!
//! `estimate` sizes every choice before anything is allocated (`RetroEstimate::peak`):
//! `bytes` is the exact streaming peak and `all_layers_bytes` the exact peak keeping every
//! layer; the layout's indices (at most 12 bytes per configuration) count in all, the
//! tables in none.

mod block;
mod code;
mod layer;
mod layout;
mod line;
mod parts;
mod pawn_graph;
pub mod sampled;
pub mod saved;
pub mod source;
pub mod spill;
mod store;
mod symmetry;

pub use code::MAX_REMOTENESS;
pub use source::ConfigSource;

use crate::configs::ConfigId;
use crate::error::{Error, Result, count};
use crate::geometry::Cell;
use crate::geometry::{Board, Player};
use crate::memory;
use crate::position::{Action, Position};
use crate::progress::Progress;
use crate::tables::Tables;
use layout::Layout;
use serde::Serialize;
use std::ops::Range;
use std::sync::atomic::AtomicU8;
use store::{Compact, Exact, Packing};

/// The value of a position from the view of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The player to move wins in this many plies (the last one theirs).
    Win(u32),
    /// The player to move loses in this many plies, holding out as long as possible.
    Loss(u32),
    /// Neither player can force a win.
    Draw,
}

/// What a retrograde analysis of a cell will take, known before anything is allocated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetroEstimate {
    /// Every (configuration, split, ordered pair of distinct cells, side to move), cut-off
    /// pawns included: an upper bound on the positions.
    pub positions: u128,
    /// The peak bytes of the exact analysis when it streams (two layers kept, see the
    /// module doc), the least it needs; the tables not included.
    pub bytes: u64,
    /// The peak bytes of the exact analysis when every layer is kept (then the line is
    /// always given).
    pub all_layers_bytes: u64,
    /// Layers (walls placed: 0, 1, ...).
    pub layers: usize,
    walls_per_player: u8,
    /// Stored slots of one split of each layer.
    split_slots: Vec<u128>,
    /// Bytes of the layout's indices.
    index: u128,
    /// Slots of a stored block.
    block: u128,
}

/// What the store keeps of each position (`store.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// Value and remoteness, a byte per stored position.
    Exact,
    /// Win, loss or draw, 2 bits per stored position.
    Compact,
}

impl Precision {
    fn per_byte(self) -> u128 {
        match self {
            Precision::Exact => Exact::PER_BYTE as u128,
            Precision::Compact => Compact::PER_BYTE as u128,
        }
    }
}

impl RetroEstimate {
    /// The peak bytes of an analysis at `precision` that keeps layers `0..kept` to the end
    /// and any other split only until the pair that reads it is solved (`run`); the tables
    /// not included.
    pub fn peak(&self, precision: Precision, kept: usize) -> u64 {
        self.peak_keeping(precision, 0..kept)
    }

    /// The peak bytes of an analysis at `precision` that solves the layers from the most
    /// walls down to `keep.start` only, keeps the layers of `keep` to the end and any other
    /// split only until the pair that reads it is solved (`run_keeping`); the tables not
    /// included.
    pub fn peak_keeping(&self, precision: Precision, keep: Range<usize>) -> u64 {
        let push = pushes_last(self.layers, &keep, false);
        self.peak_with(precision, keep, push)
    }

    /// `peak_keeping` for an analysis that stores every layer it solves, the last one too
    /// (one that writes its layers to a directory, `spill.rs`).
    pub fn peak_storing(&self, precision: Precision, keep: Range<usize>) -> u64 {
        self.peak_with(precision, keep, false)
    }

    /// The peak with or without the last layer pushed into the one above it
    /// (`pushes_last`).
    fn peak_with(&self, precision: Precision, keep: Range<usize>, push: bool) -> u64 {
        let n = self.walls_per_player;
        let split = |k: usize| self.split_slots[k].div_ceil(precision.per_byte());
        let (mut live, mut peak) = (0u128, 0u128);
        let last = self.layers - 1;
        for k in (keep.start.min(self.layers)..self.layers).rev() {
            if push && k == last {
                // Layer `last - 1` is allocated whole to receive the pushes.
                live += split(k - 1) * layout::splits(n, k - 1).1 as u128;
                peak = peak.max(live);
                continue;
            }
            let pushed = push && k + 1 == last;
            let frees = k + 1 < self.layers && !keep.contains(&(k + 1)) && !pushed;
            let pairs = layout::split_pairs(n, k);
            if frees {
                let read: usize = pairs
                    .iter()
                    .map(|&p| layout::splits_below(n, k, p).len())
                    .sum();
                live -= split(k + 1) * (layout::splits(n, k + 1).1 - read) as u128;
            }
            for pair in pairs {
                if !pushed {
                    live += split(k) * layout::members(pair).count() as u128;
                }
                peak = peak.max(live);
                if frees {
                    live -= split(k + 1) * layout::splits_below(n, k, pair).len() as u128;
                }
            }
        }
        u64::try_from(peak.saturating_add(self.index)).unwrap_or(u64::MAX)
    }

    /// The peak bytes of an analysis at `precision` in parts (`parts.rs`) of at most
    /// `part_bytes`, besides the configurations: the part, the pieces of the stream, the
    /// files' writers, the layout's indices, and layers 0 and 1, read back at the end for
    /// the start's value.
    pub fn peak_in_parts(&self, precision: Precision, part_bytes: u64) -> u64 {
        let n = self.walls_per_player;
        let low: u128 = (0..self.layers.min(2))
            .map(|k| self.layer_bytes(precision, k))
            .sum();
        let splits = (0..self.layers)
            .map(|k| layout::splits(n, k).1)
            .max()
            .unwrap_or(0);
        let stream = parts::STREAM_CHUNKS * parts::chunk_bytes(part_bytes);
        let writers = splits as u64 * parts::WRITER_BYTES;
        let fixed = self.index + low + (stream + writers + parts::SLACK_BYTES) as u128;
        let part = part_bytes as u128 + (part_bytes / parts::PART_SLACK_DIVISOR) as u128;
        u64::try_from(fixed + part).unwrap_or(u64::MAX)
    }

    /// The bytes of the values of every layer at `precision`, uncompressed: what an
    /// analysis through the disk writes before compression.
    pub fn values_bytes(&self, precision: Precision) -> u64 {
        let bytes: u128 = (0..self.layers)
            .map(|k| self.layer_bytes(precision, k))
            .sum();
        u64::try_from(bytes).unwrap_or(u64::MAX)
    }

    /// The bytes of the values of layer `k` (every split) at `precision`.
    pub fn layer_bytes(&self, precision: Precision, k: usize) -> u128 {
        let splits = layout::splits(self.walls_per_player, k).1 as u128;
        self.split_slots[k].div_ceil(precision.per_byte()) * splits
    }

    /// The bytes of the largest of the smallest parts of the layers (one group each):
    /// the least `part_bytes` of an analysis in parts.
    pub fn least_part(&self, precision: Precision) -> u64 {
        let per_byte = precision.per_byte() as usize;
        (0..self.layers)
            .map(|k| {
                let splits = layout::splits(self.walls_per_player, k).1;
                parts::least_part_bytes(splits, self.block as usize, per_byte)
            })
            .max()
            .unwrap_or(0)
    }

    /// The most layers an analysis at `precision` can keep within `budget` bytes (the
    /// tables not included): every layer, or `0..kept` for the largest `kept` that fits, at
    /// least layers 0 and 1; `None` if even two layers do not fit.
    pub fn kept_layers(&self, precision: Precision, budget: u64) -> Option<usize> {
        let least = self.layers.min(2);
        (least..=self.layers)
            .rev()
            .find(|&kept| self.peak(precision, kept) <= budget)
    }
}

/// Whether an analysis of `layers` layers that keeps the layers of `keep` pushes its last
/// layer into the one above instead of storing it (`layer::push_pair`): when it solves
/// that layer too and keeps neither, and does not write its layers to a directory
/// (`storing`), which needs every layer stored.
pub fn pushes_last(layers: usize, keep: &Range<usize>, storing: bool) -> bool {
    let last = layers.saturating_sub(1);
    !storing && layers >= 2 && keep.start < last && !keep.contains(&last)
}

/// Sizes the store for a cell with `configurations_by_walls[k]` configurations of `k`
/// walls (`TableEstimate::by_walls`): the stored configurations of a layer are the
/// mirror-symmetric ones plus half the others.
pub fn estimate(
    board: Board,
    walls_per_player: u8,
    configurations_by_walls: &[u128],
) -> RetroEstimate {
    let cells = board.cells() as u128;
    let layers = configurations_by_walls.len();
    let symmetric = symmetry::symmetric_by_walls(board, layers);
    let block = layout::stored_block_len(board) as u128;
    let mut positions = 0u128;
    let mut stored_configs = 0u128;
    let mut split_slots = Vec::with_capacity(layers);
    for (k, &configs) in configurations_by_walls.iter().enumerate() {
        let splits = layout::splits(walls_per_player, k).1 as u128;
        let blocks = configs.saturating_mul(splits);
        positions = positions.saturating_add(blocks.saturating_mul(2 * cells * (cells - 1)));
        let stored = configs.saturating_add(symmetric[k]) / 2;
        stored_configs = stored_configs.saturating_add(stored);
        split_slots.push(stored.saturating_mul(block));
    }
    let configurations = configurations_by_walls
        .iter()
        .fold(0u128, |a, &c| a.saturating_add(c));
    let mut estimate = RetroEstimate {
        positions,
        bytes: 0,
        all_layers_bytes: 0,
        layers,
        walls_per_player,
        split_slots,
        index: layout::index_bytes(configurations, stored_configs),
        block,
    };
    estimate.bytes = estimate.peak(Precision::Exact, layers.min(2));
    estimate.all_layers_bytes = estimate.peak(Precision::Exact, layers);
    estimate
}

/// Positions of the cell by outcome (cut-off positions excluded). `p1_wins` counts the
/// positions Player 1 wins, whoever is to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct RetroStats {
    pub positions: u64,
    pub p1_wins: u64,
    pub p2_wins: u64,
    pub draws: u64,
}

impl RetroStats {
    /// The counts of `n` blocks with these counts each.
    pub fn times(self, n: u64) -> RetroStats {
        RetroStats {
            positions: self.positions * n,
            p1_wins: self.p1_wins * n,
            p2_wins: self.p2_wins * n,
            draws: self.draws * n,
        }
    }
}

impl std::ops::Add for RetroStats {
    type Output = RetroStats;
    fn add(self, o: RetroStats) -> RetroStats {
        RetroStats {
            positions: self.positions + o.positions,
            p1_wins: self.p1_wins + o.p1_wins,
            p2_wins: self.p2_wins + o.p2_wins,
            draws: self.draws + o.draws,
        }
    }
}

/// The value of a cell by retrograde analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetroResult {
    /// `None`: a draw.
    pub winner: Option<Player>,
    /// The remoteness of the start, for a win.
    pub plies: Option<u32>,
    /// For a win, exactly `plies` actions ending with the winner on the goal (the winner
    /// hurrying, the loser delaying); for a draw, actions from the start until a position
    /// repeats, so the line ends with the repeating cycle. **Empty** when the analysis
    /// streamed (two layers kept, see the module doc) and the line leaves layers 0 and 1:
    /// usually so for a win, whose line the caller then takes from proof search.
    pub line: Vec<Action>,
    /// For a draw: the index in `line` where the cycle starts (the position after the
    /// whole line is the position after `cycle_start` actions). `None` for a win, or for a
    /// draw ending with a player stuck.
    pub cycle_start: Option<usize>,
    pub stats: RetroStats,
}

/// The values of every position of a cell (or of the layers it kept, if it streamed).
pub struct Solved<'t> {
    configs: &'t dyn ConfigSource,
    layout: Layout,
    precision: Precision,
    /// One store per split of each layer, packed by `precision` (see `layout.rs`,
    /// `store.rs`); `None` for a split freed while streaming.
    values: Vec<Splits>,
    /// The peak bytes of the stores and the layout's indices.
    peak_bytes: u64,
    stats: RetroStats,
}

/// A position's outcome from the view of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    Win,
    Draw,
    Loss,
}

/// The stores of one layer, by split (`layout.rs`); `None` for a split not solved yet or
/// freed.
type Splits = Vec<Option<Vec<u8>>>;

/// Where a position's value is (`Solved::locate`).
enum Located {
    /// The game is over: the value needs no store.
    Over(Value),
    /// Layer, split and slot.
    Stored(usize, usize, usize),
}

impl From<Value> for Wdl {
    fn from(v: Value) -> Wdl {
        match v {
            Value::Win(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }
}

/// The most cells of a board the analysis handles: a local block indexes each pawn's cell
/// in 6 bits (`layout.rs`). Larger boards are for proof search only.
pub const MAX_CELLS: usize = 64;

/// A cell set narrowed to the `u64` the analysis keeps its sets in: its boards have at most
/// `MAX_CELLS` (64) cells, and its hot loops run at the speed of one-word masks.
#[inline(always)]
pub fn narrow(set: crate::bitboard::Cells) -> u64 {
    debug_assert!(
        set >> MAX_CELLS == 0,
        "a set of the analysis has cells below 64"
    );
    set as u64
}

/// Whether the analysis handles `board` (at most `MAX_CELLS` cells).
pub fn handles(board: crate::geometry::Board) -> bool {
    board.cells() <= MAX_CELLS
}

/// Refuses a board over `MAX_CELLS` cells, saying why.
pub fn check_board(board: crate::geometry::Board) -> Result<()> {
    if !handles(board) {
        return Err(crate::Error::Argument(format!(
            "the retrograde analysis handles boards of at most {MAX_CELLS} cells; {board} has {} \
             (use proof search: --method search)",
            board.cells()
        )));
    }
    Ok(())
}

/// Solves the cell of `tables` into `RetroResult`. `memory_budget` covers the tables
/// (already built) and the value store together, as for proof search. When every layer
/// does not fit it the analysis streams, and a win's `line` comes back empty (winner, plies
/// and counts stay exact): the solver then falls back to proof search's line.
pub fn solve(
    configs: &dyn ConfigSource,
    memory_budget: u64,
    progress: &dyn Progress,
) -> Result<RetroResult> {
    Ok(analyse(configs, memory_budget, progress)?.result())
}

/// Solves every position of the cell of `tables` exactly (value and remoteness): checks
/// the memory and chooses to keep every layer or two (see the module doc), then solves the
/// layers from the most walls down.
pub fn analyse<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    analyse_at(configs, memory_budget, Precision::Exact, progress)
}

/// Solves the outcome (win, loss or draw) of every position of the cell of `tables`, at 2
/// bits per stored position, keeping as many layers from layer 0 up as `memory_budget`
/// allows besides the tables (at least two, see the module doc). Counts are exact; no
/// remoteness, so `value` answers nothing and `outcome` answers in the layers kept.
pub fn analyse_outcomes<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    analyse_at(configs, memory_budget, Precision::Compact, progress)
}

/// Solves the positions of the layers of `keep` (walls on the board) exactly: the layers
/// from the most walls down to `keep.start`, keeping those of `keep` and streaming the
/// others, as `analyse` does with `0..2`. Enough for the value of a position with
/// `keep.start` walls and of its moves; the counts are those of the layers solved, and
/// `result` (the start's) needs `keep.start == 0`.
pub fn analyse_keeping<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
    keep: Range<usize>,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    check_board(configs.board())?;
    let e = cell_estimate(configs);
    memory::check(
        &format!(
            "retrograde analysis of {} with {} from {} up",
            configs.board(),
            count(configs.walls_per_player(), "wall"),
            count(keep.start, "wall")
        ),
        e.peak_keeping(Precision::Exact, keep.clone())
            .saturating_add(configs.bytes()),
        memory_budget,
    )?;
    run_keeping::<Exact>(configs, Precision::Exact, keep, None, progress)
}

/// Solves every position of the cell of `tables` exactly, as `analyse` does, and writes each
/// layer to `spill` as soon as it is solved, going on from the layers an earlier run wrote
/// there (`spill.rs`). Once it has returned, `spill.finish` makes the directory a saved
/// table. Memory: as `analyse` (every layer kept when they fit, else two); when even two
/// layers do not fit, every layer is solved in parts that do, reading the layer above from
/// the directory (`parts.rs`), and layers 0 and 1 are kept.
pub fn analyse_through<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
    spill: &mut spill::Spill,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    check_board(configs.board())?;
    let e = cell_estimate(configs);
    let room = memory_budget.saturating_sub(configs.bytes());
    let kept = match e.all_layers_bytes <= room {
        true => e.layers,
        false => e.layers.min(2),
    };
    if e.peak_storing(Precision::Exact, 0..kept) > room {
        let part_bytes = part_bytes(&e, Precision::Exact, room);
        return analyse_in_parts(configs, memory_budget, spill, part_bytes, progress);
    }
    check(configs, &e, Precision::Exact, kept, true, memory_budget)?;
    run_keeping::<Exact>(configs, Precision::Exact, 0..kept, Some(spill), progress)
}

/// The bytes a part may take in `room` (the budget less the configurations): what the
/// rest of the analysis in parts leaves (`RetroEstimate::peak_in_parts`).
fn part_bytes(e: &RetroEstimate, precision: Precision, room: u64) -> u64 {
    // The stream's pieces are at most a part each (`parts::chunk_bytes`).
    let left = room.saturating_sub(e.peak_in_parts(precision, 0));
    let stream = parts::STREAM_CHUNKS * parts::CHUNK_BYTES;
    let with_slack = match left >= stream + parts::CHUNK_BYTES {
        true => left - stream,
        false => left / (parts::STREAM_CHUNKS + 1),
    };
    // The part's own slack (`parts::PART_SLACK_DIVISOR`) comes out of what is left.
    let d = parts::PART_SLACK_DIVISOR;
    with_slack / (d + 1) * d
}

/// Refuses an analysis in parts whose parts (at least the smallest) do not fit the budget.
fn check_parts(
    configs: &dyn ConfigSource,
    e: &RetroEstimate,
    precision: Precision,
    part_bytes: u64,
    budget: u64,
) -> Result<()> {
    let least = e.least_part(precision).max(part_bytes);
    memory::check(
        &format!(
            "retrograde analysis of {} with {} in parts through the disk ({} positions, {} layers)",
            configs.board(),
            count(configs.walls_per_player(), "wall"),
            e.positions,
            e.layers,
        ),
        e.peak_in_parts(precision, least)
            .saturating_add(configs.bytes()),
        budget,
    )
}

/// Solves every position of the cell exactly, every layer in parts of at most `part_bytes`
/// through `spill` (`parts.rs`), going on from the layers an earlier run wrote there; then
/// reads layers 0 and 1 back: the start's value, its remoteness and the counts are exact,
/// the line as when streaming. Refused when the least part does not fit `memory_budget`.
pub fn analyse_in_parts<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
    spill: &mut spill::Spill,
    part_bytes: u64,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    check_board(configs.board())?;
    let e = cell_estimate(configs);
    check_parts(configs, &e, Precision::Exact, part_bytes, memory_budget)?;
    run_in_parts::<Exact>(configs, Precision::Exact, spill, (part_bytes, 2), progress)
}

/// Solves the outcome of every position of the cell, as `analyse_outcomes` does, every
/// layer in parts through `spill` (`parts.rs`) sized to `memory_budget`, going on from the
/// layers an earlier run wrote there; then reads back as many layers from layer 0 up as
/// the budget holds (at least two), for the search's oracle.
pub fn analyse_outcomes_through<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
    spill: &mut spill::Spill,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    check_board(configs.board())?;
    let e = cell_estimate(configs);
    let room = memory_budget.saturating_sub(configs.bytes());
    let part_bytes = part_bytes(&e, Precision::Compact, room);
    check_parts(configs, &e, Precision::Compact, part_bytes, memory_budget)?;
    // Read back once the parts are gone: the layers from 0 up that fit beside the indices.
    let layer_bytes = |k: usize| e.layer_bytes(Precision::Compact, k);
    let mut kept = e.layers.min(2);
    let mut bytes: u128 = e.index + (0..kept).map(layer_bytes).sum::<u128>();
    let room_for_layers = room.saturating_sub(parts::SLACK_BYTES) as u128;
    while kept < e.layers && bytes + layer_bytes(kept) <= room_for_layers {
        bytes += layer_bytes(kept);
        kept += 1;
    }
    run_in_parts::<Compact>(
        configs,
        Precision::Compact,
        spill,
        (part_bytes, kept),
        progress,
    )
}

/// Solves the layers not written to `spill` yet in parts of at most `part_bytes`, packed
/// by `P`, from the most walls down, then reads layers `0..kept` back.
fn run_in_parts<'t, P: Packing>(
    configs: &'t dyn ConfigSource,
    precision: Precision,
    spill: &mut spill::Spill,
    (part_bytes, kept): (u64, usize),
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    let layout = Layout::new(configs);
    let layers = layout.layers();
    let written_from = spill.written_from();
    let slots = |ks: Range<usize>| ks.map(|k| layout.layer_len(k) as u64).sum::<u64>();
    progress.begin("retrograde analysis in parts", slots(0..layers));
    let mut stats = RetroStats::default();
    if written_from < layers {
        stats = spill.stats_from(written_from);
        progress.advance(slots(written_from..layers));
        progress.message(&format!(
            "layers {written_from} to {} written by an earlier run",
            layers - 1
        ));
    }
    let raw = |ks: Range<usize>| slots(ks) / P::PER_BYTE as u64;
    let e = cell_estimate(configs);
    let left = slots(0..written_from) as f64 / slots(0..layers).max(1) as f64;
    progress.message(&format!(
        "in parts of at most {} through {}: memory about {}; at most {} of values on disk \
         uncompressed ({} left to write), {} free there; about {:.0} s left at {:.0} M \
         positions/s",
        crate::error::format_bytes(part_bytes),
        spill.dir().display(),
        crate::error::format_bytes(e.peak_in_parts(precision, part_bytes) + configs.bytes()),
        crate::error::format_bytes(e.values_bytes(precision)),
        crate::error::format_bytes(raw(0..written_from)),
        spill
            .free_bytes()
            .map_or("unknown".into(), crate::error::format_bytes),
        e.positions as f64 * left / parts::POSITIONS_PER_SECOND,
        parts::POSITIONS_PER_SECOND / 1e6,
    ));
    let part_bytes = usize::try_from(part_bytes).unwrap_or(usize::MAX);
    let mut pace = Pace::new(slots(0..written_from));
    let mut largest = 0;
    for k in (0..written_from).rev() {
        let parts = parts::plan(&layout, k, P::PER_BYTE, part_bytes);
        let per_config = layout.splits(k) * layout.stored_len() / P::PER_BYTE;
        largest = largest.max(
            parts
                .iter()
                .map(|r| r.len() * per_config)
                .max()
                .unwrap_or(0),
        );
        spill.check_room(k, raw(k..k + 1))?;
        if parts.len() > 1 {
            progress.message(&format!("layer {k}: {} parts", parts.len()));
        }
        let layer_stats = parts::solve_layer::<P>(
            configs,
            &layout,
            k,
            spill,
            part_bytes,
            (progress, &mut pace),
        )?;
        stats = stats + layer_stats;
        pace.layer_done(k, 0, progress);
    }
    progress.finish();
    let mut values: Vec<Splits> = vec![Vec::new(); layers];
    let mut low = 0;
    for (k, layer) in values.iter_mut().enumerate().take(kept) {
        *layer = spill.read_layer::<P>(k, &layout)?;
        low += layer.iter().flatten().map(Vec::len).sum::<usize>();
    }
    // The parts, the pieces and the files read back are freed; the allocator's threads
    // keep some of it (below its mmap threshold): give it back, so that what comes next
    // (the length's search) has the budget's room.
    // SAFETY: `malloc_trim` only returns free memory to the system.
    unsafe { libc::malloc_trim(0) };
    let streaming = (parts::STREAM_CHUNKS * parts::chunk_bytes(part_bytes as u64)) as usize;
    Ok(Solved {
        configs,
        peak_bytes: (largest + streaming).max(low) as u64 + layout.bytes(),
        layout,
        precision,
        values,
        stats,
    })
}

/// The layers kept: the exact analysis keeps every layer or two (a line needs them all),
/// the compact one as many as fit (each one more makes a better oracle).
fn analyse_at<'t>(
    configs: &'t dyn ConfigSource,
    memory_budget: u64,
    precision: Precision,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    check_board(configs.board())?;
    let e = cell_estimate(configs);
    let room = memory_budget.saturating_sub(configs.bytes());
    let two = e.layers.min(2);
    let kept = match precision {
        Precision::Exact if e.all_layers_bytes <= room => e.layers,
        Precision::Exact => two,
        Precision::Compact => e.kept_layers(precision, room).unwrap_or(two),
    };
    check(configs, &e, precision, kept, false, memory_budget)?;
    match precision {
        Precision::Exact => run::<Exact>(configs, precision, kept, progress),
        Precision::Compact => run::<Compact>(configs, precision, kept, progress),
    }
}

/// The estimate of the cell of built `tables` (their exact configuration counts).
pub fn cell_estimate(configs: &dyn ConfigSource) -> RetroEstimate {
    let by_walls: Vec<u128> = configs.by_walls().iter().map(|&c| c as u128).collect();
    estimate(configs.board(), configs.walls_per_player(), &by_walls)
}

fn check(
    configs: &dyn ConfigSource,
    e: &RetroEstimate,
    precision: Precision,
    kept: usize,
    storing: bool,
    budget: u64,
) -> Result<()> {
    let peak = match storing {
        true => e.peak_storing(precision, 0..kept),
        false => e.peak(precision, kept),
    };
    let per_position = match precision {
        Precision::Exact => "a byte",
        Precision::Compact => "2 bits",
    };
    memory::check(
        &format!(
            "retrograde analysis of {} with {} ({} positions, {kept} of {} layers kept at \
             {per_position} per position folded by symmetry, plus the configurations' tables or numbering)",
            configs.board(),
            count(configs.walls_per_player(), "wall"),
            e.positions,
            e.layers,
        ),
        peak.saturating_add(configs.bytes()),
        budget,
    )
}

/// Solves the layers from the most walls down, packed by `P`, keeping layers `0..kept`.
fn run<'t, P: Packing>(
    configs: &'t dyn ConfigSource,
    precision: Precision,
    kept: usize,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    run_keeping::<P>(configs, precision, 0..kept, None, progress)
}

/// Solves the layers from the most walls down to `keep.start`, packed by `P`, keeping the
/// layers of `keep` to the end (the others stay empty, their values unknown). With a
/// `spill`, each layer is written there once solved, and the layers an earlier run wrote
/// are read back instead of solved (only those kept, and the one the first layer solved
/// reads).
fn run_keeping<'t, P: Packing>(
    configs: &'t dyn ConfigSource,
    precision: Precision,
    keep: Range<usize>,
    mut spill: Option<&mut spill::Spill>,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    let board = configs.board();
    let n = configs.walls_per_player();
    let layout = Layout::new(configs);
    let layers = layout.layers();
    let mut values: Vec<Splits> = vec![Vec::new(); layers];
    let mut stats = RetroStats::default();
    let (mut live, mut peak) = (0usize, 0usize);
    // Measured in slots, which the work follows, so that the time left can be told.
    let lowest = keep.start.min(layers);
    progress.begin(
        "retrograde analysis",
        (lowest..layers).map(|k| layout.layer_len(k) as u64).sum(),
    );
    let written_from = spill.as_ref().map_or(layers, |s| s.written_from());
    if written_from < layers {
        progress.message(&format!(
            "layers {written_from} to {} written by an earlier run: {}",
            layers - 1,
            match written_from {
                0 => "nothing left to solve".to_string(),
                w => format!("solving layers {} to 0", w - 1),
            }
        ));
    }
    let last = layers - 1;
    let push = pushes_last(layers, &keep, spill.is_some());
    let mut pace = Pace::new((lowest..layers).map(|k| layout.layer_len(k) as u64).sum());
    for k in (lowest..layers).rev() {
        if push && k == last {
            // Layer `last - 1` receives the pushes whole; the last layer is never stored.
            let len = store::bytes_for::<P>(layout.split_len(k - 1));
            let mut parents: Splits = (0..layout.splits(k - 1))
                .map(|_| Some(vec![P::NO_EXITS; len]))
                .collect();
            live += parents.len() * len;
            peak = peak.max(live);
            let atomics: Vec<&[AtomicU8]> = parents
                .iter_mut()
                .map(|p| store::atomic(p.as_mut().expect("just made")))
                .collect();
            let mut layer_stats = RetroStats::default();
            for pair in layout::split_pairs(n, k) {
                layer_stats = layer_stats
                    + layer::push_pair::<P>(configs, &layout, k, pair, &atomics, progress)
                        .map_err(|block::TooDeep| too_deep(board, n))?;
            }
            values[k - 1] = parents;
            stats = stats + layer_stats;
            pace.layer_done(k, layout.layer_len(k), progress);
            continue;
        }
        let pushed = push && k + 1 == last;
        if let Some(spill) = spill.as_deref().filter(|_| k >= written_from) {
            if k == written_from {
                stats = stats + spill.stats_from(k);
            }
            if keep.contains(&k) || k == written_from && k > lowest {
                values[k] = spill.read_layer::<P>(k, &layout)?;
                live += values[k].iter().flatten().map(Vec::len).sum::<usize>();
                peak = peak.max(live);
            }
            progress.advance(layout.layer_len(k) as u64);
            pace.total -= layout.layer_len(k) as u64; // read, not solved: not in the rate
            continue;
        }
        let mut layer_stats = RetroStats::default();
        // Layer k + 1's splits go as soon as nothing reads them (unless kept): first those
        // no pair reads, then each pair's once it is solved. So the peak is about the
        // largest layer and a pair, not two whole layers.
        let frees = k + 1 < layers && !keep.contains(&(k + 1)) && !pushed;
        let pairs = layout::split_pairs(n, k);
        if frees {
            let read: Vec<usize> = pairs
                .iter()
                .flat_map(|&p| layout::splits_below(n, k, p))
                .collect();
            for (j, split) in values[k + 1].iter_mut().enumerate() {
                if !read.contains(&j) {
                    live -= split.take().map_or(0, |s| s.len());
                }
            }
        }
        let mut layer: Splits = vec![None; layout.splits(k)];
        let len = store::bytes_for::<P>(layout.split_len(k));
        for pair in pairs {
            let (mut first, mut second) = match pushed {
                // The stores hold the pushed exits already (counted when made).
                true => {
                    let mut take = |j: usize| values[k][j].take().expect("pushed whole");
                    (take(pair.0), (pair.0 != pair.1).then(|| take(pair.1)))
                }
                false => {
                    let second = (pair.0 != pair.1).then(|| vec![P::EMPTY; len]);
                    live += len * if second.is_some() { 2 } else { 1 };
                    (vec![P::EMPTY; len], second)
                }
            };
            let both = if second.is_some() { 2 } else { 1 };
            peak = peak.max(live);
            let below = match values.get(k + 1) {
                _ if pushed => layer::Below::Pushed,
                Some(layer) => layer::Below::Layer(layer),
                None => layer::Below::Nothing,
            };
            layer_stats = layer_stats
                + layer::solve_pair::<P>(
                    configs,
                    &layout,
                    (k, 0..layout.stored(k).len()),
                    pair,
                    &mut first,
                    second.as_deref_mut(),
                    below,
                )
                .map_err(|block::TooDeep| too_deep(board, n))?;
            layer[pair.0] = Some(first);
            if let Some(second) = second {
                layer[pair.1] = Some(second);
            }
            if frees {
                for j in layout::splits_below(n, k, pair) {
                    live -= values[k + 1][j].take().map_or(0, |s| s.len());
                }
            }
            progress.advance((both * layout.split_len(k)) as u64);
        }
        values[k] = layer;
        stats = stats + layer_stats;
        pace.layer_done(k, layout.layer_len(k), progress);
        if let Some(spill) = spill.as_deref_mut() {
            spill.write_layer(k, &values[k], layer_stats, progress)?;
        }
    }
    progress.finish();
    Ok(Solved {
        configs,
        peak_bytes: peak as u64 + layout.bytes(),
        layout,
        precision,
        values,
        stats,
    })
}

/// Where the value of `pos` is in the store of the cell of `configs` laid out by `layout`:
/// over (no store), or layer, split and slot; `None` if `pos` is not a position of the
/// cell.
fn locate(configs: &dyn ConfigSource, layout: &Layout, pos: &Position) -> Option<Located> {
    let board = configs.board();
    let n = configs.walls_per_player();
    if (pos.walls.horizontal | pos.walls.vertical) & !board.anchors() != 0 {
        return None;
    }
    let config = configs.id_of(pos.walls)?;
    let k = pos.walls.len() as usize;
    let [l1, l2] = pos.left;
    if l1 > n || l2 > n || l1 as usize + l2 as usize + k != 2 * n as usize {
        return None;
    }
    let [p1, p2] = pos.pawns;
    if p1 == p2 || p1 as usize >= board.cells() || p2 as usize >= board.cells() {
        return None;
    }
    let reach = configs.reach(config, pos.walls);
    if reach[0] >> p1 & 1 == 0 || reach[1] >> p2 & 1 == 0 {
        return None;
    }
    if let Some(p) = pos.winner(board) {
        // Not read from the store: with both pawns home the half turn is not a symmetry.
        return Some(Located::Over(if p == pos.to_move {
            Value::Win(0)
        } else {
            Value::Loss(0)
        }));
    }
    let view = layout.view(k, config, l1, pos.to_move);
    Some(Located::Stored(k, view.split, layout.slot(view, p1, p2)))
}

/// The analysis's pace, told after each layer (`-v`): how much of it is done, and the time
/// left at the rate so far (measured in stored slots, which the work follows).
struct Pace {
    started: std::time::Instant,
    total: u64,
    done: u64,
}

impl Pace {
    fn new(total: u64) -> Pace {
        Pace {
            started: std::time::Instant::now(),
            total,
            done: 0,
        }
    }

    /// Part `i` of `parts` of layer `k` done (`slots` stored positions).
    fn part_done(
        &mut self,
        k: usize,
        (i, parts): (usize, usize),
        slots: usize,
        progress: &dyn Progress,
    ) {
        self.done += slots as u64;
        if parts == 1 {
            return; // `layer_done` tells it
        }
        let seconds = self.started.elapsed().as_secs_f64();
        let share = self.done as f64 / self.total.max(1) as f64;
        progress.message(&format!(
            "layer {k}, part {i} of {parts}: {:.1} % of the analysis in {seconds:.0} s, \
             {:.1} M stored positions/s, about {:.0} s left",
            100.0 * share,
            self.done as f64 / seconds.max(1e-9) / 1e6,
            seconds * (1.0 - share) / share.max(1e-9)
        ));
    }

    fn layer_done(&mut self, k: usize, slots: usize, progress: &dyn Progress) {
        self.done += slots as u64;
        let seconds = self.started.elapsed().as_secs_f64();
        let share = self.done as f64 / self.total.max(1) as f64;
        progress.message(&format!(
            "layer {k} solved: {:.1} % of the analysis in {seconds:.0} s, about {:.0} s left",
            100.0 * share,
            seconds * (1.0 - share) / share.max(1e-9)
        ));
    }
}

fn too_deep(board: Board, n: u8) -> Error {
    Error::Argument(format!(
        "retrograde analysis of {board} with {}: a position's remoteness exceeds {} plies, \
         more than the one-byte store holds",
        count(n, "wall"),
        code::MAX_REMOTENESS
    ))
}

impl<'t> Solved<'t> {
    pub fn configs(&self) -> &'t dyn ConfigSource {
        self.configs
    }

    /// The eager tables the values were solved with, if they were (`ConfigSource::tables`).
    pub fn tables(&self) -> Option<&'t Tables> {
        self.configs.tables()
    }

    pub fn stats(&self) -> RetroStats {
        self.stats
    }

    /// The peak bytes of the value store and the layout's indices: `estimate`'s
    /// `all_layers_bytes` if every layer was kept, else its `bytes`.
    pub fn bytes(&self) -> u64 {
        self.peak_bytes
    }

    /// The bytes held now: the stores of the layers kept and the layout's indices (the
    /// splits and parts freed while solving not counted, unlike `bytes`).
    pub fn held_bytes(&self) -> u64 {
        let stores: usize = self.values.iter().flatten().flatten().map(Vec::len).sum();
        stores as u64 + self.layout.bytes()
    }

    /// Whether every layer was kept (else only layers 0 and 1, see the module doc, or those
    /// `analyse_keeping` was asked for).
    pub fn keeps_all_layers(&self) -> bool {
        // A layer not solved (`analyse_keeping`) has no splits at all.
        self.values
            .iter()
            .all(|layer| !layer.is_empty() && layer.iter().all(Option::is_some))
    }

    /// What the store keeps of each position.
    pub fn precision(&self) -> Precision {
        self.precision
    }

    /// The longest remoteness of any position in the layers kept: how near the store came
    /// to its limit of `MAX_REMOTENESS` plies. 0 for an analysis of outcomes only.
    pub fn longest(&self) -> u32 {
        if self.precision != Precision::Exact {
            return 0;
        }
        let mut present = [false; 256];
        for &c in self.values.iter().flatten().flatten().flatten() {
            present[c as usize] = true;
        }
        (0..=255u8)
            .filter(|&c| present[c as usize])
            .map(|c| match code::value(c) {
                Value::Win(r) | Value::Loss(r) => r,
                Value::Draw => 0,
            })
            .max()
            .unwrap_or(0)
    }

    /// The value of `pos` (with its remoteness), or `None` if it is not a position of the
    /// cell (walls that are not a configuration, walls left that do not add up or exceed N,
    /// pawns off the board, on one cell, or cut off from their goal row), if its layer was
    /// freed while streaming, or if the analysis kept outcomes only.
    pub fn value(&self, pos: &Position) -> Option<Value> {
        match self.locate(pos)? {
            Located::Over(v) => Some(v),
            Located::Stored(..) if self.precision != Precision::Exact => None,
            Located::Stored(k, split, slot) => Some(code::value(Exact::read(
                self.values[k].get(split)?.as_ref()?,
                slot,
            ))),
        }
    }

    /// The outcome of `pos` for the player to move, at either precision; `None` as for
    /// `value`, but for an analysis of outcomes only.
    pub fn outcome(&self, pos: &Position) -> Option<Wdl> {
        match self.locate(pos)? {
            Located::Over(v) => Some(v.into()),
            Located::Stored(k, split, slot) => Some(self.read_outcome(k, split, slot)?),
        }
    }

    /// The outcome of a position given as the search holds it, with no checks: it must be
    /// a position of the cell (walls left adding up, pawns apart and reaching their goals)
    /// and not over. `None` when its layer was not kept.
    #[inline]
    pub fn outcome_of(
        &self,
        config: ConfigId,
        left: [u8; 2],
        pawns: [Cell; 2],
        to_move: Player,
    ) -> Option<Wdl> {
        let k = 2 * self.configs.walls_per_player() as usize - left[0] as usize - left[1] as usize;
        self.values.get(k)?;
        let view = self.layout.view(k, config, left[0], to_move);
        self.read_outcome(k, view.split, self.layout.slot(view, pawns[0], pawns[1]))
    }

    #[inline(always)]
    fn read_outcome(&self, k: usize, split: usize, slot: usize) -> Option<Wdl> {
        let store = self.values.get(k)?.get(split)?.as_ref()?;
        let code = match self.precision {
            Precision::Exact => Exact::read(store, slot),
            Precision::Compact => Compact::read(store, slot),
        };
        Some(if code::is_win(code) {
            Wdl::Win
        } else if code::is_loss(code) {
            Wdl::Loss
        } else {
            Wdl::Draw
        })
    }

    /// Where the value of `pos` is: over (no store), or layer and slot; `None` if `pos` is
    /// not a position of the cell.
    fn locate(&self, pos: &Position) -> Option<Located> {
        locate(self.configs, &self.layout, pos)
    }

    /// The value of the cell, its length and a principal line. After an analysis of
    /// outcomes only: the winner, but no length (`plies` is `None`) and no line, except a
    /// draw's line when it stays in the layers kept.
    pub fn result(&self) -> RetroResult {
        let board = self.configs.board();
        let start = Position::start(board, self.configs.walls_per_player())
            .expect("the tables were built for a valid wall count");
        let value = match self.precision {
            Precision::Exact => self.value(&start),
            // No remoteness: any length stands for "a win" here and is dropped below.
            Precision::Compact => self.outcome(&start).map(|o| match o {
                Wdl::Win => Value::Win(1),
                Wdl::Loss => Value::Loss(0),
                Wdl::Draw => Value::Draw,
            }),
        }
        .expect("the start is a position of the cell in layer 0, always kept");
        let (winner, plies) = match value {
            Value::Win(r) => (Some(Player::One), Some(r)),
            Value::Loss(r) => (Some(Player::Two), Some(r)),
            Value::Draw => (None, None),
        };
        let plies = plies.filter(|_| self.precision == Precision::Exact);
        let (line, cycle_start) = line::principal_line(self, start);
        RetroResult {
            winner,
            plies,
            line,
            cycle_start,
            stats: self.stats,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;
    use crate::walls::{Orientation, Wall, WallSet};

    /// The compact analysis with the `bitvec` packing: the same outcomes as the hand-packed
    /// one, layer by layer. Run under callgrind to compare their instructions (docs/ARCHITECTURE.md,
    /// "Dependencies"): `QS_PACKING=bitvec` or `hand` picks the one measured.
    #[test]
    #[ignore]
    fn bitvec_packing_for_callgrind() {
        let board = crate::geometry::Board::new(3, 7).unwrap();
        let tables = Tables::build(board, 3, u64::MAX, &Silent).unwrap();
        let layers = tables.layers();
        let bitvec = || run::<store::CompactBitvec>(&tables, Precision::Compact, layers, &Silent);
        let hand = || run::<Compact>(&tables, Precision::Compact, layers, &Silent);
        match std::env::var("QS_PACKING").as_deref() {
            Ok("bitvec") => drop(bitvec().unwrap()),
            Ok("hand") => drop(hand().unwrap()),
            _ => assert_eq!(bitvec().unwrap().values, hand().unwrap().values),
        }
    }

    /// The estimate's peak is the peak the analysis reaches, whatever it keeps, at both
    /// precisions; and streaming by pairs of splits gives the same values as keeping all.
    #[test]
    fn the_estimated_peak_is_the_peak() {
        for (w, h, n) in [(3, 3, 2), (4, 3, 3), (3, 4, 2), (2, 5, 4)] {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let e = cell_estimate(&tables);
            let all = run::<Exact>(&tables, Precision::Exact, e.layers, &Silent).unwrap();
            for kept in 2..=e.layers {
                let exact = run::<Exact>(&tables, Precision::Exact, kept, &Silent).unwrap();
                assert_eq!(
                    exact.bytes(),
                    e.peak(Precision::Exact, kept),
                    "{w}x{h} {kept}"
                );
                assert_eq!(exact.stats(), all.stats());
                assert_eq!(exact.values[..kept], all.values[..kept]);
                let compact = run::<Compact>(&tables, Precision::Compact, kept, &Silent).unwrap();
                assert_eq!(compact.bytes(), e.peak(Precision::Compact, kept));
            }
            assert!(
                e.bytes < e.all_layers_bytes,
                "{w}x{h}: streaming saves nothing"
            );
        }
    }

    /// Solving only the layers from `keep.start` up, and keeping those of `keep`, gives the
    /// values of the full analysis there, at the estimated peak.
    #[test]
    fn an_analysis_from_a_layer_up_keeps_the_full_values_there() {
        for (w, h, n) in [(3, 3, 2), (4, 3, 3), (2, 5, 4)] {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let e = cell_estimate(&tables);
            let all = run::<Exact>(&tables, Precision::Exact, e.layers, &Silent).unwrap();
            for start in 1..e.layers - 1 {
                for keep in [start..start + 2, start..e.layers] {
                    let part = run_keeping::<Exact>(
                        &tables,
                        Precision::Exact,
                        keep.clone(),
                        None,
                        &Silent,
                    )
                    .unwrap();
                    assert_eq!(part.values[keep.clone()], all.values[keep.clone()]);
                    assert!(part.values[..start].iter().all(Vec::is_empty));
                    assert_eq!(
                        part.bytes(),
                        e.peak_keeping(Precision::Exact, keep.clone()),
                        "{w}x{h} {keep:?}"
                    );
                    assert!(!part.keeps_all_layers());
                }
            }
        }
    }

    /// 2x2 with the wall a1v, Player 1 on b1 and Player 2 on b2: the mover can neither
    /// step (the other pawn), jump straight (off the board) nor beside (the wall), and no
    /// other wall fits, so the position is a draw, whoever is to move.
    #[test]
    fn a_stuck_player_draws() {
        let board = Board::new(2, 2).unwrap();
        let tables = Tables::build(board, 1, u64::MAX, &Silent).unwrap();
        let solved = analyse(&tables, u64::MAX, &Silent).unwrap();
        let wall = Wall {
            anchor: board.cell(0, 0),
            orientation: Orientation::Vertical,
        };
        for to_move in [Player::One, Player::Two] {
            let pos = Position {
                walls: WallSet::EMPTY.with(wall),
                pawns: [board.cell(1, 0), board.cell(1, 1)],
                left: [0, 1],
                to_move,
            };
            assert!(pos.legal_actions(board).is_empty(), "{to_move:?}");
            assert_eq!(solved.value(&pos), Some(Value::Draw), "{to_move:?}");
        }
    }

    #[test]
    fn the_longest_remoteness_is_the_starts_or_more() {
        let board = Board::new(3, 3).unwrap();
        let tables = Tables::build(board, 2, u64::MAX, &Silent).unwrap();
        let solved = analyse(&tables, u64::MAX, &Silent).unwrap();
        let r = solved.result();
        assert!(solved.longest() >= r.plies.unwrap());
        assert!(solved.longest() <= MAX_REMOTENESS as u32);
    }

    /// Every position of a small cell satisfies the negamax equation with remoteness over
    /// its legal actions (from the move generator, not the block's pawn graph): over at
    /// remoteness 0, a win one ply longer than its quickest move to a loss, a loss one ply
    /// longer than its longest move to a win when every move is one, else a draw. With the
    /// finished positions fixed, these equations have one solution, so this checks every
    /// value.
    #[test]
    fn every_value_obeys_the_negamax_equation() {
        for (w, h, n) in [(3, 3, 2), (4, 3, 2), (2, 2, 1), (3, 2, 2)] {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let solved = analyse(&tables, u64::MAX, &Silent).unwrap();
            let mut checked = 0;
            for id in 0..tables.len() as crate::configs::ConfigId {
                let walls = tables.walls(id);
                for l1 in 0..=n {
                    for p1 in 0..board.cells() as u8 {
                        for p2 in 0..board.cells() as u8 {
                            for to_move in [Player::One, Player::Two] {
                                let left = [l1, (2 * n).wrapping_sub(l1 + walls.len() as u8)];
                                let pos = Position {
                                    walls,
                                    pawns: [p1, p2],
                                    left,
                                    to_move,
                                };
                                let Some(v) = solved.value(&pos) else {
                                    continue;
                                };
                                assert_eq!(v, negamax(&solved, &pos), "{w}x{h} {pos:?}");
                                checked += 1;
                            }
                        }
                    }
                }
            }
            assert_eq!(checked, solved.stats().positions, "{w}x{h}");
        }
    }

    /// Each cell (width, height, walls) with both numberings of its configurations.
    fn both_numberings(
        cells: &[(usize, usize, u8)],
    ) -> impl Iterator<Item = (Board, u8, Tables, crate::tables::Ranked)> + '_ {
        cells.iter().map(|&(w, h, n)| {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            (board, n, tables, crate::tables::Ranked::build(board, n))
        })
    }

    /// The analysis over the ranked numbering (no records) stores the same bytes, counts
    /// the same positions and gives the same result as over the eager tables, at both
    /// precisions, on boards of every shape.
    #[test]
    fn ranked_numbering_solves_as_the_eager_tables() {
        let cells = [
            (3, 3, 2),
            (4, 3, 2),
            (3, 4, 3),
            (2, 5, 2),
            (5, 3, 1),
            (4, 4, 1),
        ];
        for (board, n, tables, ranked) in both_numberings(&cells) {
            for precision in [Precision::Exact, Precision::Compact] {
                let eager = analyse_at(&tables, u64::MAX, precision, &Silent).unwrap();
                let lean = analyse_at(&ranked, u64::MAX, precision, &Silent).unwrap();
                assert!(eager.keeps_all_layers() && lean.keeps_all_layers());
                assert!(eager.values == lean.values, "{board} {n} {precision:?}");
                assert_eq!(eager.stats, lean.stats);
                assert_eq!(eager.result(), lean.result(), "{board} {n} {precision:?}");
            }
        }
    }

    /// An analysis that pushes its last layer into the one above (`pushes_last`) stores
    /// the same bytes in every layer it keeps, and counts the same, as one that stores
    /// every layer, at both precisions, over either numbering, whatever the thread count.
    #[test]
    fn pushing_the_last_layer_changes_no_value() {
        let cells = [
            (3, 3, 2),
            (4, 3, 2),
            (3, 4, 3),
            (2, 5, 2),
            (5, 3, 1),
            (3, 3, 10),
            (2, 3, 1),
        ];
        for (board, n, tables, ranked) in both_numberings(&cells) {
            let layers = tables.layers();
            let keep = 0..layers - 1;
            assert_eq!(pushes_last(layers, &keep, false), layers >= 2);
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                pool.install(|| {
                    let all = run_keeping::<Exact>(&tables, Precision::Exact, 0..layers, None, &Silent).unwrap();
                    let exact = run_keeping::<Exact>(&ranked, Precision::Exact, keep.clone(), None, &Silent).unwrap();
                    for k in (0..layers - 1).rev() {
                        for (j, (a, b)) in exact.values[k].iter().zip(&all.values[k]).enumerate() {
                            let (a, b) = (a.as_ref().unwrap(), b.as_ref().unwrap());
                            if let Some(i) = (0..a.len()).find(|&i| a[i] != b[i]) {
                                let c = exact.layout.stored(k)[i / exact.layout.stored_len()];
                                panic!("{board} {n} layer {k} split {j} slot {i} (config {c}, {:?}): pushed {} stored {}", tables.walls(c), a[i], b[i]);
                            }
                        }
                    }
                    assert_eq!(exact.stats, all.stats, "{board} {n}");
                    let all = run_keeping::<Compact>(&tables, Precision::Compact, 0..layers, None, &Silent).unwrap();
                    let compact = run_keeping::<Compact>(&tables, Precision::Compact, keep.clone(), None, &Silent).unwrap();
                    assert!(compact.values[..layers - 1] == all.values[..layers - 1], "{board} {n}");
                    assert_eq!(compact.stats, all.stats);
                });
            }
        }
    }

    /// The value `pos` must have given the values of its children.
    fn negamax(solved: &Solved, pos: &Position) -> Value {
        let board = solved.configs().board();
        if let Some(p) = pos.winner(board) {
            return if p == pos.to_move {
                Value::Win(0)
            } else {
                Value::Loss(0)
            };
        }
        let children: Vec<Value> = pos
            .legal_actions(board)
            .into_iter()
            .map(|a| solved.value(&pos.play(a)).expect("a child is a position"))
            .collect();
        let quickest = children
            .iter()
            .filter_map(|v| match v {
                Value::Loss(r) => Some(r + 1),
                _ => None,
            })
            .min();
        let longest: Option<Vec<u32>> = children
            .iter()
            .map(|v| match v {
                Value::Win(r) => Some(r + 1),
                _ => None,
            })
            .collect();
        match (quickest, longest) {
            (Some(r), _) => Value::Win(r),
            (None, Some(rs)) if !rs.is_empty() => Value::Loss(*rs.iter().max().unwrap()),
            _ => Value::Draw,
        }
    }
}
