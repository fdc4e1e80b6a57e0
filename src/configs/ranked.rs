//! The configurations of a cell numbered as the eager tables number them, without a record
//! per configuration: what the retrograde analysis needs of a cell whose tables do not fit
//! memory (6x6 with 4 walls: 44 GiB of tables, 0.07 GiB here).
//!
//! The eager tables number layer `k` (configurations of `k` walls) in the lexicographic
//! order of their ascending slot lists (`configs.rs`: grouped by parent, siblings by the
//! added slot). So a configuration's id is its layer's start plus the number of
//! configurations of its layer whose slot list comes first: the rank of its slot list among
//! all `C(S, k)` lists of `k` of the `S` slots, counted only over the lists that are
//! configurations. Each layer keeps one bit per list (set: a configuration) and the count
//! of set bits before every block of 512, so that an id is a rank computation and a
//! popcount away:
//!
//! ```text
//!  lex rank of s_0 < s_1 < ... < s_(k-1):  C(S, k) - 1 - sum_j C(c_j, j + 1),
//!                                          c_j = S - 1 - s_(k-1-j)   (colex of the complement)
//!  id = layer_start[k] + before[rank / 512] + popcount of the bits from there up to rank
//! ```
//!
//! What the records held is made from the wall set when asked: the cells each player
//! reaches (a flood fill), the children (the walls that fit, each ranked). A wall set from
//! an id is the slow way (a search over the block counts, then an unranking); a pass over
//! a layer gets its wall sets in order by stepping from one list to the next.
//! `tests::ids_and_records_match_the_eager_tables` holds every answer against `Tables`.

use super::SlotMap;
use crate::configs::{self, ConfigId, count_by_walls};
use crate::rules::geometry::{Board, Player};
use crate::rules::walls::{Wall, WallSet};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bits per block of the rank directory.
const BLOCK_BITS: usize = 512;
const BLOCK_WORDS: usize = BLOCK_BITS / 64;

/// The most walls a configuration of a ranked cell holds (2 * 10 walls each).
const MOST_WALLS: usize = 20;

/// A configuration's slots, ascending, and how many there are.
#[derive(Clone, Copy, Debug)]
struct Slots {
    len: usize,
    at: [u8; MOST_WALLS],
}

impl Slots {
    fn as_slice(&self) -> &[u8] {
        &self.at[..self.len]
    }
}

/// One layer: which slot lists are configurations, and the directory over them.
struct LayerBits {
    words: Vec<u64>,
    /// Set bits before each block of `BLOCK_WORDS` words.
    before: Vec<u32>,
}

pub struct Ranked {
    board: Board,
    walls_per_player: u8,
    slot_map: SlotMap,
    /// `binomial[n][j]` = C(n, j) for `n <= S` and `j <= MOST_WALLS`.
    binomial: Vec<[u64; MOST_WALLS + 1]>,
    layers: Vec<LayerBits>,
    /// `layer_start[k]..layer_start[k + 1]`: the ids of layer `k`.
    layer_start: Vec<usize>,
}

impl Ranked {
    /// The bytes `build` will take for a cell with `by_walls` configurations per layer
    /// (`configs::count_by_walls`): a bit per slot list of each layer and the directory.
    pub fn estimate_bytes(board: Board, layers: usize) -> u64 {
        if layers > MOST_WALLS + 1 {
            return u64::MAX; // more walls than a ranked cell holds
        }
        let slots = 2 * board.anchor_count();
        let binomial = pascal(slots);
        (0..layers)
            .map(|k| {
                let lists = binomial[slots][k];
                (lists.div_ceil(64) * 8).saturating_add(lists.div_ceil(BLOCK_BITS as u64) * 4)
            })
            .fold(0u64, u64::saturating_add)
            .saturating_add((binomial.len() * (MOST_WALLS + 1) * 8) as u64)
    }

