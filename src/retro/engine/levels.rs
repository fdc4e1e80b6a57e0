//! Steps 2 to 4 of a block (`block.rs`), a row of positions at a time. A row is every
//! position of one side to move and one cell of Player 1's: a bit per cell of Player 2's.
//! The block is decided one remoteness at a time (`r` = 1, 2, ...), which is the order in
//! which the values become exact:
//!
//! - at an odd `r`, a position not yet decided wins in `r` if a pawn move reaches a position
//!   lost so far (all of them were lost in `r - 1` or less: a win is fixed by its quickest
//!   winning move), or if its best wall move wins in `r`;
//! - at an even `r`, it loses in `r` if every pawn move reaches a position won so far and
//!   its wall moves, if any, lose in `r` or less (a loss is fixed by its last refuted move).
//!
//! Only wins are made at odd `r` and only losses at even ones (a code's parity, `code.rs`).
//! A row is looked at again only when a row it reads changed at the level before, or when a
//! wall move's remoteness is reached (`Levels::due`); when nothing changed, the levels jump
//! to the next one due. What is left undecided is a draw.
//!
//! Player 1's moves change the row (the row of the cell moved to is read, a word at a
//! time); Player 2's moves change the bit, so Player 2's rows are shifted along the open
//! edges, the four directions at once. A pawn next to the other one jumps instead of
//! stepping onto it: those few positions (at most four a row) are looked up one by one.
//!
//! The values and counts equal those of the bucket-by-bucket propagation this replaced,
//! which the tests keep as its twin (`buckets.rs`).

use super::code::{self, Code, LOSS_NOW, NO_EXIT, TooDeep, UNDECIDED, WIN_NOW};
use super::layout::Layout;
use super::pawn_graph::PawnGraph;
use super::value::RetroStats;
use crate::rules::bitboard::bits;
use crate::rules::geometry::{Dir, Player, Square};

/// What the levels read of a block: where each pawn may stand and how it moves.
pub struct Pawns<'a> {
    pub layout: &'a Layout,
    pub graph: &'a PawnGraph,
    /// Cells from which each player reaches their goal row, by `Player::index`.
    pub live: [u64; 2],
    /// Each player's goal row.
    pub goals: [u64; 2],
    /// Columns of the board.
    pub width: usize,
}

/// Rows of a block: the analysis's boards have at most 64 cells (`layout.rs`).
const ROWS: usize = 64;
const ONE: usize = 0;
const TWO: usize = 1;

/// A set of positions of one side to move: `[p1]` holds a bit per cell of Player 2's.
type Rows = [u64; ROWS];

/// Per-thread working memory of `solve`, reused from block to block.
pub struct Levels {
    /// Positions not decided yet, by side to move (`Player::index`).
    undecided: [Rows; 2],
    /// Positions won by the side to move, so far.
    won: [Rows; 2],
    /// Positions lost by the side to move, so far.
    lost: [Rows; 2],
    /// Positions that may not lose now: a wall move draws or wins, or loses only at a later
    /// remoteness (in `due`), or the position has no move at all.
    held: [Rows; 2],
    /// `due[r]`: the slots whose best wall move acts at remoteness `r`: at an odd `r` it
    /// wins there, at an even `r` it loses there and the position is no longer held.
    due: Vec<Vec<u16>>,
}

impl Levels {
    pub fn new() -> Levels {
        Levels {
            undecided: [[0; ROWS]; 2],
            won: [[0; ROWS]; 2],
            lost: [[0; ROWS]; 2],
            held: [[0; ROWS]; 2],
            due: Vec::new(),
        }
    }

    fn push_due(&mut self, r: usize, slot: usize) {
        if self.due.len() <= r {
            self.due.resize_with(r + 1, Vec::new);
        }
        self.due[r].push(slot as u16);
    }

    /// The first level after `r` with a wall move due.
    fn next_due(&self, r: usize) -> Option<usize> {
        (r + 1..self.due.len()).find(|&l| !self.due[l].is_empty())
    }
}

/// Positions decided at one level, row by row.
struct Decide<'a> {
    values: &'a mut [Code],
    /// Rows with new decisions, by side to move (a bit per cell of Player 1's).
    changed: [u64; 2],
    r: usize,
}

