//! Sets of squares as `Squares` bit masks (bit `row * W + col`, see `geometry.rs`), and the
//! open-edge masks that make pawn moves, flood fills and distances a few shifts.

pub use crate::rules::geometry::Squares;
use crate::rules::geometry::{Board, Dir, MAX_SQUARES, Square};

/// A word of square bits: `Squares` (every board), or `u64` (boards of at most 64 squares, where
/// the hot loops run at the speed of one machine word: the retrograde analysis and the proof
/// search's pawn moves use it there).
pub trait BitMask:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitOrAssign
    + std::ops::Not<Output = Self>
    + std::ops::Shl<usize, Output = Self>
    + std::ops::Shr<usize, Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    /// The low bits of a square set (the caller knows no square lies above them).
    fn narrow(set: Squares) -> Self;
    fn widen(self) -> Squares;
    /// Clears the lowest set bit and returns its index, if any bit is set.
    fn pop_lowest(&mut self) -> Option<u32>;
}

macro_rules! bit_mask {
    ($($t:ty),*) => {$(
        impl BitMask for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn narrow(set: Squares) -> Self {
                debug_assert!(set >> (<$t>::BITS - 1) >> 1 == 0, "no square above the word");
                set as $t
            }
            #[inline(always)]
            fn widen(self) -> Squares {
                self as Squares
            }
            #[inline(always)]
            fn pop_lowest(&mut self) -> Option<u32> {
                if *self == 0 {
                    return None;
                }
                let i = self.trailing_zeros();
                *self &= *self - 1;
                Some(i)
            }
        }
    )*};
}
bit_mask!(u64, u128);

/// Iterates the indices of the set bits, lowest first.
#[inline]
pub fn bits<M: BitMask>(mut set: M) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || set.pop_lowest().map(|i| i as Square))
}

/// Distance value for a square that cannot reach the goal at all.
pub const UNREACHABLE: u8 = u8::MAX;

/// For each direction, the squares from which a step that way stays on the board and crosses
/// no wall. Edges are symmetric, so the same masks serve moves and reverse flood fills.
/// `M` is the word the masks are kept in (`u64` only on boards of at most 64 squares).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenEdges<M = Squares> {
    board: Board,
    /// Indexed by `Dir as usize`: up, down, right, left.
    open: [M; 4],
}

impl<M: BitMask> OpenEdges<M> {
    /// Open edges given the squares whose upward edge and whose rightward edge are blocked.
    #[inline(always)]
    pub fn new(board: Board, blocked_up: M, blocked_right: M) -> OpenEdges<M> {
        let w = board.width();
        let all = M::narrow(board.all_squares());
        let not_top = all >> w;
        let not_bottom = all & !M::narrow(board.bottom_row());
        let not_right = M::narrow(board.not_last_col());
        let not_left = M::narrow(board.not_first_col());
        OpenEdges {
            board,
            open: [
                not_top & !blocked_up,
                not_bottom & !(blocked_up << w),
                not_right & !blocked_right,
                not_left & !(blocked_right << 1),
            ],
        }
    }

    #[inline(always)]
    pub fn open(&self, dir: Dir) -> M {
        self.open[dir as usize]
    }

    /// Moves a set one step in `dir` (the caller keeps the step on the board).
    #[inline(always)]
    fn shift(&self, set: M, dir: Dir) -> M {
        let w = self.board.width();
        match dir {
            Dir::Up => set << w,
            Dir::Down => set >> w,
            Dir::Right => set << 1,
            Dir::Left => set >> 1,
        }
    }

    /// Every square one open step away from a square of `set`.
    #[inline(always)]
    pub fn expand(&self, set: M) -> M {
        let w = self.board.width();
        ((set & self.open[0]) << w)
            | ((set & self.open[1]) >> w)
            | ((set & self.open[2]) << 1)
            | ((set & self.open[3]) >> 1)
    }

