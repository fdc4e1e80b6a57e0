//! A game state: walls on the board, both pawns, walls left for each player, the player to
//! move. Actions and playing them live here too; which actions are legal is `movegen.rs`.

use crate::error::{Error, Result};
use crate::rules::geometry::{Board, Player, Square};
use crate::rules::walls::{Clash, Wall, WallSet};

/// The most walls a player may hold: walls-left counts are packed in 5 bits in search keys.
pub const MAX_WALLS_PER_PLAYER: u8 = 31;

/// One player's action: move the pawn to a square, or place a wall.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    Pawn(Square),
    Wall(Wall),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub walls: WallSet,
    /// Pawn squares, indexed by `Player::index`.
    pub pawns: [Square; 2],
    /// Walls left, indexed by `Player::index`.
    pub left: [u8; 2],
    pub to_move: Player,
}

impl Position {
    /// The start of a game with `walls_per_player` walls each (RULES.md: both pawns in column
    /// `floor(W/2)`, Player 1 to move).
    pub fn start(board: Board, walls_per_player: u8) -> Result<Position> {
        check_walls_per_player(walls_per_player)?;
        Ok(Position {
            walls: WallSet::EMPTY,
            pawns: [board.start(Player::One), board.start(Player::Two)],
            left: [walls_per_player; 2],
            to_move: Player::One,
        })
    }

    /// The player whose pawn stands on their goal row (Player 1 checked first).
    pub fn winner(&self, board: Board) -> Option<Player> {
        [Player::One, Player::Two]
            .into_iter()
            .find(|&p| board.goal(p) >> self.pawns[p.index()] & 1 == 1)
    }

    pub fn pawn(&self, player: Player) -> Square {
        self.pawns[player.index()]
    }

    /// The position after `action` by the player to move. The action must be legal.
    pub fn play(&self, action: Action) -> Position {
        let mut next = *self;
        let me = self.to_move.index();
        match action {
            Action::Pawn(square) => next.pawns[me] = square,
            Action::Wall(wall) => {
                next.walls = self.walls.with(wall);
                next.left[me] -= 1;
            }
        }
        next.to_move = self.to_move.other();
        next
    }

    /// The left-right mirror image (same value, by symmetry of the rules).
    pub fn mirror(&self, board: Board) -> Position {
        Position {
            walls: self.walls.mirror(board),
            pawns: self.pawns.map(|c| board.mirror_square(c)),
            ..*self
        }
    }

    /// Checks that a position given by a user could stand on `board`: pawns on distinct squares,
    /// walls on valid anchors that do not overlap, both pawns with a path to their goals, not
    /// both pawns home, and (when `walls_per_player` is given) walls left not above it.
    /// The error is typed; `notation::position_error_text` words it.
    pub fn validate(
        &self,
        board: Board,
        walls_per_player: Option<u8>,
    ) -> std::result::Result<(), PositionError> {
        let on_board = board.all_squares();
        for p in [Player::One, Player::Two] {
            if on_board >> self.pawn(p) & 1 == 0 {
                return Err(PositionError::PawnOffBoard(p));
            }
        }
        if self.pawns[0] == self.pawns[1] {
            return Err(PositionError::SameCell);
        }
        let mut placed = WallSet::EMPTY;
        for wall in self.walls.iter() {
            if board.anchors() >> wall.anchor & 1 == 0 {
                return Err(PositionError::WallOffBoard);
            }
            if let Some(clash) = placed.clash(board, wall) {
                return Err(PositionError::WallClash(wall, clash));
            }
            placed = placed.with(wall);
        }
        let edges = self.walls.edges(board);
        for p in [Player::One, Player::Two] {
            if edges.reach(board.goal(p)) >> self.pawn(p) & 1 == 0 {
                return Err(PositionError::NoPath(p, self.pawn(p)));
            }
        }
        if board.goal(Player::One) >> self.pawns[0] & board.goal(Player::Two) >> self.pawns[1] & 1
            == 1
        {
            return Err(PositionError::BothHome);
        }
        for p in [Player::One, Player::Two] {
            let left = self.left[p.index()];
            if left > MAX_WALLS_PER_PLAYER {
                return Err(PositionError::TooManyLeft(p, left));
            }
            if let Some(n) = walls_per_player
                && left > n
            {
                return Err(PositionError::MoreLeftThanDealt(p, left, n));
            }
        }
        if let Some(n) = walls_per_player {
            let placed = self.walls.len() as i32;
            let used = 2 * n as i32 - self.left[0] as i32 - self.left[1] as i32;
            if placed != used {
                return Err(PositionError::WallsDoNotAddUp {
                    placed,
                    used,
                    left: self.left,
                    dealt: n,
                });
            }
        }
        Ok(())
    }
}

/// Why a position cannot stand on a board (`Position::validate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionError {
    PawnOffBoard(Player),
    SameCell,
    WallOffBoard,
    /// A wall clashes with one listed before it.
    WallClash(Wall, Clash),
    /// The player's pawn, on this square, cannot reach its goal row.
    NoPath(Player, Square),
    BothHome,
    /// More walls left than the solver supports.
    TooManyLeft(Player, u8),
    /// More walls left (second) than each player was dealt (third).
    MoreLeftThanDealt(Player, u8, u8),
    /// Walls on the board and walls used (dealt twice less those left, both players
    /// together) differ.
    WallsDoNotAddUp {
        placed: i32,
        used: i32,
        left: [u8; 2],
        dealt: u8,
    },
}

/// Walls per player must fit the search key (5 bits).
pub fn check_walls_per_player(n: u8) -> Result<()> {
    if n > MAX_WALLS_PER_PLAYER {
        return Err(Error::Argument(format!(
            "{n} walls per player: at most {MAX_WALLS_PER_PLAYER} are supported"
        )));
    }
    Ok(())
}

/// What a number of walls per player must be, for every message that refuses one.
pub fn walls_range() -> String {
    format!("walls per player must be a whole number from 0 to {MAX_WALLS_PER_PLAYER}")
}

/// Walls per player from `text`, the value of the flag or parameter `name` (`--walls` on
/// the command line, `walls` in `serve`'s API). Read as text rather than as a `u8` so that
/// every value outside the supported range (255 as well as 256, 10^20 or -1) gets the same
/// message, naming the range the solver supports rather than a byte's.
pub fn parse_walls_per_player(name: &str, text: &str) -> Result<u8> {
    text.trim()
        .parse::<u8>()
        .ok()
        .filter(|&n| n <= MAX_WALLS_PER_PLAYER)
        .ok_or_else(|| {
            Error::Argument(format!(
                "{name} {}: {}",
                crate::error::clip(text),
                walls_range()
            ))
        })
}
