//! Wall configurations: every set of geometrically compatible walls (no overlap, no crossing)
//! with at most `K` walls, counted exactly before anything large is allocated, then
//! enumerated with dense ids.
//!
//! A configuration's *key* is a `u128`: bit `2a` for a horizontal wall at anchor `a`, bit
//! `2a + 1` for a vertical one, where `a` is the anchor's cell bit on boards of at most 64
//! cells and its anchor index `r * (W-1) + c` on larger ones (both number the anchors in the
//! same order, so ids do not depend on which is used). The two walls of an anchor sit side
//! by side so that the order of keys is the order in which a profile over the anchors meets
//! them: what lets `rank.rs` number a layer with a small table instead of a bit per set. Keys are exact only when the board
//! has at most 64 anchors (`keys_fit`: up to 9x9); the eager tables need them, the on-demand
//! store does not. Configurations are numbered layer by layer (by wall count);
//! inside layer `k + 1` they are grouped by their *parent* in layer `k` (the configuration
//! without their highest-keyed wall), parents in id order, siblings by ascending added bit:
//!
//! ```text
//! layer 0: {}            id 0        first_child[0] = 1
//! layer 1: {w0} {w1} ... ids 1..     first_child[{w0}] = start of its children in layer 2
//! layer 2: {w0,w1} {w0,w2} ... {w1,w2} ...
//! ```
//!
//! So the configuration "parent plus wall `b`" (for `b` above the parent's highest bit) has
//! id `first_child[parent] + popcount(candidates(parent) below b)`, which is what makes the
//! child table of `tables.rs` cheap to fill.

use crate::rules::bitboard::Squares;
use crate::rules::geometry::{Board, Square};
use crate::rules::walls::{Orientation, Wall, WallSet};
use rayon::prelude::*;

pub type ConfigId = u32;

/// Whether every configuration of `board` has an exact key: at most 64 anchors.
pub fn keys_fit(board: Board) -> bool {
    board.anchor_count() <= 64
}

/// Anchor cells to the 64 key bits of one orientation: the cell bits themselves on boards of
/// at most 64 cells, else the anchor indices (row by row, `W-1` anchors a row).
#[inline(always)]
fn pack(board: Board, anchors: Squares) -> u64 {
    if board.squares() <= 64 {
        return anchors as u64;
    }
    let (w, row) = (board.width(), (1 << (board.width() - 1)) - 1);
    (0..board.height() - 1).fold(0, |key, r| {
        key | ((anchors >> (r * w)) as u64 & row) << (r * (w - 1))
    })
}

/// The inverse of `pack`.
#[inline(always)]
fn unpack(board: Board, key: u64) -> Squares {
    if board.squares() <= 64 {
        return key as Squares;
    }
    let (w, row) = (board.width(), (1 << (board.width() - 1)) - 1);
    (0..board.height() - 1).fold(0, |set, r| {
        set | ((key >> (r * (w - 1)) & row) as Squares) << (r * w)
    })
}

/// Bit `i` of `x` to bit `2i`.
#[inline(always)]
fn spread(x: u64) -> u128 {
    let mut x = x as u128;
    for (shift, mask) in SPREAD {
        x = (x | x << shift) & mask;
    }
    x
}

/// Bit `2i` of `x` to bit `i` (the inverse of `spread`; odd bits are dropped).
#[inline(always)]
fn squeeze(x: u128) -> u64 {
    let mut x = x & SPREAD[5].1;
    for i in (1..SPREAD.len()).rev() {
        x = (x | x >> SPREAD[i].0) & SPREAD[i - 1].1;
    }
    (x | x >> 32) as u64
}

/// The steps of `spread`: shift, then keep blocks of `shift` bits with `shift` zeros above.
const SPREAD: [(u32, u128); 6] = [
    (32, u128::MAX / ((1 << 32) + 1)),
    (16, u128::MAX / ((1 << 16) + 1)),
    (8, u128::MAX / ((1 << 8) + 1)),
    (4, u128::MAX / ((1 << 4) + 1)),
    (2, u128::MAX / ((1 << 2) + 1)),
    (1, u128::MAX / ((1 << 1) + 1)),
];

