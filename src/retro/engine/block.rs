//! One block: the positions of one configuration with one split of walls left, every pawn
//! placement and both sides to move. Pawn moves stay inside the block; wall moves leave it
//! for the layer with one more wall, which is already solved. The steps, in order:
//!
//! 1. `scan_exits`: for every position, the best value its wall moves reach (the smallest
//!    code among them, see `code.rs`).
//! 2. `count_children`: a position that is over gets its value; every other one a counter
//!    of its pawn moves not yet known to lose for it; exits seed wins (and losses of
//!    positions without pawn moves).
//! 3. `propagate`: buckets by remoteness, smallest first, so each value is exact: a win
//!    is fixed by its quickest winning move, a loss by its last refuted move.
//! 4. `mark_draws`: whatever is still undecided is a draw (`UNDECIDED` is the draw's code
//!    already); count outcomes.
//!
//! The block is solved whole, both sides to move, into the local slots of `Scratch::values`
//! (see `layout.rs`); `layer.rs` stores what it needs of them.

use super::board::narrow;
use super::code::{self, Code, NO_EXIT, UNDECIDED};
use super::layout::{LOCAL_LEN, Layout};
use super::pawn_graph::PawnGraph;
use super::source::Child;
use super::store::Packing;
use super::value::RetroStats;
use super::value::Value;
use crate::rules::bitboard::bits;
use crate::rules::geometry::{Board, MAX_SQUARES, Player, Square};

/// A remoteness above `code::MAX_REMOTENESS` turned up: the store cannot hold it.
#[derive(Debug)]
pub struct TooDeep;

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
    /// Pawn moves of each position not yet known to lose for its mover, plus one if a wall
    /// move draws or wins (so that such a position never becomes a loss).
    counters: Vec<u8>,
    /// The best wall move of each position: the smallest code its wall moves reach.
    exits: Vec<Code>,
    /// `buckets[r]`: slots that get their value with remoteness `r`.
    buckets: Vec<Vec<u16>>,
    /// A child block of 2-bit outcomes decoded into codes (`scan_exits`).
    decoded: Vec<Code>,
}

impl Scratch {
    pub fn new() -> Scratch {
        // Slots go in `u16` bucket entries: a block has 2 * 64 * 64 local slots (boards of at
        // most `retro::MAX_SQUARES` cells).
        const _: () = assert!(LOCAL_LEN <= 1 << 16);
        Scratch {
            values: vec![UNDECIDED; LOCAL_LEN],
            counters: vec![0; LOCAL_LEN],
            exits: vec![NO_EXIT; LOCAL_LEN],
            buckets: Vec::new(),
            decoded: vec![UNDECIDED; MAX_SQUARES * MAX_SQUARES],
        }
    }

    /// The best exit of each position, by local slot (`Block::exits_given`).
    pub fn exits_mut(&mut self) -> &mut [Code] {
        &mut self.exits
    }

    fn push(&mut self, r: usize, slot: usize) -> Result<(), TooDeep> {
        if r > code::MAX_REMOTENESS {
            return Err(TooDeep);
        }
        if self.buckets.len() <= r {
            self.buckets.resize_with(r + 1, Vec::new);
        }
        self.buckets[r].push(slot as u16);
        Ok(())
    }
}

/// Solves the block into `scratch.values` and counts its outcomes. With the `Compact`
/// packing the layer below has outcomes only, so the values' outcomes are exact and their
/// remoteness is not (`store.rs`).
pub fn solve<P: Packing>(block: &Block, scratch: &mut Scratch) -> Result<RetroStats, TooDeep> {
    let mut values = std::mem::take(&mut scratch.values);
    for used in block.layout.local_used() {
        values[used].fill(UNDECIDED);
    }
    if !block.exits_given {
        scan_exits::<P>(block, &mut scratch.exits, &mut scratch.decoded);
    }
    let solved = count_children(block, scratch, &mut values)
        .and_then(|()| propagate(block, scratch, &mut values));
    let stats = mark_draws(block, &values);
    scratch.values = values;
    solved.map(|()| stats)
}

impl Block<'_> {
    fn board(&self) -> Board {
        self.board
    }

    /// Squares each pawn may stand on: those from which it reaches its goal row.
    pub fn live(&self) -> [u64; 2] {
        self.reach
    }

    /// Calls `f(side to move, p1, p2)` for every position of the block.
    pub fn for_each_position(&self, mut f: impl FnMut(Player, Square, Square)) {
        let [live1, live2] = self.live();
        for side in [Player::One, Player::Two] {
            for p1 in bits(live1) {
                for p2 in bits(live2 & !(1 << p1)) {
                    f(side, p1, p2);
                }
            }
        }
    }

    /// Each player's goal row, in the analysis's word.
    fn goals(&self) -> [u64; 2] {
        [Player::One, Player::Two].map(|p| narrow(self.board().goal(p)))
    }

    /// The player who has won in the position with these pawns, if the game is over
    /// (Player 1 checked first, as `Position::winner` does), given `goals` (`Block::goals`,
    /// read once per block, not per position).
    fn winner(goals: [u64; 2], p1: Square, p2: Square) -> Option<Player> {
        if goals[0] >> p1 & 1 == 1 {
            Some(Player::One)
        } else if goals[1] >> p2 & 1 == 1 {
            Some(Player::Two)
        } else {
            None
        }
    }

    /// The mover's and the other pawn's cells.
    fn pawns_of(side: Player, p1: Square, p2: Square) -> (Square, Square) {
        match side {
            Player::One => (p1, p2),
            Player::Two => (p2, p1),
        }
    }
}

