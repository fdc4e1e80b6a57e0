//! `/map`: every cell the server answers as one picture, the results table's shape (a row
//! per board, a column per wall count `0..=LISTED_WALLS`), each square a link into the
//! explorer (`/?board=WxH&walls=N`). A saved cell is coloured by its winner with the length
//! in plies, read from its table; a cell answered on request is grey, "on request": the
//! map solves nothing.
//!
//! Depends on `analysis` (the start's verdict) and `geometry`; prints nothing.

use std::fmt::Write;

use super::{Cell, LISTED_WALLS};
use crate::cell::analysis::Verdict;
use crate::rules::geometry::Board;

/// What the map shows of one cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Known {
    /// Saved: the start's verdict, for Player 1 (who moves first).
    Saved(Verdict),
    /// Not saved, answered by solving it on request.
    OnRequest,
}

/// The class and the text of a square: who wins, and in how many plies.
fn square(known: Known) -> (&'static str, String) {
    match known {
        Known::Saved(Verdict::Win { plies }) => ("p1", format!("P1 {plies}")),
        Known::Saved(Verdict::Loss { plies }) => ("p2", format!("P2 {plies}")),
        Known::Saved(Verdict::Draw) => ("draw", "draw".into()),
        // A saved table is exact: never unknown, but said so if it were.
        Known::Saved(Verdict::Unknown { .. }) => ("unknown", "?".into()),
        Known::OnRequest => ("on-request", "on request".into()),
    }
}

/// The page of `cells` (any order; a cell not among them is an empty square).
pub fn page(cells: &[(Cell, Known)]) -> String {
    let mut boards: Vec<Board> = cells.iter().map(|(c, _)| c.board).collect();
    boards.sort_by_key(|b| (b.squares(), b.width(), b.height()));
    boards.dedup();
    let mut rows = String::new();
    for board in boards {
        let _ = write!(rows, "<tr><th scope=\"row\">{board}</th>");
        for walls in 0..=LISTED_WALLS {
            let cell = Cell { board, walls };
            match cells.iter().find(|(c, _)| *c == cell) {
                Some(&(_, known)) => {
                    let (class, text) = square(known);
                    let _ = write!(
                        rows,
                        "<td class=\"{class}\"><a href=\"/?board={board}&amp;walls={walls}\" \
                         title=\"{cell}\">{text}</a></td>"
                    );
                }
                None => rows.push_str("<td></td>"),
            }
        }
        rows.push_str("</tr>\n");
    }
    let heads: String = (0..=LISTED_WALLS)
        .map(|w| format!("<th scope=\"col\">{w}</th>"))
        .collect();
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quoridor explorer: the map</title>
<link rel="stylesheet" href="/explorer.css">
<link rel="icon" href="data:,">
</head>
<body>
<header>
  <h1>Quoridor explorer: the map</h1>
  <a id="to-explorer" href="/">Explorer</a>
</header>
<main class="map">
  <p class="hint">Every cell this server answers: a row per board, a column per wall count
  (each player's). Saved cells show who wins from the start with best play and in how many
  plies; the others are solved when opened. Click one to explore it.</p>
  <p class="legend"><span class="chip p1">Player 1 wins</span> <span class="chip p2">Player 2
  wins</span> <span class="chip draw">draw</span> <span class="chip on-request">on
  request</span></p>
  <table id="map">
    <thead><tr><th>board \ walls</th>{heads}</tr></thead>
    <tbody>
{rows}    </tbody>
  </table>
</main>
</body>
</html>
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_cell_is_a_link_coloured_by_its_winner() {
        let board = Board::new(3, 4).unwrap();
        let page = page(&[
            (
                Cell { board, walls: 1 },
                Known::Saved(Verdict::Win { plies: 7 }),
            ),
            (Cell { board, walls: 2 }, Known::OnRequest),
        ]);
        assert!(page.contains(
            "<td class=\"p1\"><a href=\"/?board=3x4&amp;walls=1\" title=\"3x4 with 1 wall\">P1 7</a>"
        ));
        assert!(page.contains("<td class=\"on-request\"><a href=\"/?board=3x4&amp;walls=2\""));
        assert_eq!(page.matches("<td></td>").count(), 9);
    }
}
