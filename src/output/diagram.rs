//! A text diagram of a position, for people: the board with pawns and walls, then walls
//! left, whose turn it is (or who has won) and the position record.
//!
//! Depends on `geometry`, `walls`, `position`, `movegen` and `notation`; prints nothing.
//!
//! The grid draws every cell as ` . ` between intersections `+`. A wall fills the groove
//! between its two end intersections, *including* its anchor intersection in the middle, so
//! a wall reads as one unbroken 2-cell stroke and two walls in line stay visibly apart:
//!
//! ```text
//!   +---+---+---+---+---+
//! 5 | .   .   .   .   . |
//!   +   +   +   +   +   +
//! 4 | .   .   2 | .   . |      c3v: anchor (2,2), between c and d in rows 3 and 4
//!   +   +   +   |   +   +
//! 3 | .   .   . | .   . |
//!   +   +=======+   +   +      b2h: anchor (1,1), between rows 2 and 3 in b and c
//! 2 | . | .   1   .   . |
//!   +   |   +   +   +   +      a1v: anchor (0,0), between a and b in rows 1 and 2
//! 1 | . | .   .   .   . |
//!   +---+---+---+---+---+
//!     a   b   c   d   e
//! ```

use std::fmt::Write as _;

use crate::rules::geometry::{Board, Player};
use crate::rules::notation::format_record;
use crate::rules::position::Position;

/// The diagram of `pos` on `board` (see the module doc), ending with a newline.
pub fn render(board: Board, pos: &Position) -> String {
    let mut out = String::new();
    let label_width = board.height().to_string().len();
    let margin = " ".repeat(label_width + 1);
    let border = format!("{margin}+{}\n", "---+".repeat(board.width()));

    out.push_str(&border);
    for row in (0..board.height()).rev() {
        cell_line(&mut out, board, pos, row, label_width);
        if row > 0 {
            out.push_str(&margin);
            groove_line(&mut out, board, pos, row - 1);
        }
    }
    out.push_str(&border);
    // Each letter under its cell's middle: two in from the edge, then four apart.
    let letters: Vec<String> = (0..board.width())
        .map(|col| ((b'a' + col as u8) as char).to_string())
        .collect();
    let _ = writeln!(out, "{margin}  {}", letters.join("   "));

    out.push('\n');
    for player in [Player::One, Player::Two] {
        let goal = match player {
            Player::One => board.height(),
            Player::Two => 1,
        };
        let left = pos.left[player.index()];
        let plural = if left == 1 { "" } else { "s" };
        let _ = writeln!(
            out,
            "Player {n} (pawn {n}, heading for row {goal}): {left} wall{plural} left",
            n = player.number()
        );
    }
    let _ = writeln!(out, "{}", turn_text(board, pos));
    let _ = writeln!(out, "Record: {}", format_record(board, pos));
    out
}

/// One row of cells: the row number, the cells, and `|` wherever a wall (or the board edge)
/// stands on a cell's right.
fn cell_line(out: &mut String, board: Board, pos: &Position, row: usize, label_width: usize) {
    let (_, blocked_right) = pos.walls.blocked(board);
    let _ = write!(out, "{:>label_width$} |", row + 1);
    for col in 0..board.width() {
        let cell = board.square(col, row);
        let piece = if cell == pos.pawn(Player::One) {
            '1'
        } else if cell == pos.pawn(Player::Two) {
            '2'
        } else {
            '.'
        };
        let last = col + 1 == board.width();
        let wall = blocked_right >> cell & 1 == 1;
        let right = if last || wall { '|' } else { ' ' };
        let _ = write!(out, " {piece} {right}");
    }
    out.push('\n');
}

/// The groove between `row` and `row + 1`: `===` under a blocked edge, and at each interior
/// intersection `=` or `|` if a wall is anchored there (it runs through), else `+`.
fn groove_line(out: &mut String, board: Board, pos: &Position, row: usize) {
    let (blocked_up, _) = pos.walls.blocked(board);
    out.push('+');
    for col in 0..board.width() {
        let cell = board.square(col, row);
        out.push_str(if blocked_up >> cell & 1 == 1 {
            "==="
        } else {
            "   "
        });
        // The intersection right of this cell is anchor (col, row), if it is interior.
        let corner = if col + 1 == board.width() {
            '+'
        } else if pos.walls.horizontal >> cell & 1 == 1 {
            '='
        } else if pos.walls.vertical >> cell & 1 == 1 {
            '|'
        } else {
            '+'
        };
        out.push(corner);
    }
    out.push('\n');
}

