//! A position as an SVG picture (`show --svg`): the board's cells with their coordinates,
//! the walls as bars in the grooves, both pawns, walls left and whose turn it is. Row 1 is
//! at the bottom, as in the text diagram (`diagram.rs`), so the two agree at a glance.

use std::fmt::Write as _;

use crate::diagram::turn_text;
use crate::geometry::{Board, Player};
use crate::notation::format_record;
use crate::position::Position;
use crate::walls::Orientation;

/// A cell's side, in pixels.
const CELL: usize = 48;
/// Room left of the board for the row numbers and above it for the title.
const MARGIN: usize = 36;
const TOP: usize = 40;
/// Room below the board for the letters and four lines of text.
const BOTTOM: usize = 118;

const P1_COLOUR: &str = "#3b75af";
const P2_COLOUR: &str = "#ef8636";

/// The SVG document of `pos` on `board`, ending with a newline.
pub fn render(board: Board, pos: &Position) -> String {
    let (w, h) = (board.width(), board.height());
    let width = MARGIN * 2 + w * CELL;
    let height = TOP + h * CELL + BOTTOM;
    // The top-left corner of cell (col, row): row 0 is drawn at the bottom.
    let x = |col: usize| MARGIN + col * CELL;
    let y = |row: usize| TOP + (h - 1 - row) * CELL;
    let mut s = document_start(width, height, 14);
    let _ = writeln!(
        s,
        r#"<text x="{MARGIN}" y="26" font-size="16" font-weight="bold">Quoridor {board}</text>"#
    );
    for row in 0..h {
        for col in 0..w {
            let _ = writeln!(
                s,
                r##"<rect x="{}" y="{}" width="{CELL}" height="{CELL}" fill="#f3e9d2" stroke="#b8a47e" stroke-width="1"/>"##,
                x(col),
                y(row)
            );
        }
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            MARGIN / 2,
            y(row) + CELL / 2 + 5,
            row + 1
        );
    }
    for col in 0..w {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            x(col) + CELL / 2,
            TOP + h * CELL + 18,
            (b'a' + col as u8) as char
        );
    }
    let _ = writeln!(
        s,
        r##"<rect x="{MARGIN}" y="{TOP}" width="{}" height="{}" fill="none" stroke="#333333" stroke-width="2"/>"##,
        w * CELL,
        h * CELL
    );
    // A wall anchored at cell (col, row) is centred on that cell's top-right corner and
    // runs two cells along a groove.
    for wall in pos.walls.iter() {
        let (col, row) = (board.col(wall.anchor), board.row(wall.anchor));
        let (cx, cy) = (x(col + 1), y(row));
        let (rx, ry, rw, rh) = match wall.orientation {
            Orientation::Horizontal => (cx - CELL + 3, cy - 4, 2 * CELL - 6, 8),
            Orientation::Vertical => (cx - 4, cy - CELL + 3, 8, 2 * CELL - 6),
        };
        let _ = writeln!(
            s,
            r##"<rect x="{rx}" y="{ry}" width="{rw}" height="{rh}" rx="2" fill="#5a3a1a"/>"##
        );
    }
    for player in [Player::One, Player::Two] {
        let cell = pos.pawn(player);
        let (cx, cy) = (x(board.col(cell)) + CELL / 2, y(board.row(cell)) + CELL / 2);
        let colour = match player {
            Player::One => P1_COLOUR,
            Player::Two => P2_COLOUR,
        };
        let _ = writeln!(
            s,
            r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="{colour}" stroke="#222222" stroke-width="1.5"/><text x="{cx}" y="{}" text-anchor="middle" font-weight="bold" fill="#ffffff">{}</text>"##,
            CELL / 2 - 8,
            cy + 5,
            player.number()
        );
    }
    let lines = [
        format!("Player 1 (to row {h}): {} left", walls_left(pos.left[0])),
        format!("Player 2 (to row 1): {} left", walls_left(pos.left[1])),
        turn_text(board, pos),
        format!("Record: {}", format_record(board, pos)),
    ];
    for (i, line) in lines.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<text x="8" y="{}" font-size="12">{line}</text>"#,
            TOP + h * CELL + 42 + 18 * i
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The start of an SVG document of `width` x `height` pixels on a white ground, text in
/// `font_size` pixels: plain SVG 1.1, no scripts or external fonts, for any browser.
pub fn document_start(width: usize, height: usize, font_size: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="{font_size}">"#
    );
    let _ = writeln!(
        s,
        r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    s
}

fn walls_left(n: u8) -> String {
    format!("{n} wall{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_record;

    #[test]
    fn draws_every_wall_and_both_pawns_where_the_record_puts_them() {
        let board = Board::new(5, 5).unwrap();
        let pos = parse_record(board, "b2 / a1c3 / c2 c4 / 2 3 / 1", None).unwrap();
        let svg = render(board, &pos);
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches(r##"fill="#5a3a1a""##).count(), 3, "three walls");
        assert_eq!(svg.matches("<circle").count(), 2);
        // b2h: centred on the top-right corner of b2 (column 1, row 1), so at x = 36 + 2 *
        // 48 = 132 and y = 40 + (5 - 1 - 1) * 48 = 184, two cells wide.
        assert!(
            svg.contains(r#"<rect x="87" y="180" width="90" height="8""#),
            "{svg}"
        );
        // Pawn 1 on c2: the middle of column 2, row 1.
        assert!(svg.contains(r#"<circle cx="156" cy="208""#), "{svg}");
        assert!(svg.contains("Player 1 to move"));
        assert!(svg.contains("Record: b2 / a1c3 / c2 c4 / 2 3 / 1"));
    }
}