/// The `u128` key of a wall set (see the module doc; exact when `keys_fit(board)`).
#[inline(always)]
pub fn key(board: Board, walls: WallSet) -> u128 {
    spread(pack(board, walls.horizontal)) | spread(pack(board, walls.vertical)) << 1
}

#[inline(always)]
pub fn from_key(board: Board, key: u128) -> WallSet {
    WallSet {
        horizontal: unpack(board, squeeze(key)),
        vertical: unpack(board, squeeze(key >> 1)),
    }
}

/// The wall of key bit `bit`.
pub fn key_wall(board: Board, bit: u32) -> Wall {
    let orientation = if bit.is_multiple_of(2) {
        Orientation::Horizontal
    } else {
        Orientation::Vertical
    };
    let anchor = unpack(board, 1 << (bit / 2)).trailing_zeros() as Square;
    Wall {
        anchor,
        orientation,
    }
}

/// Keys of the walls that fit geometrically beside `walls`.
#[inline(always)]
pub fn free_key(board: Board, walls: WallSet) -> u128 {
    key(
        board,
        WallSet {
            horizontal: walls.free_horizontal(board),
            vertical: walls.free_vertical(board),
        },
    )
}

/// Bits strictly above the highest set bit of `key` (all bits for the empty key).
#[inline(always)]
pub fn above_highest(key: u128) -> u128 {
    if key == 0 {
        u128::MAX
    } else {
        let top = 127 - key.leading_zeros();
        if top == 127 {
            0
        } else {
            u128::MAX << (top + 1)
        }
    }
}

/// Walls that may be added to `walls` to form one of its children in the enumeration order.
#[inline(always)]
pub fn candidates(board: Board, walls: WallSet) -> u128 {
    free_key(board, walls) & above_highest(key(board, walls))
}

/// The profile dynamic programme shared by `count_by_walls` and the count of symmetric
/// configurations (`retro/symmetry.rs`): walls on a grid of `cols` x `rows` anchors, counted
/// by weight (a wall at anchor column `c` weighs `weight(c)`, in `0..len`); a horizontal wall
/// may stand at column `c` only if `horizontal_fits(c)`. The state is the set of columns
/// whose last anchor holds a vertical wall plus "the anchor to the left holds a horizontal
/// wall".
pub(crate) fn profile_count(
    cols: usize,
    rows: usize,
    len: usize,
    weight: impl Fn(usize) -> usize,
    horizontal_fits: impl Fn(usize) -> bool,
) -> Vec<u128> {
    let add = |dst: &mut Vec<u128>, src: &Vec<u128>, extra: usize| {
        for k in 0..len.saturating_sub(extra) {
            dst[k + extra] = dst[k + extra].saturating_add(src[k]);
        }
    };
    // states[(vertical mask << 1) | horizontal wall just left] = counts by weight
    let mut states: Vec<Vec<u128>> = vec![vec![0; len]; 1 << (cols + 1)];
    if len > 0 {
        states[0][0] = 1;
    }
    for _row in 0..rows {
        for c in 0..cols {
            let mut next: Vec<Vec<u128>> = vec![vec![0; len]; 1 << (cols + 1)];
            for (state, counts) in states.iter().enumerate() {
                if counts.iter().all(|&n| n == 0) {
                    continue;
                }
                let vmask = state >> 1;
                let left_h = c > 0 && state & 1 == 1;
                let v_below = vmask >> c & 1 == 1;
                let clear = vmask & !(1 << c);
                add(&mut next[clear << 1], counts, 0);
                if !left_h && horizontal_fits(c) {
                    add(&mut next[clear << 1 | 1], counts, weight(c));
                }
                if !v_below {
                    add(&mut next[(clear | 1 << c) << 1], counts, weight(c));
                }
            }
            states = next;
        }
        // A new row starts with no horizontal wall to the left.
        let mut next: Vec<Vec<u128>> = vec![vec![0; len]; 1 << (cols + 1)];
        for (state, counts) in states.iter().enumerate() {
            add(&mut next[state & !1], counts, 0);
        }
        states = next;
    }
    let mut total = vec![0u128; len];
    for counts in &states {
        add(&mut total, counts, 0);
    }
    total
}

