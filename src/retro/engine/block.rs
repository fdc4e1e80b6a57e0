//! One block: the positions of one configuration with one split of walls left, every pawn
//! placement and both sides to move. Pawn moves stay inside the block; wall moves leave it
//! for the layer with one more wall, which is already solved. The steps, in order:
//!
//! 1. `scan_exits`: for every position, the best value its wall moves reach (the smallest
//!    code among them, see `code.rs`).
//! 2. Positions that are over get their value (level 0).
//! 3. Remoteness by remoteness, smallest first, so each value is exact: a win is fixed by
//!    its quickest winning move, a loss by its last refuted move (`levels.rs`, a row of
//!    positions at a time).
//! 4. Whatever is still undecided is a draw (`UNDECIDED` is the draw's code already);
//!    count outcomes.
//!
//! The block is solved whole, both sides to move, into the local slots of `Scratch::values`
//! (see `layout.rs`); `layer.rs` stores what it needs of them.

use super::board::narrow;
use super::code::{Code, NO_EXIT, UNDECIDED};
use super::layout::{LOCAL_LEN, Layout, View};
use super::levels::{self, Levels, Pawns};
use super::pawn_graph::PawnGraph;
use super::source::Child;
use super::store::Packing;
use super::symmetry::TURN;
use super::value::RetroStats;
use crate::rules::bitboard::bits;
use crate::rules::geometry::{Board, MAX_SQUARES, Player};

pub use super::code::TooDeep;

/// What one block is and what it reads.
pub struct Block<'a> {
    pub board: Board,
    pub layout: &'a Layout,
    /// Walls on the board.
    pub layer: usize,
    /// Squares from which each player reaches their goal row, by `Player::index`.
    pub reach: [u64; 2],
    /// The configurations one wall further (`ConfigSource::children`).
    pub children: &'a [Child],
    /// Walls left, by `Player::index`.
    pub left: [u8; 2],
    pub graph: &'a PawnGraph,
    /// The stores of the solved layer `layer + 1` by split (`None` for the last layer),
    /// packed as the analysis packs them (`store.rs`); the splits this block reads are
    /// there (`layout::splits_below`), others may be freed.
    pub below: Option<&'a [Option<Vec<u8>>]>,
    /// Whether the best exit of every position is in `Scratch::exits` already, pushed by
    /// the layer below (`layer::push_pair`): then `below` is not read.
    pub exits_given: bool,
}

/// Per-thread working memory, reused from block to block.
pub struct Scratch {
    /// The block's values, by local slot (both sides to move).
    pub values: Vec<Code>,
    /// The best wall move of each position: the smallest code its wall moves reach.
    exits: Vec<Code>,
    /// The rows of positions the levels are decided in (`levels.rs`).
    levels: Levels,
    /// A child block of 2-bit outcomes decoded into codes (`scan_exits`).
    decoded: Vec<Code>,
    /// The accumulators of `scan_exits`, one local side (`1 << 12` slots) per cell map.
    mapped: Vec<Code>,
    /// The views of the block's children for one side (`scan_exits`).
    views: Vec<View>,
}

impl Scratch {
    pub fn new() -> Scratch {
        // Slots go in `u16` entries (`Levels::due`): a block has 2 * 64 * 64 local slots
        // (boards of at most `retro::MAX_SQUARES` cells).
        const _: () = assert!(LOCAL_LEN <= 1 << 16);
        Scratch {
            values: vec![UNDECIDED; LOCAL_LEN],
            exits: vec![NO_EXIT; LOCAL_LEN],
            levels: Levels::new(),
            decoded: vec![UNDECIDED; MAX_SQUARES * MAX_SQUARES],
            mapped: vec![NO_EXIT; 4 << 12],
            views: Vec::new(),
        }
    }

    /// The best exit of each position, by local slot (`Block::exits_given`).
    pub fn exits_mut(&mut self) -> &mut [Code] {
        &mut self.exits
    }
}

