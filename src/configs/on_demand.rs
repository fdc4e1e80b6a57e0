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
//! The index from wall set to pair (`index.rs`) holds pair numbers with, for configurations
//! of at most 8 walls, the wall set packed in a word, so that a lookup compares keys in the
//! index itself (reading the record for it was a cache miss); larger wall sets are compared
//! through the records. A pair is made under its index shard's lock, never twice. A
//! configuration's children are named first and their index slots prefetched, then looked
//! up. Records live in an arena of fixed chunks: a record never moves, so `children` can hand out a slice while
//! other threads add records. The distances live in an arena of their own, chunk for chunk,
//! `2 * cells` bytes a pair: reading one is one memory access, not two (the record, then a
//! boxed slice), and a pair costs 32 bytes less. The children's lists live in a third
//! arena, a record holding its list's number: a list boxed on its own cost 40 bytes more a
//! pair, and the C allocator kept the lists freed by `forget` in the arenas of the threads
//! that had made them, while other threads took new memory for theirs (6x6 with 5 walls
//! reached 20.55 GiB resident at a budget of 20 after emptying its store 17 times).
//!
//! Every byte is counted against the budget given at the start, as it is resident: the
//! index and the chunk tables at once (the index's slots are written at random, so its
//! pages are soon all resident), each arena's chunk when it is made (a chunk is written
//! whole). When the next chunk would not fit, the store marks itself `exhausted` and answers
//! `NO_CHILD` from then on; the search checks the mark where it checks its deadline and
//! stops, storing nothing. (Counting each record and list as it was made, and the index a
//! pair's share at a time, left out what the chunks and the index held beyond them, and
//! what `forget` kept: 6x6 with 4 walls at `--memory 1G` reached 1.04 GiB resident.)
//!
//! Where the cell's wall sets can be numbered within a key's bits (`SetNumbers`: 9x9 with up
//! to 3 walls each, 11x11 too, 7x5 with up to 10), the transposition table knows a
//! configuration by that number, not its id: then `forget` may empty the store between two
//! tries of an iteration, and what the table learnt before stays true.

use super::index::{self, Index};
use super::set_numbers::SetNumbers;
use super::{ConfigTables, KEY_NUMBER_BITS, NO_CHILD, NO_MEMO, SlotMap};
use crate::configs::ConfigId;
use crate::rules::bitboard::{UNREACHABLE, bits};
use crate::rules::geometry::{Board, MAX_SQUARES, Player, Square};
use crate::rules::walls::{Orientation, Wall, WallSet};
use crate::support::memory;
use crate::support::own_line::OwnLine;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, Ordering};

/// Most pairs per arena chunk: chunks of megabytes (6.8 MB of records and 10.6 MB of
/// distances on 9x9), most of which the kernel backs with 2 MiB pages when asked
/// (`memory::huge_slice_with`): with 4 KiB pages, nearly every read of a record at random
/// also missed the TLB.
const MOST_CHUNK_BITS: u32 = 16;
/// Most lists of children per arena chunk: a few MB (1.6 MB on 6x6, 4 MiB on 9x9).
const MOST_LIST_CHUNK_BITS: u32 = 13;
/// A chunk takes at most this share of the budget (a small budget has small chunks), so
/// that the chunks partly used cost little of it.
const CHUNKS_IN_BUDGET: u64 = 64;

/// The bits of a chunk's place numbers: the most, or fewer so that a chunk of
/// `bytes_per_item` items takes at most `budget / CHUNKS_IN_BUDGET` (at least 16 items).
fn chunk_bits(most: u32, budget: u64, bytes_per_item: u64) -> u32 {
    let items = (budget / CHUNKS_IN_BUDGET / bytes_per_item.max(1)).max(16);
    (63 - items.leading_zeros()).min(most)
}

/// What names a configuration in the index: its pair's wall sets (the smaller first), which
/// of them it is, and the first's hash and packed word (`OnDemand::packed`).
struct Name {
    walls: [WallSet; 2],
    side: u32,
    hash: u64,
    packed: u64,
}

