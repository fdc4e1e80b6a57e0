//! The published table ("Solving Quoridor", docs/SOURCES.md; shipped as
//! data/published_table.csv): the cells the `table` command solves and the outcomes it
//! checks against.

use crate::cell::solver::Outcome;
use crate::error::{Error, Result};

/// The published table, compiled into the binary so `table` works from any directory.
pub const PUBLISHED_CSV: &str = include_str!("../../../data/published_table.csv");

/// One published cell: `?` (unsolved) in the file is `Outcome::Unknown`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublishedCell {
    pub width: usize,
    pub height: usize,
    pub walls: u8,
    pub outcome: Outcome,
}

pub fn parse(text: &str) -> Result<Vec<PublishedCell>> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let mut cells = Vec::new();
    for (i, row) in reader.records().enumerate() {
        let row = row.map_err(|e| Error::Input(format!("published table row {}: {e}", i + 2)))?;
        let field = |k: usize| row.get(k).unwrap_or("").trim().to_string();
        let num = |k: usize| -> Result<usize> {
            field(k)
                .parse()
                .map_err(|_| Error::Input(format!("published table row {}: bad number", i + 2)))
        };
        let outcome = match field(3).as_str() {
            "?" => Outcome::Unknown,
            code @ ("1" | "2" | "D") => {
                Outcome::try_from(code.to_string()).expect("1, 2 and D are outcomes")
            }
            other => {
                return Err(Error::Input(format!(
                    "published table row {}: outcome '{other}' is not 1, 2, D or ?",
                    i + 2
                )));
            }
        };
        cells.push(PublishedCell {
            width: num(0)?,
            height: num(1)?,
            walls: num(2)? as u8,
            outcome,
        });
    }
    Ok(cells)
}

/// The shipped published table.
pub fn cells() -> Vec<PublishedCell> {
    parse(PUBLISHED_CSV).expect("the shipped published table is well formed")
}

/// The boards of even height with at most 28 cells that "Solving Quoridor" calls Player 1 wins at
/// every wall count (added to `table` by `--even`).
pub const EVEN_BOARDS: [(usize, usize); 11] = [
    (2, 4),
    (3, 4),
    (4, 4),
    (5, 4),
    (6, 4),
    (7, 4),
    (2, 6),
    (3, 6),
    (4, 6),
    (2, 8),
    (3, 8),
];

#[cfg(test)]
mod tests {
    #[test]
    fn shipped_table_has_every_cell() {
        let cells = super::cells();
        assert_eq!(cells.len(), 17 * 11);
        let unsolved: Vec<_> = cells
            .iter()
            .filter(|c| c.outcome == super::Outcome::Unknown)
            .collect();
        assert_eq!(unsolved.len(), 6, "4x7 with 7-10 walls and 3x9 with 9-10");
        assert!(cells.iter().any(
            |c| (c.width, c.height, c.walls) == (8, 3, 3) && c.outcome == super::Outcome::Draw
        ));
    }
}
