//! Where a position's code lives. The store keeps one `Vec<Code>` per layer (walls on the
//! board) and folds both symmetries of `symmetry.rs`, so it holds about a quarter of the
//! positions:
//!
//! - only **Player 1 to move**: a position with Player 2 to move is read, turned half a
//!   turn, from the position of the turned configuration with the walls left swapped and
//!   Player 1 to move;
//! - only **stored configurations**, those whose id is at most their mirror's: a position
//!   of any other configuration is read, mirrored, from the mirror configuration.
//!
//! A layer is made of stored blocks, one per (stored configuration, split of walls left),
//! each `R * R` slots indexed by the pawn cells, where `R = S - W` (`S` cells, `W` columns):
//! a position that is over needs no slot (its value is known), so Player 1's pawn takes
//! only the `R` cells off its goal row and Player 2's the `R` cells off row 0. That saves a
//! quarter of the slots on 4x7 (576 instead of 784) and more on wide boards. Stored configurations come in *groups*: a
//! configuration, then the stored form of its half turn if that is another one, so that the
//! half-turned partner of every block of a group lies in the same group. Splits go by
//! Player 1's walls left, ascending.
//!
//! A layer keeps one store per split, so that a split can be freed as soon as nothing reads
//! it any more (`split_pairs`, `splits_below`); in a split's store the blocks go by stored
//! configuration:
//!
//! ```text
//!  layer k, split j:  | group: config d | e | next group ...
//!                           (e = the stored form of d turned half a turn)
//!  block:    slot = p1 * R + (p2 - W)           R = S - W, Player 1 to move
//!            e.g. 2x3 (R = 4): p1 = a1 (0), p2 = b3 (5): 0 * 4 + (5 - 2) = 3
//!            then padding up to a multiple of 4 slots (3x3: 36 slots, none unused)
//! ```
//!
//! Slots where the pawns coincide or a pawn is cut off stay unused, as does the padding
//! (they are not positions, see `retro/mod.rs`). The symmetries keep a position over or not, so
//! a position that is over has no slot under any view. With `k` walls on the board the players hold `2N - k` walls between them,
//! each at most `N`: Player 1 holds `max(0, N - k) ..= min(N, 2N - k)`, one split per value.
//!
//! Solving uses a *local block*, both sides to move, indexed by bit fields so that taking
//! a slot apart costs no division: `side << 12 | p1 << 6 | p2`, side 0 for Player 1
//! (`LOCAL_LEN` slots, most unused; a row of `S` slots per side and Player 1 cell).

use super::source::ConfigSource;
use super::symmetry::{self, MIRROR, TURN};
use crate::configs::ConfigId;
use crate::rules::geometry::{Board, MAX_SQUARES, Player, Square};
use crate::rules::walls::WallSet;
use rayon::prelude::*;
use std::ops::Range;

/// Slots of a local block (see the module doc).
pub const LOCAL_LEN: usize = 2 << 12;

/// Flag of `dense`: the configuration is stored as its mirror image.
const MIRRORED: u32 = 1 << 31;

/// The shape of one layer of the store.
#[derive(Clone, Debug)]
struct Shape {
    /// Player 1's fewest walls left in this layer.
    min_left: u8,
    splits: usize,
    /// Stored configurations, in store order (groups one after the other); empty once
    /// the layer's indices are freed (`free_indices_from`).
    stored: Vec<ConfigId>,
    /// How many configurations the layer stores (`stored`'s length, kept when it is freed).
    count: usize,
    /// Bit `i`: the group that starts at rank `i` of `stored` holds two configurations.
    /// Kept, where finding it took two reads at random (the half turn's id, then its rank):
    /// walking a layer's groups (`runs`, once a part's pass) took 12 % of 6x5 w6 exact at
    /// 3G (perf, 2026-11-30).
    pairs: Vec<u64>,
}

impl Shape {
    fn new(n: u8, k: usize, stored: Vec<ConfigId>, pairs: Vec<u64>) -> Shape {
        let (min_left, splits) = splits(n, k);
        Shape {
            min_left,
            splits,
            count: stored.len(),
            stored,
            pairs,
        }
    }
}

/// The mirror images and half turns of the configurations of one layer at a time (a
/// layer's lie in it), for a layout that holds some layers' indices only
/// (`Layout::holding`): what `symmetry_of` found, or the file an analysis in parts keeps
/// it in (`format/symmetry_cache.rs`).
pub trait LayerSymmetry: Sync {
    /// The mirror images of the configurations `ids`, in id order.
    fn mirror(&self, ids: Range<ConfigId>) -> crate::error::Result<Vec<ConfigId>>;

    /// The half turns of the configurations `ids`, in id order, into `out` (as long):
    /// straight into the layout's indices, never held twice.
    fn turned_into(&self, ids: Range<ConfigId>, out: &mut [ConfigId]) -> crate::error::Result<()>;
}

/// What `symmetry_of` found, held whole: mirror images and half turns by id.
pub struct Found(pub Vec<ConfigId>, pub Vec<ConfigId>);

impl LayerSymmetry for Found {
    fn mirror(&self, ids: Range<ConfigId>) -> crate::error::Result<Vec<ConfigId>> {
        Ok(self.0[ids.start as usize..ids.end as usize].to_vec())
    }

    fn turned_into(&self, ids: Range<ConfigId>, out: &mut [ConfigId]) -> crate::error::Result<()> {
        out.copy_from_slice(&self.1[ids.start as usize..ids.end as usize]);
        Ok(())
    }
}

