//! The rank of a configuration among the configurations of its layer (its wall count), in
//! the order of the eager tables, from a table of a few kilobytes: no bit per possible wall
//! set, so the numbering stays small at every wall count (6x5 with 10 walls: 92 M
//! configurations among 2.8e11 sets of 20 of the 40 slots).
//!
//! Keys put the two walls of an anchor side by side (`enumerate.rs`), and the eager tables
//! number a layer in the lexicographic order of the ascending key lists. Between two sets of
//! the same size that order is decided at the first key bit where they differ, the set
//! holding it first; per anchor, taken in key order, it reads
//!
//! ```text
//!   horizontal wall  <  vertical wall  <  no wall
//! ```
//!
//! So a set's rank is a sum over its anchors: at each, the configurations that agree with it
//! on the anchors before and take an earlier choice here, which is the number of ways to
//! complete that choice with the walls left. Whether walls clash is decided by a profile
//! (`count_by_walls`): a bit per anchor column (the anchor above in that column holds a
//! vertical wall) and a bit for the anchor to the left (a horizontal wall). The table holds
//! the completions of every (anchor, profile, walls left). A profile is kept to the bits the
//! anchors from there on still read: in the first row, the columns already passed; in the
//! last, those not yet passed; so a board of two anchor rows (W x 3) needs about `3 * 2^(W-1)`
//! profiles, not `(W - 1) * 2^W` (21x3 with 4 walls: 1.7 GiB in all, where a bit per wall
//! slot list took 4.0 GiB), and one of more rows `2^W` an anchor.

use crate::rules::geometry::{Board, Square};
use crate::rules::walls::{Orientation, Wall, WallSet};

/// What an anchor holds, in the order of the module doc.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Choice {
    Horizontal,
    Vertical,
    Empty,
}

const CHOICES: [Choice; 3] = [Choice::Horizontal, Choice::Vertical, Choice::Empty];

/// The most anchors a pass serves (`ProfileRank::pass`): every board of at most 64 cells.
const MOST_ANCHORS: usize = 64;

/// One configuration, anchor by anchor: what it holds, the profile before each anchor, the
/// walls left to place from there, and the rank's terms (`ProfileRank::pass`).
struct Pass {
    choice: [Choice; MOST_ANCHORS],
    state: [usize; MOST_ANCHORS + 1],
    left: [usize; MOST_ANCHORS + 1],
    /// Whether the neighbours read from the pass have one wall more (children) or fewer
    /// (parents).
    more: bool,
    /// The neighbours' terms of the anchors before `a` (one wall more or fewer to place).
    before: [u64; MOST_ANCHORS + 1],
    /// The set's own terms of the anchors from `a` on.
    after: [u64; MOST_ANCHORS + 1],
}

impl Choice {
    fn walls(self) -> usize {
        usize::from(self != Choice::Empty)
    }

    /// The wall this choice puts on `anchor`, if any.
    fn wall(self, anchor: Square) -> Option<Wall> {
        let orientation = match self {
            Choice::Horizontal => Orientation::Horizontal,
            Choice::Vertical => Orientation::Vertical,
            Choice::Empty => return None,
        };
        Some(Wall {
            anchor,
            orientation,
        })
    }
}

/// Where an anchor's profiles are in the tables, and which of a profile's bits it keeps.
#[derive(Clone, Copy)]
struct Reduced {
    /// The first of the anchor's profiles in the tables, and how many it has.
    start: usize,
    count: usize,
    /// The columns still read (a mask over the profile's column bits), shifted down by
    /// `shift`; whether the anchor to the left matters (not at a row's start).
    keep: usize,
    shift: u32,
    left: bool,
}

