//! The search's view of a position: a configuration id instead of a wall set, so wall
//! legality is a lookup (`tables.rs`), and an exact packed key.
//!
//! Key layout (64 bits, no loss): a cell's low 6 bits sit below the walls left and its 7th
//! bit above the configuration, so that on boards of at most 64 cells the key is what it
//! was when cells had 6 bits (the same keys, the same table, the same node counts). The
//! configuration is the store's key number for it (`ConfigTables::key_numbers`: the id, or
//! with a store that may be emptied during the search, the wall set's rank).
//!
//! ```text
//!  bit 63      62          61..23          22..18    17..13    12..7     6..1     0
//!  P2 cell/64  P1 cell/64  configuration   P2 left   P1 left   P2 cell   P1 cell  player
//!                                                              % 64      % 64     to move
//! ```
//!
//! Moves are `u16`: a pawn destination cell (`0..MAX_SQUARES`), or `WALL_BASE + slot` for a
//! wall (`2 * MAX_ANCHORS` slots, 210, so 338 values at most: more than a byte holds, and
//! 9x9 alone needs 81 cells and 128 slots besides `NO_MOVE`).

use crate::configs::ConfigId;
use crate::configs::{ConfigTables, KEY_NUMBER_BITS, NO_CHILD};
use crate::rules::bitboard::Squares;
use crate::rules::bitboard::UNREACHABLE;
use crate::rules::geometry::{Board, MAX_ANCHORS, MAX_SQUARES, Player, Square};
use crate::rules::position::{Action, Position};

pub type Move = u16;
pub const WALL_BASE: Move = MAX_SQUARES as Move;
/// One more than the largest move: the size of a table indexed by move.
pub const MOVE_SPAN: usize = WALL_BASE as usize + 2 * MAX_ANCHORS;
/// No move: what the transposition table keeps where no best move is known.
pub const NO_MOVE: Move = Move::MAX;

/// Most moves a node can have: 5 pawn destinations (3 steps and 2 diagonal jumps) plus one
/// per wall slot.
pub const MAX_MOVES: usize = 5 + 2 * MAX_ANCHORS;

/// A node's exact key (layout in the module doc): what the transposition table is
/// indexed by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(pub u64);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    pub config: ConfigId,
    pub pawns: [Square; 2],
    pub left: [u8; 2],
    pub to_move: Player,
}

/// Where the configuration id starts in the key: below it 1 + 2 * 6 + 2 * 5 bits.
const CONFIG_SHIFT: u32 = 23;
/// Where the 7th bits of the two cells go: above the configuration id.
const HIGH_CELL_SHIFT: u32 = CONFIG_SHIFT + KEY_NUMBER_BITS;
/// Where each player's walls-left count starts in the key (5 bits each).
const LEFT_SHIFT: [u32; 2] = [13, 18];
/// The bits of a key that hold the walls-left counts ("stocks").
pub const STOCK_MASK: u64 = 0x3FF << LEFT_SHIFT[0];

/// The walls left in a key: `[attacker's, defender's]` for `attacker` (0 or 1).
#[inline(always)]
pub fn stocks(key: u64, attacker: usize) -> [u8; 2] {
    let left = |p: usize| (key >> LEFT_SHIFT[p] & 0x1F) as u8;
    [left(attacker), left(1 - attacker)]
}
#[allow(clippy::assertions_on_constants)]
const _: () = {
    assert!(
        1 + 2 * 6 + 2 * 5 == CONFIG_SHIFT,
        "side, two cells, two walls-left counts"
    );
    assert!(HIGH_CELL_SHIFT + 2 <= u64::BITS, "the key fits a u64");
    assert!(MAX_SQUARES <= 1 << 7, "a cell fits 7 bits");
    assert!(
        WALL_BASE as usize + 2 * MAX_ANCHORS <= NO_MOVE as usize,
        "every move differs from NO_MOVE"
    );
    assert!(
        crate::rules::position::MAX_WALLS_PER_PLAYER < 1 << 5,
        "walls left fit 5 bits"
    );
};