/// The exact number of configurations with 0, 1, ..., `max_walls` walls, by a profile
/// dynamic programme over the anchors (no enumeration, no large allocation). Counts saturate
/// at `u128::MAX`.
///
/// Anchors are processed row by row. A horizontal wall clashes with the horizontal walls of
/// the anchors left and right of it; a vertical one with the vertical walls above and below;
/// both with the other orientation at the same anchor. The state is the set of anchors of
/// the profile holding a vertical wall plus "the anchor to the left holds a horizontal wall".
/// Rotating the board a quarter turn swaps the two orientations and keeps the count, so the
/// profile runs along the shorter side.
pub fn count_by_walls(board: Board, max_walls: usize) -> Vec<u128> {
    let (a, b) = (board.width() - 1, board.height() - 1);
    let (cols, rows) = (a.min(b), a.max(b));
    let mut total = profile_count(cols, rows, max_walls + 1, |_| 1, |_| true);
    // Drop the empty tail: no configuration holds that many walls.
    while total.len() > 1 && *total.last().unwrap() == 0 {
        total.pop();
    }
    total
}

/// Every configuration with at most `max_walls` walls, in id order, with the bookkeeping the
/// child table needs. Sized by `count_by_walls` first; the caller checks the budget.
pub struct Enumeration {
    /// The wall set of every configuration, by id.
    pub walls: Vec<WallSet>,
    /// `layer_start[k]..layer_start[k + 1]` are the ids with `k` walls.
    pub layer_start: Vec<usize>,
    /// The id of each configuration's parent (itself for the empty configuration).
    pub parent: Vec<ConfigId>,
    /// The id of each configuration's first child (its child count is `candidates` popcount).
    pub first_child: Vec<ConfigId>,
}

impl Enumeration {
    pub fn build(
        board: Board,
        max_walls: usize,
        progress: &dyn crate::support::progress::Progress,
    ) -> Self {
        let counts = count_by_walls(board, max_walls);
        let total: usize = counts.iter().map(|&c| c as usize).sum();
        let mut walls = Vec::with_capacity(total);
        let mut parent = Vec::with_capacity(total);
        let mut first_child = vec![0 as ConfigId; total];
        let mut layer_start = vec![0usize];
        walls.push(WallSet::EMPTY);
        parent.push(0);
        progress.begin("enumerating configurations", total as u64);
        for k in 0..counts.len() - 1 {
            let (lo, hi) = (layer_start[k], walls.len());
            layer_start.push(hi);
            // Children counts, then their offsets: each parent's children are contiguous.
            let sizes: Vec<u32> = walls[lo..hi]
                .par_iter()
                .map(|&w| candidates(board, w).count_ones())
                .collect();
            let mut next = hi;
            for (i, &n) in sizes.iter().enumerate() {
                first_child[lo + i] = next as ConfigId;
                next += n as usize;
            }
            let layer: Vec<(WallSet, ConfigId)> = walls[lo..hi]
                .par_iter()
                .enumerate()
                .flat_map_iter(|(i, &w)| {
                    let base = key(board, w);
                    crate::rules::bitboard::bits(candidates(board, w)).map(move |bit| {
                        (from_key(board, base | 1u128 << bit), (lo + i) as ConfigId)
                    })
                })
                .collect();
            debug_assert_eq!(layer.len() as u128, counts[k + 1]);
            progress.advance(layer.len() as u64);
            for (w, p) in layer {
                walls.push(w);
                parent.push(p);
            }
        }
        let end = walls.len();
        for fc in &mut first_child[layer_start[counts.len() - 1]..] {
            *fc = end as ConfigId;
        }
        layer_start.push(end);
        progress.finish();
        Enumeration {
            walls,
            layer_start,
            parent,
            first_child,
        }
    }

    pub fn len(&self) -> usize {
        self.walls.len()
    }

