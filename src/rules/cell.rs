//! A cell: a board and the walls each player starts with, one entry of a results table.
//! Not a square of the board (that is `geometry::Square`, though RULES.md and the messages
//! call a square a cell). Here, below every layer that names cells, so that they all pass
//! the one type rather than a `(Board, u8)` pair.

use crate::error::count;
use crate::rules::geometry::Board;
use std::fmt;

/// A board and the walls each player starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    pub board: Board,
    pub walls: u8,
}

impl Cell {
    pub fn new(board: Board, walls: u8) -> Cell {
        Cell { board, walls }
    }
}

/// "5x5 with 3 walls", "3x3 with 1 wall".
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} with {}", self.board, count(self.walls, "wall"))
    }
}

#[cfg(test)]
mod tests {
    use super::Cell;
    use crate::rules::geometry::Board;

    #[test]
    fn a_cell_says_its_board_and_walls() {
        let board = |w, h| Board::new(w, h).unwrap();
        assert_eq!(Cell::new(board(5, 5), 3).to_string(), "5x5 with 3 walls");
        assert_eq!(Cell::new(board(3, 3), 1).to_string(), "3x3 with 1 wall");
        assert_eq!(Cell::new(board(9, 2), 0).to_string(), "9x2 with 0 walls");
    }
}
