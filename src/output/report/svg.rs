//! The results table as an SVG picture (`table.svg`): the grid of `markdown::grid` (boards
//! by walls per player), each cell coloured by its winner with the length of the win, a
//! title and a legend. Plain SVG 1.1 with no scripts or external fonts, so any browser or
//! renderer shows it.

use super::CellRecord;
use super::markdown::{cell_text, grid};
use crate::cell::solver::Outcome;
use crate::output::picture::document_start;
use std::fmt::Write as _;

const CELL_W: usize = 62;
const CELL_H: usize = 26;
const LABEL_W: usize = 70;
const TOP: usize = 64;
const LEGEND_H: usize = 64;

/// Fill and text colour of each outcome (colour-blind safe: blue, orange, grey).
fn colours(outcome: Outcome) -> (&'static str, &'static str) {
    match outcome {
        Outcome::Player1 => ("#3b75af", "#ffffff"),
        Outcome::Player2 => ("#ef8636", "#000000"),
        Outcome::Draw => ("#9e9e9e", "#000000"),
        Outcome::Unknown => ("#ffffff", "#000000"),
    }
}

/// The SVG document of `records`, ending with a newline.
pub fn render(records: &[CellRecord]) -> String {
    let (boards, max_walls) = grid(records);
    let columns = max_walls as usize + 1;
    let width = LABEL_W + columns * CELL_W + 20;
    let height = TOP + (boards.len() + 1) * CELL_H + LEGEND_H;
    let mut s = document_start(width, height, 12);
    let _ = writeln!(
        s,
        r#"<text x="10" y="24" font-size="17" font-weight="bold">Quoridor on small boards: who wins, in how many plies</text>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="10" y="44">Rows: width x height. Columns: walls per player. Each cell: the winner with perfect play and the plies of the game.</text>"#
    );
    // Column headings.
    let y = TOP;
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle" font-weight="bold">W x H</text>"#,
        LABEL_W / 2,
        y + CELL_H - 8
    );
    for n in 0..columns {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle" font-weight="bold">{n}</text>"#,
            LABEL_W + n * CELL_W + CELL_W / 2,
            y + CELL_H - 8
        );
    }
    for (row, ((w, h), cells)) in boards.iter().enumerate() {
        let y = TOP + (row + 1) * CELL_H;
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{w} x {h}</text>"#,
            LABEL_W / 2,
            y + CELL_H - 8
        );
        for n in 0..columns {
            let x = LABEL_W + n * CELL_W;
            let Some(r) = cells.get(&(n as u8)) else {
                continue;
            };
            let (fill, ink) = colours(r.outcome);
            let _ = writeln!(
                s,
                r##"<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="{fill}" stroke="#555555" stroke-width="0.5"/><text x="{}" y="{}" text-anchor="middle" fill="{ink}">{}</text>"##,
                x + CELL_W / 2,
                y + CELL_H - 8,
                escape(&cell_text(r))
            );
        }
    }
    legend(&mut s, TOP + (boards.len() + 1) * CELL_H + 20);
    s.push_str("</svg>\n");
    s
}

/// `text` with the characters XML reserves written as entities.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn legend(s: &mut String, y: usize) {
    let items = [
        (Outcome::Player1, "Player 1 wins (n): in n plies"),
        (Outcome::Player2, "Player 2 wins"),
        (Outcome::Draw, "D: draw"),
        (Outcome::Unknown, "?: not decided (>n: searched to n plies)"),
    ];
    let mut x = 10;
    for (outcome, text) in items {
        let (fill, _) = colours(outcome);
        let _ = writeln!(
            s,
            r##"<rect x="{x}" y="{y}" width="16" height="16" fill="{fill}" stroke="#555555" stroke-width="0.5"/><text x="{}" y="{}">{}</text>"##,
            x + 22,
            y + 13,
            escape(text)
        );
        x += 22 + 7 * text.len() + 24;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(w: usize, h: usize, n: u8, outcome: Outcome, plies: Option<u32>) -> CellRecord {
        CellRecord {
            width: w,
            height: h,
            walls: n,
            outcome,
            plies,
            method: crate::cell::solver::MethodUsed::Search,
            nodes: 1,
            seconds: 0.0,
            peak_bytes: 0,
            version: String::new(),
            depth_reached: 12,
            line: String::new(),
        }
    }

    #[test]
    fn every_cell_is_drawn_in_its_winner_colour_with_its_text() {
        let records = [
            record(3, 3, 0, Outcome::Player2, Some(4)),
            record(3, 3, 1, Outcome::Player1, Some(9)),
            record(8, 3, 3, Outcome::Draw, None),
            record(4, 7, 10, Outcome::Unknown, None),
        ];
        let svg = render(&records);
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
        for (fill, text) in [
            ("#ef8636", ">2 (4)<"),
            ("#3b75af", ">1 (9)<"),
            ("#9e9e9e", ">D<"),
            ("#ffffff", ">? (&gt;12)<"),
        ] {
            let at = svg.find(text).unwrap_or_else(|| panic!("{text} in {svg}"));
            let rect = svg[..at].rfind("<rect").unwrap();
            assert!(svg[rect..at].contains(fill), "{text}: {}", &svg[rect..at]);
        }
        // Rows in the published order, columns 0 to 10.
        assert!(svg.find(">3 x 3<").unwrap() < svg.find(">8 x 3<").unwrap());
        assert!(svg.find(">8 x 3<").unwrap() < svg.find(">4 x 7<").unwrap());
        assert!(svg.contains(r#"font-weight="bold">10</text>"#));
    }
}