    /// The squares connected to `from` by open edges (including `from`): a flood fill.
    pub fn reach(&self, from: M) -> M {
        let mut set = from;
        loop {
            let next = set | self.expand(set);
            if next == set {
                return set;
            }
            set = next;
        }
    }

    /// Steps from every square to the nearest square of `goal` (`UNREACHABLE` if cut off),
    /// indexed by square; entries past the board's squares are `UNREACHABLE`.
    pub fn distances(&self, goal: M) -> [u8; MAX_SQUARES] {
        let mut dist = [UNREACHABLE; MAX_SQUARES];
        let mut seen = goal;
        let mut frontier = goal;
        let mut d = 0u8;
        while frontier != M::ZERO {
            for c in bits(frontier) {
                dist[c as usize] = d;
            }
            frontier = self.expand(frontier) & !seen;
            seen |= frontier;
            d += 1;
        }
        dist
    }

    /// The squares a pawn on `me` may move to when the other pawn is on `opp` (RULES.md: steps,
    /// the straight jump, and the diagonal jumps only when the straight one is impossible).
    #[inline]
    pub fn pawn_destinations(&self, me: Square, opp: Square) -> M {
        let me = M::ONE << me as usize;
        let opp = M::ONE << opp as usize;
        let steps = self.expand(me);
        if steps & opp == M::ZERO {
            // No step lands on the other pawn, so no jump rule applies: the usual case,
            // answered without a branch per direction.
            return steps;
        }
        // The other pawn is one open step away, in exactly one direction: jump it straight,
        // or, if a wall or the board's edge is behind it, to either side of it. (One
        // direction found from the squares, not a loop over all four with a branch each:
        // adjacent pawns are a large share of a search's nodes.)
        let dir = if opp == me << self.board.width() {
            Dir::Up
        } else if opp == me >> self.board.width() {
            Dir::Down
        } else if opp == me << 1 {
            Dir::Right
        } else {
            Dir::Left
        };
        let out = steps & !opp;
        let straight = self.step(opp, dir);
        if straight != M::ZERO {
            return out | straight;
        }
        let [a, b] = dir.perpendicular();
        out | self.step(opp, a) | self.step(opp, b)
    }

    /// The square one open step from the single square `set` in `dir`, or none.
    #[inline(always)]
    fn step(&self, set: M, dir: Dir) -> M {
        self.shift(set & self.open(dir), dir)
    }
}