/// The stored configurations of the layer of ids from `first` (as many as `mirror`) and
/// its groups (`Shape::pairs`), from the layer's mirror images and half turns; `ranks`
/// ends as the layer's `dense` indices. A stored configuration is the lesser id of itself
/// and its mirror image; a group is one of them, then the stored form of its half turn if
/// that is another.
fn index_layer(
    first: ConfigId,
    (mirror, turned): (&[ConfigId], &[ConfigId]),
    ranks: &mut Vec<u32>,
) -> (Vec<ConfigId>, Vec<u64>) {
    let at = |id: ConfigId| {
        debug_assert!(
            (first..first + mirror.len() as ConfigId).contains(&id),
            "a layer's symmetry stays in it"
        );
        (id - first) as usize
    };
    let canonical = |id: ConfigId| id.min(mirror[at(id)]);
    ranks.clear();
    ranks.resize(mirror.len(), u32::MAX);
    let (mut stored, mut pairs) = (Vec::new(), Vec::new());
    for id in first..first + mirror.len() as ConfigId {
        if id != canonical(id) || ranks[at(id)] != u32::MAX {
            continue;
        }
        let (start, partner) = (stored.len(), canonical(turned[at(id)]));
        for config in [id, partner] {
            if ranks[at(config)] == u32::MAX {
                ranks[at(config)] = stored.len() as u32;
                stored.push(config);
            }
        }
        pairs.resize(stored.len().div_ceil(64), 0u64);
        if stored.len() - start == 2 {
            pairs[start / 64] |= 1 << (start % 64);
        }
    }
    ranks_of(first, &stored, mirror, ranks);
    (stored, pairs)
}

/// The `dense` indices of the layer of ids from `first` into `dense` (as long as
/// `mirror`), from its stored configurations: each one's rank, and for each other
/// configuration its mirror image's, flagged `MIRRORED`.
fn ranks_of(first: ConfigId, stored: &[ConfigId], mirror: &[ConfigId], dense: &mut [u32]) {
    dense.fill(u32::MAX);
    for (rank, &config) in stored.iter().enumerate() {
        dense[(config - first) as usize] = rank as u32;
    }
    for i in 0..dense.len() {
        if dense[i] == u32::MAX {
            dense[i] = dense[(mirror[i] - first) as usize] | MIRRORED;
        }
    }
}

/// The version of the slot order (this file) and of the configuration numbering
/// (`configs/enumerate.rs`) that saved tables and runs through a directory record; a change
/// in either must change it. Version 2 (2026-11-28): configurations numbered with the two
/// walls of an anchor side by side in their keys.
pub const LAYOUT_VERSION: u32 = 2;

#[derive(Clone, Debug)]
pub struct Layout {
    cells: usize,
    /// Columns: the cells of Player 2's goal row are `0..width`.
    width: usize,
    walls_per_player: u8,
    shapes: Vec<Shape>,
    /// For each configuration id from `first_held` on: the rank in its layer's `stored` of the
    /// configuration that holds its positions, with `MIRRORED` set when that is its mirror
    /// image.
    dense: Vec<u32>,
    /// For each configuration id from `first_held` on: the id of its half turn.
    turned: Vec<ConfigId>,
    /// The first id whose indices `dense` and `turned` hold: 0, or the first of `held`
    /// for a layout that holds a few layers' (`holding`, `hold_layers`).
    first_held: ConfigId,
    /// The first id of each layer, and one past the last.
    layer_start: Vec<ConfigId>,
    /// The layers whose `dense` and `turned` are held (every layer, unless
    /// `free_indices_from` freed some or the layout holds a few layers', `holding`).
    held: Range<usize>,
    /// `symmetry::cell_maps`.
    maps: [[Square; MAX_SQUARES]; 4],
    /// `offsets[map][p1 * S + p2]`: the slot in a stored block of the pawns `p1`, `p2`
    /// under each map (`slot` less the block's start); 0, a slot nobody reads, for a
    /// position that is over.
    offsets: [Vec<u16>; 4],
}

/// Where the positions of one block (configuration, walls left, side to move) sit in the
/// store: the stored block and how cells map into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// The split (index in the layer) whose store holds the block.
    pub split: usize,
    /// The stored block's first slot in its split's store.
    pub start: usize,
    /// Index into the cell maps: bit `MIRROR`, bit `TURN`.
    map: usize,
}

/// Player 1's walls left in layer `k` of a cell with `n` walls each: the first value and
/// how many (0 when the players cannot have placed `k` walls).
pub fn splits(n: u8, k: usize) -> (u8, usize) {
    let n = n as usize;
    if k > 2 * n {
        return (0, 0);
    }
    let lo = n.saturating_sub(k);
    let hi = n.min(2 * n - k);
    (lo as u8, hi - lo + 1)
}

/// The splits of layer `k` (by index, `a <= b`) that are solved together, in the order
/// solved: Player 2 to move in split `a` is Player 1 to move in split `b` turned half a
/// turn, so the blocks of both are solved at once (`layer.rs`).
pub fn split_pairs(n: u8, k: usize) -> Vec<(usize, usize)> {
    let count = splits(n, k).1;
    (0..count.div_ceil(2)).map(|a| (a, count - 1 - a)).collect()
}

/// The splits of a pair: both, or one when the pair is a single split (the middle one).
pub fn splits_of(pair: (usize, usize)) -> impl Iterator<Item = usize> {
    std::iter::once(pair.0).chain((pair.1 != pair.0).then_some(pair.1))
}

/// The splits of layer `k + 1` that the wall moves of `pair` (of layer `k`) reach, by
/// index: those in which Player 1 holds as many walls as in split `a` or `b`. (Player 1
/// placing a wall in split `a` leaves Player 2 to move, stored turned in the split where
/// Player 1 holds Player 2's walls, `b`'s; Player 2 placing one keeps Player 1's walls.)
/// No other pair of layer `k` reaches them, so they can be freed once `pair` is solved.
pub fn splits_below(n: u8, k: usize, pair: (usize, usize)) -> Vec<usize> {
    let lo = splits(n, k).0 as usize;
    let (lo1, count1) = splits(n, k + 1);
    splits_of(pair)
        .filter_map(|j| (lo + j).checked_sub(lo1 as usize))
        .filter(|&i| i < count1)
        .collect()
}