impl Reduced {
    /// The reduction at anchor column `c` of row `r` of `rows`, over `cols` columns (`c` is
    /// `cols` past the last anchor, where nothing is read any more).
    fn new(r: usize, c: usize, rows: usize, cols: usize, start: usize) -> Reduced {
        let all = (1usize << cols) - 1;
        let passed = (1usize << c.min(cols)) - 1;
        let (keep, shift) = match (r == 0, r + 1 >= rows) {
            _ if c >= cols => (0, 0),
            (true, true) => (0, 0),
            (true, false) => (passed, 0),
            (false, true) => (all & !passed, c as u32),
            (false, false) => (all, 0),
        };
        let left = c > 0 && c < cols;
        let count = (1usize << keep.count_ones()) << usize::from(left);
        Reduced {
            start,
            count,
            keep,
            shift,
            left,
        }
    }

    /// The index among the anchor's profiles of the profile `state`.
    #[inline(always)]
    fn index(self, state: usize) -> usize {
        let columns = ((state >> 1) & self.keep) >> self.shift;
        if self.left {
            columns << 1 | (state & 1)
        } else {
            columns
        }
    }

    /// A profile whose index is `index` (the inverse of `index` on the bits kept).
    fn profile(self, index: usize) -> usize {
        let (columns, left) = if self.left {
            (index >> 1, index & 1)
        } else {
            (index, 0)
        };
        (columns << self.shift) << 1 | left
    }
}

pub struct ProfileRank {
    board: Board,
    /// Anchors in all.
    anchors: usize,
    /// The most walls a set holds.
    most: usize,
    /// Per anchor, its column and its cell (no division in the loops).
    column: Vec<usize>,
    cells: Vec<u32>,
    /// Per anchor and one past the last: its profiles' place in the tables.
    reduced: Vec<Reduced>,
    /// `completions[(reduced[a].start + i) * (most + 1) + m]`: the ways to place `m` walls
    /// on the anchors from `a` on, from the profile of index `i` (saturating at `u64::MAX`).
    completions: Vec<u64>,
    /// `passed[((reduced[a].start + i) * 3 + choice) * (most + 1) + m]`: what anchor `a`
    /// adds to a rank by holding `choice` from the profile of index `i` with `m` walls left
    /// to place (the completions of the earlier choices there): one load an anchor when
    /// ranking.
    passed: Vec<u64>,
}

impl ProfileRank {
    /// The profiles' reductions of `board`, per anchor and one past the last, and the
    /// profiles in all.
    fn reductions(board: Board) -> (Vec<Reduced>, usize) {
        let (cols, rows) = (board.width() - 1, board.height() - 1);
        let mut start = 0;
        let mut reduced = Vec::with_capacity(cols * rows + 1);
        for a in 0..=cols * rows {
            let (r, c) = if a == cols * rows {
                (rows, cols)
            } else {
                (a / cols, a % cols)
            };
            let here = Reduced::new(r, c, rows, cols, start);
            start += here.count;
            reduced.push(here);
        }
        (reduced, start)
    }

    /// The bytes `new` takes for `board` with up to `most` walls, or `None` when the board
    /// is too wide for a profile table (more than 40 anchors a row).
    pub fn estimate_bytes(board: Board, most: usize) -> Option<u64> {
        if board.width() - 1 > 40 {
            return None;
        }
        let (reduced, profiles) = ProfileRank::reductions(board);
        let last = reduced.last().map_or(0, |r| r.count);
        // `completions` and `passed` (three a profile where `completions` has one).
        Some((4 * profiles - 3 * last) as u64 * (most as u64 + 1) * 8)
    }

