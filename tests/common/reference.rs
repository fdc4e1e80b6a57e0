//! A deliberately simple reference implementation of the rules in RULES.md,
//! used only by tests to cross-check the fast engine.
//!
//! Everything is written for obviousness, not speed: cells are plain
//! `(col, row)` pairs, walls are `BTreeSet`s of anchors, and the legality of a
//! wall is decided by one breadth-first search per pawn over an explicit edge
//! check. The only concession to speed is that the BFS works on fixed-size
//! stack arrays (boards have at most 128 cells) and tests a candidate wall
//! without cloning the wall sets.

use std::collections::{BTreeSet, HashSet};

/// Board dimensions: `w` columns, `h` rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefBoard {
    pub w: usize,
    pub h: usize,
}

impl RefBoard {
    fn contains(&self, col: isize, row: isize) -> bool {
        col >= 0 && row >= 0 && (col as usize) < self.w && (row as usize) < self.h
    }
}

/// A position: pawns, placed walls, walls left and the player to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RefPos {
    /// `(col, row)` of Player 1, Player 2.
    pub pawns: [(usize, usize); 2],
    /// Horizontal wall anchors `(col, row)`.
    pub hwalls: BTreeSet<(usize, usize)>,
    /// Vertical wall anchors `(col, row)`.
    pub vwalls: BTreeSet<(usize, usize)>,
    /// Walls left: Player 1, Player 2.
    pub left: [u32; 2],
    /// 0 = Player 1, 1 = Player 2.
    pub to_move: usize,
}

/// An action: a pawn move (step or jump) to a cell, or a wall placement at an anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RefAction {
    Pawn {
        col: usize,
        row: usize,
    },
    Wall {
        col: usize,
        row: usize,
        horizontal: bool,
    },
}

fn cell_name(col: usize, row: usize) -> String {
    assert!(col < 26, "column {col} has no letter");
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

impl RefAction {
    /// Notation of RULES.md: a pawn move is the cell it lands on (`c2` = cell
    /// `(2, 1)`), a wall is its anchor cell plus `h`/`v` (`b2h` = horizontal
    /// anchor `(1, 1)`). Rows may have two digits (`a10`).
    pub fn notation(&self) -> String {
        match *self {
            RefAction::Pawn { col, row } => cell_name(col, row),
            RefAction::Wall {
                col,
                row,
                horizontal,
            } => format!(
                "{}{}",
                cell_name(col, row),
                if horizontal { 'h' } else { 'v' }
            ),
        }
    }
}

/// The four orthogonal directions as `(dcol, drow)`.
const DIRS: [(isize, isize); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// The placed walls, plus optionally one candidate wall `(col, row, horizontal)`
/// that is treated as placed (so legality can be tested without cloning sets).
struct Walls<'a> {
    h: &'a BTreeSet<(usize, usize)>,
    v: &'a BTreeSet<(usize, usize)>,
    extra: Option<(usize, usize, bool)>,
}

impl Walls<'_> {
    fn has_h(&self, col: usize, row: usize) -> bool {
        self.h.contains(&(col, row)) || self.extra == Some((col, row, true))
    }

    fn has_v(&self, col: usize, row: usize) -> bool {
        self.v.contains(&(col, row)) || self.extra == Some((col, row, false))
    }

    /// Whether the edge between two orthogonally adjacent cells `a` and `b`
    /// (both on the board) is open.
    ///
    /// - Between rows `r` and `r+1` in column `c`: blocked by horizontal walls
    ///   `(c, r)` (covering columns `c`, `c+1`) and `(c-1, r)` (covering `c-1`, `c`).
    /// - Between columns `c` and `c+1` in row `r`: blocked by vertical walls
    ///   `(c, r)` (covering rows `r`, `r+1`) and `(c, r-1)` (covering `r-1`, `r`).
    fn open(&self, a: (usize, usize), b: (usize, usize)) -> bool {
        if a.0 == b.0 {
            assert!(a.1.abs_diff(b.1) == 1, "cells {a:?} {b:?} not adjacent");
            let c = a.0;
            let r = a.1.min(b.1);
            let blocked = self.has_h(c, r) || (c >= 1 && self.has_h(c - 1, r));
            !blocked
        } else {
            assert!(
                a.1 == b.1 && a.0.abs_diff(b.0) == 1,
                "cells {a:?} {b:?} not adjacent"
            );
            let r = a.1;
            let c = a.0.min(b.0);
            let blocked = self.has_v(c, r) || (r >= 1 && self.has_v(c, r - 1));
            !blocked
        }
    }

    /// Whether some path of open edges leads from `from` to a cell of row
    /// `goal_row` (pawns do not block paths).
    fn path_exists(&self, board: RefBoard, from: (usize, usize), goal_row: usize) -> bool {
        let idx = |c: (usize, usize)| c.1 * board.w + c.0;
        let mut seen = [false; 128];
        let mut queue = [(0usize, 0usize); 128];
        let (mut head, mut tail) = (0, 0);
        seen[idx(from)] = true;
        queue[tail] = from;
        tail += 1;
        while head < tail {
            let cell = queue[head];
            head += 1;
            if cell.1 == goal_row {
                return true;
            }
            for (dc, dr) in DIRS {
                let (nc, nr) = (cell.0 as isize + dc, cell.1 as isize + dr);
                if !board.contains(nc, nr) {
                    continue;
                }
                let next = (nc as usize, nr as usize);
                if !seen[idx(next)] && self.open(cell, next) {
                    seen[idx(next)] = true;
                    queue[tail] = next;
                    tail += 1;
                }
            }
        }
        false
    }
}