/// Slots of a stored block on `board`: `R * R` (`R` cells off a goal row, see the module
/// doc), rounded up to a multiple of 4 so that a block of 2-bit outcomes starts on a byte
/// (`store.rs`).
pub fn stored_block_len(board: Board) -> usize {
    block_len(board.squares() - board.width())
}

/// `R * R` slots padded to a multiple of 4, for `open` = `R` cells off a goal row.
fn block_len(open: usize) -> usize {
    (open * open).next_multiple_of(4)
}

/// Bytes of the layout's own indices for `configurations` configurations of which `stored`
/// are stored: `dense` and `turned` (4 bytes each per configuration), `stored` (4 each) and
/// the groups' `pairs` (a bit each).
pub fn index_bytes(configurations: u128, stored: u128) -> u128 {
    configurations
        .saturating_mul(8)
        .saturating_add(stored.saturating_mul(4))
        .saturating_add(stored.div_ceil(8))
}

/// The most bytes held while the layout of `configurations` configurations (of which
/// `stored` are stored, and `largest` in the largest layer) is built: its indices
/// (`index_bytes`) and, beside them, the ranks of the layer being indexed (4 bytes a
/// configuration of it), which `with_symmetry` writes over that layer's mirror images.
/// Finding the symmetry first (`symmetry_of`, or reading it back) holds the mirror images
/// and half turns only, 8 bytes a configuration, less. For most cells the analysis's own
/// peak is far above this; for 7x5 with 6 walls (1.7e9 configurations, 6.3e8 in layer 12)
/// it is 18.2 GiB, the indices' 15.8 GiB and 2.4 GiB of ranks (22.1 GiB while the whole
/// array of mirror images was held beside them).
pub fn setup_bytes(configurations: u128, stored: u128, largest: u128) -> u128 {
    index_bytes(configurations, stored).saturating_add(largest.saturating_mul(4))
}

/// The most bytes held while the layout of an analysis in parts is built or the layers it
/// holds moved, for `configurations` configurations, `held` held (of which `stored`
/// stored) and `largest` in the largest layer: finding the symmetry where no file keeps
/// it (8 bytes a configuration, `symmetry_of`); the stored lists while each layer's
/// symmetry and ranks are read (12 bytes a configuration of the largest layer); or the
/// stored lists and the layers held while a layer's mirror images are read beside them
/// (4; its half turns go straight into the indices).
pub fn held_setup_bytes(configurations: u128, (held, stored): (u128, u128), largest: u128) -> u128 {
    let stored_lists = index_bytes(0, stored);
    let found = configurations.saturating_mul(8);
    let shapes = stored_lists.saturating_add(largest.saturating_mul(12));
    let moves = index_bytes(held, stored).saturating_add(largest.saturating_mul(4));
    found.max(shapes).max(moves)
}

impl Layout {
    pub fn new(source: &dyn ConfigSource) -> Layout {
        Layout::with_symmetry(source, symmetry_of(source))
    }

    /// The layout of `source`'s cell from its configurations' mirror images and half turns
    /// (`symmetry_of`, or what an earlier run kept of it: `format/symmetry_cache.rs`).
    pub fn with_symmetry(
        source: &dyn ConfigSource,
        (mirror, turned): (Vec<ConfigId>, Vec<ConfigId>),
    ) -> Layout {
        let n = source.walls_per_player();
        assert_eq!((mirror.len(), turned.len()), (source.len(), source.len()));
        // A layer's mirror images and half turns lie in it, so once its ranks are found its
        // mirror images are read no more: the array of them becomes `dense` layer by layer,
        // the largest layer's ranks held beside it (`setup_bytes`). Mirror images and
        // indices side by side held 22 GiB for 7x5 with 6 walls.
        let mut dense = mirror;
        let mut ranks: Vec<u32> = Vec::new();
        let mut shapes = Vec::with_capacity(source.layers());
        for k in 0..source.layers() {
            let ids = source.layer(k);
            let range = ids.start as usize..ids.end as usize;
            let mirror = &dense[range.clone()];
            let (stored, pairs) =
                index_layer(ids.start, (mirror, &turned[range.clone()]), &mut ranks);
            dense[range].copy_from_slice(&ranks);
            shapes.push(Shape::new(n, k, stored, pairs));
        }
        let held = 0..shapes.len();
        Layout::assemble(source, shapes, (dense, turned, 0), held)
    }

    /// The layout of `source`'s cell holding the indices of layers `hold` only (the rest
    /// of a layout whole: every layer's stored configurations and groups), from each
    /// layer's mirror images and half turns read from `symmetry` one layer at a time: for
    /// an analysis in parts, which views two layers at a time (`hold_layers` moves them).
    /// Holds at most the stored lists, the layers held and one layer's symmetry and ranks.
    pub fn holding(
        source: &dyn ConfigSource,
        symmetry: &dyn LayerSymmetry,
        hold: Range<usize>,
    ) -> crate::error::Result<Layout> {
        let n = source.walls_per_player();
        let mut ranks: Vec<u32> = Vec::new();
        let mut shapes = Vec::with_capacity(source.layers());
        for k in 0..source.layers() {
            let ids = source.layer(k);
            let mirror = symmetry.mirror(ids.clone())?;
            let mut turned = vec![0; mirror.len()];
            symmetry.turned_into(ids.clone(), &mut turned)?;
            let (stored, pairs) = index_layer(ids.start, (&mirror, &turned), &mut ranks);
            shapes.push(Shape::new(n, k, stored, pairs));
        }
        // Room for the most configurations two layers in a row hold: the layers held move
        // within it (`hold_layers`), never copied whole to grow.
        let len = |k: usize| source.layer(k).len();
        let room = (0..source.layers())
            .map(|k| {
                len(k)
                    + if k + 1 < source.layers() {
                        len(k + 1)
                    } else {
                        0
                    }
            })
            .max()
            .unwrap_or(0);
        let arrays = (Vec::with_capacity(room), Vec::with_capacity(room), 0);
        let mut layout = Layout::assemble(source, shapes, arrays, 0..0);
        layout.hold_layers(hold, symmetry)?;
        Ok(layout)
    }