    /// The numbering of the configurations of `board` with at most `most` walls; the caller
    /// checks `estimate_bytes` against its budget.
    pub fn new(board: Board, most: usize) -> ProfileRank {
        let cols = board.width() - 1;
        let anchors = cols * (board.height() - 1);
        let (reduced, profiles) = ProfileRank::reductions(board);
        let last = reduced[anchors].count;
        let mut rank = ProfileRank {
            board,
            anchors,
            most,
            column: (0..anchors).map(|a| a % cols).collect(),
            cells: (0..anchors)
                .map(|a| ((a / cols) * board.width() + a % cols) as u32)
                .collect(),
            reduced,
            completions: vec![0; profiles * (most + 1)],
            passed: vec![0; (profiles - last) * 3 * (most + 1)],
        };
        let end = rank.reduced[anchors];
        for i in 0..end.count {
            let at = rank.at(anchors, end.profile(i), 0);
            rank.completions[at] = 1;
        }
        // Each anchor from the last: the completions of each choice, their sum, and what
        // each choice passes (the completions of the choices before it).
        for a in (0..anchors).rev() {
            for i in 0..rank.reduced[a].count {
                let state = rank.reduced[a].profile(i);
                for m in 0..=most {
                    let ways = CHOICES.map(|c| match rank.step(a, state, c) {
                        Some(next) if c.walls() <= m => {
                            rank.completions[rank.at(a + 1, next, m - c.walls())]
                        }
                        _ => 0,
                    });
                    let mut passed = 0u64;
                    for (&c, &w) in CHOICES.iter().zip(&ways) {
                        let at = rank.passed_at(a, state, c, m);
                        rank.passed[at] = passed;
                        passed = passed.saturating_add(w);
                    }
                    let at = rank.at(a, state, m);
                    rank.completions[at] = passed;
                }
            }
        }
        rank
    }

    #[inline(always)]
    fn passed_at(&self, anchor: usize, state: usize, choice: Choice, m: usize) -> usize {
        let reduced = self.reduced[anchor];
        ((reduced.start + reduced.index(state)) * 3 + choice as usize) * (self.most + 1) + m
    }

    #[inline(always)]
    fn at(&self, anchor: usize, state: usize, m: usize) -> usize {
        let reduced = self.reduced[anchor];
        (reduced.start + reduced.index(state)) * (self.most + 1) + m
    }

    /// Whether two profiles agree on every bit the anchors from `a` on read.
    #[inline(always)]
    fn same(&self, a: usize, one: usize, other: usize) -> bool {
        let reduced = self.reduced[a];
        reduced.index(one) == reduced.index(other)
    }

    /// The profile after anchor `a` takes `choice` from `state`, or `None` if it clashes:
    /// a horizontal wall with one to its left, a vertical wall with one above.
    #[inline(always)]
    fn step(&self, a: usize, state: usize, choice: Choice) -> Option<usize> {
        let c = self.column[a];
        let columns = state >> 1;
        let left_horizontal = c > 0 && state & 1 == 1;
        let clear = columns & !(1 << c);
        match choice {
            Choice::Empty => Some(clear << 1),
            Choice::Horizontal => (!left_horizontal).then_some(clear << 1 | 1),
            Choice::Vertical => (columns >> c & 1 == 0).then_some((columns | 1 << c) << 1),
        }
    }

    /// The anchor cell of anchor number `a` (row by row).
    #[inline(always)]
    fn cell(&self, a: usize) -> u32 {
        self.cells[a]
    }

    /// How many configurations hold `k` walls (saturating).
    pub fn count(&self, k: usize) -> u64 {
        if k > self.most {
            return 0;
        }
        self.completions[self.at(0, 0, k)]
    }

    /// The rank of `walls` among the configurations of its layer, or `None` if its walls
    /// clash, lie off the board's anchors or are more than `most`.
    #[inline]
    pub fn rank(&self, walls: WallSet) -> Option<u64> {
        let mut left = walls.len() as usize;
        if left > self.most || (walls.horizontal | walls.vertical) & !self.board.anchors() != 0 {
            return None;
        }
        let (mut rank, mut state) = (0u64, 0usize);
        // Past the last wall every anchor is empty with no wall left: nothing to add.
        for a in 0..self.anchors {
            if left == 0 {
                break;
            }
            let mine = self.choice(walls, a)?;
            rank += self.passed(a, state, mine, left);
            state = self.step(a, state, mine)?;
            left -= mine.walls();
        }
        Some(rank)
    }