impl Node {
    pub fn from_position<T: ConfigTables>(tables: &T, pos: &Position) -> Option<Node> {
        Some(Node {
            config: tables.id_of(pos.walls)?,
            pawns: pos.pawns,
            left: pos.left,
            to_move: pos.to_move,
        })
    }

    pub fn to_position<T: ConfigTables>(&self, tables: &T) -> Position {
        Position {
            walls: tables.walls(self.config),
            pawns: self.pawns,
            left: self.left,
            to_move: self.to_move,
        }
    }

    #[inline(always)]
    fn pack(config: u64, pawns: [Square; 2], left: [u8; 2], to_move: Player) -> u64 {
        let [p1, p2] = pawns.map(|c| c as u64);
        (p2 >> 6) << (HIGH_CELL_SHIFT + 1)
            | (p1 >> 6) << HIGH_CELL_SHIFT
            | config << CONFIG_SHIFT
            | (left[1] as u64) << LEFT_SHIFT[1]
            | (left[0] as u64) << LEFT_SHIFT[0]
            | (p2 & 0x3F) << 7
            | (p1 & 0x3F) << 1
            | to_move.index() as u64
    }

    /// The exact key of this node itself, without folding the mirror image.
    #[inline(always)]
    pub fn own_key<T: ConfigTables>(&self, tables: &T) -> Key {
        let own = tables.key_numbers(self.config)[0];
        Key(Self::pack(own, self.pawns, self.left, self.to_move))
    }

    /// The exact key of this node or of its mirror image, whichever is smaller: both have
    /// the same value, so they share one table entry.
    #[inline(always)]
    pub fn key<T: ConfigTables>(&self, tables: &T) -> Key {
        let board = tables.board();
        let [own, mirror] = tables.key_numbers(self.config);
        let own = Self::pack(own, self.pawns, self.left, self.to_move);
        let mirror = Self::pack(
            mirror,
            self.pawns.map(|c| board.mirror_square(c)),
            self.left,
            self.to_move,
        );
        Key(own.min(mirror))
    }

    #[inline(always)]
    pub fn pawn(&self, p: Player) -> Square {
        self.pawns[p.index()]
    }

    /// The node after `mv` by the player to move (the move must be legal).
    #[inline]
    pub fn play<T: ConfigTables>(&self, tables: &T, mv: Move) -> Node {
        let mut next = *self;
        let me = self.to_move.index();
        if mv < WALL_BASE {
            next.pawns[me] = mv as Square;
        } else {
            next.config = tables.child(self.config, (mv - WALL_BASE) as usize);
            next.left[me] -= 1;
        }
        next.to_move = self.to_move.other();
        next
    }

    /// The cells the player to move can move their pawn to.
    #[inline]
    pub fn pawn_destinations<T: ConfigTables>(&self, tables: &T) -> Squares {
        let me = self.to_move;
        let walls = tables.walls(self.config);
        walls.pawn_destinations(tables.board(), self.pawn(me), self.pawn(me.other()))
    }

    /// Whether the player to move can put their pawn on their goal row at once, given their
    /// goal distance `dist`. With the pawns apart that is a distance of 1; a pawn next to
    /// them can block the step or offer a jump, so then their moves are generated.
    #[inline(always)]
    pub fn finishes<T: ConfigTables>(&self, tables: &T, dist: u8) -> bool {
        let board = tables.board();
        let me = self.to_move;
        if !board.adjacent(self.pawn(me), self.pawn(me.other())) {
            dist == 1
        } else {
            self.pawn_destinations(tables) & board.goal(me) != 0
        }
    }

