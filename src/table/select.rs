//! Which cells a table run takes: the boards (the published table's, the second table's
//! beyond it, or a list given), each with every wall count asked, cheapest first. The
//! CLI's `table --boards --walls --even --beyond` reads its flags through these; anything
//! else that runs a table (a server, a driver over many machines) can too.

use crate::error::{Error, ListProblem, Result, Setting};
use crate::output::report::beyond::BEYOND_BOARDS;
use crate::output::report::published::{self, EVEN_BOARDS};
use crate::rules::cell::Cell;
use crate::rules::geometry::Board;
use crate::rules::position::{MAX_WALLS_PER_PLAYER, walls_range};

/// The boards a table run takes, before the even heights (`select_cells`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Boards {
    /// Those of the published table (`data/published_table.csv`), in its order.
    Published,
    /// Those of the second table, beyond the published one (`BEYOND_BOARDS`).
    Beyond,
    /// These, as given (`parse_boards`).
    Given(Vec<Board>),
}

/// A comma-separated list of boards (`--boards 5x5,3x7`). A board given twice is refused:
/// it would be solved twice, almost surely a slip.
pub fn parse_boards(list: &str) -> Result<Vec<Board>> {
    let boards: Vec<Board> = list
        .split(',')
        .map(|b| Board::parse(b.trim()))
        .collect::<Result<_>>()?;
    if let Some((_, b)) = boards
        .iter()
        .enumerate()
        .find(|&(i, b)| boards[..i].contains(b))
    {
        return Err(Error::List {
            setting: Setting::Boards,
            text: list.to_string(),
            problem: ListProblem::Twice {
                item: b.to_string(),
            },
        });
    }
    Ok(boards)
}

/// `N`, `A..B`, `A..=B` or `A,B,C` into a sorted list of wall counts. A number out of
/// range gets the same words as `--walls` of the other commands; an empty range or a count
/// given twice is refused rather than quietly dropped, since it is almost surely a slip.
pub fn parse_wall_counts(text: &str) -> Result<Vec<u8>> {
    let refuse = |problem: ListProblem| Error::List {
        setting: Setting::Walls,
        text: text.to_string(),
        problem,
    };
    let num = |s: &str| -> Result<u8> {
        let s = s.trim();
        let digits = s.strip_prefix('-').unwrap_or(s);
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(refuse(ListProblem::Shape {
                shape: "N, A..B, A..=B or A,B,C (e.g. 0..=10)",
            }));
        }
        s.parse::<u8>()
            .ok()
            .filter(|&n| n <= MAX_WALLS_PER_PLAYER)
            .ok_or_else(|| {
                refuse(ListProblem::OutOfRange {
                    item: s.to_string(),
                    range: walls_range(),
                })
            })
    };
    let mut v: Vec<u8> = if let Some((a, b)) = text.split_once("..=") {
        (num(a)?..=num(b)?).collect()
    } else if let Some((a, b)) = text.split_once("..") {
        (num(a)?..num(b)?).collect()
    } else {
        text.split(',').map(num).collect::<Result<_>>()?
    };
    if v.is_empty() {
        return Err(refuse(ListProblem::EmptyRange { noun: "wall count" }));
    }
    v.sort_unstable();
    if let Some(pair) = v.windows(2).find(|p| p[0] == p[1]) {
        return Err(refuse(ListProblem::Twice {
            item: pair[0].to_string(),
        }));
    }
    Ok(v)
}

/// The cells of `boards` (with the even-height boards of "Solving Quoridor" too when
/// `even`) and `walls`, cheapest first: smaller boards, then fewer walls.
pub fn select_cells(boards: Boards, walls: &[u8], even: bool) -> Result<Vec<Cell>> {
    let mut boards: Vec<Board> = match boards {
        Boards::Beyond => BEYOND_BOARDS
            .iter()
            .map(|&(w, h)| Board::new(w, h))
            .collect::<Result<_>>()?,
        Boards::Given(boards) => boards,
        Boards::Published => {
            let mut v: Vec<Board> = Vec::new();
            for c in published::cells() {
                let b = Board::new(c.width, c.height)?;
                if !v.contains(&b) {
                    v.push(b);
                }
            }
            v
        }
    };
    if even {
        for (w, h) in EVEN_BOARDS {
            let b = Board::new(w, h)?;
            if !boards.contains(&b) {
                boards.push(b);
            }
        }
    }
    let mut cells: Vec<Cell> = boards
        .iter()
        .flat_map(|&b| walls.iter().map(move |&n| Cell::new(b, n)))
        .collect();
    cells.sort_by_key(|c| {
        (
            c.board.squares(),
            c.walls,
            c.board.height(),
            c.board.width(),
        )
    });
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wall_ranges() {
        assert_eq!(parse_wall_counts("0..=3").unwrap(), vec![0, 1, 2, 3]);
        assert_eq!(parse_wall_counts("2..4").unwrap(), vec![2, 3]);
        assert_eq!(parse_wall_counts("5,1").unwrap(), vec![1, 5]);
        assert_eq!(parse_wall_counts("7").unwrap(), vec![7]);
        assert_eq!(parse_wall_counts("31").unwrap(), vec![31]);
        for bad in [
            "", "a", "3..1", "3..3", "1..=x", "40", "256", "-1", "5,1,5", "0..=32",
        ] {
            assert!(parse_wall_counts(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn cells_come_cheapest_first() {
        let boards = parse_boards("5x5, 3x3").unwrap();
        let cells = select_cells(Boards::Given(boards), &[1, 0], false).unwrap();
        let names: Vec<String> = cells
            .iter()
            .map(|c| format!("{}w{}", c.board, c.walls))
            .collect();
        assert_eq!(names, ["3x3w0", "3x3w1", "5x5w0", "5x5w1"]);
        assert!(parse_boards("3x3,4x4,3x3").is_err());
    }
}