    /// What anchor `a` holds in `walls`, or `None` for two walls crossing there.
    #[inline(always)]
    fn choice(&self, walls: WallSet, a: usize) -> Option<Choice> {
        let cell = self.cell(a);
        match (walls.horizontal >> cell & 1, walls.vertical >> cell & 1) {
            (0, 0) => Some(Choice::Empty),
            (1, 0) => Some(Choice::Horizontal),
            (0, 1) => Some(Choice::Vertical),
            _ => None,
        }
    }

    /// The configurations that anchor `a` adds to a rank by holding `mine` from `state`
    /// with `left` walls to place from it on: those taking an earlier choice there.
    #[inline(always)]
    fn passed(&self, a: usize, state: usize, mine: Choice, left: usize) -> u64 {
        self.passed[self.passed_at(a, state, mine, left)]
    }

    /// The pass over `walls` (a configuration) that the ranks of its children (`more`) or
    /// its parents are read from: a neighbour agrees with it before the anchor that changes
    /// (with one wall more or fewer to place) and, once the profile has forgotten that
    /// anchor (a row later at most), after it.
    fn pass(&self, walls: WallSet, more: bool) -> Pass {
        let mut p = Pass {
            choice: [Choice::Empty; MOST_ANCHORS],
            state: [0; MOST_ANCHORS + 1],
            left: [0; MOST_ANCHORS + 1],
            more,
            before: [0; MOST_ANCHORS + 1],
            after: [0; MOST_ANCHORS + 1],
        };
        let n = self.anchors;
        assert!(n <= MOST_ANCHORS, "at most {MOST_ANCHORS} anchors");
        p.left[0] = walls.len() as usize;
        for a in 0..n {
            let (state, left) = (p.state[a], p.left[a]);
            let mine = self.choice(walls, a).expect("a configuration");
            p.choice[a] = mine;
            // A parent has a wall fewer to place only up to the anchor of the wall it lacks,
            // so `left` is at least 1 wherever `before` is read.
            let theirs = if more {
                left + 1
            } else {
                left.saturating_sub(1)
            };
            p.before[a + 1] = p.before[a] + self.passed(a, state, mine, theirs);
            p.after[a] = self.passed(a, state, mine, left);
            p.state[a + 1] = self.step(a, state, mine).expect("a configuration");
            p.left[a + 1] = left - mine.walls();
        }
        for a in (0..n).rev() {
            p.after[a] += p.after[a + 1];
        }
        p
    }

    /// The rank of the configuration that `pass` describes with anchor `b` holding `new`
    /// instead (a wall added or taken away), in its layer; `None` where the walls clash.
    fn neighbour(&self, p: &Pass, b: usize, new: Choice) -> Option<u64> {
        let (state, left) = (p.state[b], p.left[b]);
        debug_assert_eq!(p.more, new != Choice::Empty, "a neighbour the pass serves");
        let left_here = if p.more { left + 1 } else { left - 1 };
        let mut rank = p.before[b] + self.passed(b, state, new, left_here);
        let mut s = self.step(b, state, new)?;
        for a in b + 1..=self.anchors {
            if a == self.anchors || self.same(a, s, p.state[a]) {
                return Some(rank + p.after[a]);
            }
            rank += self.passed(a, s, p.choice[a], p.left[a]);
            s = self.step(a, s, p.choice[a])?;
        }
        unreachable!("the loop returns at the last anchor")
    }

    /// Calls `f(wall, rank)` for every wall that fits beside `walls` (a configuration of
    /// fewer than `most` walls), with the rank of `walls` plus that wall in the layer above,
    /// in key order: one pass over `walls` for them all.
    pub fn child_ranks(&self, walls: WallSet, mut f: impl FnMut(Wall, u64)) {
        debug_assert!((walls.len() as usize) < self.most, "a wall left to place");
        let p = self.pass(walls, true);
        for b in (0..self.anchors).filter(|&b| p.choice[b] == Choice::Empty) {
            for new in [Choice::Horizontal, Choice::Vertical] {
                if let (Some(rank), Some(wall)) =
                    (self.neighbour(&p, b, new), new.wall(self.cell(b) as Square))
                {
                    f(wall, rank);
                }
            }
        }
    }