    /// Holds the indices of layers `hold` (a range of layers) and of no other, keeping
    /// those already held that it covers and reading the others' from `symmetry`: before
    /// each layer of an analysis in parts, they move down a layer. In place, within
    /// the arrays' capacity where that suffices (`holding` makes it two layers').
    pub fn hold_layers(
        &mut self,
        hold: Range<usize>,
        symmetry: &dyn LayerSymmetry,
    ) -> crate::error::Result<()> {
        let layers = self.layers();
        let hold = hold.start.min(layers)..hold.end.clamp(hold.start.min(layers), layers);
        let (old, new) = (self.ids_of(&self.held), self.ids_of(&hold));
        let keep = old.start.max(new.start)..old.end.min(new.end);
        let len = new.len().max(old.len());
        for array in [&mut self.dense, &mut self.turned] {
            array.resize(len, 0);
            if keep.start < keep.end {
                array.copy_within(
                    keep.start - old.start..keep.end - old.start,
                    keep.start - new.start,
                );
            }
        }
        for k in hold.clone() {
            let layer = self.ids_of(&(k..k + 1));
            if keep.start <= layer.start && layer.end <= keep.end && keep.start < keep.end {
                continue; // held already, moved above
            }
            let shape = &self.shapes[k];
            assert_eq!(
                shape.stored.len(),
                shape.count,
                "layer {k}'s stored list was freed"
            );
            let ids = layer.start as ConfigId..layer.end as ConfigId;
            let mirror = symmetry.mirror(ids.clone())?;
            let at = layer.start - new.start..layer.end - new.start;
            let dense = &mut self.dense[at.clone()];
            ranks_of(
                layer.start as ConfigId,
                &self.shapes[k].stored,
                &mirror,
                dense,
            );
            symmetry.turned_into(ids, &mut self.turned[at])?;
        }
        for array in [&mut self.dense, &mut self.turned] {
            array.truncate(new.len());
        }
        self.first_held = new.start as ConfigId;
        self.held = hold;
        Ok(())
    }

    /// The ids of the configurations of `layers`, as indices.
    fn ids_of(&self, layers: &Range<usize>) -> Range<usize> {
        self.layer_start[layers.start] as usize..self.layer_start[layers.end] as usize
    }

    /// The layout's fields besides the layers' shapes and indices.
    fn assemble(
        source: &dyn ConfigSource,
        shapes: Vec<Shape>,
        (dense, turned, first_held): (Vec<u32>, Vec<ConfigId>, ConfigId),
        held: Range<usize>,
    ) -> Layout {
        let board = source.board();
        let n = source.walls_per_player();
        let cells = board.squares();
        let width = board.width();
        let maps = symmetry::cell_maps(board);
        let open = cells - width;
        let over = |p1: Square, p2: Square| p1 as usize >= open || (p2 as usize) < width;
        let offsets = std::array::from_fn(|map| {
            let mut offsets = Vec::with_capacity(cells * cells);
            for p1 in 0..cells as Square {
                for p2 in 0..cells as Square {
                    offsets.push(if over(p1, p2) {
                        0
                    } else {
                        let view = View {
                            split: 0,
                            start: 0,
                            map,
                        };
                        slot_in(&maps, open, width, view, p1, p2) as u16
                    });
                }
            }
            offsets
        });
        let layer_start = (0..source.layers())
            .map(|k| source.layer(k).start)
            .chain([source.len() as ConfigId])
            .collect();
        Layout {
            cells,
            width,
            walls_per_player: n,
            shapes,
            dense,
            turned,
            first_held,
            layer_start,
            held,
            maps,
            offsets,
        }
    }

    /// Squares of the board.
    #[inline(always)]
    pub fn squares(&self) -> usize {
        self.cells
    }

    pub fn layers(&self) -> usize {
        self.shapes.len()
    }

    /// Columns of the board: Player 2's goal row is cells `0..width`.
    #[inline(always)]
    pub fn width(&self) -> usize {
        self.width
    }

    /// The cells off a goal row (`R` in the module doc): Player 1's pawn on cell `p1 <
    /// open()` and Player 2's on `p2 >= width()` are the pawns of a position not over.
    #[inline(always)]
    pub fn open(&self) -> usize {
        self.cells - self.width
    }

    /// Slots of one stored block: every pair of cells off the goal rows, Player 1 to
    /// move, padded to a multiple of 4 (`stored_block_len`).
    #[inline(always)]
    pub fn stored_len(&self) -> usize {
        block_len(self.open())
    }

    pub fn splits(&self, k: usize) -> usize {
        self.shapes[k].splits
    }

    /// The stored configurations of layer `k`, in store order.
    pub fn stored(&self, k: usize) -> &[ConfigId] {
        &self.shapes[k].stored
    }

    /// Configurations in the group that starts at rank `i` of layer `k`'s stored ones: 1 or 2.
    pub fn group_len(&self, k: usize, i: usize) -> usize {
        1 + (self.shapes[k].pairs[i / 64] >> (i % 64) & 1) as usize
    }

