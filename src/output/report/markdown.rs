//! The results table in the published layout: a row per board, a column per wall count,
//! each cell `1`, `2` or `D` with the length of the win, e.g. `1 (25)`; `?` where unknown.

use super::CellRecord;
use crate::cell::solver::Outcome;
use std::collections::BTreeMap;

/// One cell's text: `1 (25)`, `D`, or `? (>40)` for unknown (with the depth reached).
pub fn cell_text(r: &CellRecord) -> String {
    match (r.outcome, r.plies) {
        (Outcome::Player1 | Outcome::Player2, Some(p)) => format!("{} ({p})", r.outcome),
        // Decided by the compact analysis; its length not found within the limits.
        (Outcome::Player1 | Outcome::Player2, None) => {
            format!("{} (>{})", r.outcome, r.depth_reached)
        }
        (Outcome::Draw, _) => "D".into(),
        (Outcome::Unknown, _) => format!("? (>{})", r.depth_reached),
    }
}

/// Rows of the table: (width, height) and the board's cells by walls.
pub type Grid<'r> = Vec<((usize, usize), BTreeMap<u8, &'r CellRecord>)>;

/// The table's rows in the published order (odd heights first, then even ones; by height,
/// then width), and the largest wall count present.
pub fn grid(records: &[CellRecord]) -> (Grid<'_>, u8) {
    // Keyed by (even height?, height, width): the published odd-height rows come first.
    let mut boards: BTreeMap<(bool, usize, usize), BTreeMap<u8, &CellRecord>> = BTreeMap::new();
    for r in records {
        boards
            .entry((r.height % 2 == 0, r.height, r.width))
            .or_default()
            .insert(r.walls, r);
    }
    let max_walls = records.iter().map(|r| r.walls).max().unwrap_or(0);
    let rows = boards
        .into_iter()
        .map(|((_, height, width), cells)| ((width, height), cells))
        .collect();
    (rows, max_walls)
}

/// The whole table in Markdown, in the order of `grid`, wall columns from 0 to the largest
/// present.
pub fn render(records: &[CellRecord]) -> String {
    let (boards, max_walls) = grid(records);
    let mut out = String::from("# Quoridor on small boards: who wins\n\n");
    out.push_str(
        "`1` / `2`: that player forces a win, in the number of plies given (the winner \
         hurries, the loser holds out); `D`: draw; `?`: not decided (deepest search in \
         plies). Rows: width x height; columns: walls per player.\n\n",
    );
    out.push_str("| W x H |");
    for n in 0..=max_walls {
        out.push_str(&format!(" {n} |"));
    }
    out.push_str("\n|---|");
    for _ in 0..=max_walls {
        out.push_str("---|");
    }
    out.push('\n');
    for ((width, height), cells) in &boards {
        out.push_str(&format!("| {width} x {height} |"));
        for n in 0..=max_walls {
            let text = cells.get(&n).map_or(String::new(), |r| cell_text(r));
            out.push_str(&format!(" {text} |"));
        }
        out.push('\n');
    }
    out
}