    /// Calls `f(wall, rank)` for every wall of `walls` (a configuration), with the rank of
    /// `walls` less that wall in the layer below, in key order: one pass for them all.
    pub fn parent_ranks(&self, walls: WallSet, mut f: impl FnMut(Wall, u64)) {
        let p = self.pass(walls, false);
        for b in 0..self.anchors {
            if let Some(wall) = p.choice[b].wall(self.cell(b) as Square) {
                let rank = self
                    .neighbour(&p, b, Choice::Empty)
                    .expect("fewer walls never clash");
                f(wall, rank);
            }
        }
    }

    /// The configuration of rank `rank` among those of `k` walls (`rank < count(k)`).
    pub fn unrank(&self, k: usize, mut rank: u64) -> WallSet {
        debug_assert!(rank < self.count(k), "a rank of the layer");
        let (mut walls, mut state, mut left) = (WallSet::EMPTY, 0usize, k);
        for a in 0..self.anchors {
            for &choice in &CHOICES {
                let Some(next) = self.step(a, state, choice) else {
                    continue;
                };
                if choice.walls() > left {
                    continue;
                }
                let ways = self.completions[self.at(a + 1, next, left - choice.walls())];
                if rank < ways {
                    if let Some(wall) = choice.wall(self.cell(a) as Square) {
                        walls = walls.with(wall);
                    }
                    state = next;
                    left -= choice.walls();
                    break;
                }
                rank -= ways;
            }
        }
        walls
    }

    /// The bytes held.
    pub fn bytes(&self) -> u64 {
        ((self.completions.len() + self.passed.len()) * 8) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configs::{Tables, count_by_walls};
    use crate::support::progress::Silent;

    /// Every configuration's rank is its place in its layer of the eager tables, and the
    /// rank's inverse gives it back, on boards of several shapes up to a full board.
    #[test]
    fn ranks_are_the_eager_order() {
        for (w, h, n) in [
            (2, 3, 2),
            (3, 3, 10),
            (4, 3, 3),
            (3, 4, 10),
            (4, 4, 3),
            (5, 3, 2),
            (7, 3, 3),
            (3, 6, 3),
        ] {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let rank = ProfileRank::new(board, 2 * n as usize);
            assert!(rank.bytes() <= ProfileRank::estimate_bytes(board, 2 * n as usize).unwrap());
            let counts = count_by_walls(board, 2 * n as usize);
            for (k, &c) in counts.iter().enumerate() {
                assert_eq!(rank.count(k) as u128, c, "{board} layer {k}");
            }
            for id in 0..tables.len() as crate::configs::ConfigId {
                let walls = tables.walls(id);
                let k = walls.len() as usize;
                let first = tables.layer(k).start;
                assert_eq!(
                    rank.rank(walls),
                    Some((id - first) as u64),
                    "{board} id {id}"
                );
                assert_eq!(rank.unrank(k, (id - first) as u64), walls);
                if k < 2 * n as usize {
                    let mut children = Vec::new();
                    rank.child_ranks(walls, |wall, r| children.push((wall, r)));
                    let mut expected = Vec::new();
                    let mut free = crate::configs::free_key(board, walls);
                    while free != 0 {
                        let wall = crate::configs::key_wall(board, free.trailing_zeros());
                        free &= free - 1;
                        expected.push((wall, rank.rank(walls.with(wall)).unwrap()));
                    }
                    assert_eq!(children, expected, "{board} children of id {id}");
                }
                let mut parents = Vec::new();
                rank.parent_ranks(walls, |wall, r| parents.push((wall, r)));
                let mut expected: Vec<(Wall, u64)> = walls
                    .iter()
                    .map(|wall| (wall, rank.rank(walls.without(wall)).unwrap()))
                    .collect();
                expected.sort_by_key(|&(w, _)| crate::configs::key(board, WallSet::EMPTY.with(w)));
                assert_eq!(parents, expected, "{board} parents of id {id}");
            }
        }
    }
}
