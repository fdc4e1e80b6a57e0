//! Walls and sets of walls.
//!
//! A wall is anchored at an interior intersection, named by the square `(c, r)` at whose
//! top-right corner it lies (`c < W-1`, `r < H-1`). A wall set keeps one `Squares` per
//! orientation, using the anchor's *square* bit `r * W + c`, so that the edges a wall blocks
//! are the anchor bit and one neighbour: no remapping between anchor and square indices.
//!
//! ```text
//!  3x3 board, anchors marked +          horizontal b1h = anchor (1,0), bit 1:
//!    .   .   .                            blocks b1-b2 and c1-c2 (squares 1,2 upward)
//!      +   +        <- anchors (0,1) (1,1) = bits 3, 4
//!    .   .   .                          vertical a1v = anchor (0,0), bit 0:
//!      +   +        <- anchors (0,0) (1,0) = bits 0, 1   blocks a1-b1 and a2-b2
//!    .   .   .                            (squares 0,3 rightward)
//! ```

use crate::rules::bitboard::{BitMask, OpenEdges, Squares};
use crate::rules::geometry::{Board, Square};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Orientation {
    Horizontal,
    Vertical,
}

/// One wall: its anchor square and orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Wall {
    pub anchor: Square,
    pub orientation: Orientation,
}

/// Why a wall cannot stand beside the walls already on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clash {
    /// The same wall is already there.
    Same(Wall),
    /// A parallel wall shares one of its two segments.
    Overlaps(Wall),
    /// The wall of the other orientation at the same anchor.
    Crosses(Wall),
}

/// A set of walls: anchor bits per orientation (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WallSet {
    pub horizontal: Squares,
    pub vertical: Squares,
}

impl WallSet {
    pub const EMPTY: WallSet = WallSet {
        horizontal: 0,
        vertical: 0,
    };