    /// Slots of one split of layer `k`.
    pub fn split_len(&self, k: usize) -> usize {
        self.shapes[k].count * self.stored_len()
    }

    /// Slots of layer `k`.
    pub fn layer_len(&self, k: usize) -> usize {
        self.split_len(k) * self.shapes[k].splits
    }

    /// Bytes of the layout's own indices (see `index_bytes`).
    pub fn bytes(&self) -> u64 {
        let stored: usize = self.shapes.iter().map(|s| s.stored.len()).sum();
        index_bytes(self.dense.len() as u128, stored as u128) as u64
    }

    /// Frees the indices of layers `k` and up, which nothing will view again: a search
    /// that reads back the first layers of an analysis (`Solved::free_indices_past_kept`)
    /// needs theirs only, and the rest held 8.4 of 6x6 w5's 8.9 GiB of indices. The ids
    /// of a layer follow those of the layers before it, so the freed ones are the arrays'
    /// ends. Viewing a layer freed is a bug (it panics).
    pub fn free_indices_from(&mut self, k: usize) {
        let Some(&end) = self.layer_start.get(k) else {
            return;
        };
        for array in [&mut self.dense, &mut self.turned] {
            array.truncate(end.saturating_sub(self.first_held) as usize);
            array.shrink_to_fit();
        }
        for shape in &mut self.shapes[k..] {
            (shape.stored, shape.pairs) = (Vec::new(), Vec::new());
        }
        self.held = self.held.start.min(k)..self.held.end.min(k);
    }

    /// Whether layer `k`'s indices are held: every layer's unless `free_indices_from`
    /// freed some or the layout holds a few layers' (`holding`).
    pub fn holds(&self, k: usize) -> bool {
        self.held.contains(&k)
    }

    /// Whether layer `k` has a split in which Player 1 holds `left1` walls.
    pub fn has_split(&self, k: usize, left1: u8) -> bool {
        let s = &self.shapes[k];
        left1 >= s.min_left && ((left1 - s.min_left) as usize) < s.splits
    }

    /// Walls left of both players in split `j` of layer `k`.
    pub fn split_left(&self, k: usize, j: usize) -> [u8; 2] {
        let left1 = self.shapes[k].min_left + j as u8;
        [left1, self.walls_in_hand(k) - left1]
    }

    fn walls_in_hand(&self, k: usize) -> u8 {
        2 * self.walls_per_player - k as u8
    }

    /// Where the positions of `config` (in layer `k`) with Player 1 holding `left1` walls and
    /// `to_move` to move are stored. The split must exist in the layer.
    #[inline(always)]
    pub fn view(&self, k: usize, config: ConfigId, left1: u8, to_move: Player) -> View {
        let (config, left1, turn) = match to_move {
            Player::One => (config, left1, 0),
            Player::Two => (self.turned_of(config), self.walls_in_hand(k) - left1, TURN),
        };
        debug_assert!(self.held.contains(&k), "layer {k}'s indices are not held");
        let d = self.dense_of(config);
        let mirror = if d & MIRRORED != 0 { MIRROR } else { 0 };
        let s = &self.shapes[k];
        debug_assert!(left1 >= s.min_left && ((left1 - s.min_left) as usize) < s.splits);
        View {
            split: (left1 - s.min_left) as usize,
            start: (d & !MIRRORED) as usize * self.stored_len(),
            map: mirror | turn,
        }
    }

    /// The slot in the layer of the position of `view` with the pawns on `p1` and `p2`,
    /// which must not be over: under the half turn the pawns swap roles.
    #[inline(always)]
    pub fn slot(&self, view: View, p1: Square, p2: Square) -> usize {
        slot_in(&self.maps, self.open(), self.width, view, p1, p2)
    }

    /// The cell map of `view`, its own inverse, and whether the pawns swap roles under it
    /// (the half turn): row `a`, column `b` of the stored block (`a < open()`, `b >=
    /// width()`) hold the position with pawns on `map[a]` and `map[b]`, Player 1's first
    /// unless turned.
    #[inline(always)]
    pub fn cell_map(&self, view: View) -> (&[Square; MAX_SQUARES], bool) {
        (&self.maps[view.map], view.map & TURN != 0)
    }

    /// The stored configuration (its rank in its layer's store order) that holds `config`'s
    /// positions with Player 2 to move: that of its half turn (`view`'s `start`, in
    /// configurations rather than slots).
    #[inline(always)]
    pub fn stored_turned(&self, config: ConfigId) -> usize {
        (self.dense_of(self.turned_of(config)) & !MIRRORED) as usize
    }

    /// The half turn of `config`, whose layer's indices are held.
    #[inline(always)]
    fn turned_of(&self, config: ConfigId) -> ConfigId {
        self.turned[config.wrapping_sub(self.first_held) as usize]
    }

    /// `dense` of `config`, whose layer's indices are held.
    #[inline(always)]
    fn dense_of(&self, config: ConfigId) -> u32 {
        self.dense[config.wrapping_sub(self.first_held) as usize]
    }

    /// `stored_turned` of each of `configs` into `out` (as long): each read of every one
    /// started before any is used, so that they wait for memory together rather than one
    /// after the other. A pass finding the parts of the parents of 7x5 w5's layer 10 waited
    /// on these two reads for 93 % of its time when it took them one at a time (perf,
    /// 2026-11-30).
    #[inline]
    pub fn stored_turned_all(&self, configs: &[ConfigId], out: &mut [usize]) {
        self.prefetch_turned_views(configs);
        for (stored, &config) in out.iter_mut().zip(configs) {
            *stored = self.stored_turned(config);
        }
    }