impl RefPos {
    fn walls(&self) -> Walls<'_> {
        Walls {
            h: &self.hwalls,
            v: &self.vwalls,
            extra: None,
        }
    }

    /// The start position: pawns at `(floor(W/2), 0)` and `(floor(W/2), H-1)`,
    /// no walls, `walls_per_player` each, Player 1 to move.
    pub fn start(board: RefBoard, walls_per_player: u32) -> RefPos {
        assert!(board.w >= 2 && board.h >= 2 && board.w <= 26 && board.w * board.h <= 128);
        RefPos {
            pawns: [(board.w / 2, 0), (board.w / 2, board.h - 1)],
            hwalls: BTreeSet::new(),
            vwalls: BTreeSet::new(),
            left: [walls_per_player; 2],
            to_move: 0,
        }
    }

    /// `Some(0)` if Player 1's pawn is on row `H-1`, else `Some(1)` if Player
    /// 2's pawn is on row 0, else `None`.
    pub fn winner(&self, board: RefBoard) -> Option<usize> {
        if self.pawns[0].1 == board.h - 1 {
            Some(0)
        } else if self.pawns[1].1 == 0 {
            Some(1)
        } else {
            None
        }
    }

    /// Pawn destinations (steps and jumps) of the player to move.
    fn pawn_moves(&self, board: RefBoard) -> Vec<(usize, usize)> {
        let walls = self.walls();
        let me = self.pawns[self.to_move];
        let opp = self.pawns[1 - self.to_move];
        let step = |from: (usize, usize), (dc, dr): (isize, isize)| {
            let (c, r) = (from.0 as isize + dc, from.1 as isize + dr);
            board.contains(c, r).then_some((c as usize, r as usize))
        };
        let mut out = Vec::new();
        for d in DIRS {
            let Some(next) = step(me, d) else { continue };
            if !walls.open(me, next) {
                continue;
            }
            if next != opp {
                out.push(next);
                continue;
            }
            // The adjacent cell holds the other pawn: straight jump if possible.
            match step(opp, d) {
                Some(behind) if walls.open(opp, behind) => out.push(behind),
                _ => {
                    // Straight jump impossible: the cells beside the other pawn,
                    // perpendicular to the jump direction.
                    for side_dir in [(d.1, d.0), (-d.1, -d.0)] {
                        if let Some(side) = step(opp, side_dir)
                            && walls.open(opp, side)
                        {
                            out.push(side);
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether the player to move may place wall `(col, row, horizontal)` now.
    fn wall_legal(&self, board: RefBoard, col: usize, row: usize, horizontal: bool) -> bool {
        if self.left[self.to_move] == 0 || col + 1 >= board.w || row + 1 >= board.h {
            return false;
        }
        let (same, other) = if horizontal {
            (&self.hwalls, &self.vwalls)
        } else {
            (&self.vwalls, &self.hwalls)
        };
        // Same orientation at the same anchor, or crossing (other orientation).
        if same.contains(&(col, row)) || other.contains(&(col, row)) {
            return false;
        }
        // Parallel walls sharing a segment.
        let neighbours: [(isize, isize); 2] = if horizontal {
            [
                (col as isize - 1, row as isize),
                (col as isize + 1, row as isize),
            ]
        } else {
            [
                (col as isize, row as isize - 1),
                (col as isize, row as isize + 1),
            ]
        };
        for (c, r) in neighbours {
            if c >= 0 && r >= 0 && same.contains(&(c as usize, r as usize)) {
                return false;
            }
        }
        // Both pawns must keep a path to their goal rows.
        let walls = Walls {
            h: &self.hwalls,
            v: &self.vwalls,
            extra: Some((col, row, horizontal)),
        };
        walls.path_exists(board, self.pawns[0], board.h - 1)
            && walls.path_exists(board, self.pawns[1], 0)
    }

    /// All legal actions of the player to move, sorted, without duplicates.
    /// Empty if the game is over (a winner) or if the player has no legal
    /// action (a draw, possible only with H = 2).
    pub fn legal_actions(&self, board: RefBoard) -> Vec<RefAction> {
        if self.winner(board).is_some() {
            return Vec::new();
        }
        let mut out: Vec<RefAction> = self
            .pawn_moves(board)
            .into_iter()
            .map(|(col, row)| RefAction::Pawn { col, row })
            .collect();
        if self.left[self.to_move] > 0 {
            for col in 0..board.w - 1 {
                for row in 0..board.h - 1 {
                    for horizontal in [true, false] {
                        if self.wall_legal(board, col, row, horizontal) {
                            out.push(RefAction::Wall {
                                col,
                                row,
                                horizontal,
                            });
                        }
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The position after `action` (assumed legal): the pawn moves, or the
    /// wall is placed and the mover's walls left drop by one; the other player
    /// is then to move.
    pub fn play(&self, _board: RefBoard, action: RefAction) -> RefPos {
        let mut next = self.clone();
        match action {
            RefAction::Pawn { col, row } => next.pawns[self.to_move] = (col, row),
            RefAction::Wall {
                col,
                row,
                horizontal,
            } => {
                let inserted = if horizontal {
                    next.hwalls.insert((col, row))
                } else {
                    next.vwalls.insert((col, row))
                };
                assert!(inserted, "wall {action:?} already placed");
                next.left[self.to_move] -= 1;
            }
        }
        next.to_move = 1 - self.to_move;
        next
    }
}

/// Number of action sequences of exactly `depth` plies from `pos`, where a
/// sequence stops early at a position with no continuation:
///
/// - `perft(pos, 0) = 1`;
/// - if the game is over at `pos` (a winner), `perft(pos, d) = 1` for every `d`
///   (the sequence stops there and is counted once);
/// - if `pos` has no winner but the player to move has no legal action (a
///   draw, H = 2 only), `perft(pos, d) = 1` as well;
/// - otherwise `perft(pos, d) = sum over legal actions a of perft(play(pos, a), d - 1)`.
pub fn perft_slow(board: RefBoard, pos: &RefPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let actions = pos.legal_actions(board);
    if actions.is_empty() {
        return 1;
    }
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .iter()
        .map(|&a| perft_slow(board, &pos.play(board, a), depth - 1))
        .sum()
}

/// Every position reachable from the start of `(board, walls_per_player)` by
/// legal play, including the start and finished positions (which are not
/// expanded further). Sorted.
pub fn reachable_slow(board: RefBoard, walls_per_player: u32) -> Vec<RefPos> {
    let start = RefPos::start(board, walls_per_player);
    let mut seen: HashSet<RefPos> = HashSet::new();
    let mut stack = vec![start.clone()];
    seen.insert(start);
    while let Some(pos) = stack.pop() {
        for a in pos.legal_actions(board) {
            let next = pos.play(board, a);
            if !seen.contains(&next) {
                seen.insert(next.clone());
                stack.push(next);
            }
        }
    }
    let mut all: Vec<RefPos> = seen.into_iter().collect();
    all.sort();
    all
}
