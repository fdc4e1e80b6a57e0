//! The propagation a block was solved by before `levels.rs`: a counter of pawn moves
//! still open per position and buckets of positions by remoteness, a position at a time.
//! Kept as the twin the tests compare the row-at-a-time levels with, on every block of
//! small boards and on wall moves of every kind (`block.rs`'s tests).

use super::code::{self, Code, TooDeep, UNDECIDED};
use super::layout::LOCAL_LEN;
use super::levels::Pawns;
use super::value::{RetroStats, Value};
use crate::rules::bitboard::bits;
use crate::rules::geometry::{Player, Square};

/// The twin's working memory.
struct Scratch {
    /// Pawn moves of each position not yet known to lose for its mover, plus one if a wall
    /// move draws or wins (so that such a position never becomes a loss).
    counters: Vec<u8>,
    /// The best wall move of each position, by local slot.
    exits: Vec<Code>,
    /// `buckets[r]`: slots that get their value with remoteness `r`.
    buckets: Vec<Vec<u16>>,
}

impl Scratch {
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

/// Steps 2 to 4 of `block.rs` into `values` (its local slots cleared to `UNDECIDED`),
/// given the best wall move of every position in `exits`.
pub fn solve(block: &Pawns, exits: &[Code], values: &mut [Code]) -> Result<RetroStats, TooDeep> {
    let mut s = Scratch {
        counters: vec![0; LOCAL_LEN],
        exits: exits.to_vec(),
        buckets: Vec::new(),
    };
    count_children(block, &mut s, values)?;
    propagate(block, &mut s, values)?;
    Ok(mark_draws(block, values))
}

/// Calls `f(side to move, p1, p2)` for every position of the block.
fn for_each_position(block: &Pawns, mut f: impl FnMut(Player, Square, Square)) {
    let [live1, live2] = block.live;
    for side in [Player::One, Player::Two] {
        for p1 in bits(live1) {
            for p2 in bits(live2 & !(1 << p1)) {
                f(side, p1, p2);
            }
        }
    }
}

/// The player who has won in the position with these pawns, if the game is over
/// (Player 1 checked first, as `Position::winner` does).
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

/// Step 2. Positions that are over get their value and go to bucket 0. Every other one
/// gets a counter of its pawn moves (plus one if a wall move draws or wins, since then it
/// cannot lose); a winning wall move seeds a win at its remoteness, and a position whose
/// only moves are losing walls is seeded as a loss at the longest of them.
fn count_children(block: &Pawns, s: &mut Scratch, values: &mut [Code]) -> Result<(), TooDeep> {
    for bucket in &mut s.buckets {
        bucket.clear();
    }
    if s.buckets.is_empty() {
        s.buckets.push(Vec::new());
    }
    let layout = block.layout;
    let goals = block.goals;
    let mut result = Ok(());
    for_each_position(block, |side, p1, p2| {
        let slot = layout.index(side, p1, p2);
        if let Some(winner) = winner(goals, p1, p2) {
            values[slot] = if winner == side {
                code::WIN_NOW
            } else {
                code::LOSS_NOW
            };
            s.buckets[0].push(slot as u16);
            return;
        }
        let (me, other) = pawns_of(side, p1, p2);
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
fn parents(block: &Pawns, slot: usize, mut f: impl FnMut(usize)) {
    let layout = block.layout;
    let (side, p1, p2) = layout.unindex(slot);
    match side {
        // Player 1 just moved to p1.
        Player::Two => {
            for q in bits(block.live[0]).filter(|&q| q != p2) {
                if block.graph.dests(q, p2) >> p1 & 1 == 1 {
                    f(layout.index(Player::One, q, p2));
                }
            }
        }
        // Player 2 just moved to p2.
        Player::One => {
            for q in bits(block.live[1]).filter(|&q| q != p1) {
                if block.graph.dests(q, p1) >> p2 & 1 == 1 {
                    f(layout.index(Player::Two, p1, q));
                }
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
fn propagate(block: &Pawns, s: &mut Scratch, values: &mut [Code]) -> Result<(), TooDeep> {
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
fn mark_draws(block: &Pawns, values: &[Code]) -> RetroStats {
    let layout = block.layout;
    let mut stats = RetroStats::default();
    for_each_position(block, |side, p1, p2| {
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