    /// Starts loading what `view` reads of each of `configs`' indices with Player 2 to move
    /// (its half turn's id, then that one's rank), every read of a level before any of the
    /// next, so that a block's parents do not wait for memory one after the other (18 % of
    /// a part's pass of 7x5 w5 waited on them, perf, 2026-11-30).
    #[inline]
    pub fn prefetch_turned_views(&self, configs: &[ConfigId]) {
        use crate::support::memory::prefetch;
        let first = self.first_held;
        for &config in configs {
            prefetch(&self.turned[config.wrapping_sub(first) as usize]);
        }
        for &config in configs {
            prefetch(&self.dense[self.turned_of(config).wrapping_sub(first) as usize]);
        }
    }

    /// Starts loading what `view` reads of `config`'s indices for either side to move, so
    /// that the views of a block's children do not wait for memory one after the other.
    #[inline(always)]
    pub fn prefetch_view(&self, config: ConfigId) {
        let i = config.wrapping_sub(self.first_held) as usize;
        crate::support::memory::prefetch(&self.turned[i]);
        crate::support::memory::prefetch(&self.dense[i]);
    }

    /// Which of the four cell maps `view` reads through (bit `MIRROR`, bit `TURN`; 0 is
    /// the identity): views with the same map read their stored blocks alike.
    #[inline(always)]
    pub fn map_index(&self, view: View) -> usize {
        view.map
    }

    /// The cell map of index `map` (`map_index`).
    #[inline(always)]
    pub fn map(&self, map: usize) -> &[Square; MAX_SQUARES] {
        &self.maps[map]
    }

    /// The offsets in the stored block of `view` of the pawn pairs `p1 * S + p2`, or `None`
    /// when the view is the identity (Player 1 to move, not mirrored): then the slot is
    /// `p1 * R + p2 - W`.
    #[inline(always)]
    pub fn offsets(&self, view: View) -> Option<&[u16]> {
        (view.map != 0).then(|| self.offsets[view.map].as_slice())
    }

    /// The slots of a local block that a position of this board can have, one run per side
    /// to move: what a block must clear before it is solved (clearing all `LOCAL_LEN`
    /// slots took 4.5 % of 5x5 w3's instructions).
    pub fn local_used(&self) -> [Range<usize>; 2] {
        [0, 1].map(|side| side << 12..(side << 12) + (self.squares() << 6))
    }

    /// The slot of a position inside a local block.
    #[inline(always)]
    pub fn index(&self, to_move: Player, p1: Square, p2: Square) -> usize {
        to_move.index() << 12 | (p1 as usize) << 6 | p2 as usize
    }

    /// The position of a local slot: side to move, Player 1's cell, Player 2's cell.
    #[inline(always)]
    pub fn unindex(&self, i: usize) -> (Player, Square, Square) {
        (
            Player::from_index(i >> 12),
            (i >> 6 & 63) as Square,
            (i & 63) as Square,
        )
    }
}

/// For each configuration id: the id of its mirror image and of its half turn. A pass over
/// the configurations in runs of consecutive ids (`ConfigSource::walls_from`).
pub fn symmetry_of(source: &dyn ConfigSource) -> (Vec<ConfigId>, Vec<ConfigId>) {
    const RUN: usize = 1 << 14;
    let board = source.board();
    let len = source.len();
    // Written in place, run by run: the two arrays are all that is held (8 bytes a
    // configuration; pairs collected and then split held twice that, 27 GiB for 7x5 w6).
    let (mut mirrors, mut turns) = (vec![0 as ConfigId; len], vec![0 as ConfigId; len]);
    mirrors
        .par_chunks_mut(RUN)
        .zip(turns.par_chunks_mut(RUN))
        .enumerate()
        .for_each(|(run, (mirrors, turns))| {
            let first = run * RUN;
            let mut walls = vec![WallSet::EMPTY; mirrors.len()];
            source.walls_from(first as ConfigId, &mut walls);
            let id_of = |w| {
                source
                    .id_of(w)
                    .expect("the mirror image and half turn of a configuration are ones")
            };
            // The eager tables keep each mirror image's id (`id_of` was 6 % of 4x7 w4's
            // samples), and walk to the half turns' ids side by side (`Tables::ids_of`).
            match source.tables() {
                Some(t) => {
                    let turned: Vec<WallSet> = walls
                        .iter()
                        .map(|&w| symmetry::turn_walls(board, w))
                        .collect();
                    turns.copy_from_slice(&t.ids_of(&turned));
                    assert!(
                        !turns.contains(&crate::configs::NO_CHILD),
                        "the half turn of a configuration is one"
                    );
                    for (i, mirror) in mirrors.iter_mut().enumerate() {
                        *mirror = t.mirror((first + i) as ConfigId);
                    }
                }
                None => {
                    for ((w, mirror), turn) in walls.iter().zip(mirrors).zip(turns) {
                        *mirror = id_of(w.mirror(board));
                        *turn = id_of(symmetry::turn_walls(board, *w));
                    }
                }
            }
        });
    (mirrors, turns)
}

/// `Layout::slot` with the maps, `R` (`open`) and width given.
#[inline(always)]
fn slot_in(
    maps: &[[Square; MAX_SQUARES]; 4],
    open: usize,
    width: usize,
    view: View,
    p1: Square,
    p2: Square,
) -> usize {
    let map = &maps[view.map];
    let (a, b) = if view.map & TURN != 0 {
        (p2, p1)
    } else {
        (p1, p2)
    };
    let (a, b) = (map[a as usize] as usize, map[b as usize] as usize);
    debug_assert!(
        a < open && b >= width,
        "a position that is over has no slot"
    );
    view.start + a * open + (b - width)
}

