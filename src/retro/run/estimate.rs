//! What a retrograde analysis of a cell will take, known from its configuration counts
//! before anything is allocated: positions, the peak bytes of each way to run it (layers
//! kept, in parts through a directory), the bytes of its values.

use super::live;
use super::sizing;
use crate::retro::engine::layout;
use crate::retro::engine::source::ConfigSource;
use crate::retro::engine::store::Precision;
use crate::retro::engine::symmetry;
use crate::retro::format::segments;
use crate::rules::geometry::Board;
use std::ops::Range;

/// What a retrograde analysis of a cell will take, known before anything is allocated.
#[derive(Clone, Debug, PartialEq)]
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
    pub(in crate::retro) walls_per_player: u8,
    /// Stored slots of one split of each layer.
    pub(in crate::retro) split_slots: Vec<u128>,
    /// Placements of each layer (`positions`, layer by layer).
    pub(in crate::retro) layer_positions: Vec<u128>,
    /// The share of each layer's placements the analysis solves, sampled (`live.rs`): it
    /// skips those with a pawn cut off.
    pub(in crate::retro) live_shares: Vec<f64>,
    /// Bytes of the layout's indices.
    pub(in crate::retro) index: u128,
    /// Configurations of each layer.
    pub(in crate::retro) layer_configs: Vec<u128>,
    /// The most bytes held while the layout is built (`layout::setup_bytes`): before any
    /// layer, so a floor under every peak rather than a part of it.
    pub(in crate::retro) setup: u128,
    /// Bytes of the indices of the layout of an analysis in parts, which holds those of
    /// two layers at a time (`layout::index_bytes` of those).
    pub(in crate::retro) held_index: u128,
    /// The most bytes held while that layout is built or the layers it holds moved
    /// (`layout::held_setup_bytes`).
    pub(in crate::retro) held_setup: u128,
    /// Slots of a stored block.
    pub(in crate::retro) block: u128,
}