/// A configuration and its mirror image.
struct Pair {
    /// `[smaller wall set, its mirror image]` (equal when the configuration is symmetric).
    walls: [WallSet; 2],
    /// Their ranks (`SetNumbers`), when the store has them.
    ranks: [u64; 2],
    /// Each member's list of children (`OnDemand::list`) plus one, 0 until the search
    /// first expands it.
    children: [AtomicU32; 2],
    /// Each member's number in the numbering of an oracle (`ConfigTables::oracle_memo`),
    /// `NO_MEMO` until the oracle first asks.
    memo: [AtomicU32; 2],
}

type Chunk = Box<[OnceLock<Pair>]>;

/// The goal distances of a chunk's pairs: pair `i`'s (its first member's) at
/// `i * 2 * cells + player * cells + cell`. Written once, before the pair's record is
/// published (whose `OnceLock` orders the writes before any reader's loads), so relaxed
/// atomics suffice and read as plain bytes.
type DistanceChunk = Box<[AtomicU8]>;

/// Lists of children, `slots` ids each (`OnDemand::list`). A list is written by the thread
/// that made it, before its number is published in its record with a release store (which
/// readers acquire), and never after: so relaxed atomics suffice, and a published list
/// reads as plain ids.
type ListChunk = Box<[AtomicU32]>;

pub struct OnDemand {
    board: Board,
    walls_per_player: u8,
    slot_map: SlotMap,
    configurations: u128,
    /// The wall sets' key numbers, if they fit a key (else the ids are, and the store
    /// cannot `forget`).
    ranks: Option<SetNumbers>,
    /// Each cell's left-right mirror image.
    mirror_square: [Square; MAX_SQUARES],
    index: Index,
    /// Pairs per chunk of records (and of distances): `1 << pair_bits` (`chunk_bits`).
    pair_bits: u32,
    /// Lists per chunk of children's lists: `1 << list_bits`.
    list_bits: u32,
    chunks: Box<[OnceLock<Chunk>]>,
    distance_chunks: Box<[OnceLock<DistanceChunk>]>,
    list_chunks: Box<[OnceLock<ListChunk>]>,
    /// The next list of children to hand out.
    next_list: OwnLine<AtomicU32>,
    /// What a configuration without children (every wall placed), or one expanded once the
    /// budget is spent, answers: no child at any slot.
    no_children: Box<[ConfigId]>,
    /// The next pair to hand out and the bytes taken: added to by every new record, so
    /// each on lines of its own, away from the chunk tables every lookup reads.
    next_pair: OwnLine<AtomicU32>,
    budget: u64,
    /// Bytes taken before the first record: the arenas' chunk tables, and what the index
    /// takes beyond its share of each pair.
    fixed: u64,
    bytes: OwnLine<AtomicU64>,
    exhausted: AtomicBool,
}

