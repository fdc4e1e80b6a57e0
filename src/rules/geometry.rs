//! Board geometry: the size of the board, squares, players and the four step directions.
//!
//! A square `(col, row)` is the bit `row * W + col` of a `Squares` (see `bitboard.rs`). Row 0 is
//! Player 1's home row. On a 4x3 board:
//!
//! ```text
//!   row 2 (Player 2 starts here)   8  9 10 11
//!   row 1                          4  5  6  7
//!   row 0 (Player 1 starts here)   0  1  2  3
//!                                  a  b  c  d
//! ```

use crate::error::{Error, Result};

/// A square index, `row * W + col`; always below `MAX_SQUARES`. RULES.md and every message
/// call a square a cell; in the code "cell" is a board with its wall count (`cell/`).
pub type Square = u8;

/// A set of squares, or of wall anchors: bit `row * W + col`. The one place that decides how
/// wide a square set is; `MAX_SQUARES` follows from it.
pub type Squares = u128;

/// The most squares a board may have: every square set fits one `Squares`.
pub const MAX_SQUARES: usize = Squares::BITS as usize;
/// The widest board: columns are single letters `a`..`z`.
pub const MAX_WIDTH: usize = 26;

/// The most wall anchors, `(W-1) * (H-1)`, of any board allowed (105 for 128 squares: 16x8).
pub const MAX_ANCHORS: usize = {
    let mut most = 0;
    let mut w = 2;
    while w <= MAX_WIDTH {
        let h = MAX_SQUARES / w;
        if h >= 2 && (w - 1) * (h - 1) > most {
            most = (w - 1) * (h - 1);
        }
        w += 1;
    }
    most
};

#[allow(clippy::assertions_on_constants)]
const _: () = assert!(MAX_SQUARES <= 1 << 8, "a square fits a `Square`");

/// A player: `One` moves first from row 0 towards row H-1, `Two` the other way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    One,
    Two,
}

impl Player {
    /// 0 for Player 1, 1 for Player 2: the index into per-player arrays.
    pub const fn index(self) -> usize {
        match self {
            Player::One => 0,
            Player::Two => 1,
        }
    }

    pub const fn from_index(i: usize) -> Player {
        if i == 0 { Player::One } else { Player::Two }
    }

    pub const fn other(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// The number used in notation and reports: 1 or 2.
    pub const fn number(self) -> u8 {
        self.index() as u8 + 1
    }
}

/// The four step directions, in the order used for the `OpenEdges` arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Up,
    Down,
    Right,
    Left,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Right, Dir::Left];

    /// The two directions at right angles, for diagonal jumps.
    pub const fn perpendicular(self) -> [Dir; 2] {
        match self {
            Dir::Up | Dir::Down => [Dir::Right, Dir::Left],
            Dir::Right | Dir::Left => [Dir::Up, Dir::Down],
        }
    }
}

/// A validated board size: `2 <= W <= 26`, `2 <= H`, `W * H <= MAX_SQUARES` (128).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    width: u8,
    height: u8,
    /// `ceil(2^16 / width)`: a square's row is `square * inv_width >> 16`, exact for every
    /// square below `MAX_SQUARES` (the error, under `128 / 2^16`, stays below `1 / width`),
    /// a multiplication where a division was (the search's keys mirror squares at every node).
    inv_width: u32,
    /// Squares of the first and of the last column, kept because moves need them constantly.
    first_col: Squares,
    last_col: Squares,
    /// Every square, and each player's goal row (`Player::index`): read at every node of the
    /// search, so kept rather than shifted out each time.
    all: Squares,
    goals: [Squares; 2],
}

/// The squares of row `row` of a board `width` columns wide.
const fn row_bits(width: usize, row: usize) -> Squares {
    ((1 << width) - 1) << (row * width)
}