impl Decide<'_> {
    /// Decides `fresh` (undecided positions of row `p1`) with remoteness `self.r`.
    #[inline(always)]
    fn rows(
        &mut self,
        lv: &mut Levels,
        side: usize,
        p1: Square,
        fresh: u64,
    ) -> Result<(), TooDeep> {
        if fresh == 0 {
            return Ok(());
        }
        if self.r > code::MAX_REMOTENESS {
            return Err(TooDeep);
        }
        let p = p1 as usize;
        lv.undecided[side][p] &= !fresh;
        if self.r % 2 == 1 {
            lv.won[side][p] |= fresh;
        } else {
            lv.lost[side][p] |= fresh;
        }
        self.changed[side] |= 1 << p1;
        let c = code::decided(self.r);
        let base = side << 12 | p << 6;
        for p2 in bits(fresh) {
            self.values[base | p2 as usize] = c;
        }
        Ok(())
    }
}

/// Solves the block into `values` (its local slots cleared to `UNDECIDED`), given the best
/// wall move of every position in `exits`, and counts its outcomes.
pub fn solve(
    block: &Pawns,
    exits: &[Code],
    values: &mut [Code],
    lv: &mut Levels,
) -> Result<RetroStats, TooDeep> {
    for due in &mut lv.due {
        due.clear();
    }
    let (changed_won, changed_lost) = start(block, exits, values, lv);
    let solved = run_levels(block, values, lv, changed_won, changed_lost);
    if solved.is_err() {
        for due in &mut lv.due {
            due.clear();
        }
    }
    solved.map(|()| count(block, lv))
}

/// Level 0 and the holds: the rows of every position, those that are over decided (the
/// side whose pawn is home wins; Player 1's checked first, as `Position::winner` does),
/// and every wall move filed under the level it acts at. Returns the rows that won and lost
/// at level 0, by side to move.
fn start(
    block: &Pawns,
    exits: &[Code],
    values: &mut [Code],
    lv: &mut Levels,
) -> ([u64; 2], [u64; 2]) {
    let [live1, live2] = block.live;
    let [goal1, goal2] = block.goals;
    // Rows past the board's cells are never read.
    let cells = block.layout.squares();
    for rows in [&mut lv.undecided, &mut lv.won, &mut lv.lost, &mut lv.held] {
        for side in rows.iter_mut() {
            side[..cells].fill(0);
        }
    }
    let (mut changed_won, mut changed_lost) = ([0u64; 2], [0u64; 2]);
    for p1 in bits(live1) {
        let p = p1 as usize;
        let row = live2 & !(1 << p1);
        let (one_home, two_home) = if goal1 >> p1 & 1 == 1 {
            (row, 0)
        } else {
            (0, row & goal2)
        };
        lv.won[ONE][p] = one_home;
        lv.lost[TWO][p] = one_home;
        lv.lost[ONE][p] = two_home;
        lv.won[TWO][p] = two_home;
        for (side, won, lost) in [(ONE, one_home, two_home), (TWO, two_home, one_home)] {
            let base = side << 12 | p << 6;
            for p2 in bits(won) {
                values[base | p2 as usize] = WIN_NOW;
            }
            for p2 in bits(lost) {
                values[base | p2 as usize] = LOSS_NOW;
            }
            changed_won[side] |= u64::from(won != 0) << p1;
            changed_lost[side] |= u64::from(lost != 0) << p1;
        }
        let open = row & !(one_home | two_home);
        lv.undecided[ONE][p] = open;
        lv.undecided[TWO][p] = open;
    }
    for side in [ONE, TWO] {
        for p1 in bits(live1) {
            lv.held[side][p1 as usize] = hold(block, exits, lv, side, p1);
        }
    }
    (changed_won, changed_lost)
}

/// The held positions of row `p1` of `side`, filing each wall move under its level.
fn hold(block: &Pawns, exits: &[Code], lv: &mut Levels, side: usize, p1: Square) -> u64 {
    let base = side << 12 | (p1 as usize) << 6;
    let undecided = lv.undecided[side][p1 as usize];
    // A row without a wall move (`NO_EXIT` is the only code of all ones): the mover has
    // no wall left, or none fits. A fold the compiler vectorises.
    let row = &exits[base..base + block.layout.squares()];
    if row.iter().fold(NO_EXIT, |all, &e| all & e) == NO_EXIT {
        return stuck(block, side, p1, undecided);
    }
    let mut held = 0;
    for p2 in bits(undecided) {
        let slot = base | p2 as usize;
        let e = exits[slot];
        if e == NO_EXIT {
            held |= stuck(block, side, p1, undecided & 1 << p2);
            continue;
        }
        held |= 1 << p2;
        if e < UNDECIDED {
            // The wall move reaches a loss in 2e: it wins in 2e + 1 (if nothing wins sooner).
            lv.push_due(2 * e as usize + 1, slot);
        } else if e > UNDECIDED {
            // It reaches a win in 2(255 - e) - 1: losing comes no sooner than 2(255 - e).
            lv.push_due(2 * (255 - e as usize), slot);
        }
        // A wall move that draws holds the position for good.
    }
    held
}