/// A hash of a wall set: both orientations mixed (and, for cell sets wider than 64 bits,
/// both halves folded), then multiplied twice so that the top bits (the index's shard) and
/// the low ones (the place in the shard) both vary.
fn hash(walls: WallSet) -> u64 {
    let mixed = walls.horizontal ^ walls.vertical.rotate_left(29);
    // A no-op when `Squares` is a u64: the upper half is then empty.
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
        let pair_bits = chunk_bits(MOST_CHUNK_BITS, budget, OnDemand::record_bytes(board));
        let chunks = (most_pairs as usize >> pair_bits) + 1;
        let slot_map = SlotMap::new(board);
        let most_lists = (budget / OnDemand::list_bytes(&slot_map))
            .min(2 * most_pairs)
            .min(u32::MAX as u64 - 1);
        let list_bits = chunk_bits(
            MOST_LIST_CHUNK_BITS,
            budget,
            OnDemand::list_bytes(&slot_map),
        );
        let list_chunks = (most_lists as usize >> list_bits) + 1;
        let index = Index::new(most_pairs);
        let fixed = (chunks
            * (std::mem::size_of::<OnceLock<Chunk>>()
                + std::mem::size_of::<OnceLock<DistanceChunk>>())
            + list_chunks * std::mem::size_of::<OnceLock<ListChunk>>()) as u64
            + index.bytes();
        let mut mirror_square = [0; MAX_SQUARES];
        for c in 0..board.squares() as Square {
            mirror_square[c as usize] = board.mirror_square(c);
        }
        let slots = slot_map.len();
        let most_walls = 2 * walls_per_player as usize;
        let ranks = SetNumbers::new(board, &slot_map, most_walls, 1 << KEY_NUMBER_BITS);
        let fixed = fixed + ranks.as_ref().map_or(0, SetNumbers::bytes);
        OnDemand {
            board,
            walls_per_player,
            ranks,
            slot_map,
            configurations: estimate.configurations,
            mirror_square,
            index,
            pair_bits,
            list_bits,
            chunks: (0..chunks).map(|_| OnceLock::new()).collect(),
            distance_chunks: (0..chunks).map(|_| OnceLock::new()).collect(),
            list_chunks: (0..list_chunks).map(|_| OnceLock::new()).collect(),
            next_list: OwnLine(AtomicU32::new(0)),
            no_children: vec![NO_CHILD; slots].into_boxed_slice(),
            next_pair: OwnLine(AtomicU32::new(0)),
            budget,
            fixed,
            bytes: OwnLine(AtomicU64::new(fixed)),
            exhausted: AtomicBool::new(false),
        }
    }

    /// Whether `forget` can empty this store during a search.
    pub fn can_forget(&self) -> bool {
        self.ranks.is_some()
    }

    /// Bytes a pair costs before it has children: its arena slot, its distances and its
    /// index entry.
    pub fn pair_bytes(board: Board) -> u64 {
        OnDemand::record_bytes(board) + index::BYTES_PER_PAIR
    }

    /// Bytes a configuration's list of children takes once it is expanded.
    fn list_bytes(slot_map: &SlotMap) -> u64 {
        (slot_map.len() * std::mem::size_of::<ConfigId>()) as u64
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
            self.bytes.fetch_sub(bytes, Ordering::Relaxed);
            self.exhausted.store(true, Ordering::Release);
            return false;
        }
        true
    }

    /// Where pair `pair` lives in the arenas: its chunk and its place in the chunk.
    #[inline(always)]
    fn place(&self, pair: u32) -> (usize, usize) {
        let i = pair as usize;
        (i >> self.pair_bits, i & ((1 << self.pair_bits) - 1))
    }

    /// Where list `list` lives in its arena: its chunk and its place in the chunk.
    #[inline(always)]
    fn list_place(&self, list: u32) -> (usize, usize) {
        let i = list as usize;
        (i >> self.list_bits, i & ((1 << self.list_bits) - 1))
    }

    /// Bytes of a pair's record and distances in their chunks.
    fn record_bytes(board: Board) -> u64 {
        (std::mem::size_of::<OnceLock<Pair>>() + 2 * board.squares()) as u64
    }

    /// Bytes of a chunk of records with its chunk of distances.
    fn pair_chunk_bytes(&self) -> u64 {
        OnDemand::record_bytes(self.board) << self.pair_bits
    }

    /// Bytes of a chunk of lists of children.
    fn list_chunk_bytes(&self) -> u64 {
        OnDemand::list_bytes(&self.slot_map) << self.list_bits
    }

    /// The chunk in `cell`, made by `make` when it is new and its `bytes` fit the budget;
    /// `None` (the store exhausted) when they do not, or `cell` is past the chunk table.
    fn chunk<'a, C>(
        &self,
        cell: Option<&'a OnceLock<C>>,
        bytes: u64,
        make: impl FnOnce() -> C,
    ) -> Option<&'a C> {
        let Some(cell) = cell else {
            self.exhausted.store(true, Ordering::Release);
            return None;
        };
        if let Some(chunk) = cell.get() {
            return Some(chunk);
        }
        if !self.reserve(bytes) {
            return None;
        }
        let mut made = false;
        let chunk = cell.get_or_init(|| {
            made = true;
            make()
        });
        if !made {
            // Another thread made it meanwhile, and counted it.
            self.bytes.fetch_sub(bytes, Ordering::Relaxed);
        }
        Some(chunk)
    }

    #[inline(always)]
    fn pair(&self, pair: u32) -> &Pair {
        let (chunk, at) = self.place(pair);
        self.chunks[chunk]
            .get()
            .expect("ids are handed out with their records")[at]
            .get()
            .expect("ids are handed out with their records")
    }

    /// What names `walls` in the index.
    fn name(&self, walls: WallSet) -> Name {
        let mirror = walls.mirror(self.board);
        let first = walls.min(mirror);
        Name {
            walls: [first, walls.max(mirror)],
            side: (walls != first) as u32,
            hash: hash(first),
            packed: self.packed(first),
        }
    }

    /// The id of `walls` (a configuration of the cell), making its pair's record if it is
    /// new; `None` when the budget is spent.
    fn id_or_insert(&self, walls: WallSet) -> Option<ConfigId> {
        self.find_or_make(&self.name(walls))
    }

    /// The id of the configuration `name` names, making its pair's record if it is new;
    /// `None` when the budget is spent.
    fn find_or_make(&self, name: &Name) -> Option<ConfigId> {
        let same = |pair| self.pair(pair).walls[0] == name.walls[0];
        let vacant = match self.index.find(name.hash, name.packed, same) {
            Ok(pair) => return Some(2 * pair + name.side),
            Err(vacant) => vacant,
        };
        if vacant.full() {
            self.exhausted.store(true, Ordering::Release);
            return None;
        }
        let pair = self.next_pair.fetch_add(1, Ordering::Relaxed);
        if pair as u64 >= NO_CHILD as u64 / 2 {
            self.exhausted.store(true, Ordering::Release);
            return None;
        }
        let ranks = match &self.ranks {
            Some(r) => name.walls.map(|w| r.rank(&self.slot_map, w)),
            None => [0; 2],
        };
        self.put(pair, name.walls, ranks)?;
        let put = vacant.insert(pair);
        debug_assert!(put, "a shard that is not full takes a pair");
        Some(2 * pair + name.side)
    }

    /// `walls` as one word when it has at most 8 walls: each wall's slot plus one, a byte
    /// each, in `WallSet::iter`'s order (the same for equal sets, so equal words mean equal
    /// sets; no slot reaches 255, and a set's walls are nonzero bytes). 0 otherwise, and for
    /// the empty set, which the records then compare.
    fn packed(&self, walls: WallSet) -> u64 {
        const _: () = assert!(
            2 * crate::rules::geometry::MAX_ANCHORS < 255,
            "a slot + 1 fits a byte"
        );
        if walls.len() > 8 {
            return 0;
        }
        walls
            .iter()
            .fold(0, |word, w| word << 8 | (self.slot_map.slot(w) as u64 + 1))
    }

    /// Makes the record of pair `pair`; `None` when its chunk does not fit the budget.
    fn put(&self, pair: u32, walls: [WallSet; 2], ranks: [u64; 2]) -> Option<()> {
        let board = self.board;
        let cells = board.squares();
        let edges = walls[0].edges(board);
        let (chunk, at) = self.place(pair);
        // The records' chunk counts its distances' chunk too: they are made and freed
        // together.
        let records = self.chunk(self.chunks.get(chunk), self.pair_chunk_bytes(), || {
            memory::huge_slice_with(1 << self.pair_bits, OnceLock::new)
        })?;
        let distances = self.distance_chunks[chunk].get_or_init(|| {
            memory::huge_slice_with((2 * cells) << self.pair_bits, || AtomicU8::new(0))
        });
        let mine = &distances[at * 2 * cells..][..2 * cells];
        for p in [Player::One, Player::Two] {
            let d = edges.distances(board.goal(p));
            for (slot, &d) in mine[p.index() * cells..][..cells].iter().zip(&d[..cells]) {
                slot.store(d, Ordering::Relaxed);
            }
        }
        let fresh = records[at].set(Pair {
            walls,
            ranks,
            children: [AtomicU32::new(0), AtomicU32::new(0)],
            memo: [NO_MEMO, NO_MEMO].map(AtomicU32::new),
        });
        debug_assert!(fresh.is_ok(), "a pair number is handed out once");
        Some(())
    }

    /// List `list` of children (made by `make_children`).
    #[inline(always)]
    fn list(&self, list: u32) -> &[ConfigId] {
        let n = self.slot_map.len();
        let (chunk, at) = self.list_place(list);
        let lists = self.list_chunks[chunk]
            .get()
            .expect("a list is handed out with its chunk");
        let ids = &lists[at * n..][..n];
        // SAFETY: `AtomicU32` has the size and alignment of `ConfigId` (a u32), and a list
        // is read this way only once published (`ListChunk`): no write races these reads.
        unsafe { &*(ids as *const [AtomicU32] as *const [ConfigId]) }
    }

    /// A new list of the child ids of `walls`, making the children's records as needed
    /// (`NO_CHILD` from the first child the budget has no room for). The children are
    /// named first and their index slots prefetched, so that the lookups' cache misses
    /// overlap. `None` when no wall can be added, or the budget has no room for a list.
    fn make_children(&self, walls: WallSet) -> Option<u32> {
        if walls.len() >= 2 * self.walls_per_player as u32 || self.exhausted() {
            return None;
        }
        let list = self.next_list.fetch_add(1, Ordering::Relaxed);
        let n = self.slot_map.len();
        let (chunk, at) = self.list_place(list);
        let lists = self.chunk(self.list_chunks.get(chunk), self.list_chunk_bytes(), || {
            memory::huge_slice_with(n << self.list_bits, || AtomicU32::new(NO_CHILD))
        })?;
        let ids = &lists[at * n..][..n];
        // A list made before the store was last emptied may be here.
        ids.iter()
            .for_each(|id| id.store(NO_CHILD, Ordering::Relaxed));
        let mut named = Vec::with_capacity(n);
        for orientation in [Orientation::Horizontal, Orientation::Vertical] {
            for anchor in bits(walls.free(self.board, orientation)) {
                let wall = Wall {
                    anchor,
                    orientation,
                };
                let name = self.name(walls.with(wall));
                self.index.prefetch(name.hash);
                named.push((self.slot_map.slot(wall), name));
            }
        }
        for (slot, name) in &named {
            match self.find_or_make(name) {
                Some(id) => ids[*slot].store(id, Ordering::Relaxed),
                None => break,
            }
        }
        Some(list)
    }
}

