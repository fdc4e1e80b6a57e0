//! Configuration records built the first time the search reaches them.
//!
//! A cell like 6x6 with 4 walls has 131 million configurations (45 GiB of eager tables) while
//! a proof search touches a part of them. Here a record (walls, goal distances) is made
//! when a configuration is first named, and its children (one id per
//! wall slot) when the search first expands it: naming the children makes their records.
//!
//! A configuration and its left-right mirror image share one record (a *pair*): the
//! distances are kept for the pair's first member and read through mirrored cells for the
//! other, which halves what a configuration costs, since the search names a configuration's
//! mirror image (for its transposition key) but rarely visits it. Pair `i` has ids `2i`
//! (its smaller wall set) and `2i + 1` (the mirror image; unused when the configuration is
//! its own mirror image), so `mirror` is arithmetic.
//!
//! The index from wall set to pair holds only pair numbers (4 bytes each), hashed and
//! compared through the records, and is split into shards so that two threads rarely wait
//! on each other; a pair is made under its shard's lock, never twice. Records live in an
//! arena of fixed chunks: a record never moves, so `children` can hand out a slice while
//! other threads add records.
//!
//! Every byte is counted against the budget given at the start. When the next record would
//! not fit, the store marks itself `exhausted` and answers `NO_CHILD` from then on; the
//! search checks the mark where it checks its deadline and stops, storing nothing.

use super::{ConfigTables, NO_CHILD, SlotMap};
use crate::bitboard::{UNREACHABLE, bits};
use crate::configs::ConfigId;
use crate::geometry::{Board, Cell, MAX_CELLS, Player};
use crate::walls::{Orientation, Wall, WallSet};
use hashbrown::HashTable;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// Pairs per arena chunk.
const CHUNK_BITS: u32 = 14;
const CHUNK: usize = 1 << CHUNK_BITS;
/// Index shards: enough that two threads rarely wait on each other, few enough that each
/// shard's growth (which briefly doubles it) stays small.
const SHARDS: usize = 256;
/// Bytes an index entry costs: a 4-byte pair number and a control byte, in a table between
/// 7/16 and 7/8 full.
const INDEX_ENTRY_BYTES: u64 = 12;
/// What the allocator adds to each boxed slice.
const ALLOCATION_BYTES: u64 = 16;

/// A configuration and its mirror image.
struct Pair {
    /// `[smaller wall set, its mirror image]` (equal when the configuration is symmetric).
    walls: [WallSet; 2],
    /// Goal distances of `walls[0]`, `player * cells + cell`.
    distances: Box<[u8]>,
    /// Children of each member, made when the search first expands it.
    children: [OnceLock<Box<[ConfigId]>>; 2],
}

type Chunk = Box<[OnceLock<Pair>]>;

pub struct OnDemand {
    board: Board,
    walls_per_player: u8,
    slot_map: SlotMap,
    configurations: u128,
    /// Each cell's left-right mirror image.
    mirror_cell: [Cell; MAX_CELLS],
    index: Box<[Mutex<HashTable<u32>>]>,
    chunks: Box<[OnceLock<Chunk>]>,
    next_pair: AtomicU32,
    budget: u64,
    bytes: AtomicU64,
    exhausted: AtomicBool,
}