/// Solves the block into `scratch.values` and counts its outcomes. With the `Compact`
/// packing the layer below has outcomes only, so the values' outcomes are exact and their
/// remoteness is not (`store.rs`).
pub fn solve<P: Packing>(block: &Block, scratch: &mut Scratch) -> Result<RetroStats, TooDeep> {
    let Scratch {
        values,
        exits,
        levels,
        decoded,
        mapped,
        views,
    } = scratch;
    for used in block.layout.local_used() {
        values[used].fill(UNDECIDED);
    }
    if !block.exits_given {
        scan_exits::<P>(block, exits, decoded, mapped, views);
    }
    levels::solve(&block.pawns(), exits, values, levels)
}

impl Block<'_> {
    fn board(&self) -> Board {
        self.board
    }

    /// Squares each pawn may stand on: those from which it reaches its goal row.
    pub fn live(&self) -> [u64; 2] {
        self.reach
    }

    /// What the levels read of the block (`levels.rs`).
    pub fn pawns(&self) -> Pawns<'_> {
        Pawns {
            layout: self.layout,
            graph: self.graph,
            live: self.live(),
            goals: [Player::One, Player::Two].map(|p| narrow(self.board().goal(p))),
            width: self.board.width(),
        }
    }
}

/// A byte a bit of `set` (boards of at most 64 cells): `NO_EXIT` (all ones) where the bit
/// is set, 0 where it is not; eight bytes at a time from `BYTE_MASKS` (a byte a cell took
/// 2 % of 5x5 w3's instructions).
#[inline(always)]
fn byte_mask(set: u64) -> [Code; 64] {
    let mut out = [0; 64];
    for (i, chunk) in out.chunks_exact_mut(8).enumerate() {
        let byte = (set >> (8 * i)) & 0xff;
        chunk.copy_from_slice(&BYTE_MASKS[byte as usize].to_le_bytes());
    }
    out
}

/// `BYTE_MASKS[b]`: byte k is 0xff where bit k of `b` is set, else 0.
static BYTE_MASKS: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            if b >> k & 1 == 1 {
                table[b] |= 0xff << (8 * k);
            }
            k += 1;
        }
        b += 1;
    }
    table
};