impl ConfigTables for OnDemand {
    const PREFETCHES: bool = true;

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
    fn distance(&self, id: ConfigId, player: Player, cell: Square) -> u8 {
        let cell = if id.is_multiple_of(2) {
            cell
        } else {
            self.mirror_square[cell as usize]
        };
        let (chunk, at) = self.place(id / 2);
        let cells = self.board.squares();
        let distances = self.distance_chunks[chunk]
            .get()
            .expect("ids are handed out with their records");
        distances[at * 2 * cells + player.index() * cells + cell as usize].load(Ordering::Relaxed)
    }

    #[inline(always)]
    fn prefetch_distances(&self, id: ConfigId, cells: [Square; 2]) {
        if id == NO_CHILD {
            return;
        }
        let (chunk, at) = self.place(id / 2);
        let n = self.board.squares();
        if let Some(distances) = self.distance_chunks[chunk].get() {
            let mirrored = |c: Square| {
                if id.is_multiple_of(2) {
                    c as usize
                } else {
                    self.mirror_square[c as usize] as usize
                }
            };
            memory::prefetch(&distances[at * 2 * n + mirrored(cells[0])]);
            memory::prefetch(&distances[at * 2 * n + n + mirrored(cells[1])]);
        }
    }

    #[inline(always)]
    fn prefetch_key(&self, id: ConfigId) {
        if id == NO_CHILD {
            return;
        }
        let (chunk, at) = self.place(id / 2);
        if let Some(records) = self.chunks[chunk].get() {
            memory::prefetch(&records[at]);
        }
    }