/// A hash of a wall set: both orientations mixed (and, for cell sets wider than 64 bits,
/// both halves folded), then multiplied twice so that the top bits (hashbrown's control
/// bytes) and the low ones (its buckets) both vary.
fn hash(walls: WallSet) -> u64 {
    let mixed = walls.horizontal ^ walls.vertical.rotate_left(29);
    // A no-op when `Cells` is a u64: the upper half is then empty.
    #[allow(clippy::unnecessary_cast)]
    let folded = (mixed as u128 ^ (mixed as u128 >> 64).rotate_left(17)) as u64;
    let x = folded.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (x ^ x >> 32).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

impl OnDemand {
    /// An empty store for the cell that may grow to `budget` bytes.
    pub fn new(board: Board, walls_per_player: u8, budget: u64) -> OnDemand {
        let estimate = super::TableEstimate::new(board, walls_per_player);
        let most_pairs = (budget / OnDemand::pair_bytes(board))
            .min(estimate.configurations as u64)
            .min(NO_CHILD as u64 / 2);
        let chunks = (most_pairs as usize).div_ceil(CHUNK) + 1;
        let fixed = chunks * std::mem::size_of::<OnceLock<Chunk>>()
            + SHARDS * std::mem::size_of::<Mutex<HashTable<u32>>>();
        let mut mirror_cell = [0; MAX_CELLS];
        for c in 0..board.cells() as Cell {
            mirror_cell[c as usize] = board.mirror_cell(c);
        }
        OnDemand {
            board,
            walls_per_player,
            slot_map: SlotMap::new(board),
            configurations: estimate.configurations,
            mirror_cell,
            index: (0..SHARDS).map(|_| Mutex::new(HashTable::new())).collect(),
            chunks: (0..chunks).map(|_| OnceLock::new()).collect(),
            next_pair: AtomicU32::new(0),
            budget,
            bytes: AtomicU64::new(fixed as u64),
            exhausted: AtomicBool::new(false),
        }
    }

    /// Bytes a pair costs before it has children: its arena slot, its distances and its
    /// index entry.
    pub fn pair_bytes(board: Board) -> u64 {
        std::mem::size_of::<OnceLock<Pair>>() as u64
            + 2 * board.cells() as u64
            + ALLOCATION_BYTES
            + INDEX_ENTRY_BYTES
    }

    /// Bytes a configuration's children add once it is expanded.
    fn children_bytes(&self) -> u64 {
        (self.slot_map.len() * std::mem::size_of::<ConfigId>()) as u64 + ALLOCATION_BYTES
    }

    /// Bytes used so far.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Configuration pairs (a configuration and its mirror image) built so far.
    pub fn built(&self) -> usize {
        self.next_pair.load(Ordering::Relaxed) as usize
    }

    /// Takes `bytes` from the budget, or marks the store exhausted.
    fn reserve(&self, bytes: u64) -> bool {
        let before = self.bytes.fetch_add(bytes, Ordering::Relaxed);
        if before + bytes > self.budget {
            self.exhausted.store(true, Ordering::Release);
            return false;
        }
        true
    }

    #[inline(always)]
    fn pair(&self, pair: u32) -> &Pair {
        let i = pair as usize;
        let chunk = self.chunks[i >> CHUNK_BITS]
            .get()
            .expect("ids are handed out with their records");
        chunk[i & (CHUNK - 1)]
            .get()
            .expect("ids are handed out with their records")
    }

    /// The id of `walls` (a configuration of the cell), making its pair's record if it is
    /// new; `None` when the budget is spent.
    fn id_or_insert(&self, walls: WallSet) -> Option<ConfigId> {
        let mirror = walls.mirror(self.board);
        let first = walls.min(mirror);
        let side = (walls != first) as u32;
        let h = hash(first);
        let mut index = self.index[(h >> 56) as usize % SHARDS]
            .lock()
            .expect("a store shard is never poisoned: nothing panics under its lock");
        if let Some(&pair) = index.find(h, |&p| self.pair(p).walls[0] == first) {
            return Some(2 * pair + side);
        }
        if !self.reserve(OnDemand::pair_bytes(self.board)) {
            return None;
        }
        let pair = self.next_pair.fetch_add(1, Ordering::Relaxed);
        if pair as u64 >= NO_CHILD as u64 / 2 {
            self.exhausted.store(true, Ordering::Release);
            return None;
        }
        self.put(pair, [first, walls.max(mirror)]);
        index.insert_unique(h, pair, |&p| hash(self.pair(p).walls[0]));
        Some(2 * pair + side)
    }

    /// Makes the record of pair `pair`.
    fn put(&self, pair: u32, walls: [WallSet; 2]) {
        let board = self.board;
        let cells = board.cells();
        let edges = walls[0].edges(board);
        let mut distances = vec![UNREACHABLE; 2 * cells].into_boxed_slice();
        for p in [Player::One, Player::Two] {
            let d = edges.distances(board.goal(p));
            distances[p.index() * cells..][..cells].copy_from_slice(&d[..cells]);
        }
        let i = pair as usize;
        let chunk = self.chunks[i >> CHUNK_BITS]
            .get_or_init(|| (0..CHUNK).map(|_| OnceLock::new()).collect());
        let fresh = chunk[i & (CHUNK - 1)].set(Pair {
            walls,
            distances,
            children: Default::default(),
        });
        debug_assert!(fresh.is_ok(), "a pair number is handed out once");
    }

    /// The child ids of `walls`, making the children's records as needed.
    fn make_children(&self, walls: WallSet) -> Box<[ConfigId]> {
        let mut children = vec![NO_CHILD; self.slot_map.len()].into_boxed_slice();
        if walls.len() >= 2 * self.walls_per_player as u32 || !self.reserve(self.children_bytes()) {
            return children;
        }
        for orientation in [Orientation::Horizontal, Orientation::Vertical] {
            for anchor in bits(walls.free(self.board, orientation)) {
                let wall = Wall {
                    anchor,
                    orientation,
                };
                match self.id_or_insert(walls.with(wall)) {
                    Some(id) => children[self.slot_map.slot(wall)] = id,
                    None => return children,
                }
            }
        }
        children
    }
}

impl ConfigTables for OnDemand {
    fn board(&self) -> Board {
        self.board
    }

    fn walls_per_player(&self) -> u8 {
        self.walls_per_player
    }

    fn slot_map(&self) -> &SlotMap {
        &self.slot_map
    }

    fn configurations(&self) -> u128 {
        self.configurations
    }

    #[inline]
    fn walls(&self, id: ConfigId) -> WallSet {
        self.pair(id / 2).walls[id as usize % 2]
    }

    #[inline]
    fn distance(&self, id: ConfigId, player: Player, cell: Cell) -> u8 {
        let cell = if id.is_multiple_of(2) {
            cell
        } else {
            self.mirror_cell[cell as usize]
        };
        self.pair(id / 2).distances[player.index() * self.board.cells() + cell as usize]
    }

    /// (Not on the search's path: read from the distances.)
    fn reach(&self, id: ConfigId, player: Player) -> crate::bitboard::Cells {
        (0..self.board.cells() as Cell)
            .filter(|&c| self.distance(id, player, c) != UNREACHABLE)
            .fold(0, |set: crate::bitboard::Cells, c| set | 1 << c)
    }

    #[inline]
    fn children(&self, id: ConfigId) -> &[ConfigId] {
        let pair = self.pair(id / 2);
        let side = id as usize % 2;
        pair.children[side].get_or_init(|| self.make_children(pair.walls[side]))
    }

    #[inline]
    fn mirror(&self, id: ConfigId) -> ConfigId {
        let pair = self.pair(id / 2);
        if pair.walls[0] == pair.walls[1] {
            id
        } else {
            id ^ 1
        }
    }

    fn id_of(&self, walls: WallSet) -> Option<ConfigId> {
        // Adding the walls one by one finds any pair that clashes (clashing is symmetric).
        let board = self.board;
        let valid = walls.iter().try_fold(WallSet::EMPTY, |set, w| {
            (board.anchors() >> w.anchor & 1 == 1 && set.clash(board, w).is_none())
                .then(|| set.with(w))
        });
        if valid.is_some() && walls.len() <= 2 * self.walls_per_player as u32 {
            self.id_or_insert(walls)
        } else {
            None
        }
    }

    fn exhausted(&self) -> bool {
        self.exhausted.load(Ordering::Acquire)
    }
}