/// Step 1. `exits[slot]` = the smallest code among the wall moves of the position
/// (`NO_EXIT` if it has none). A wall is legal iff it fits (a child configuration exists),
/// the mover has a wall left, and both pawns still reach their goals in the child. Slots
/// that are not positions, or are over, get values nobody reads.
///
/// A child's stored block is read through one of four cell maps (`layout.rs`: mirrored,
/// turned half a turn, both, or neither), and read through the map it is a gather, a
/// position at a time (a quarter of 4x7 w5's time went there). So each child is folded
/// instead, a stored row at a time, into an accumulator of its own map, laid out as the
/// stored block is (`min_row`, sixteen codes an instruction); each accumulator is mapped
/// back into `exits` once a block, whatever the number of children that used it. The
/// identity's accumulator is `exits` itself. (`scan_exits_by_offsets`, in the tests, is the
/// gather this replaces: the tests compare the two on every block of small boards.)
fn scan_exits<P: Packing>(
    block: &Block,
    exits: &mut [Code],
    decoded: &mut [Code],
    mapped: &mut [Code],
    views: &mut Vec<View>,
) {
    for used in block.layout.local_used() {
        exits[used].fill(NO_EXIT);
    }
    let Some(below) = block.below else {
        return; // the last layer: no wall fits any more
    };
    let layout = block.layout;
    let (cells, width, open) = (layout.squares(), layout.width(), layout.open());
    let board_cells = if cells == 64 {
        u64::MAX
    } else {
        (1 << cells) - 1
    };
    // Positions that are over have no moves.
    let open1 = block.live()[0] & !narrow(block.board().goal(Player::One));
    // The children are scattered through the layer below: their indices are asked for
    // all at once, then their stored blocks a few ahead (`AHEAD`), so that the misses
    // overlap (each one waited for in turn, they were half of this step's time).
    for child in block.children {
        layout.prefetch_view(child.id);
    }
    let block_bytes = layout.stored_len() / P::PER_BYTE;
    for side in [Player::One, Player::Two] {
        if block.left[side.index()] == 0 {
            continue;
        }
        let left1 = block.left[0] - u8::from(side == Player::One);
        views.clear();
        views.extend(
            (block.children.iter())
                .map(|c| layout.view(block.layer + 1, c.id, left1, side.other())),
        );
        let prefetch_block = |view: &View| {
            if let Some(store) = below[view.split].as_deref() {
                let first = view.start / P::PER_BYTE;
                crate::support::memory::prefetch_all(&store[first..first + block_bytes]);
            }
        };
        views.iter().take(AHEAD).for_each(prefetch_block);
        let side_exits = &mut exits[side.index() << 12..][..1 << 12];
        let mut used = 0usize; // bit m: accumulator m holds a child
        for (i, (child, &view)) in block.children.iter().zip(views.iter()).enumerate() {
            if let Some(ahead) = views.get(i + AHEAD) {
                prefetch_block(ahead);
            }
            let below = below[view.split]
                .as_deref()
                .expect("a split below is kept until its pair is solved");
            let child_values: &[Code] = if P::EXACT {
                &below[view.start..view.start + layout.stored_len()]
            } else {
                // Decoded once: its rows are read in the order stored.
                let out = &mut decoded[..layout.stored_len()];
                P::decode(below, view.start, out);
                out
            };
            let m = layout.map_index(view);
            let map = layout.map(m);
            let [reach1, reach2] = child.reach;
            // The stored rows are Player 1's cells, or Player 2's under the half turn (the
            // pawns swap roles); a wall that cuts the other pawn off is no move (`NO_EXIT`).
            let (rows, cut) = if m & TURN != 0 {
                (map_set(map, reach2 & board_cells), !reach1)
            } else {
                (map_set(map, open1 & reach1), !reach2)
            };
            let cut = byte_mask(map_set(map, cut & board_cells));
            let acc: &mut [Code] = if m == 0 {
                side_exits
            } else {
                let acc = &mut mapped[m << 12..][..1 << 12];
                if used >> m & 1 == 0 {
                    acc[..open << 6].fill(NO_EXIT);
                }
                acc
            };
            used |= 1 << m;
            for a in bits(rows) {
                let a = a as usize;
                if a >= open {
                    continue; // a row of positions that are over
                }
                let row = &mut acc[a << 6 | width..][..open];
                min_row(row, &child_values[a * open..][..open], &cut[width..cells]);
            }
        }
        for m in bits(used as u64 & !1) {
            let m = m as usize;
            let (map, turned) = (layout.map(m), m & TURN != 0);
            let acc = &mapped[m << 12..][..1 << 12];
            for p1 in bits(open1) {
                let row = &mut side_exits[(p1 as usize) << 6..][..cells];
                let m1 = map[p1 as usize] as usize;
                for (p2, e) in row.iter_mut().enumerate().skip(width) {
                    let m2 = map[p2] as usize;
                    let (a, b) = if turned { (m2, m1) } else { (m1, m2) };
                    *e = (*e).min(acc[a << 6 | b]);
                }
            }
        }
    }
}

/// How many children's blocks ahead of the one read are being loaded. All of a side's
/// children at once (up to 32 blocks of 9 lines on 3x9) asked for more lines than the
/// core loads at a time; four ahead took 3x9 w5 exact from 10.97 to 10.50 s, 5x5 w4 from
/// 3.68 to 3.59 s (3 runs each, interleaved, 2026-11-30); two ahead 10.79 s, eight 10.62 s.
const AHEAD: usize = 4;

/// The image of a set of cells under a cell map.
#[inline(always)]
fn map_set(map: &[crate::rules::geometry::Square; MAX_SQUARES], set: u64) -> u64 {
    bits(set).fold(0, |image, x| image | 1 << map[x as usize])
}