    /// Numbers every configuration of `board` with `walls_per_player` walls each. The
    /// caller checks the budget against `estimate_bytes`; the board must have at most 64
    /// cells (`retro::check_board`), and the counts must fit a `ConfigId`.
    pub fn build(board: Board, walls_per_player: u8) -> Ranked {
        let by_walls = count_by_walls(board, 2 * walls_per_player as usize);
        let slot_map = SlotMap::new(board);
        let slots = slot_map.len();
        assert!(
            by_walls.len() <= MOST_WALLS + 1,
            "at most 20 walls on a board"
        );
        let binomial = pascal(slots);
        let bits: Vec<Vec<AtomicU64>> = (0..by_walls.len())
            .map(|k| {
                (0..binomial[slots][k].div_ceil(64))
                    .map(|_| AtomicU64::new(0))
                    .collect()
            })
            .collect();
        let mut ranked = Ranked {
            board,
            walls_per_player,
            slot_map,
            binomial,
            layers: Vec::new(),
            layer_start: Vec::new(),
        };
        // The configurations of up to two walls are marked here; those of `depth` walls
        // are roots whose subtrees (walls of higher slots added) are walked in parallel.
        let most = by_walls.len() - 1;
        let depth = most.min(2);
        let mark = |walls: WallSet| {
            let k = walls.len() as usize;
            let r = ranked.lex_rank(&ranked.slots_of(walls));
            bits[k][(r / 64) as usize].fetch_or(1 << (r % 64), Ordering::Relaxed);
        };
        let mut roots = vec![WallSet::EMPTY];
        for _ in 0..depth {
            let mut next = Vec::new();
            for &w in &roots {
                mark(w);
                ranked.for_each_higher(w, |child| next.push(child));
            }
            roots = next;
        }
        roots
            .par_iter()
            .for_each(|&root| ranked.walk(root, most, &mark));
        let mut start = 0;
        for (k, words) in bits.into_iter().enumerate() {
            let words: Vec<u64> = words.into_iter().map(AtomicU64::into_inner).collect();
            let mut before = Vec::with_capacity(words.len().div_ceil(BLOCK_WORDS));
            let mut seen = 0u64;
            for block in words.chunks(BLOCK_WORDS) {
                before.push(seen as u32);
                seen += block.iter().map(|w| w.count_ones() as u64).sum::<u64>();
            }
            assert_eq!(
                seen as u128, by_walls[k],
                "layer {k}: the count and the walk agree"
            );
            ranked.layer_start.push(start);
            start += seen as usize;
            ranked.layers.push(LayerBits { words, before });
        }
        ranked.layer_start.push(start);
        ranked
    }

    /// Marks `walls` and every configuration made from it by adding walls of higher slots,
    /// up to `most` walls.
    fn walk(&self, walls: WallSet, most: usize, mark: &impl Fn(WallSet)) {
        mark(walls);
        if (walls.len() as usize) < most {
            self.for_each_higher(walls, |child| self.walk(child, most, mark));
        }
    }

    /// Calls `f` with `walls` plus each wall that fits beside it with a slot above its
    /// highest (`configs::candidates`).
    fn for_each_higher(&self, walls: WallSet, mut f: impl FnMut(WallSet)) {
        let mut free = configs::candidates(self.board, walls);
        while free != 0 {
            let bit = free.trailing_zeros();
            free &= free - 1;
            f(walls.with(configs::key_wall(self.board, bit)));
        }
    }

    pub fn board(&self) -> Board {
        self.board
    }

    pub fn walls_per_player(&self) -> u8 {
        self.walls_per_player
    }