impl Board {
    /// The board `width` columns by `height` rows, or an error naming the limit it breaks.
    pub fn new(width: usize, height: usize) -> Result<Board> {
        let limit = |why: &str| Err(Error::Board(format!("board {width}x{height}: {why}")));
        if width < 2 {
            return limit("the width must be at least 2");
        }
        if width > MAX_WIDTH {
            return limit("the width must be at most 26 (columns are the letters a-z)");
        }
        if height < 2 {
            return limit("the height must be at least 2");
        }
        if width * height > MAX_SQUARES {
            return Err(Error::Board(format!(
                "board {width}x{height}: the board must have at most {MAX_SQUARES} cells \
                 (width x height <= {MAX_SQUARES})"
            )));
        }
        let col = |c: usize| (0..height).fold(0 as Squares, |m, r| m | 1 << (r * width + c));
        let squares = width * height;
        Ok(Board {
            width: width as u8,
            height: height as u8,
            inv_width: (1u32 << 16).div_ceil(width as u32),
            first_col: col(0),
            last_col: col(width - 1),
            all: if squares == MAX_SQUARES {
                Squares::MAX
            } else {
                (1 << squares) - 1
            },
            goals: [row_bits(width, height - 1), row_bits(width, 0)],
        })
    }

    /// Parses `WxH` (e.g. `5x5`, `8x3`).
    pub fn parse(text: &str) -> Result<Board> {
        let bad = || {
            Error::Board(format!(
                "'{}' is not a board size: write WIDTHxHEIGHT with a lower-case x, e.g. 5x5",
                crate::error::clip(text)
            ))
        };
        // Lower-case only, like the rest of the notation (RULES.md, notation.rs).
        let (w, h) = text.trim().split_once('x').ok_or_else(bad)?;
        let w: usize = w.parse().map_err(|_| bad())?;
        let h: usize = h.parse().map_err(|_| bad())?;
        Board::new(w, h)
    }

    pub const fn width(self) -> usize {
        self.width as usize
    }

    pub const fn height(self) -> usize {
        self.height as usize
    }

    pub const fn squares(self) -> usize {
        self.width() * self.height()
    }

    pub const fn square(self, col: usize, row: usize) -> Square {
        (row * self.width() + col) as Square
    }

    pub const fn col(self, square: Square) -> usize {
        square as usize - self.row(square) * self.width()
    }

    pub const fn row(self, square: Square) -> usize {
        ((square as u32 * self.inv_width) >> 16) as usize
    }

    /// Rows plus columns between two squares, walls ignored (their Manhattan distance): at
    /// least the pawn steps that bring pawns on them side by side.
    #[inline(always)]
    pub const fn apart(self, a: Square, b: Square) -> usize {
        self.row(a).abs_diff(self.row(b)) + self.col(a).abs_diff(self.col(b))
    }

    /// Every square of the board.
    pub const fn all_squares(self) -> Squares {
        self.all
    }

    pub const fn row_mask(self, row: usize) -> Squares {
        row_bits(self.width(), row)
    }

    pub fn col_mask(self, col: usize) -> Squares {
        self.first_col << col
    }

    /// Squares with a square to their left (all but the first column).
    #[inline(always)]
    pub const fn not_first_col(self) -> Squares {
        self.all_squares() & !self.first_col
    }

    /// Squares with a square to their right (all but the last column).
    #[inline(always)]
    pub const fn not_last_col(self) -> Squares {
        self.all_squares() & !self.last_col
    }

    /// The wall anchors: squares `(c, r)` with `c < W-1` and `r < H-1` (see `walls.rs`).
    pub fn anchors(self) -> Squares {
        let top = self.row_mask(self.height() - 1);
        let right = self.col_mask(self.width() - 1);
        self.all_squares() & !top & !right
    }

    /// Number of wall anchors, `(W-1) * (H-1)`.
    pub const fn anchor_count(self) -> usize {
        (self.width() - 1) * (self.height() - 1)
    }

    /// The row a player must reach, as a square set.
    pub const fn goal(self, player: Player) -> Squares {
        self.goals[player.index()]
    }

    /// The squares of row 0 (Player 2's goal row).
    pub const fn bottom_row(self) -> Squares {
        self.goals[Player::Two.index()]
    }

    /// A player's starting square: column `floor(W/2)` of their home row.
    pub const fn start(self, player: Player) -> Square {
        match player {
            Player::One => self.square(self.width() / 2, 0),
            Player::Two => self.square(self.width() / 2, self.height() - 1),
        }
    }

    /// The square's left-right mirror image.
    pub const fn mirror_square(self, square: Square) -> Square {
        self.square(self.width() - 1 - self.col(square), self.row(square))
    }