    pub fn len(self) -> u32 {
        self.horizontal.count_ones() + self.vertical.count_ones()
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    pub fn contains(self, wall: Wall) -> bool {
        self.bits(wall.orientation) >> wall.anchor & 1 == 1
    }

    pub fn bits(self, orientation: Orientation) -> Squares {
        match orientation {
            Orientation::Horizontal => self.horizontal,
            Orientation::Vertical => self.vertical,
        }
    }

    /// The set with `wall` added (no checks).
    pub fn with(self, wall: Wall) -> WallSet {
        let bit: Squares = 1 << wall.anchor;
        match wall.orientation {
            Orientation::Horizontal => WallSet {
                horizontal: self.horizontal | bit,
                ..self
            },
            Orientation::Vertical => WallSet {
                vertical: self.vertical | bit,
                ..self
            },
        }
    }

    /// The set with `wall` taken out (no checks).
    pub fn without(self, wall: Wall) -> WallSet {
        let bit: Squares = 1 << wall.anchor;
        match wall.orientation {
            Orientation::Horizontal => WallSet {
                horizontal: self.horizontal & !bit,
                ..self
            },
            Orientation::Vertical => WallSet {
                vertical: self.vertical & !bit,
                ..self
            },
        }
    }

    /// Anchors where a horizontal wall fits: not on, beside (sharing a segment) or across
    /// a placed wall. Shifts that leave the anchor area are cut by `anchors`.
    pub fn free_horizontal(self, board: Board) -> Squares {
        let h = self.horizontal;
        board.anchors() & !(h | h << 1 | h >> 1 | self.vertical)
    }

    /// Anchors where a vertical wall fits (the same rule, along columns).
    pub fn free_vertical(self, board: Board) -> Squares {
        let v = self.vertical;
        let w = board.width();
        board.anchors() & !(v | v << w | v >> w | self.horizontal)
    }

    pub fn free(self, board: Board, orientation: Orientation) -> Squares {
        match orientation {
            Orientation::Horizontal => self.free_horizontal(board),
            Orientation::Vertical => self.free_vertical(board),
        }
    }

    /// Why `wall` cannot join this set geometrically, if it cannot. The anchor must be valid.
    pub fn clash(self, board: Board, wall: Wall) -> Option<Clash> {
        let a = wall.anchor;
        let (same, other) = match wall.orientation {
            Orientation::Horizontal => (Orientation::Horizontal, Orientation::Vertical),
            Orientation::Vertical => (Orientation::Vertical, Orientation::Horizontal),
        };
        let at = |o, anchor: Square| Wall {
            anchor,
            orientation: o,
        };
        if self.contains(wall) {
            return Some(Clash::Same(wall));
        }
        let step = match wall.orientation {
            Orientation::Horizontal => 1,
            Orientation::Vertical => board.width() as Square,
        };
        let neighbours = [a.checked_sub(step), a.checked_add(step)];
        for n in neighbours.into_iter().flatten() {
            if (n as usize) < crate::rules::geometry::MAX_SQUARES
                && board.anchors() >> n & 1 == 1
                && self.contains(at(same, n))
            {
                return Some(Clash::Overlaps(at(same, n)));
            }
        }
        if self.contains(at(other, a)) {
            return Some(Clash::Crosses(at(other, a)));
        }
        None
    }

    /// Squares whose upward step is blocked, and squares whose rightward step is blocked.
    #[inline(always)]
    pub fn blocked(self, board: Board) -> (Squares, Squares) {
        self.blocked_in::<Squares>(board)
    }

    /// `blocked` in words of type `M` (`u64` on boards of at most 64 squares).
    #[inline(always)]
    fn blocked_in<M: BitMask>(self, board: Board) -> (M, M) {
        let (h, v) = (M::narrow(self.horizontal), M::narrow(self.vertical));
        (h | h << 1, v | v << board.width())
    }

    /// The open edges of the board with these walls.
    #[inline]
    pub fn edges(self, board: Board) -> OpenEdges {
        self.edges_in::<Squares>(board)
    }

    /// The open edges kept in words of type `M` (`u64` on boards of at most 64 squares).
    #[inline(always)]
    pub fn edges_in<M: BitMask>(self, board: Board) -> OpenEdges<M> {
        let (up, right) = self.blocked_in::<M>(board);
        OpenEdges::new(board, up, right)
    }

    /// The squares a pawn on `me` may move to when the other pawn is on `opp`. The proof
    /// search asks this at every node: on boards of at most 64 squares it works in one `u64`
    /// word per mask, as fast as before boards could have more squares.
    #[inline]
    pub fn pawn_destinations(self, board: Board, me: Square, opp: Square) -> Squares {
        if board.squares() <= 64 {
            self.edges_in::<u64>(board)
                .pawn_destinations(me, opp)
                .widen()
        } else {
            self.edges(board).pawn_destinations(me, opp)
        }
    }

    /// The left-right mirror image: anchor column `c` becomes `W-2-c`, for both orientations.
    pub fn mirror(self, board: Board) -> WallSet {
        let m = |bits: Squares| {
            crate::rules::bitboard::bits(bits).fold(0 as Squares, |acc, a| {
                let (c, r) = (board.col(a), board.row(a));
                acc | 1 << board.square(board.width() - 2 - c, r)
            })
        };
        WallSet {
            horizontal: m(self.horizontal),
            vertical: m(self.vertical),
        }
    }

    /// Every wall of the set, horizontal ones first, each by ascending anchor.
    pub fn iter(self) -> impl Iterator<Item = Wall> {
        let h = crate::rules::bitboard::bits(self.horizontal).map(|anchor| Wall {
            anchor,
            orientation: Orientation::Horizontal,
        });
        let v = crate::rules::bitboard::bits(self.vertical).map(|anchor| Wall {
            anchor,
            orientation: Orientation::Vertical,
        });
        h.chain(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(anchor: Square) -> Wall {
        Wall {
            anchor,
            orientation: Orientation::Horizontal,
        }
    }
    fn v(anchor: Square) -> Wall {
        Wall {
            anchor,
            orientation: Orientation::Vertical,
        }
    }

    #[test]
    fn free_masks_agree_with_clash() {
        // 9x9 and 11x11 have anchors past bit 63 (9x9's last is bit 70).
        for (width, height) in [(4, 4), (9, 9), (11, 11), (16, 8)] {
            let b = Board::new(width, height).unwrap();
            // Every single wall, then every set of two: the masks and `clash` must agree.
            let all: Vec<Wall> = crate::rules::bitboard::bits(b.anchors())
                .flat_map(|a| [h(a), v(a)])
                .collect();
            assert_eq!(all.len(), 2 * b.anchor_count());
            for &first in &all {
                let set = WallSet::EMPTY.with(first);
                assert!(set.contains(first));
                assert_eq!(set.len(), 1);
                for &second in &all {
                    let free = set.free(b, second.orientation) >> second.anchor & 1 == 1;
                    assert_eq!(free, set.clash(b, second).is_none(), "{first:?} {second:?}");
                }
            }
        }
    }

    #[test]
    fn blocked_edges() {
        let b = Board::new(3, 3).unwrap();
        let set = WallSet::EMPTY.with(h(b.square(1, 0)));
        let e = set.edges(b);
        use crate::rules::geometry::Dir;
        assert_eq!(e.open(Dir::Up) & 0b111, 0b001);
        assert_eq!(e.open(Dir::Down) & 0b111_000, 0b001_000);
        let set = WallSet::EMPTY.with(v(b.square(0, 0)));
        let e = set.edges(b);
        assert_eq!(e.open(Dir::Right) & 0b011_011, 0b010_010);
    }

    #[test]
    fn mirror_is_an_involution() {
        let b = Board::new(5, 3).unwrap();
        let set = WallSet::EMPTY
            .with(h(b.square(0, 0)))
            .with(v(b.square(3, 1)));
        let m = set.mirror(b);
        assert!(m.contains(h(b.square(3, 0))));
        assert!(m.contains(v(b.square(0, 1))));
        assert_eq!(m.mirror(b), set);
        let b = Board::new(9, 9).unwrap();
        let set = WallSet::EMPTY
            .with(h(b.square(0, 7)))
            .with(v(b.square(6, 7)));
        let m = set.mirror(b);
        assert!(m.contains(h(b.square(7, 7))), "bit 70");
        assert!(m.contains(v(b.square(1, 7))));
        assert_eq!(m.mirror(b), set);
    }
}