/// The positions among `among` (of row `p1` of `side`) whose mover has no pawn move: never
/// decided, a draw, when no wall move is left either.
#[inline(always)]
fn stuck(block: &Pawns, side: usize, p1: Square, among: u64) -> u64 {
    let graph = block.graph;
    // Two open steps leave one that the other pawn does not stand on: only cells with
    // fewer can be stuck.
    let narrow = |me: Square| graph.steps(me).count_ones() < 2;
    let candidates = if side == ONE {
        if !narrow(p1) {
            return 0;
        }
        among
    } else {
        among & block.graph.narrow_cells()
    };
    let mut stuck = 0;
    for p2 in bits(candidates) {
        let (me, other) = if side == ONE { (p1, p2) } else { (p2, p1) };
        if narrow(me) && graph.dests(me, other) == 0 {
            stuck |= 1 << p2;
        }
    }
    stuck
}

/// Levels 1, 2, ... until nothing changes and no wall move is due.
fn run_levels(
    block: &Pawns,
    values: &mut [Code],
    lv: &mut Levels,
    mut changed_won: [u64; 2],
    mut changed_lost: [u64; 2],
) -> Result<(), TooDeep> {
    let mut r = 1;
    loop {
        let due = match lv.due.get_mut(r) {
            Some(due) => std::mem::take(due),
            None => Vec::new(),
        };
        let mut decide = Decide {
            values,
            changed: [0; 2],
            r,
        };
        if r % 2 == 1 {
            wins(block, lv, &mut decide, changed_lost, &due)?;
            changed_lost = [0; 2];
            changed_won = [
                changed_won[0] | decide.changed[0],
                changed_won[1] | decide.changed[1],
            ];
        } else {
            losses(block, lv, &mut decide, changed_won, &due)?;
            changed_won = [0; 2];
            changed_lost = [
                changed_lost[0] | decide.changed[0],
                changed_lost[1] | decide.changed[1],
            ];
        }
        if let Some(kept) = lv.due.get_mut(r) {
            // Give the emptied vector back to keep its capacity.
            let mut due = due;
            due.clear();
            *kept = due;
        }
        // What the next level reads: the wins of this odd level (and of level 0), or the
        // losses of this even one.
        let read_next = if r % 2 == 1 {
            changed_won
        } else {
            changed_lost
        };
        if read_next != [0; 2] {
            r += 1;
            continue;
        }
        match lv.next_due(r) {
            Some(next) => r = next,
            None => return Ok(()),
        }
    }
}

/// An odd level: wins by a pawn move to a position lost so far, where such a position is
/// new (`changed_lost`), and by the wall moves due.
fn wins(
    block: &Pawns,
    lv: &mut Levels,
    decide: &mut Decide,
    changed_lost: [u64; 2],
    due: &[u16],
) -> Result<(), TooDeep> {
    let graph = block.graph;
    let live1 = block.live[0];
    // Player 1 to move: the rows of the cells moved to.
    for p1 in bits(live1 & readers(block, changed_lost[TWO])) {
        let p = p1 as usize;
        let und = lv.undecided[ONE][p];
        if und == 0 {
            continue;
        }
        let steps = graph.steps(p1);
        let mut win = 0;
        for q in bits(steps) {
            win |= lv.lost[TWO][q as usize];
        }
        for p2 in bits(steps & und & !win) {
            let jumps = graph.dests(p1, p2) & !steps;
            for j in bits(jumps) {
                win |= lv.lost[TWO][j as usize] & 1 << p2;
            }
        }
        decide.rows(lv, ONE, p1, win & und)?;
    }
    // Player 2 to move: the same row, shifted.
    for p1 in bits(live1 & changed_lost[ONE]) {
        let p = p1 as usize;
        let und = lv.undecided[TWO][p];
        if und == 0 {
            continue;
        }
        let to = lv.lost[ONE][p];
        let mut win = from_steps(block, to);
        for p2 in bits(graph.steps(p1) & und & !win) {
            let jumps = graph.dests(p2, p1) & !graph.steps(p2);
            win |= u64::from(jumps & to != 0) << p2;
        }
        decide.rows(lv, TWO, p1, win & und)?;
    }
    for &slot in due {
        let (side, p1, p2) = block.layout.unindex(slot as usize);
        let side = side.index();
        let fresh = lv.undecided[side][p1 as usize] & 1 << p2;
        decide.rows(lv, side, p1, fresh)?;
    }
    Ok(())
}

