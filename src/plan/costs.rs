//! What each way to solve a cell would take, from the estimates alone (nothing is built):
//! the configurations' stores, the retrograde analysis in memory and in parts through a
//! directory, the values it writes, and its time. `solve --plan` prints it beside the
//! decision, so that a cell too large for this machine says what it needs.

use crate::error::format_bytes;
use crate::estimate::CellEstimate;
use crate::geometry::Board;
use crate::retro::{self, Keep, PARTS_POSITIONS_PER_SECOND, Precision};

/// The costs of one cell.
#[derive(Clone, Debug)]
pub struct Costs {
    pub positions: u128,
    /// The full tables of the proof search, and the ranked numbering (bytes).
    pub tables_bytes: u64,
    pub ranked_bytes: u64,
    /// The analysis in memory, besides the configurations: exact keeping every layer, exact
    /// keeping two, compact keeping two (bytes).
    pub exact_every: u64,
    pub exact_two: u64,
    pub compact_two: u64,
    /// The least memory of the analysis in parts through a directory, exact and compact,
    /// besides the configurations.
    pub parts_exact: u64,
    pub parts_compact: u64,
    /// The values written to the directory before compression, exact and compact.
    pub values_exact: u64,
    pub values_compact: u64,
    /// The analysis's estimated time in memory and in parts (seconds on 2 cores).
    pub seconds: f64,
    pub parts_seconds: f64,
    /// Whether the board is one the analysis handles.
    pub retro_board: bool,
}

impl Costs {
    pub fn of(board: Board, walls: u8) -> Costs {
        let e = CellEstimate::new(board, walls);
        let r = &e.retro;
        let least = |p: Precision| r.peak_in_parts(p, r.least_part(p));
        Costs {
            positions: r.positions,
            tables_bytes: e.tables.bytes,
            ranked_bytes: e.ranked_bytes,
            exact_every: r.exact_peak(&Keep::Every),
            exact_two: r.exact_peak(&Keep::Two),
            compact_two: r.peak(Precision::Compact, r.layers.min(2)),
            parts_exact: least(Precision::Exact),
            parts_compact: least(Precision::Compact),
            values_exact: r.values_bytes(Precision::Exact),
            values_compact: r.values_bytes(Precision::Compact),
            seconds: e.retro_seconds(),
            parts_seconds: r.positions as f64 / PARTS_POSITIONS_PER_SECOND,
            retro_board: retro::handles(board),
        }
    }

    /// The costs as lines of text.
    pub fn lines(&self) -> Vec<String> {
        let b = format_bytes;
        let mut lines = vec![
            format!("positions: {:.3e} (every placement)", self.positions as f64),
            format!(
                "configurations: full tables {}, ranked numbering {}",
                b(self.tables_bytes),
                b(self.ranked_bytes)
            ),
        ];
        if !self.retro_board {
            lines.push(format!(
                "retrograde analysis: none (boards of at most {} cells)",
                retro::MAX_CELLS
            ));
            return lines;
        }
        lines.extend([
            format!(
                "analysis in memory, besides the configurations: exact {} (every layer) or {} \
                 (two), compact {} (two)",
                b(self.exact_every),
                b(self.exact_two),
                b(self.compact_two)
            ),
            format!(
                "analysis in parts through --scratch DIR: at least {} exact, {} compact, \
                 besides the configurations",
                b(self.parts_exact),
                b(self.parts_compact)
            ),
            format!(
                "values written there before compression: {} exact, {} compact (measured: \
                 4 to 6 times less on disk)",
                b(self.values_exact),
                b(self.values_compact)
            ),
            format!(
                "time: about {} in memory, {} in parts (2 cores)",
                hours(self.seconds),
                hours(self.parts_seconds)
            ),
        ]);
        lines
    }
}

/// Seconds as seconds, minutes or hours.
fn hours(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s => format!("{:.1} h", s / 3600.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_costs_order_as_the_ways_to_run() {
        let c = Costs::of(Board::new(5, 5).unwrap(), 4);
        assert!(c.parts_compact < c.parts_exact);
        assert!(c.compact_two < c.exact_two && c.exact_two < c.exact_every);
        assert!(c.values_compact * 4 >= c.values_exact && c.values_compact * 3 < c.values_exact);
        assert_eq!(c.lines().len(), 6);
        let big = Costs::of(Board::new(9, 9).unwrap(), 3);
        assert!(!big.retro_board);
        assert!(big.lines().last().unwrap().contains("none"));
    }
}
