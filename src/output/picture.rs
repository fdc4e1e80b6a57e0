//! A position as an SVG picture (`show --svg`): the board's cells with their coordinates,
//! the walls as bars in the grooves, both pawns, walls left and whose turn it is. Row 1 is
//! at the bottom, as in the text diagram (`diagram.rs`), so the two agree at a glance.

use std::fmt::Write as _;

use crate::output::diagram::turn_text;
use crate::rules::geometry::{Board, Player};
use crate::rules::notation::{action_name, format_record};
use crate::rules::position::{Action, Position};
use crate::rules::walls::{Orientation, Wall};

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
    render_with(board, pos, "")
}

/// The top-left corner of cell (col, row) in pixels: row 0 is drawn at the bottom.
fn x(col: usize) -> usize {
    MARGIN + col * CELL
}

fn y(board: Board, row: usize) -> usize {
    TOP + (board.height() - 1 - row) * CELL
}

/// The picture of `render`, and over it a target for each of `actions` (legal actions of
/// `pos`) for `serve`'s page to colour and click: a disc on each pawn move's cell, and for
/// each wall its outline, hidden until the pointer is over one of the groove's edges it
/// answers for (`wall_edges`). Each target is a group of class `move` with the action's
/// name in `data-move`; the colours here are neutral, for the page's style sheet to replace.
pub fn render_with_targets(board: Board, pos: &Position, actions: &[Action]) -> String {
    let mut t = String::from("<g class=\"moves\">\n");
    for &action in actions {
        let name = action_name(board, action);
        match action {
            Action::Pawn(cell) => {
                let (cx, cy) = (
                    x(board.col(cell)) + CELL / 2,
                    y(board, board.row(cell)) + CELL / 2,
                );
                let _ = writeln!(
                    t,
                    r##"<g class="move pawn-move" data-move="{name}"><circle cx="{cx}" cy="{cy}" r="{}" fill="#888888" fill-opacity="0.35"/><text class="plies" x="{cx}" y="{}" text-anchor="middle" font-size="12"></text></g>"##,
                    CELL / 2 - 10,
                    cy + 4
                );
            }
            Action::Wall(wall) => {
                let (rx, ry, rw, rh) = wall_rect(board, wall);
                let _ = write!(
                    t,
                    r##"<g class="move wall-move" data-move="{name}"><rect class="preview" x="{rx}" y="{ry}" width="{rw}" height="{rh}" rx="2" fill="#888888" opacity="0"/>"##
                );
                for (hx, hy, hw, hh) in wall_edges(board, wall, actions) {
                    let _ = write!(
                        t,
                        r##"<rect class="hit" x="{hx}" y="{hy}" width="{hw}" height="{hh}" fill="#ffffff" fill-opacity="0"/>"##
                    );
                }
                t.push_str("</g>\n");
            }
        }
    }
    t.push_str("</g>\n");
    render_with(board, pos, &t)
}

/// Where the pointer picks `wall` (one of `legal`): each groove edge (a cell's side) is
/// answered for by the wall that starts there (a horizontal wall's left edge, a vertical
/// wall's lower one) when that wall is legal, else by the legal wall that ends there. So
/// every edge a legal wall covers picks one, and every legal wall is picked at its first
/// edge. The strips stop short of the grooves' crossings, so no two overlap.
fn wall_edges(board: Board, wall: Wall, legal: &[Action]) -> Vec<(usize, usize, usize, usize)> {
    let (col, row) = (board.col(wall.anchor), board.row(wall.anchor));
    let (gap, thick) = (6, 12);
    // The edge `along` cells on from the wall's first edge.
    let edge = |along: usize| match wall.orientation {
        Orientation::Horizontal => (
            x(col + along) + gap,
            y(board, row) - gap,
            CELL - 2 * gap,
            thick,
        ),
        Orientation::Vertical => (
            x(col + 1) - gap,
            y(board, row + along) + gap,
            thick,
            CELL - 2 * gap,
        ),
    };
    let next = match wall.orientation {
        Orientation::Horizontal => wall.anchor as usize + 1,
        Orientation::Vertical => wall.anchor as usize + board.width(),
    };
    let next_is_legal = legal.iter().any(|a| {
        matches!(a, Action::Wall(w) if w.orientation == wall.orientation && w.anchor as usize == next)
    });
    match next_is_legal {
        true => vec![edge(0)],
        false => vec![edge(0), edge(1)],
    }
}

/// A wall's bar: centred on its anchor cell's top-right corner, two cells along a groove.
fn wall_rect(board: Board, wall: Wall) -> (usize, usize, usize, usize) {
    let (cx, cy) = (
        x(board.col(wall.anchor) + 1),
        y(board, board.row(wall.anchor)),
    );
    match wall.orientation {
        Orientation::Horizontal => (cx - CELL + 3, cy - 4, 2 * CELL - 6, 8),
        Orientation::Vertical => (cx - 4, cy - CELL + 3, 8, 2 * CELL - 6),
    }
}

/// The picture of `pos` with `overlay` (SVG elements) drawn over the board and pawns.
fn render_with(board: Board, pos: &Position, overlay: &str) -> String {
    let (w, h) = (board.width(), board.height());
    let width = MARGIN * 2 + w * CELL;
    let height = TOP + h * CELL + BOTTOM;
    let y = |row: usize| y(board, row);
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
    for wall in pos.walls.iter() {
        let (rx, ry, rw, rh) = wall_rect(board, wall);
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
    s.push_str(overlay);
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
    use crate::rules::notation::{parse_record, parse_wall};

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

    #[test]
    fn every_legal_action_gets_one_target_named_as_notation_writes_it() {
        let board = Board::new(3, 3).unwrap();
        let pos = Position::start(board, 1).unwrap();
        let actions = pos.legal_actions(board);
        let svg = render_with_targets(board, &pos, &actions);
        assert_eq!(svg.matches(r#"class="move "#).count(), actions.len());
        assert_eq!(svg.matches("pawn-move").count(), 3, "a1, b2, c1");
        for a in &actions {
            let name = action_name(board, *a);
            assert_eq!(
                svg.matches(&format!(r#"data-move="{name}""#)).count(),
                1,
                "{name}"
            );
        }
        // b1h's outline is where b1h would be drawn, and the picture is otherwise render's.
        let placed = render(
            board,
            &pos.play(Action::Wall(parse_wall(board, "b1h").unwrap())),
        );
        let bar = placed.lines().find(|l| l.contains("#5a3a1a")).unwrap();
        let at = &bar[bar.find("x=").unwrap()..bar.find(" rx=").unwrap()];
        let target = svg
            .lines()
            .find(|l| l.contains(r#"data-move="b1h""#))
            .unwrap();
        assert!(target.contains(at), "{at}\n{target}");
        let without: Vec<&str> = svg
            .lines()
            .scan(false, |inside, line| {
                let skip = *inside || line == r#"<g class="moves">"#;
                *inside = skip && line != "</g>";
                Some((skip, line))
            })
            .filter(|(skip, _)| !skip)
            .map(|(_, line)| line)
            .collect();
        assert_eq!(without.join("\n") + "\n", render(board, &pos));
    }
}