    /// Calls `f(move, child distances)` for every legal wall of the player to move, with
    /// each pawn's goal distance after that wall, indexed by player.
    #[inline]
    pub fn for_each_wall<T: ConfigTables>(&self, tables: &T, mut f: impl FnMut(Move, [u8; 2])) {
        if self.left[self.to_move.index()] == 0 {
            return;
        }
        for (slot, &child) in tables.children(self.config).iter().enumerate() {
            if let Some(dists) = self.child_distances(tables, child) {
                f(WALL_BASE + slot as Move, dists);
            }
        }
    }

    /// Starts loading what `for_each_wall` reads of each child (`prefetch_distances`);
    /// nothing at all with a store that ignores prefetches (`ConfigTables::PREFETCHES`).
    #[inline]
    pub fn prefetch_walls<T: ConfigTables>(&self, tables: &T) {
        if !T::PREFETCHES || self.left[self.to_move.index()] == 0 {
            return;
        }
        for &child in tables.children(self.config) {
            tables.prefetch_distances(child, self.pawns);
        }
    }

    /// The configuration after the wall move `mv`, if the player to move may place it.
    pub fn wall_child<T: ConfigTables>(&self, tables: &T, mv: Move) -> Option<ConfigId> {
        let child = tables.child(self.config, mv.checked_sub(WALL_BASE)? as usize);
        (self.left[self.to_move.index()] > 0 && self.child_distances(tables, child).is_some())
            .then_some(child)
    }

    /// Each pawn's goal distance in `child`, indexed by player, if `child` is a
    /// configuration (not `NO_CHILD`) in which both pawns still reach their goals. Read from
    /// the distances, not the reach masks: move ordering wants the distances anyway.
    #[inline(always)]
    fn child_distances<T: ConfigTables>(&self, tables: &T, child: ConfigId) -> Option<[u8; 2]> {
        if child == NO_CHILD {
            return None;
        }
        let [p1, p2] = self.pawns;
        let dists = [
            tables.distance(child, Player::One, p1),
            tables.distance(child, Player::Two, p2),
        ];
        (dists[0] != UNREACHABLE && dists[1] != UNREACHABLE).then_some(dists)
    }

    pub fn action<T: ConfigTables>(tables: &T, mv: Move) -> Action {
        if mv < WALL_BASE {
            Action::Pawn(mv as Square)
        } else {
            Action::Wall(tables.slot_wall((mv - WALL_BASE) as usize))
        }
    }

    pub fn encode<T: ConfigTables>(tables: &T, action: Action) -> Move {
        match action {
            Action::Pawn(c) => c as Move,
            Action::Wall(w) => WALL_BASE + tables.slot(w) as Move,
        }
    }

    pub fn board<T: ConfigTables>(tables: &T) -> Board {
        tables.board()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key of the 6-bit layout used before boards had more than 64 cells.
    fn old_pack(config: u64, pawns: [Square; 2], left: [u8; 2], to_move: Player) -> u64 {
        config << 23
            | (left[1] as u64) << 18
            | (left[0] as u64) << 13
            | (pawns[1] as u64) << 7
            | (pawns[0] as u64) << 1
            | to_move.index() as u64
    }

    #[test]
    fn keys_are_exact_and_unchanged_below_64_cells() {
        let mut seen = std::collections::HashSet::new();
        for config in [
            0,
            1,
            12345,
            ConfigId::MAX as u64,
            (1 << KEY_NUMBER_BITS) - 1,
        ] {
            for left in [[0, 0], [31, 0], [3, 31]] {
                for p1 in 0..MAX_SQUARES as Square {
                    for p2 in (0..MAX_SQUARES as Square).step_by(7).chain([64, 127]) {
                        for to_move in [Player::One, Player::Two] {
                            let key = Node::pack(config, [p1, p2], left, to_move);
                            assert!(seen.insert(key), "{config} {p1} {p2} {left:?}");
                            assert_eq!(stocks(key, 0), left);
                            if p1 < 64 && p2 < 64 {
                                assert_eq!(key, old_pack(config, [p1, p2], left, to_move));
                            }
                        }
                    }
                }
            }
        }
    }
}