/// Draws a square set as rows of `.` and `#`, top row first (for debugging and test messages).
pub fn render(board: Board, set: Squares) -> String {
    let mut s = String::new();
    for row in (0..board.height()).rev() {
        for col in 0..board.width() {
            let bit = set >> board.square(col, row) & 1;
            s.push(if bit == 1 { '#' } else { '.' });
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Player;

    #[test]
    fn open_board_distances_and_moves() {
        let b = Board::new(3, 3).unwrap();
        let e = OpenEdges::new(b, 0, 0);
        assert_eq!(e.reach(b.row_mask(2)), b.all_squares());
        let d = e.distances(b.row_mask(2));
        assert_eq!(d[b.square(1, 0) as usize], 2);
        assert_eq!(d[b.square(0, 2) as usize], 0);
        // b1 with the other pawn on b2: straight jump to b3, steps to a1 and c1.
        let dest = e.pawn_destinations(b.square(1, 0), b.square(1, 1));
        let want = 1 << b.square(1, 2) | 1 << b.square(0, 0) | 1 << b.square(2, 0);
        assert_eq!(dest, want, "\n{}", render(b, dest));
        // b2 with the other pawn on b3 (board edge behind): diagonals a3 and c3.
        let dest = e.pawn_destinations(b.square(1, 1), b.square(1, 2));
        assert_eq!(
            dest & b.row_mask(2),
            1 << b.square(0, 2) | 1 << b.square(2, 2)
        );
    }

    /// The slow twin: squares as `(col, row)`, walls as a list of anchors and orientations,
    /// each wall's two blocked edges worked out from RULES.md; no masks, no shifts.
    struct Slow {
        w: usize,
        h: usize,
        /// `(col, row, horizontal)`.
        walls: Vec<(usize, usize, bool)>,
    }

    impl Slow {
        fn open(&self, (c, r): (usize, usize), (nc, nr): (usize, usize)) -> bool {
            !self.walls.iter().any(|&(ac, ar, horizontal)| {
                if horizontal {
                    c == nc && (c == ac || c == ac + 1) && r.min(nr) == ar && r != nr
                } else {
                    r == nr && (r == ar || r == ar + 1) && c.min(nc) == ac && c != nc
                }
            })
        }

        /// The square one step from `square` in direction `(dc, dr)`, if on the board.
        fn step(&self, (c, r): (usize, usize), (dc, dr): (i64, i64)) -> Option<(usize, usize)> {
            let (nc, nr) = (c as i64 + dc, r as i64 + dr);
            (nc >= 0 && nr >= 0 && nc < self.w as i64 && nr < self.h as i64)
                .then_some((nc as usize, nr as usize))
        }

        fn open_step(&self, from: (usize, usize), d: (i64, i64)) -> Option<(usize, usize)> {
            self.step(from, d).filter(|&to| self.open(from, to))
        }

        /// Steps to the nearest square of row `goal`, by BFS from that row.
        fn distances(&self, goal: usize) -> Vec<u8> {
            let mut dist = vec![UNREACHABLE; self.w * self.h];
            let mut queue: std::collections::VecDeque<(usize, usize)> =
                (0..self.w).map(|c| (c, goal)).collect();
            for &(c, r) in &queue {
                dist[r * self.w + c] = 0;
            }
            while let Some(square) = queue.pop_front() {
                for d in DIRS {
                    if let Some(next) = self.open_step(square, d)
                        && dist[next.1 * self.w + next.0] == UNREACHABLE
                    {
                        dist[next.1 * self.w + next.0] = dist[square.1 * self.w + square.0] + 1;
                        queue.push_back(next);
                    }
                }
            }
            dist
        }

        /// RULES.md: a step, else the straight jump, else the diagonal jumps.
        fn pawn_destinations(
            &self,
            me: (usize, usize),
            opp: (usize, usize),
        ) -> Vec<(usize, usize)> {
            let mut out = Vec::new();
            for d in DIRS {
                match self.open_step(me, d) {
                    None => {}
                    Some(next) if next != opp => out.push(next),
                    Some(_) => match self.open_step(opp, d) {
                        Some(behind) => out.push(behind),
                        None => {
                            for side in [(d.1, d.0), (-d.1, -d.0)] {
                                out.extend(self.open_step(opp, side));
                            }
                        }
                    },
                }
            }
            out
        }
    }

    const DIRS: [(i64, i64); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

    /// Pseudo-random walls (a fixed linear congruential sequence): legal or not does not
    /// matter here, only which edges they block.
    fn some_walls(board: Board, count: usize, seed: u64) -> (crate::rules::walls::WallSet, Slow) {
        use crate::rules::walls::{Orientation, Wall, WallSet};
        let mut x = seed;
        let mut next = |n: usize| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as usize % n
        };
        let (mut set, mut list) = (WallSet::EMPTY, Vec::new());
        for _ in 0..count {
            let (c, r, horizontal) = (
                next(board.width() - 1),
                next(board.height() - 1),
                next(2) == 0,
            );
            let orientation = if horizontal {
                Orientation::Horizontal
            } else {
                Orientation::Vertical
            };
            set = set.with(Wall {
                anchor: board.square(c, r),
                orientation,
            });
            list.push((c, r, horizontal));
        }
        let slow = Slow {
            w: board.width(),
            h: board.height(),
            walls: list,
        };
        (set, slow)
    }

    /// `expand`, `reach`, `distances` and `pawn_destinations` against the slow twin, on
    /// boards whose squares go past bit 63.
    #[test]
    fn wide_boards_agree_with_the_slow_twin() {
        for (w, h) in [(9, 9), (11, 11), (16, 8), (8, 16), (2, 64), (26, 4), (5, 5)] {
            let board = Board::new(w, h).unwrap();
            for (count, seed) in [(0, 1), (3, 2), (12, 3), (30, 4)] {
                let (walls, slow) = some_walls(board, count, seed);
                let edges = walls.edges(board);
                let at = |square: Square| (board.col(square), board.row(square));
                let set_of = |squares: &[(usize, usize)]| {
                    squares
                        .iter()
                        .fold(0 as Squares, |s, &(c, r)| s | 1 << board.square(c, r))
                };
                let mut union = (0 as Squares, 0 as Squares);
                for square in 0..board.squares() as Square {
                    let steps: Vec<_> = DIRS
                        .iter()
                        .filter_map(|&d| slow.open_step(at(square), d))
                        .collect();
                    assert_eq!(
                        edges.expand(1 << square),
                        set_of(&steps),
                        "{board} {square}"
                    );
                    if square % 3 == 0 {
                        union.0 |= 1 << square;
                        union.1 |= set_of(&steps);
                    }
                }
                assert_eq!(edges.expand(union.0), union.1, "{board}");
                for (player, goal_row) in [(Player::One, h - 1), (Player::Two, 0)] {
                    let fast = edges.distances(board.goal(player));
                    let want = slow.distances(goal_row);
                    assert_eq!(&fast[..board.squares()], &want[..], "{board} {count} walls");
                    assert!(fast[board.squares()..].iter().all(|&d| d == UNREACHABLE));
                    let reached: Vec<_> = (0..board.squares() as Square)
                        .filter(|&c| want[c as usize] != UNREACHABLE)
                        .map(at)
                        .collect();
                    assert_eq!(edges.reach(board.goal(player)), set_of(&reached));
                }
                for me in 0..board.squares() as Square {
                    // Every neighbour (where jumps happen) and one far square.
                    let far = (me as usize + board.squares() / 2) % board.squares();
                    let others = bits(board.neighbours(me)).chain([far as Square]);
                    for opp in others.filter(|&o| o != me) {
                        let want = set_of(&slow.pawn_destinations(at(me), at(opp)));
                        let fast = edges.pawn_destinations(me, opp);
                        assert_eq!(fast, want, "{board} {me} {opp}\n{}", render(board, fast));
                        let local = walls.pawn_destinations(board, me, opp);
                        assert_eq!(local, want, "{board} {me} {opp}\n{}", render(board, local));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod local_moves {
    use crate::configs::Tables;
    use crate::rules::geometry::{Board, Square};
    use crate::support::progress::Silent;

    /// The proof search's pawn moves (`WallSet::pawn_destinations`, in one `u64` word on
    /// these boards) against the open-edge masks in the full square-set word, for every
    /// configuration and pair of pawn squares of small squares.
    #[test]
    fn local_pawn_moves_equal_the_open_edge_masks() {
        for (w, h, walls) in [(3, 3, 4), (4, 3, 3), (3, 4, 3), (2, 5, 4), (5, 2, 4)] {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, walls, u64::MAX, &Silent).unwrap();
            for config in 0..tables.len() as crate::configs::ConfigId {
                let set = tables.walls(config);
                let edges = set.edges(board);
                for me in 0..board.squares() as Square {
                    for opp in (0..board.squares() as Square).filter(|&o| o != me) {
                        assert_eq!(
                            set.pawn_destinations(board, me, opp),
                            edges.pawn_destinations(me, opp),
                            "{board} config {config} pawns {me} {opp}"
                        );
                    }
                }
            }
        }
    }
}
