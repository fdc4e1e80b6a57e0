//! Legal actions (RULES.md) for a `Position`.
//!
//! Pawn moves come from the open-edge masks (`bitboard.rs`). A wall is legal when it fits
//! geometrically, the mover has a wall left, and afterwards both pawns can still reach their
//! goal rows; that last test is delegated to a `PathOracle`, so the same generator runs with
//! a flood fill per wall or with the precomputed configuration tables.

use crate::configs::Tables;
use crate::rules::bitboard::bits;
use crate::rules::geometry::{Board, Player};
use crate::rules::position::{Action, Position};
use crate::rules::walls::{Orientation, Wall, WallSet};

/// Decides whether both pawns still have a path to their goals once `walls` stand.
pub trait PathOracle {
    fn keeps_paths(&self, board: Board, walls: WallSet, pawns: [u8; 2]) -> bool;
}

/// The oracle without tables: a flood fill from each goal row.
pub struct FloodFill;

impl PathOracle for FloodFill {
    fn keeps_paths(&self, board: Board, walls: WallSet, pawns: [u8; 2]) -> bool {
        let edges = walls.edges(board);
        [Player::One, Player::Two]
            .into_iter()
            .all(|p| edges.reach(board.goal(p)) >> pawns[p.index()] & 1 == 1)
    }
}

/// The oracle of the configuration tables: a lookup of which squares still reach each goal.
/// (Here rather than in `tables.rs`: the tables know nothing of move generation.)
impl PathOracle for Tables {
    fn keeps_paths(&self, _board: Board, walls: WallSet, pawns: [u8; 2]) -> bool {
        let id = self
            .id_of(walls)
            .expect("walls beyond the tables' wall count");
        self.reach(id, Player::One) >> pawns[0] & 1 == 1
            && self.reach(id, Player::Two) >> pawns[1] & 1 == 1
    }
}

impl Position {
    /// The legal actions, pawn moves first (by square), then walls (horizontal, then vertical,
    /// by anchor). Empty when the game is over, or (only possible with H = 2) when the
    /// player to move is stuck, which is a draw.
    pub fn legal_actions(&self, board: Board) -> Vec<Action> {
        self.legal_actions_with(board, &FloodFill)
    }

    pub fn legal_actions_with(&self, board: Board, oracle: &impl PathOracle) -> Vec<Action> {
        if self.winner(board).is_some() {
            return Vec::new();
        }
        let me = self.to_move;
        let edges = self.walls.edges(board);
        let dest = edges.pawn_destinations(self.pawn(me), self.pawn(me.other()));
        let mut actions: Vec<Action> = bits(dest).map(Action::Pawn).collect();
        if self.left[me.index()] > 0 {
            for orientation in [Orientation::Horizontal, Orientation::Vertical] {
                for anchor in bits(self.walls.free(board, orientation)) {
                    let wall = Wall {
                        anchor,
                        orientation,
                    };
                    if oracle.keeps_paths(board, self.walls.with(wall), self.pawns) {
                        actions.push(Action::Wall(wall));
                    }
                }
            }
        }
        actions
    }

    /// `None` if `action` is legal here, else the reason in words, e.g.
    /// `the wall c2h blocks it`.
    pub fn why_illegal(&self, board: Board, action: Action) -> Option<String> {
        use crate::rules::notation::{clash_text, square_name, wall_name};
        if let Some(p) = self.winner(board) {
            return Some(format!("the game is over: Player {} has won", p.number()));
        }
        let me = self.to_move;
        match action {
            Action::Pawn(square) => {
                let edges = self.walls.edges(board);
                let from = self.pawn(me);
                if edges.pawn_destinations(from, self.pawn(me.other())) >> square & 1 == 1 {
                    return None;
                }
                if square == self.pawn(me.other()) {
                    return Some("the other pawn stands there".into());
                }
                if let Some(wall) = wall_between(board, self.walls, from, square) {
                    return Some(format!("the wall {} blocks it", wall_name(board, wall)));
                }
                Some(format!(
                    "it is not a step or jump from {}",
                    square_name(board, from)
                ))
            }
            Action::Wall(wall) => {
                if self.left[me.index()] == 0 {
                    return Some(format!("Player {} has no walls left", me.number()));
                }
                if let Some(clash) = self.walls.clash(board, wall) {
                    return Some(clash_text(board, clash));
                }
                let after = self.walls.with(wall);
                let edges = after.edges(board);
                for p in [Player::One, Player::Two] {
                    if edges.reach(board.goal(p)) >> self.pawn(p) & 1 == 0 {
                        return Some(format!(
                            "it would leave Player {} no path to their goal row",
                            p.number()
                        ));
                    }
                }
                None
            }
        }
    }
}

/// The wall that blocks the edge between two orthogonally adjacent squares, if one does.
fn wall_between(board: Board, walls: WallSet, a: u8, b: u8) -> Option<Wall> {
    let (ca, ra, cb, rb) = (board.col(a), board.row(a), board.col(b), board.row(b));
    let at = |col: usize, row: usize, orientation| Wall {
        anchor: board.square(col, row),
        orientation,
    };
    let candidates: Vec<Wall> = if ca == cb && ra.abs_diff(rb) == 1 {
        let r = ra.min(rb);
        let mut v = vec![at(ca, r, Orientation::Horizontal)];
        if ca > 0 {
            v.push(at(ca - 1, r, Orientation::Horizontal));
        }
        v
    } else if ra == rb && ca.abs_diff(cb) == 1 {
        let c = ca.min(cb);
        let mut v = vec![at(c, ra, Orientation::Vertical)];
        if ra > 0 {
            v.push(at(c, ra - 1, Orientation::Vertical));
        }
        v
    } else {
        return None;
    };
    candidates
        .into_iter()
        .find(|&w| board.anchors() >> w.anchor & 1 == 1 && walls.contains(w))
}