/// Step 1. `exits[slot]` = the smallest code among the wall moves of the position
/// (`NO_EXIT` if it has none). A wall is legal iff it fits (a child configuration exists),
/// the mover has a wall left, and both pawns still reach their goals in the child. Loops run
/// per wall, side and row of Player 1's cell, so that a row of `exits` is a run of slots
/// (a `min` the compiler vectorises when the child block is read straight). Slots that are
/// not positions, or are over, get values nobody reads.
fn scan_exits<P: Packing>(block: &Block, exits: &mut [Code], decoded: &mut [Code]) {
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
            let reach2 = child.reach[Player::Two.index()];
            let mut cut = [NO_EXIT; MAX_SQUARES];
            for (p2, c) in cut.iter_mut().enumerate().take(cells) {
                if reach2 >> p2 & 1 == 1 {
                    *c = 0;
                }
            }
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

/// Step 2. Positions that are over get their value and go to bucket 0. Every other one
/// gets a counter of its pawn moves (plus one if a wall move draws or wins, since then it
/// cannot lose); a winning wall move seeds a win at its remoteness, and a position whose
/// only moves are losing walls is seeded as a loss at the longest of them.
fn count_children(block: &Block, s: &mut Scratch, values: &mut [Code]) -> Result<(), TooDeep> {
    for bucket in &mut s.buckets {
        bucket.clear();
    }
    if s.buckets.is_empty() {
        s.buckets.push(Vec::new());
    }
    let layout = block.layout;
    let goals = block.goals();
    let mut result = Ok(());
    block.for_each_position(|side, p1, p2| {
        let slot = layout.index(side, p1, p2);
        if let Some(winner) = Block::winner(goals, p1, p2) {
            values[slot] = if winner == side {
                code::WIN_NOW
            } else {
                code::LOSS_NOW
            };
            s.buckets[0].push(slot as u16);
            return;
        }
        let (me, other) = Block::pawns_of(side, p1, p2);
        let moves = block.graph.dests(me, other).count_ones() as u8;
        let seeded = match code::exit_value(s.exits[slot]) {
            Some(Value::Win(r)) => {
                s.counters[slot] = moves + 1;
                s.push(r as usize, slot)
            }
            Some(Value::Draw) => {
                s.counters[slot] = moves + 1;
                Ok(())
            }
            Some(Value::Loss(r)) if moves == 0 => {
                s.counters[slot] = 0;
                s.push(r as usize, slot)
            }
            // Without any move at all (only with H = 2) the position stays undecided: a draw.
            Some(Value::Loss(_)) | None => {
                s.counters[slot] = moves;
                Ok(())
            }
        };
        if seeded.is_err() {
            result = seeded;
        }
    });
    result
}

/// The slots of the positions from which a pawn move leads to `slot`.
#[inline(always)]
fn parents(block: &Block, slot: usize, mut f: impl FnMut(usize)) {
    let layout = block.layout;
    let (side, p1, p2) = layout.unindex(slot);
    match side {
        // Player 1 just moved to p1.
        Player::Two => {
            for q in bits(block.graph.preds(p1, p2)) {
                f(layout.index(Player::One, q, p2));
            }
        }
        // Player 2 just moved to p2.
        Player::One => {
            for q in bits(block.graph.preds(p2, p1)) {
                f(layout.index(Player::Two, p1, q));
            }
        }
    }
}

/// Step 3. Takes the buckets in increasing remoteness. An entry still undecided when its
/// bucket comes gets that remoteness (bucket 0 holds the finished positions, set in step
/// 2). A loss makes every undecided parent a win one ply longer; a win refutes one pawn
/// move of each undecided parent, and the parent whose last move is refuted loses after
/// the longer of this move and its best wall move. Buckets are taken in order, so the first
/// value a position gets is its exact one; later entries for it are skipped.
fn propagate(block: &Block, s: &mut Scratch, values: &mut [Code]) -> Result<(), TooDeep> {
    let mut r = 0;
    while r < s.buckets.len() {
        let entries = std::mem::take(&mut s.buckets[r]);
        for &slot in &entries {
            let slot = slot as usize;
            if r > 0 {
                if values[slot] != UNDECIDED {
                    continue;
                }
                values[slot] = code::decided(r);
            }
            let lost = code::is_loss(values[slot]);
            let mut result = Ok(());
            parents(block, slot, |parent| {
                if values[parent] != UNDECIDED || result.is_err() {
                    return;
                }
                if lost {
                    result = s.push(r + 1, parent);
                    return;
                }
                s.counters[parent] -= 1;
                if s.counters[parent] == 0 {
                    // Every pawn move loses; the wall moves (if any) lose too.
                    let wall = match code::exit_value(s.exits[parent]) {
                        Some(Value::Loss(w)) => w as usize,
                        _ => 0,
                    };
                    result = s.push((r + 1).max(wall), parent);
                }
            });
            result?;
        }
        // Give the emptied vector back to keep its capacity (pushes go to later buckets).
        let mut entries = entries;
        entries.clear();
        s.buckets[r] = entries;
        r += 1;
    }
    Ok(())
}

/// Step 4. Positions still undecided are draws: neither player can force a win (their
/// code is already the draw's). Counts the block's positions by who wins.
fn mark_draws(block: &Block, values: &[Code]) -> RetroStats {
    let layout = block.layout;
    let mut stats = RetroStats::default();
    block.for_each_position(|side, p1, p2| {
        let c = values[layout.index(side, p1, p2)];
        stats.positions += 1;
        if c == UNDECIDED {
            stats.draws += 1;
        } else if (code::is_win(c)) == (side == Player::One) {
            stats.p1_wins += 1;
        } else {
            stats.p2_wins += 1;
        }
    });
    stats
}