    pub fn is_empty(&self) -> bool {
        self.walls.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts by brute force over every subset of wall slots (small boards only).
    fn count_slow(board: Board, max_walls: usize) -> Vec<u128> {
        let mut counts = vec![0u128; max_walls + 1];
        fn go(board: Board, set: WallSet, from: u32, max: usize, counts: &mut [u128]) {
            counts[set.len() as usize] += 1;
            if set.len() as usize == max {
                return;
            }
            let free = free_key(board, set);
            for bit in from..128 {
                if free >> bit & 1 == 1 {
                    let next = from_key(board, key(board, set) | 1 << bit);
                    go(board, next, bit + 1, max, counts);
                }
            }
        }
        go(board, WallSet::EMPTY, 0, max_walls, &mut counts);
        while counts.len() > 1 && *counts.last().unwrap() == 0 {
            counts.pop();
        }
        counts
    }

    #[test]
    fn dp_counts_equal_brute_force() {
        for (w, h) in [
            (2, 2),
            (3, 3),
            (4, 3),
            (3, 4),
            (2, 5),
            (4, 4),
            (5, 3),
            (3, 5),
        ] {
            let b = Board::new(w, h).unwrap();
            for k in [0, 1, 2, 3, 40] {
                assert_eq!(count_by_walls(b, k), count_slow(b, k), "{w}x{h} k={k}");
            }
        }
    }

    #[test]
    fn known_totals() {
        let total = |w, h, k| -> u128 { count_by_walls(Board::new(w, h).unwrap(), k).iter().sum() };
        assert_eq!(total(3, 3, 40), 47);
        assert_eq!(total(5, 5, 40), 2_532_560);
    }

    /// Keys past 64 cells: exact and in the order of (anchor cell, orientation), as keys of
    /// cell bits are, so ids are numbered the same way on every board.
    #[test]
    fn wide_keys_are_exact_and_keep_the_order() {
        for (w, h) in [(9, 9), (13, 5), (5, 13), (4, 16), (5, 5)] {
            let board = Board::new(w, h).unwrap();
            assert!(keys_fit(board));
            let walls: Vec<Wall> = crate::rules::bitboard::bits(board.anchors())
                .flat_map(|anchor| {
                    [Orientation::Horizontal, Orientation::Vertical].map(|orientation| Wall {
                        anchor,
                        orientation,
                    })
                })
                .collect();
            let keys: Vec<u128> = walls
                .iter()
                .map(|&wall| key(board, WallSet::EMPTY.with(wall)))
                .collect();
            assert!(keys.windows(2).all(|k| k[0] < k[1]), "{board}: ascending");
            for (&wall, &k) in walls.iter().zip(&keys) {
                assert_eq!(k.count_ones(), 1);
                assert_eq!(key_wall(board, k.trailing_zeros()), wall);
                assert_eq!(from_key(board, k), WallSet::EMPTY.with(wall));
            }
            let all = walls.iter().fold(WallSet::EMPTY, |s, &wall| s.with(wall));
            assert_eq!(from_key(board, key(board, all)), all);
        }
        assert!(!keys_fit(Board::new(10, 10).unwrap()));
        let b = Board::new(9, 9).unwrap();
        let e = Enumeration::build(b, 2, &crate::support::progress::Silent);
        assert_eq!(e.len() as u128, count_by_walls(b, 2).iter().sum::<u128>());
        assert_eq!(e.len() as u128, count_slow(b, 2).iter().sum::<u128>());
    }

    #[test]
    fn enumeration_matches_counts_and_numbering() {
        let b = Board::new(4, 4).unwrap();
        let e = Enumeration::build(b, 5, &crate::support::progress::Silent);
        let counts = count_by_walls(b, 5);
        assert_eq!(e.len() as u128, counts.iter().sum::<u128>());
        let mut seen = std::collections::HashSet::new();
        for (id, &w) in e.walls.iter().enumerate() {
            assert!(seen.insert(key(b, w)), "duplicate configuration");
            let k = w.len() as usize;
            assert!(e.layer_start[k] <= id && id < e.layer_start[k + 1]);
            if id > 0 {
                let p = e.walls[e.parent[id] as usize];
                let top = 127 - key(b, w).leading_zeros();
                assert_eq!(key(b, p), key(b, w) & !(1u128 << top));
            }
        }
    }
}