/// `row[i] = min(row[i], from[i] | cut[i])`, sixteen codes at a time: rows of at least
/// sixteen go by windows of sixteen, the last one ending at the row's end (it may overlap
/// the one before: a `min` taken twice is the same `min`).
#[inline(always)]
fn min_row(row: &mut [Code], from: &[Code], cut: &[Code]) {
    const LANES: usize = 16;
    let n = row.len();
    let (from, cut) = (&from[..n], &cut[..n]);
    if n < LANES {
        for ((e, &c), &k) in row.iter_mut().zip(from).zip(cut) {
            *e = (*e).min(c | k);
        }
        return;
    }
    let mut at = 0;
    loop {
        let start = at.min(n - LANES);
        min_window(
            &mut row[start..start + LANES],
            &from[start..],
            &cut[start..],
        );
        if start == n - LANES {
            break;
        }
        at += LANES;
    }
}

/// `min_row` on one window of sixteen codes, in one SSE2 instruction each (every x86-64
/// has SSE2; the compiler made sixteen compares and moves of the loop it replaces).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn min_window(row: &mut [Code], from: &[Code], cut: &[Code]) {
    use std::arch::x86_64::{
        __m128i, _mm_loadu_si128, _mm_min_epu8, _mm_or_si128, _mm_storeu_si128,
    };
    assert!(row.len() >= 16 && from.len() >= 16 && cut.len() >= 16);
    // SAFETY: the three slices hold at least 16 bytes each (asserted), which is all that
    // the unaligned loads and the store touch; SSE2 is part of x86-64.
    unsafe {
        let e = _mm_loadu_si128(row.as_ptr() as *const __m128i);
        let c = _mm_loadu_si128(from.as_ptr() as *const __m128i);
        let k = _mm_loadu_si128(cut.as_ptr() as *const __m128i);
        _mm_storeu_si128(
            row.as_mut_ptr() as *mut __m128i,
            _mm_min_epu8(e, _mm_or_si128(c, k)),
        );
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn min_window(row: &mut [Code], from: &[Code], cut: &[Code]) {
    for ((e, &c), &k) in row[..16].iter_mut().zip(from).zip(cut) {
        *e = (*e).min(c | k);
    }
}

/// The twin of `scan_exits` in the tests: the same exits, read through `Layout::offsets`
/// a position at a time. `exits[slot]` = the smallest code among the wall moves of the position
/// (`NO_EXIT` if it has none). A wall is legal iff it fits (a child configuration exists),
/// the mover has a wall left, and both pawns still reach their goals in the child. Loops run
/// per wall, side and row of Player 1's cell, so that a row of `exits` is a run of slots
/// (a `min` the compiler vectorises when the child block is read straight). Slots that are
/// not positions, or are over, get values nobody reads.
#[cfg(test)]
fn scan_exits_by_offsets<P: Packing>(block: &Block, exits: &mut [Code], decoded: &mut [Code]) {
    for used in block.layout.local_used() {
        exits[used].fill(NO_EXIT);
    }
    let Some(below) = block.below else {
        return; // the last layer: no wall fits any more
    };
    let layout = block.layout;
    let cells = layout.squares();
    // Positions that are over have no moves.
    let open1 = block.live()[0] & !narrow(block.board().goal(Player::One));
    for side in [Player::One, Player::Two] {
        if block.left[side.index()] == 0 {
            continue;
        }
        let left1 = block.left[0] - u8::from(side == Player::One);
        for child in block.children {
            let view = layout.view(block.layer + 1, child.id, left1, side.other());
            let below = below[view.split]
                .as_deref()
                .expect("a split below is kept until its pair is solved");
            let child_values: &[Code] = if P::EXACT {
                &below[view.start..view.start + layout.stored_len()]
            } else {
                // Decoded once: the rows below read it many times, mostly out of order.
                let out = &mut decoded[..layout.stored_len()];
                P::decode(below, view.start, out);
                out
            };
            // Player 2 must still reach the goal: other cells get `NO_EXIT` (no change).
            let cut = byte_mask(!child.reach[Player::Two.index()]);
            let cut = &cut[..cells];
            let offsets = layout.offsets(view);
            let (open, width) = (layout.open(), layout.width());
            for p1 in bits(open1 & child.reach[Player::One.index()]) {
                let row = &mut exits[layout.index(side, p1, 0)..][..cells];
                match offsets {
                    None => {
                        // The stored row holds Player 2's cells off row 0 (`layout.rs`).
                        let from = &child_values[p1 as usize * open..][..open];
                        for ((e, &c), &m) in row[width..].iter_mut().zip(from).zip(&cut[width..]) {
                            *e = (*e).min(c | m);
                        }
                    }
                    Some(offsets) => {
                        let from = &offsets[p1 as usize * cells..][..cells];
                        for ((e, &o), &m) in row.iter_mut().zip(from).zip(cut) {
                            *e = (*e).min(child_values[o as usize] | m);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configs::{ConfigId, Tables};
    use crate::retro::engine::buckets;
    use crate::retro::engine::code::{LOSS_NOW, WIN_IN_ONE};
    use crate::support::progress::Silent;

    /// A small generator of pseudo-random numbers (xorshift), so that the test needs no
    /// crate and is the same on every run.
    struct Xorshift(u64);

    impl Xorshift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// Best wall moves of every kind: none, a draw, quick and slow wins and losses (codes
    /// of both ends, so that they land before, among and after the pawn moves' levels).
    fn some_exit(rng: &mut Xorshift, kind: u64) -> Code {
        let n = rng.next();
        match (n >> 8) % kind.max(1) {
            0 => NO_EXIT,
            1 => UNDECIDED,
            2 => LOSS_NOW + (n % 40) as Code,
            3 => WIN_IN_ONE - (n % 40) as Code,
            // Up to a win in 201 plies and a loss in 200, so that the pawn moves after them
            // stay within `code::MAX_REMOTENESS` (past it both refuse the block alike).
            4 => (n % 100) as Code,
            _ => 155 + (n % 100) as Code,
        }
    }

    #[test]
    fn byte_masks_have_a_byte_a_bit() {
        let mut rng = Xorshift(0x2545_f491_4f6c_dd1d);
        for set in [0, u64::MAX, 1, 1 << 63, 0x8000_0000_0000_0001]
            .into_iter()
            .chain((0..1000).map(|_| rng.next()))
        {
            let mask = byte_mask(set);
            for (i, &b) in mask.iter().enumerate() {
                assert_eq!(
                    b,
                    if set >> i & 1 == 1 { NO_EXIT } else { 0 },
                    "{set:#x} {i}"
                );
            }
        }
    }

    /// `scan_exits` (each child folded a row at a time into its map's accumulator) equals
    /// its twin read through the offsets a position at a time, on every slot the levels
    /// read, on every block (configuration, split, both sides) of several small boards,
    /// with the layer below filled at random, at both packings.
    #[test]
    fn exits_by_rows_equal_exits_by_offsets() {
        fn compare<P: Packing>(rng: &mut Xorshift) -> usize {
            let mut blocks = 0;
            for (w, h, n) in [
                (3, 3, 2),
                (4, 3, 2),
                (3, 4, 2),
                (4, 4, 1),
                (2, 5, 2),
                // Rows of 16 and 20 cells off a goal row: the windows of `min_row`.
                (4, 5, 1),
                (5, 5, 2),
                (6, 4, 1),
            ] {
                let board = Board::new(w, h).unwrap();
                let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
                let layout = Layout::new(&tables);
                let source: &dyn crate::retro::engine::source::ConfigSource = &tables;
                let graph = PawnGraph::new(board);
                let mut scratch = Scratch::new();
                let mut twin = vec![NO_EXIT; LOCAL_LEN];
                let mut children = Vec::new();
                for k in 0..layout.layers() - 1 {
                    let below: Vec<Option<Vec<u8>>> = (0..layout.splits(k + 1))
                        .map(|_| {
                            let slots = layout.split_len(k + 1);
                            let mut bytes = vec![P::EMPTY; slots.div_ceil(P::PER_BYTE)];
                            for slot in 0..slots {
                                P::write(&mut bytes, slot, some_exit(rng, 6));
                            }
                            Some(bytes)
                        })
                        .collect();
                    for &config in layout.stored(k) {
                        let walls = source.walls(config);
                        let reach = source.reach(config, walls);
                        children.clear();
                        source.children(config, walls, &mut children);
                        for j in 0..layout.splits(k) {
                            let block = Block {
                                board,
                                layout: &layout,
                                layer: k,
                                reach,
                                children: &children,
                                left: layout.split_left(k, j),
                                graph: &graph,
                                below: Some(&below),
                                exits_given: false,
                            };
                            let Scratch {
                                exits,
                                decoded,
                                mapped,
                                views,
                                ..
                            } = &mut scratch;
                            scan_exits::<P>(&block, exits, decoded, mapped, views);
                            scan_exits_by_offsets::<P>(&block, &mut twin, decoded);
                            let open1 = reach[0] & !narrow(board.goal(Player::One));
                            let open2 = reach[1] & !narrow(board.goal(Player::Two));
                            for side in [Player::One, Player::Two] {
                                for p1 in bits(open1) {
                                    for p2 in bits(open2 & !(1 << p1)) {
                                        let i = layout.index(side, p1, p2);
                                        assert_eq!(
                                            exits[i], twin[i],
                                            "{board} n {n} config {config} split {j} {side:?} {p1} {p2}"
                                        );
                                    }
                                }
                            }
                            blocks += 1;
                        }
                    }
                }
            }
            blocks
        }
        let mut rng = Xorshift(0x1234_5678_9abc_def1);
        let exact = compare::<crate::retro::engine::store::Exact>(&mut rng);
        let compact = compare::<crate::retro::engine::store::Compact>(&mut rng);
        assert!(exact > 5000 && compact == exact, "{exact} {compact} blocks");
    }

    /// The row-at-a-time levels (`levels.rs`) equal the bucket-by-bucket propagation
    /// (`buckets.rs`) slot for slot, counts included, on every configuration and split of
    /// walls of several small boards, with best wall moves drawn at random (from none at
    /// all, as when no wall is left, to every kind).
    #[test]
    fn levels_equal_buckets_on_every_block() {
        let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
        let mut blocks = 0;
        for (w, h, n) in [
            (2, 2, 1),
            (3, 2, 2),
            (3, 3, 2),
            (4, 3, 1),
            (3, 4, 1),
            (4, 4, 1),
            (5, 3, 1),
        ] {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let layout = Layout::new(&tables);
            let mut graph = PawnGraph::new(board);
            let mut scratch = Scratch::new();
            let mut twin = vec![UNDECIDED; LOCAL_LEN];
            for config in 0..tables.len() as ConfigId {
                let walls = tables.walls(config);
                let reach = [Player::One, Player::Two].map(|p| narrow(tables.reach(config, p)));
                graph.build(board, walls, reach);
                for kind in [1, 2, 4, 6] {
                    let block = Block {
                        board,
                        layout: &layout,
                        layer: walls.len() as usize,
                        reach,
                        children: &[],
                        left: [n, n],
                        graph: &graph,
                        below: None,
                        exits_given: true,
                    };
                    for e in scratch.exits_mut().iter_mut() {
                        *e = some_exit(&mut rng, kind);
                    }
                    let fast = solve::<crate::retro::engine::store::Exact>(&block, &mut scratch);
                    for used in layout.local_used() {
                        twin[used].fill(UNDECIDED);
                    }
                    let slow = buckets::solve(&block.pawns(), &scratch.exits, &mut twin);
                    let (fast, slow) = match (fast, slow) {
                        (Ok(fast), Ok(slow)) => (fast, slow),
                        (fast, slow) => {
                            panic!("{board} config {config} kind {kind}: {fast:?} {slow:?}")
                        }
                    };
                    assert_eq!(fast, slow, "{board} config {config} kind {kind}");
                    for used in layout.local_used() {
                        assert!(
                            scratch.values[used.clone()] == twin[used.clone()],
                            "{board} config {config} kind {kind}: values differ"
                        );
                    }
                    blocks += 1;
                }
            }
        }
        assert!(blocks > 1000, "{blocks} blocks");
    }
}