    /// (Not on the search's path: read from the distances.)
    fn reach(&self, id: ConfigId, player: Player) -> crate::rules::bitboard::Squares {
        (0..self.board.squares() as Square)
            .filter(|&c| self.distance(id, player, c) != UNREACHABLE)
            .fold(0, |set: crate::rules::bitboard::Squares, c| set | 1 << c)
    }

    #[inline]
    fn children(&self, id: ConfigId) -> &[ConfigId] {
        let pair = self.pair(id / 2);
        let side = id as usize % 2;
        let made = pair.children[side].load(Ordering::Acquire);
        if made != 0 {
            return self.list(made - 1);
        }
        let Some(list) = self.make_children(pair.walls[side]) else {
            return &self.no_children;
        };
        // Two threads may expand one configuration at once: the first list published is
        // the configuration's, the other is left unused (the children are the same).
        match pair.children[side].compare_exchange(0, list + 1, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => self.list(list),
            Err(first) => self.list(first - 1),
        }
    }

    /// From the children if the configuration was expanded, else that child alone: a
    /// search that plays the table's move and is done with the node (most nodes once a
    /// full store was emptied and an iteration is tried again) makes one child, not all.
    #[inline]
    fn child(&self, id: ConfigId, slot: usize) -> ConfigId {
        let pair = self.pair(id / 2);
        let side = id as usize % 2;
        let made = pair.children[side].load(Ordering::Acquire);
        if made != 0 {
            let child = self.list(made - 1).get(slot).copied().unwrap_or(NO_CHILD);
            // A list made as the store filled lacks children that may have been made one
            // at a time before (and handed out): those are looked up below, so that a
            // child once given is given again (the search plays the move it checked).
            if child != NO_CHILD || !self.exhausted() {
                return child;
            }
        }
        let walls = pair.walls[side];
        if slot >= self.slot_map.len() || walls.len() >= 2 * self.walls_per_player as u32 {
            return NO_CHILD;
        }
        // The test `make_children` makes for every slot.
        let wall = self.slot_map.wall(slot);
        if walls.free(self.board, wall.orientation) >> wall.anchor & 1 == 0 {
            return NO_CHILD;
        }
        self.id_or_insert(walls.with(wall)).unwrap_or(NO_CHILD)
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

    #[inline(always)]
    fn key_numbers(&self, id: ConfigId) -> [u64; 2] {
        if self.ranks.is_none() {
            return [id as u64, self.mirror(id) as u64];
        }
        let [a, b] = self.pair(id / 2).ranks;
        if id.is_multiple_of(2) { [a, b] } else { [b, a] }
    }

    fn key_numbering(&self) -> Option<&'static str> {
        self.ranks.as_ref().map(SetNumbers::name)
    }