/// Who is to move, who has won, or why the game is drawn.
pub(crate) fn turn_text(board: Board, pos: &Position) -> String {
    if let Some(winner) = pos.winner(board) {
        return format!("Player {} has won", winner.number());
    }
    let me = pos.to_move.number();
    if pos.legal_actions(board).is_empty() {
        // RULES.md: possible only when H = 2.
        return format!("Player {me} is to move but has no legal action: the game is a draw");
    }
    format!("Player {me} to move")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::{parse_moves, parse_record};

    fn b55() -> Board {
        Board::new(5, 5).unwrap()
    }

    /// The lines of the board part (from the top border to the column letters).
    fn grid(text: &str) -> Vec<&str> {
        text.lines().take_while(|l| !l.is_empty()).collect()
    }

    #[test]
    fn start_of_5x5_with_3_walls() {
        let pos = Position::start(b55(), 3).unwrap();
        let want = "  +---+---+---+---+---+
5 | .   .   2   .   . |
  +   +   +   +   +   +
4 | .   .   .   .   . |
  +   +   +   +   +   +
3 | .   .   .   .   . |
  +   +   +   +   +   +
2 | .   .   .   .   . |
  +   +   +   +   +   +
1 | .   .   1   .   . |
  +---+---+---+---+---+
    a   b   c   d   e

Player 1 (pawn 1, heading for row 5): 3 walls left
Player 2 (pawn 2, heading for row 1): 3 walls left
Player 1 to move
Record: - / - / c1 c5 / 3 3 / 1
";
        assert_eq!(render(b55(), &pos), want);
    }

    #[test]
    fn walls_stand_where_the_record_puts_them() {
        let b = b55();
        let record = "b2 / a1c3 / c2 c4 / 2 3 / 1";
        let pos = parse_record(b, record, None).unwrap();
        let text = render(b, &pos);
        let g = grid(&text);
        // Line 0 is the top border; row r (1-based) is line 2*(5-r)+1, the groove under it
        // the next line.
        let row = |r: usize| g[2 * (5 - r) + 1];
        let groove_below = |r: usize| g[2 * (5 - r) + 2];
        assert_eq!(row(4), "4 | .   .   2 | .   . |", "c3v, upper half\n{text}");
        assert_eq!(
            groove_below(4),
            "  +   +   +   |   +   +",
            "c3v, anchor\n{text}"
        );
        assert_eq!(row(3), "3 | .   .   . | .   . |", "c3v, lower half\n{text}");
        assert_eq!(groove_below(3), "  +   +=======+   +   +", "b2h\n{text}");
        assert_eq!(row(2), "2 | . | .   1   .   . |", "a1v, upper half\n{text}");
        assert_eq!(
            groove_below(2),
            "  +   |   +   +   +   +",
            "a1v, anchor\n{text}"
        );
        assert_eq!(row(1), "1 | . | .   .   .   . |", "a1v, lower half\n{text}");
        assert!(text.contains("Player 1 (pawn 1, heading for row 5): 2 walls left"));
        assert!(text.contains("Player 2 (pawn 2, heading for row 1): 3 walls left"));
        assert!(text.contains("\nPlayer 1 to move\n"));
        assert!(text.ends_with(&format!("Record: {record}\n")));
    }

    #[test]
    fn walls_in_line_stay_apart() {
        let b = b55();
        let pos = parse_record(b, "a2c2 / - / c1 c5 / 0 1 / 2", None).unwrap();
        let g = grid(&render(b, &pos)).join("\n");
        assert!(g.contains("  +=======+=======+   +\n"), "{g}");
    }

    #[test]
    fn a_win_and_two_digit_rows() {
        let b = Board::new(3, 12).unwrap();
        let start = Position::start(b, 0).unwrap();
        let moves = "b2 b11 b3 b10 b4 b9 b5 b8 b6 b7 a6 b6 a7 b5 a8 b4 a9 b3 a10 b2 a11 b1";
        let (_, end) = parse_moves(b, start, moves).unwrap();
        let text = render(b, &end);
        assert!(text.contains("\nPlayer 2 has won\n"), "{text}");
        let g = grid(&text);
        assert_eq!(g[0], "   +---+---+---+");
        assert_eq!(g[1], "12 | .   .   . |");
        assert_eq!(g[3], "11 | 1   .   . |");
        assert_eq!(g[g.len() - 3], " 1 | .   2   . |");
        assert_eq!(g[g.len() - 1], "     a   b   c");
    }

    #[test]
    fn stuck_player_is_a_draw() {
        // 2x2, Player 1 on a1 walled in: a1v stops a1-b1, and Player 2 on a2 stands on the
        // only other way out, with the edge behind it at the board's top.
        let b = Board::new(2, 2).unwrap();
        let pos = parse_record(b, "- / a1 / a1 a2 / 0 0 / 1", None).unwrap();
        assert!(pos.legal_actions(b).is_empty());
        let text = render(b, &pos);
        assert!(
            text.contains("\nPlayer 1 is to move but has no legal action"),
            "{text}"
        );
    }
}