/// The stored configurations `within` of layer `k` (a run of whole groups) cut into runs
/// of whole groups of at most `most` configurations each (or one group when a group is
/// more).
pub fn runs(layout: &Layout, k: usize, within: Range<usize>, most: usize) -> Vec<Range<usize>> {
    let stored = within.end;
    let mut runs = Vec::new();
    let (mut start, mut rank) = (within.start, within.start);
    while rank < stored {
        let next = rank + layout.group_len(k, rank);
        if next - start > most && rank > start {
            runs.push(start..rank);
            start = rank;
        }
        rank = next;
    }
    if start < stored {
        runs.push(start..stored);
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configs::Tables;
    use crate::support::progress::Silent;

    #[test]
    fn splits_sum_to_the_walls_in_hand() {
        assert_eq!(splits(3, 0), (3, 1));
        assert_eq!(splits(3, 1), (2, 2));
        assert_eq!(splits(3, 3), (0, 4));
        assert_eq!(splits(3, 5), (0, 2));
        assert_eq!(splits(3, 6), (0, 1));
        assert_eq!(splits(3, 7), (0, 0));
        assert_eq!(splits(0, 0), (0, 1));
    }

    /// Every position not over of every block, both sides to move, has one slot; a position
    /// and its half turn share it, and so do a position and its mirror image unless the
    /// configuration is its own mirror (then both are stored); the slots of a layer are
    /// exactly covered; groups keep half-turn partners together.
    #[test]
    fn views_fold_both_symmetries_and_cover_each_layer() {
        for (w, h, n) in [(3, 3, 2), (4, 3, 2), (2, 4, 3), (3, 5, 1)] {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let layout = Layout::new(&tables);
            let maps = symmetry::cell_maps(board);
            assert_eq!(layout.layers(), tables.layers());
            for k in 0..layout.layers() {
                let mut hit = vec![vec![false; layout.split_len(k)]; layout.splits(k)];
                for c in tables.layer(k) {
                    for j in 0..layout.splits(k) {
                        let left = layout.split_left(k, j);
                        assert_eq!(left[0] as usize + left[1] as usize + k, 2 * n as usize);
                        assert!(left.iter().all(|&l| l <= n));
                        for side in [Player::One, Player::Two] {
                            let v = layout.view(k, c, left[0], side);
                            let m = layout.view(k, tables.mirror(c), left[0], side);
                            let turned = layout.turned_of(c);
                            let t = layout.view(k, turned, left[1], side.other());
                            for p1 in 0..board.squares() as Square {
                                for p2 in 0..board.squares() as Square {
                                    if over(board, p1, p2) {
                                        continue;
                                    }
                                    let slot = layout.slot(v, p1, p2);
                                    hit[v.split][slot] = true;
                                    let (m1, m2) =
                                        (maps[MIRROR][p1 as usize], maps[MIRROR][p2 as usize]);
                                    if tables.mirror(c) != c {
                                        assert_eq!(
                                            (m.split, layout.slot(m, m1, m2)),
                                            (v.split, slot)
                                        );
                                    }
                                    let (t1, t2) =
                                        (maps[TURN][p2 as usize], maps[TURN][p1 as usize]);
                                    assert_eq!((t.split, layout.slot(t, t1, t2)), (v.split, slot));
                                }
                            }
                        }
                    }
                }
                let pairs = layout.open() * layout.open();
                let covered = |(i, &h): (usize, &bool)| h || i % layout.stored_len() >= pairs;
                for hit in &hit {
                    assert!(hit.iter().enumerate().all(covered), "{w}x{h} layer {k}");
                }
                let stored = layout.stored(k);
                let mut i = 0;
                while i < stored.len() {
                    let len = layout.group_len(k, i);
                    let partner = layout.turned_of(stored[i]);
                    let p = layout.dense_of(partner) & !MIRRORED;
                    assert!(p as usize >= i && (p as usize) < i + len);
                    assert_eq!(len, if p as usize == i { 1 } else { 2 }, "group at {i}");
                    i += len;
                }
            }
        }
    }

    /// A layout holding a few layers' indices, moved down, up and across as an analysis in
    /// parts and its read-back move it, views every configuration of the layers it holds
    /// as the whole layout does, and has the same layers' shapes.
    #[test]
    fn layers_held_are_viewed_as_the_whole_layout_views_them() {
        for (w, h, n) in [(3, 3, 2), (4, 3, 2), (2, 4, 3)] {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let whole = Layout::new(&tables);
            let (mirror, turned) = symmetry_of(&tables);
            let found = Found(mirror, turned);
            let layers = whole.layers();
            let mut holding = Layout::holding(&tables, &found, layers - 1..layers + 1).unwrap();
            let mut holds: Vec<Range<usize>> = (0..layers).rev().map(|k| k..k + 2).collect();
            holds.extend([0..3, 2..layers, 0..layers, 1..1, 0..1, layers - 2..layers]);
            for hold in holds {
                holding.hold_layers(hold.clone(), &found).unwrap();
                for k in 0..layers {
                    assert_eq!(holding.stored(k), whole.stored(k));
                    assert_eq!(holding.layer_len(k), whole.layer_len(k));
                    let held = hold.contains(&k);
                    assert_eq!(holding.holds(k), held, "{w}x{h} layer {k} of {hold:?}");
                    if !held {
                        continue;
                    }
                    for i in 0..whole.stored(k).len() {
                        assert_eq!(holding.group_len(k, i), whole.group_len(k, i));
                    }
                    for c in tables.layer(k) {
                        assert_eq!(holding.stored_turned(c), whole.stored_turned(c));
                        for j in 0..whole.splits(k) {
                            let left1 = whole.split_left(k, j)[0];
                            for side in [Player::One, Player::Two] {
                                let view = holding.view(k, c, left1, side);
                                assert_eq!(view, whole.view(k, c, left1, side));
                            }
                        }
                    }
                }
            }
        }
    }

    fn over(board: Board, p1: Square, p2: Square) -> bool {
        board.goal(Player::One) >> p1 & 1 == 1 || board.goal(Player::Two) >> p2 & 1 == 1
    }

    /// The lookups taken together give each configuration's own, in runs of any length.
    #[test]
    fn stored_turned_all_is_stored_turned_of_each() {
        let board = Board::new(4, 3).unwrap();
        let tables = Tables::build(board, 2, u64::MAX, &Silent).unwrap();
        let layout = Layout::new(&tables);
        let ids: Vec<ConfigId> = (0..tables.len() as ConfigId).rev().collect();
        for run in [1, 5, 16, 64] {
            for configs in ids.chunks(run) {
                let mut out = vec![usize::MAX; configs.len()];
                layout.stored_turned_all(configs, &mut out);
                let one_by_one: Vec<usize> =
                    configs.iter().map(|&c| layout.stored_turned(c)).collect();
                assert_eq!(out, one_by_one);
            }
        }
    }

    /// Freeing the indices of the last layers keeps every view of the others, and the
    /// layers' sizes, and gives back the freed layers' bytes.
    #[test]
    fn freed_indices_leave_the_layers_before_as_they_were() {
        let board = Board::new(4, 3).unwrap();
        let tables = Tables::build(board, 2, u64::MAX, &Silent).unwrap();
        let whole = Layout::new(&tables);
        for from in [0, 1, 3, whole.layers()] {
            let mut freed = whole.clone();
            freed.free_indices_from(from);
            for k in 0..whole.layers() {
                assert_eq!(freed.holds(k), k < from);
            }
            assert_eq!(freed.bytes() < whole.bytes(), from < whole.layers());
            for k in 0..whole.layers() {
                assert_eq!(freed.layer_len(k), whole.layer_len(k));
                if k >= from {
                    assert!(freed.stored(k).is_empty());
                    continue;
                }
                assert_eq!(freed.stored(k), whole.stored(k));
                for c in tables.layer(k) {
                    for j in 0..whole.splits(k) {
                        let left1 = whole.split_left(k, j)[0];
                        for side in [Player::One, Player::Two] {
                            assert_eq!(
                                freed.view(k, c, left1, side),
                                whole.view(k, c, left1, side)
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn stored_blocks_leave_out_the_goal_rows() {
        let board = |w, h| Board::new(w, h).unwrap();
        assert_eq!(stored_block_len(board(4, 7)), 576);
        assert_eq!(stored_block_len(board(3, 3)), 36);
        assert_eq!(stored_block_len(board(2, 3)), 16);
        assert_eq!(stored_block_len(board(3, 2)), 12); // 3 * 3 = 9, padded
    }

    /// Every split of a layer is in one pair; the splits below that the pairs read are
    /// those that the blocks' wall moves reach (by `view`), each read by one pair.
    #[test]
    fn pairs_cover_the_splits_and_read_their_own_below() {
        for n in 0..=4u8 {
            for k in 0..=2 * n as usize {
                let pairs = split_pairs(n, k);
                let mut seen: Vec<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
                seen.sort();
                seen.dedup();
                assert_eq!(seen, (0..splits(n, k).1).collect::<Vec<_>>());
                let (lo, _) = splits(n, k);
                let (lo1, count1) = splits(n, k + 1);
                let mut read = Vec::new();
                for &(a, b) in &pairs {
                    let below = splits_below(n, k, (a, b));
                    // The wall moves of both blocks of the pair, both sides to move.
                    let mut reached = Vec::new();
                    for j in [a, b] {
                        let left = [lo + j as u8, 2 * n - k as u8 - lo - j as u8];
                        if left[0] > 0 {
                            reached.push(left[1]); // Player 2 to move, stored turned
                        }
                        if left[1] > 0 {
                            reached.push(left[0]);
                        }
                    }
                    let mut reached: Vec<usize> =
                        reached.iter().map(|&l| (l - lo1) as usize).collect();
                    reached.sort();
                    reached.dedup();
                    assert!(reached.iter().all(|&i| i < count1));
                    assert!(reached.iter().all(|i| below.contains(i)), "n {n} k {k}");
                    read.extend(below);
                }
                let all = read.len();
                read.sort();
                read.dedup();
                assert_eq!(read.len(), all, "a split below read by two pairs");
            }
        }
    }

    #[test]
    fn local_indices_round_trip() {
        let board = Board::new(3, 4).unwrap();
        let tables = Tables::build(board, 1, u64::MAX, &Silent).unwrap();
        let layout = Layout::new(&tables);
        for side in [Player::One, Player::Two] {
            for p1 in 0..board.squares() as Square {
                for p2 in 0..board.squares() as Square {
                    let i = layout.index(side, p1, p2);
                    assert!(i < LOCAL_LEN);
                    assert_eq!(layout.unindex(i), (side, p1, p2));
                }
            }
        }
        let (open, width) = (layout.open(), layout.width());
        for map in 0..4 {
            let view = View {
                split: 0,
                start: 0,
                map,
            };
            for p1 in 0..board.squares() as Square {
                for p2 in 0..board.squares() as Square {
                    if over(board, p1, p2) {
                        continue;
                    }
                    let slot = layout.slot(view, p1, p2);
                    assert!(slot < layout.stored_len());
                    match layout.offsets(view) {
                        Some(o) => {
                            assert_eq!(
                                o[p1 as usize * board.squares() + p2 as usize] as usize,
                                slot
                            )
                        }
                        None => assert_eq!(slot, p1 as usize * open + p2 as usize - width),
                    }
                }
            }
        }
    }
}