/// An even level: losses of positions not held whose every pawn move reaches a position
/// won so far, where such a position is new (`changed_won`) or a hold ends (`due`).
fn losses(
    block: &Pawns,
    lv: &mut Levels,
    decide: &mut Decide,
    changed_won: [u64; 2],
    due: &[u16],
) -> Result<(), TooDeep> {
    let graph = block.graph;
    let live1 = block.live[0];
    let mut ended = [0u64; 2];
    for &slot in due {
        let (side, p1, p2) = block.layout.unindex(slot as usize);
        let side = side.index();
        lv.held[side][p1 as usize] &= !(1 << p2);
        ended[side] |= 1 << p1;
    }
    for p1 in bits(live1 & (readers(block, changed_won[TWO]) | ended[ONE])) {
        let p = p1 as usize;
        let mut all = lv.undecided[ONE][p] & !lv.held[ONE][p];
        if all == 0 {
            continue;
        }
        let steps = graph.steps(p1);
        for q in bits(steps) {
            // The other pawn on q: that step is no move (its jumps are looked at below).
            all &= lv.won[TWO][q as usize] | 1 << q;
        }
        for p2 in bits(steps & all) {
            let jumps = graph.dests(p1, p2) & !steps;
            for j in bits(jumps) {
                all &= lv.won[TWO][j as usize] | !(1 << p2);
            }
        }
        decide.rows(lv, ONE, p1, all)?;
    }
    for p1 in bits(live1 & (changed_won[ONE] | ended[TWO])) {
        let p = p1 as usize;
        let all = lv.undecided[TWO][p] & !lv.held[TWO][p];
        if all == 0 {
            continue;
        }
        let to = lv.won[ONE][p];
        // The other pawn on p1: that step is no move (its jumps are looked at below).
        let mut all = all & !from_steps(block, !(to | 1 << p1));
        for p2 in bits(graph.steps(p1) & all) {
            let jumps = graph.dests(p2, p1) & !graph.steps(p2);
            all &= !(u64::from(jumps & !to != 0) << p2);
        }
        decide.rows(lv, TWO, p1, all)?;
    }
    Ok(())
}

/// Player 1's cells whose rows read a row of `changed` (Player 2 to move).
#[inline(always)]
fn readers(block: &Pawns, changed: u64) -> u64 {
    bits(changed).fold(0, |rows, to| rows | block.graph.readers(to))
}

/// The cells from which Player 2 steps onto a cell of `to`: the row of Player 1's cell
/// shifted back along each open edge.
#[inline(always)]
fn from_steps(block: &Pawns, to: u64) -> u64 {
    let edges = block.graph.edges();
    let w = block.width;
    (to >> w & edges.open(Dir::Up))
        | (to << w & edges.open(Dir::Down))
        | (to >> 1 & edges.open(Dir::Right))
        | (to << 1 & edges.open(Dir::Left))
}

/// The block's positions by who wins (what is still undecided is a draw).
fn count(block: &Pawns, lv: &Levels) -> RetroStats {
    let mut stats = RetroStats::default();
    let ones = |rows: &Rows| -> u64 {
        bits(block.live[0])
            .map(|p| rows[p as usize].count_ones() as u64)
            .sum()
    };
    for side in [ONE, TWO] {
        let (won, lost, draws) = (
            ones(&lv.won[side]),
            ones(&lv.lost[side]),
            ones(&lv.undecided[side]),
        );
        stats.positions += won + lost + draws;
        stats.draws += draws;
        if side == Player::One.index() {
            stats.p1_wins += won;
            stats.p2_wins += lost;
        } else {
            stats.p2_wins += won;
            stats.p1_wins += lost;
        }
    }
    stats
}