/// One layer of the analysis in parts as the estimate sees it (`in_parts_layers`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayerCost {
    /// Walls placed.
    pub layer: usize,
    /// Its placements (`RetroEstimate::positions`, this layer's), and those the analysis
    /// solves (sampled, `live.rs`), which its seconds count.
    pub positions: f64,
    pub solved: f64,
    pub parts: usize,
    /// What it reads of the layer above.
    pub above: sizing::Above,
    /// At the rates measured (2 cores).
    pub seconds: f64,
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
                    live += split(k) * layout::splits_of(pair).count() as u128;
                }
                peak = peak.max(live);
                if frees {
                    live -= split(k + 1) * layout::splits_below(n, k, pair).len() as u128;
                }
            }
        }
        self.at_least_setup(peak.saturating_add(self.index))
    }

    /// `peak` in bytes, no less than what building the layout holds (`setup`): every
    /// run builds it before anything else.
    fn at_least_setup(&self, peak: u128) -> u64 {
        u64::try_from(peak.max(self.setup)).unwrap_or(u64::MAX)
    }

    /// `at_least_setup` for an analysis in parts, whose layout holds two layers' indices.
    fn at_least_held_setup(&self, peak: u128) -> u64 {
        u64::try_from(peak.max(self.held_setup)).unwrap_or(u64::MAX)
    }

    /// The peak bytes of an analysis at `precision` in parts (`parts.rs`) of at most
    /// `part_bytes`, besides the configurations: the part, the pieces of the stream, the
    /// files' writers, the layout's indices and a part's bits of them, and layers 0 and 1,
    /// read back at the end for the start's value.
    pub fn peak_in_parts(&self, precision: Precision, part_bytes: u64) -> u64 {
        self.at_least_held_setup(self.steady_in_parts(precision, part_bytes) as u128)
    }

    /// `peak_in_parts` once the layout is built: what the parts are sized against.
    fn steady_in_parts(&self, precision: Precision, part_bytes: u64) -> u64 {
        let n = self.walls_per_player;
        let low: u128 = (0..self.layers.min(2))
            .map(|k| self.layer_bytes(precision, k))
            .sum();
        let splits = (0..self.layers)
            .map(|k| layout::splits(n, k).1)
            .max()
            .unwrap_or(0);
        let stream = sizing::STREAM_PIECES * sizing::piece_bytes(part_bytes);
        let writers = splits as u64 * sizing::WRITER_BYTES;
        // A part's bit a configuration of the layer below a pushed pass (`parts::InPart`):
        // the indices take 8 bytes a configuration.
        let in_part = self.index / 64;
        // The parts each stored configuration of the layer above has parents in, a byte
        // each (`parts::PartsOfParents`), for the largest layer.
        let masks = self
            .split_slots
            .iter()
            .map(|&slots| slots / self.block.max(1))
            .max()
            .unwrap_or(0);
        let fixed = self.held_index
            + in_part
            + masks
            + low
            + (stream + writers + sizing::SLACK_BYTES) as u128;
        let part = part_bytes as u128 + (part_bytes / sizing::PART_SLACK_DIVISOR) as u128;
        u64::try_from(fixed + part).unwrap_or(u64::MAX)
    }

    /// The bytes a part may take in `room` (the budget less the configurations): what the
    /// rest of the analysis in parts leaves (`peak_in_parts`).
    pub fn part_bytes(&self, precision: Precision, room: u64) -> u64 {
        // The stream's pieces are at most a part each (`sizing::piece_bytes`).
        let left = room.saturating_sub(self.steady_in_parts(precision, 0));
        let stream = sizing::STREAM_PIECES * sizing::PIECE_BYTES;
        let with_slack = match left >= stream + sizing::PIECE_BYTES {
            true => left - stream,
            false => left / (sizing::STREAM_PIECES + 1),
        };
        // The part's own slack (`sizing::PART_SLACK_DIVISOR`) comes out of what is left.
        let d = sizing::PART_SLACK_DIVISOR;
        with_slack / (d + 1) * d
    }

    /// Each layer of the analysis in parts at `precision` in `room`, from the most walls
    /// down: its positions, its parts, what it reads of the layer above and its seconds at
    /// the rates measured (`sizing::layer_seconds`): its positions, and for each of its
    /// parts a read of the layer above, or one read where that layer is held, each counted
    /// in the positions the analysis solves, not in placements (`live.rs`). The parts are
    /// counted as the analysis cuts them, at segments' ends (`parts`).
    /// `None` where the least part does not fit.
    pub fn in_parts_layers(&self, precision: Precision, room: u64) -> Option<Vec<LayerCost>> {
        if (room as u128) < self.held_setup {
            return None; // the layout is not built in the room (`layout::held_setup_bytes`)
        }
        self.layers_in_parts(precision, self.part_bytes(precision, room))
    }

    /// `in_parts_layers` in parts of at most `part_bytes`.
    pub(in crate::retro) fn layers_in_parts(
        &self,
        precision: Precision,
        part_bytes: u64,
    ) -> Option<Vec<LayerCost>> {
        if part_bytes < self.least_part(precision) {
            return None;
        }
        let solved = |k: usize| self.layer_positions[k] as f64 * self.live_shares[k];
        let layer = |k: usize| {
            let own = solved(k);
            let above = (k + 1 < self.layers).then(|| {
                let bytes = u64::try_from(self.layer_bytes(precision, k + 1));
                (solved(k + 1), bytes.unwrap_or(u64::MAX))
            });
            let splits = layout::splits(self.walls_per_player, k).1;
            let per_byte = precision.per_byte() as usize;
            let least = sizing::least_part_bytes(splits, self.block as usize, per_byte);
            let (above, part) = sizing::above_and_part(above, part_bytes, least);
            let parts = self.parts(precision, k, part);
            LayerCost {
                layer: k,
                positions: self.layer_positions[k] as f64,
                solved: own,
                parts,
                above,
                seconds: sizing::layer_seconds(precision, own, above, (parts, parts)),
            }
        };
        Some((0..self.layers).rev().map(layer).collect())
    }

    /// The bytes of the layout's indices (`layout::index_bytes`), which the analysis in
    /// parts and every rank of an analysis across ranks hold whole.
    pub fn index_bytes(&self) -> u64 {
        u64::try_from(self.index).unwrap_or(u64::MAX)
    }

    /// Bytes of the indices of a layout that holds those of layers `0..kept` only, and
    /// every layer's stored lists: an analysis in parts once it reads its layers back.
    pub(in crate::retro) fn held_index_up_to(&self, kept: usize) -> u128 {
        let rest: u128 = self.layer_configs.iter().skip(kept).sum();
        self.index.saturating_sub(rest.saturating_mul(8))
    }

    /// The bytes held while the layout is built (`layout::setup_bytes`), a floor under
    /// every peak.
    pub fn setup_bytes(&self) -> u64 {
        u64::try_from(self.setup).unwrap_or(u64::MAX)
    }

    /// The bytes of the indices an analysis in parts holds (`layout::index_bytes` of two layers in a row).
    pub fn held_index_bytes(&self) -> u64 {
        u64::try_from(self.held_index).unwrap_or(u64::MAX)
    }

    /// The bytes held while the layout of an analysis in parts is built
    /// (`layout::held_setup_bytes`), a floor under its peak.
    pub fn held_setup_bytes(&self) -> u64 {
        u64::try_from(self.held_setup).unwrap_or(u64::MAX)
    }

    /// The peak bytes of one rank of an analysis across `ranks` (`across.rs`) at
    /// `precision`, besides the configurations: its even share of the largest layer, the
    /// pieces of the layer above in flight (`sizing::share_bytes`), the layout's indices
    /// and the slack. The shares are runs of whole segments, so a rank's share can exceed
    /// the even share by up to a segment (16 MiB, `segments.rs`).
    pub fn peak_across(&self, precision: Precision, ranks: usize) -> u64 {
        let r = ranks.max(1);
        let most = (0..self.layers)
            .map(|k| {
                let layer = self.layer_bytes(precision, k);
                let above = match k + 1 < self.layers {
                    true => super::sizing::pieces_over(u64::try_from(layer).unwrap_or(u64::MAX), r),
                    false => 0,
                };
                layer.div_ceil(r as u128) + above as u128
            })
            .max()
            .unwrap_or(0);
        self.at_least_setup(most + self.index + sizing::SLACK_BYTES as u128)
    }

    /// The bytes of the values of every layer at `precision`, uncompressed: what an
    /// analysis through the disk writes before compression.
    pub fn values_bytes(&self, precision: Precision) -> u64 {
        let bytes: u128 = (0..self.layers)
            .map(|k| self.layer_bytes(precision, k))
            .sum();
        u64::try_from(bytes).unwrap_or(u64::MAX)
    }

    /// How many parts of at most `part` bytes the analysis cuts layer `k` into at
    /// `precision` (`parts::plan_from`): runs of as many whole segments as a part holds,
    /// or where a segment is larger than a part, each segment cut into as many runs as it
    /// needs (`parts.rs`'s tests hold the two together).
    fn parts(&self, precision: Precision, k: usize, part: u64) -> usize {
        let (layer, part) = (self.layer_bytes(precision, k), (part as u128).max(1));
        let segment = self.segment_bytes(precision, k).max(1);
        let segments = layer.div_ceil(segment);
        let parts = match part / segment {
            0 => segments * segment.div_ceil(part),
            each => segments.div_ceil(each),
        };
        parts.max(1) as usize
    }

    /// The bytes of the values of a segment of layer `k` (every split) at `precision`: the
    /// stored configurations of `segments::cut`'s runs, as many as a split's segment holds.
    fn segment_bytes(&self, precision: Precision, k: usize) -> u128 {
        let per_config = (self.block / precision.per_byte()).max(1);
        let stored = self.split_slots[k] / self.block.max(1);
        let configs = segments::most_configs(per_config as usize, stored as usize) as u128;
        let splits = layout::splits(self.walls_per_player, k).1 as u128;
        configs * per_config * splits
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
                sizing::least_part_bytes(splits, self.block as usize, per_byte)
            })
            .max()
            .unwrap_or(0)
    }

    /// The peak bytes of the exact analysis keeping `keep` to the end, besides its
    /// configurations.
    pub fn exact_peak(&self, keep: &Keep) -> u64 {
        match keep {
            Keep::Every => self.all_layers_bytes,
            Keep::Two => self.bytes,
            Keep::Layers(layers) => self.peak_keeping(Precision::Exact, layers.clone()),
        }
    }

    /// Whether the exact analysis (a byte a position) fits `budget` keeping `keep`, beside
    /// configurations of `configs_bytes` (the tables, or the ranked numbering): the one
    /// rule every caller asks, whether it picks the precision (`plan/`), the
    /// layers kept (`driver.rs`), a cell to save (`table/run.rs`), or an explorer's method.
    pub fn exact_fits(&self, configs_bytes: u64, budget: u64, keep: Keep) -> bool {
        configs_bytes.saturating_add(self.exact_peak(&keep)) <= budget
    }

    /// The most layers an analysis at `precision` can keep within `budget` bytes (the
    /// tables not included): every layer, or `0..kept` for the largest `kept` that fits, at
    /// least layers 0 and 1; `None` if even two layers do not fit.
    pub fn kept_layers(&self, precision: Precision, budget: u64) -> Option<usize> {
        self.kept_layers_within(precision, budget, u64::MAX)
    }

    /// `kept_layers` for an analysis that may take `budget` bytes while it runs but keep
    /// at most `kept_budget` of them once it returns (`kept_bytes`).
    pub fn kept_layers_within(
        &self,
        precision: Precision,
        budget: u64,
        kept_budget: u64,
    ) -> Option<usize> {
        let least = self.layers.min(2);
        (least..=self.layers).rev().find(|&kept| {
            self.peak(precision, kept) <= budget && self.kept_bytes(precision, kept) <= kept_budget
        })
    }

    /// The bytes an analysis at `precision` still holds when it returns keeping layers
    /// `0..kept`, once the indices past them are freed (`Solved::free_indices_past_kept`):
    /// those layers' values and indices.
    fn kept_bytes(&self, precision: Precision, kept: usize) -> u64 {
        let values: u128 = (0..kept.min(self.layers))
            .map(|k| self.layer_bytes(precision, k))
            .sum();
        u64::try_from(values + self.held_index_up_to(kept)).unwrap_or(u64::MAX)
    }
}