    #[inline(always)]
    fn oracle_memo(&self, id: ConfigId) -> Option<&AtomicU32> {
        Some(&self.pair(id / 2).memo[id as usize % 2])
    }

    fn forget(&mut self) -> bool {
        if !self.can_forget() {
            return false;
        }
        // Each arena keeps the chunks the last fill used, emptied, and frees the others
        // (which earlier fills used), so that the next fill finds most of its chunks
        // made, without the page faults of making them again. A chunk is a mapping of
        // its own, given back to the system when freed (`memory::return_freed_buffers`;
        // without it, glibc once served such blocks from its heap, and 9x9 with 3 walls
        // fragmented to 24.3 GB at a budget of 20). The index is emptied in place.
        self.index.clear();
        let pairs_used = (*self.next_pair.get_mut() as usize).div_ceil(1 << self.pair_bits);
        let lists_used = (*self.next_list.get_mut() as usize).div_ceil(1 << self.list_bits);
        for (i, (records, distances)) in self
            .chunks
            .iter_mut()
            .zip(self.distance_chunks.iter_mut())
            .enumerate()
        {
            if i >= pairs_used {
                drop(records.take());
                drop(distances.take());
            } else if let Some(records) = records.get_mut() {
                records.iter_mut().for_each(|r| {
                    r.take();
                });
            }
        }
        self.list_chunks
            .iter_mut()
            .skip(lists_used)
            .for_each(|c| drop(c.take()));
        let pair_chunks = self.chunks.iter().filter(|c| c.get().is_some()).count() as u64;
        let list_chunks = self
            .list_chunks
            .iter()
            .filter(|c| c.get().is_some())
            .count() as u64;
        let kept_bytes =
            pair_chunks * self.pair_chunk_bytes() + list_chunks * self.list_chunk_bytes();
        *self.next_pair.get_mut() = 0;
        *self.next_list.get_mut() = 0;
        *self.bytes.get_mut() = self.fixed + kept_bytes;
        *self.exhausted.get_mut() = false;
        true
    }
}