    /// The squares orthogonally next to `square`, walls ignored: the only places from which the
    /// other pawn can change where a pawn may move.
    #[inline(always)]
    pub const fn neighbours(self, square: Square) -> Squares {
        let me: Squares = 1 << square;
        ((me << self.width) | (me >> self.width)) & self.all_squares()
            | (me << 1) & self.not_first_col()
            | (me >> 1) & self.not_last_col()
    }

    /// Whether `a` and `b` are orthogonal neighbours (walls ignored): `neighbours` without
    /// a square set, for the proof search's test at every node.
    #[inline(always)]
    pub const fn adjacent(self, a: Square, b: Square) -> bool {
        let d = a.abs_diff(b);
        let right = if a > b { a } else { b };
        d == self.width || d == 1 && self.not_first_col() >> right & 1 == 1
    }
}

impl std::fmt::Display for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_typed_errors() {
        assert!(Board::new(2, 2).is_ok());
        assert!(Board::new(8, 8).is_ok());
        assert!(Board::new(26, 2).is_ok());
        assert!(Board::new(2, 32).is_ok());
        // Over 64 squares: a square set is wider than one u64.
        for (w, h) in [
            (9, 9),
            (11, 11),
            (13, 5),
            (8, 16),
            (16, 8),
            (2, 64),
            (21, 6),
            (26, 4),
        ] {
            let b = Board::new(w, h).unwrap_or_else(|e| panic!("{w}x{h}: {e}"));
            assert_eq!(b.squares(), w * h);
        }
        for (w, h) in [(1, 5), (5, 1), (27, 2), (12, 11), (2, 65), (13, 10), (0, 0)] {
            assert!(matches!(Board::new(w, h), Err(Error::Board(_))), "{w}x{h}");
        }
        assert!(Board::parse("5x").is_err());
        assert!(Board::parse("axb").is_err());
        assert!(Board::parse("8X3").is_err(), "notation is lower-case");
    }

    #[test]
    fn rows_and_columns_by_the_reciprocal_equal_division() {
        for width in 2..=MAX_WIDTH {
            for height in 2..=MAX_SQUARES / width {
                let board = Board::new(width, height).unwrap();
                for square in 0..MAX_SQUARES as Square {
                    assert_eq!(
                        board.row(square),
                        square as usize / width,
                        "{board} {square}"
                    );
                    assert_eq!(
                        board.col(square),
                        square as usize % width,
                        "{board} {square}"
                    );
                }
            }
        }
    }

    #[test]
    fn anchors_and_goals() {
        let b = Board::new(4, 3).unwrap();
        assert_eq!(b.anchors().count_ones() as usize, b.anchor_count());
        assert_eq!(b.anchors(), 0b0111_0111);
        assert_eq!(b.goal(Player::One), 0b1111_0000_0000);
        assert_eq!(b.start(Player::One), 2);
        assert_eq!(b.start(Player::Two), 10);
        assert_eq!(b.mirror_square(b.square(0, 1)), b.square(3, 1));
        let full = Board::new(16, 8).unwrap();
        assert_eq!(full.all_squares(), Squares::MAX);
        assert_eq!(Board::new(8, 8).unwrap().all_squares(), u64::MAX as Squares);
        assert_eq!(MAX_ANCHORS, 105);
        // Squares above bit 63 on 9x9: the top row and Player 2's start.
        let b = Board::new(9, 9).unwrap();
        assert_eq!(b.goal(Player::One), 0x1FF << 72);
        assert_eq!(b.start(Player::Two), 76);
        assert_eq!(b.anchors().count_ones() as usize, b.anchor_count());
        assert_eq!(b.anchors() >> 70 & 1, 1, "anchor h8 is bit 70");
        assert_eq!(b.neighbours(76), 1 << 75 | 1 << 77 | 1 << 67);
        for (w, h) in [(9, 9), (2, 64), (26, 4), (5, 5), (3, 2), (16, 8)] {
            let b = Board::new(w, h).unwrap();
            for x in 0..b.squares() as Square {
                for y in 0..b.squares() as Square {
                    assert_eq!(
                        b.adjacent(x, y),
                        b.neighbours(x) >> y & 1 == 1,
                        "{b} {x} {y}"
                    );
                }
            }
        }
    }
}