    pub fn len(&self) -> usize {
        *self.layer_start.last().expect("layer 0 at least")
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Configurations per layer (walls on the board).
    pub fn by_walls(&self) -> Vec<usize> {
        self.layer_start.windows(2).map(|w| w[1] - w[0]).collect()
    }

    /// The ids of the configurations with `k` walls.
    pub fn layer(&self, k: usize) -> Range<ConfigId> {
        self.layer_start[k] as ConfigId..self.layer_start[k + 1] as ConfigId
    }

    /// The bytes held.
    pub fn bytes(&self) -> u64 {
        let layers: usize = self
            .layers
            .iter()
            .map(|l| l.words.len() * 8 + l.before.len() * 4)
            .sum();
        (layers + self.binomial.len() * (MOST_WALLS + 1) * 8) as u64
    }

    fn slots_of(&self, walls: WallSet) -> Slots {
        let mut s = Slots {
            len: 0,
            at: [0; MOST_WALLS],
        };
        // `WallSet::iter` lists walls by ascending slot.
        for wall in walls.iter() {
            s.at[s.len] = self.slot_map.slot(wall) as u8;
            s.len += 1;
        }
        s
    }

    fn walls_of(&self, slots: &[u8]) -> WallSet {
        slots.iter().fold(WallSet::EMPTY, |w, &s| {
            w.with(self.slot_map.wall(s as usize))
        })
    }

    /// The rank of an ascending slot list among the lists of its length, in lexicographic
    /// order (see the module doc).
    #[inline(always)]
    fn lex_rank(&self, slots: &Slots) -> u64 {
        let (k, top) = (slots.len, self.binomial.len() - 1);
        let colex: u64 = (0..k)
            .map(|j| self.binomial[top - 1 - slots.at[k - 1 - j] as usize][j + 1])
            .sum();
        self.binomial[top][k] - 1 - colex
    }

    /// The slot list of rank `rank` among the lists of `k` slots (the inverse of
    /// `lex_rank`).
    fn unrank(&self, k: usize, rank: u64) -> Slots {
        let top = self.binomial.len() - 1;
        let mut colex = self.binomial[top][k] - 1 - rank;
        let mut s = Slots {
            len: k,
            at: [0; MOST_WALLS],
        };
        let mut c = top;
        for j in (1..=k).rev() {
            // The largest c with C(c, j) <= colex.
            c -= 1;
            while self.binomial[c][j] > colex {
                c -= 1;
            }
            colex -= self.binomial[c][j];
            s.at[k - j] = (top - 1 - c) as u8;
        }
        s
    }

    /// The id of a wall set, if it is one of the cell's configurations.
    #[inline]
    pub fn id_of(&self, walls: WallSet) -> Option<ConfigId> {
        let k = walls.len() as usize;
        let layer = self.layers.get(k)?;
        if (walls.horizontal | walls.vertical) & !self.board.anchors() != 0 {
            return None;
        }
        let r = self.lex_rank(&self.slots_of(walls));
        let (word, bit) = ((r / 64) as usize, r % 64);
        let w = layer.words[word];
        if w >> bit & 1 == 0 {
            return None;
        }
        let block = word / BLOCK_WORDS;
        let inside: u32 = layer.words[block * BLOCK_WORDS..word]
            .iter()
            .map(|w| w.count_ones())
            .sum();
        let below = (w & ((1u64 << bit) - 1)).count_ones();
        Some((self.layer_start[k] + (layer.before[block] + inside + below) as usize) as ConfigId)
    }

    /// The layer of an id and its index in it.
    fn locate(&self, id: ConfigId) -> (usize, u64) {
        let id = id as usize;
        let k = self.layer_start.partition_point(|&s| s <= id) - 1;
        (k, (id - self.layer_start[k]) as u64)
    }

    /// The rank of the `i`-th configuration (from 0) of layer `k`.
    fn select(&self, k: usize, i: u64) -> u64 {
        let layer = &self.layers[k];
        let block = layer.before.partition_point(|&b| b as u64 <= i) - 1;
        let mut left = i - layer.before[block] as u64;
        let mut word = block * BLOCK_WORDS;
        loop {
            let ones = layer.words[word].count_ones() as u64;
            if left < ones {
                break;
            }
            left -= ones;
            word += 1;
        }
        let mut w = layer.words[word];
        for _ in 0..left {
            w &= w - 1;
        }
        word as u64 * 64 + w.trailing_zeros() as u64
    }

    /// The walls of configuration `id`.
    pub fn walls(&self, id: ConfigId) -> WallSet {
        let (k, i) = self.locate(id);
        self.walls_of(self.unrank(k, self.select(k, i)).as_slice())
    }

    /// The walls of the configurations `first`, `first + 1`, ... into `out` (all in one
    /// layer or several): one unranking, then a step from each slot list to the next.
    pub fn walls_from(&self, first: ConfigId, out: &mut [WallSet]) {
        let (mut k, i) = self.locate(first);
        let mut rank = self.select(k, i);
        let mut slots = self.unrank(k, rank);
        let mut id = first as usize;
        for w in out.iter_mut() {
            while id >= self.layer_start[k + 1] {
                k += 1;
                rank = self.select(k, 0);
                slots = self.unrank(k, rank);
            }
            *w = self.walls_of(slots.as_slice());
            id += 1;
            if id < self.layer_start[k + 1] {
                let next = self.next_set(k, rank + 1);
                for _ in rank..next {
                    self.step(&mut slots);
                }
                rank = next;
            }
        }
    }

    /// The first rank at or after `from` that is a configuration of layer `k` (one exists).
    fn next_set(&self, k: usize, from: u64) -> u64 {
        let words = &self.layers[k].words;
        let mut word = (from / 64) as usize;
        let mut w = words[word] & (u64::MAX << (from % 64));
        while w == 0 {
            word += 1;
            w = words[word];
        }
        word as u64 * 64 + w.trailing_zeros() as u64
    }

    /// The next slot list of the same length in lexicographic order.
    fn step(&self, slots: &mut Slots) {
        let (k, top) = (slots.len, self.binomial.len() - 1);
        let mut i = k;
        while i > 0 && slots.at[i - 1] as usize == top - k + i - 1 {
            i -= 1;
        }
        debug_assert!(i > 0, "a next list exists");
        slots.at[i - 1] += 1;
        for j in i..k {
            slots.at[j] = slots.at[j - 1] + 1;
        }
    }

    /// The cells from which each player reaches their goal row (a flood fill).
    #[inline]
    pub fn reach(&self, walls: WallSet) -> [u64; 2] {
        let edges = walls.edges_in::<u64>(self.board);
        // Ranked cells have at most 64 cells (`retro::MAX_SQUARES`): a goal row fits a word.
        [Player::One, Player::Two].map(|p| edges.reach(self.board.goal(p) as u64))
    }

    /// Calls `f(slot, child walls)` for every wall that fits beside `walls`.
    pub fn for_each_child(&self, walls: WallSet, mut f: impl FnMut(Wall, WallSet)) {
        let mut free = configs::free_key(self.board, walls);
        while free != 0 {
            let bit = free.trailing_zeros();
            free &= free - 1;
            let wall = configs::key_wall(self.board, bit);
            f(wall, walls.with(wall));
        }
    }

    pub fn slot_map(&self) -> &SlotMap {
        &self.slot_map
    }
}

/// `C(n, j)` for `n <= slots`, `j <= MOST_WALLS` (saturating: no cell has that many lists).
fn pascal(slots: usize) -> Vec<[u64; MOST_WALLS + 1]> {
    let mut c = vec![[0u64; MOST_WALLS + 1]; slots + 1];
    for n in 0..=slots {
        c[n][0] = 1;
        for j in 1..=MOST_WALLS {
            c[n][j] = if n == 0 {
                0
            } else {
                c[n - 1][j - 1].saturating_add(c[n - 1][j])
            };
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configs::{NO_CHILD, Tables};
    use crate::rules::bitboard::Squares;
    use crate::support::progress::Silent;

    /// Every id, wall set, reach and child of the ranked numbering equals the eager
    /// tables', on boards of every shape and wall counts up to the whole board.
    #[test]
    fn ids_and_records_match_the_eager_tables() {
        for (w, h, n) in [
            (2, 3, 2),
            (3, 3, 3),
            (4, 3, 2),
            (3, 4, 10),
            (4, 4, 2),
            (5, 3, 2),
            (3, 5, 2),
        ] {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let ranked = Ranked::build(board, n);
            assert_eq!(ranked.by_walls(), tables.by_walls(), "{board} {n}");
            assert!(ranked.bytes() <= Ranked::estimate_bytes(board, tables.layers()));
            let mut from = vec![WallSet::EMPTY; tables.len()];
            ranked.walls_from(0, &mut from);
            for id in 0..tables.len() as ConfigId {
                let walls = tables.walls(id);
                assert_eq!(ranked.id_of(walls), Some(id), "{board} {n} id {id}");
                assert_eq!(ranked.walls(id), walls);
                assert_eq!(from[id as usize], walls);
                let reach = ranked.reach(walls);
                for p in [Player::One, Player::Two] {
                    assert_eq!(Squares::from(reach[p.index()]), tables.reach(id, p));
                }
                let mut children = vec![NO_CHILD; tables.slots()];
                ranked.for_each_child(walls, |wall, child| {
                    children[tables.slot(wall)] = ranked.id_of(child).unwrap_or(NO_CHILD);
                });
                assert_eq!(children, tables.children(id));
            }
            // A part of a layer, from an id in its middle.
            let mid = tables.len() as ConfigId / 2;
            let mut part = vec![WallSet::EMPTY; tables.len() - mid as usize];
            ranked.walls_from(mid, &mut part);
            assert_eq!(part, from[mid as usize..]);
        }
    }

    /// Sets of walls that are not configurations have no id.
    #[test]
    fn clashing_walls_have_no_id() {
        let board = Board::new(3, 3).unwrap();
        let ranked = Ranked::build(board, 2);
        let h = |a| Wall {
            anchor: a,
            orientation: crate::rules::walls::Orientation::Horizontal,
        };
        let v = |a| Wall {
            anchor: a,
            orientation: crate::rules::walls::Orientation::Vertical,
        };
        // a1h and b1h overlap; a1h and a1v cross.
        assert_eq!(ranked.id_of(WallSet::EMPTY.with(h(0)).with(h(1))), None);
        assert_eq!(ranked.id_of(WallSet::EMPTY.with(h(0)).with(v(0))), None);
        assert!(ranked.id_of(WallSet::EMPTY.with(h(0)).with(v(1))).is_some());
    }
}