/// What an exact analysis keeps to the end, for whether it fits
/// (`RetroEstimate::exact_fits`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Every layer: any position's value is a lookup, the start's line too.
    Every,
    /// Layers 0 and 1 (the analysis streams): the start's value and length; a win's line
    /// then comes from a search.
    Two,
    /// These layers (walls placed): those of the positions an explorer answers for.
    Layers(Range<usize>),
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
    let cells = board.squares() as u128;
    let layers = configurations_by_walls.len();
    let symmetric = symmetry::symmetric_by_walls(board, layers);
    let block = layout::stored_block_len(board) as u128;
    let mut positions = 0u128;
    let mut stored_configs = 0u128;
    let mut split_slots = Vec::with_capacity(layers);
    let mut layer_positions = Vec::with_capacity(layers);
    for (k, &configs) in configurations_by_walls.iter().enumerate() {
        let splits = layout::splits(walls_per_player, k).1 as u128;
        let blocks = configs.saturating_mul(splits);
        let placements = blocks.saturating_mul(2 * cells * (cells - 1));
        positions = positions.saturating_add(placements);
        layer_positions.push(placements);
        let stored = configs.saturating_add(symmetric[k]) / 2;
        stored_configs = stored_configs.saturating_add(stored);
        split_slots.push(stored.saturating_mul(block));
    }
    let configurations = configurations_by_walls
        .iter()
        .fold(0u128, |a, &c| a.saturating_add(c));
    let largest = configurations_by_walls.iter().copied().max().unwrap_or(0);
    let by_walls = |k: usize| configurations_by_walls.get(k).copied().unwrap_or(0);
    let two_layers = (0..layers)
        .map(|k| by_walls(k).saturating_add(by_walls(k + 1)))
        .max()
        .unwrap_or(0);
    let mut estimate = RetroEstimate {
        positions,
        bytes: 0,
        all_layers_bytes: 0,
        layers,
        walls_per_player,
        split_slots,
        layer_positions,
        live_shares: live::live_shares(board, layers),
        index: layout::index_bytes(configurations, stored_configs),
        layer_configs: configurations_by_walls.to_vec(),
        setup: layout::setup_bytes(configurations, stored_configs, largest),
        held_index: layout::index_bytes(two_layers, stored_configs),
        held_setup: layout::held_setup_bytes(configurations, (two_layers, stored_configs), largest),
        block,
    };
    estimate.bytes = estimate.peak(Precision::Exact, layers.min(2));
    estimate.all_layers_bytes = estimate.peak(Precision::Exact, layers);
    estimate
}

/// The estimate of the cell of built `tables` (their exact configuration counts).
pub fn cell_estimate(configs: &dyn ConfigSource) -> RetroEstimate {
    let by_walls: Vec<u128> = configs.by_walls().iter().map(|&c| c as u128).collect();
    estimate(configs.board(), configs.walls_per_player(), &by_walls)
}
