//! What each way to solve a cell would take, from the estimates alone (nothing is built):
//! the configurations' stores, the retrograde analysis in memory and in parts through a
//! directory, the values it writes, and its time. `solve --plan` prints it beside the
//! decision (`cli/plan_text.rs`), so that a cell too large for this machine says what it
//! needs.

use crate::cell::estimate::CellEstimate;
use crate::retro::{self, Keep, LayerCost, Precision};
use crate::rules::cell::Cell;

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
    /// The analysis's estimated time in memory over the tables, over the ranked
    /// numbering, and in parts at the budget, exact and compact (seconds on 2 cores;
    /// `None`: its least part does not fit).
    pub seconds: f64,
    pub ranked_seconds: f64,
    pub parts_seconds: [Option<f64>; 2],
    /// The analysis in parts at the budget layer by layer, exact and compact (`None`: its
    /// least part does not fit).
    pub parts_layers: [Option<Vec<LayerCost>>; 2],
    /// Whether the board is one the analysis handles.
    pub retro_board: bool,
}

impl Costs {
    /// The costs of the cell, the analysis in parts sized to `budget`.
    pub fn of(cell: Cell, budget: u64) -> Costs {
        let Cell { board, walls } = cell;
        let e = CellEstimate::new(board, walls);
        let r = &e.retro;
        let least = |p: Precision| r.peak_in_parts(p, r.least_part(p));
        let parts_layers =
            [Precision::Exact, Precision::Compact].map(|p| super::in_parts_layers(&e, p, budget));
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
            ranked_seconds: e.ranked_seconds(),
            parts_seconds: parts_layers
                .clone()
                .map(|l| l.map(|l| l.iter().map(|l| l.seconds).sum())),
            parts_layers,
            retro_board: retro::handles(board),
        }
    }
}

/// The rate a rank is counted at across ranks: that of 6x6 with 4 walls, exact, in parts
/// on this machine, its passes over the layers above included (4.46e11 placements in 2,673
/// s, 2 cores), at which docs/CLUSTER.md costed its plan.
const ACROSS_POSITIONS_PER_SECOND: f64 = 160e6;

/// The values on disk against their bytes before compression: at most a quarter (measured:
/// 4 to 6 times less with gzip, docs/DISK.md; about 7 to 9 times with zstd since
/// 2026-11-30, docs/PERFORMANCE.md).
const DISK_SHARE: u64 = 4;

/// What the analysis across `ranks` MPI ranks (`solve --distributed`) would take, from the
/// estimates alone: `solve --plan --ranks R`, and the cluster plan of docs/CLUSTER.md.
#[derive(Clone, Debug)]
pub struct AcrossCosts {
    pub ranks: usize,
    /// Each rank's memory, exact and compact: the ranked numbering (every rank holds its
    /// own), the layout's indices, its share of the largest layer and the pieces in flight.
    pub per_rank: [u64; 2],
    pub numbering: u64,
    pub index: u64,
    /// The bytes held while the layout is built (its indices and the mirror images they
    /// are made from): the least a rank holds, whatever its share.
    pub setup: u64,
    /// The table in the shared directory, exact and compact (`DISK_SHARE` of its values).
    pub disk: [u64; 2],
    /// The most bytes the ranks send each other for one layer, exact and compact: each
    /// block of the layer above goes to at most min(ranks - 1, its walls) other ranks,
    /// compressed as on disk.
    pub sent_most: [u64; 2],
    /// Seconds with 2 cores a rank at the rate measured in parts on this machine, the
    /// exchanges not included.
    pub seconds: f64,
}

impl AcrossCosts {
    pub fn of(cell: Cell, ranks: usize) -> AcrossCosts {
        let Cell { board, walls } = cell;
        let e = CellEstimate::new(board, walls);
        let r = &e.retro;
        let both = |f: &dyn Fn(Precision) -> u64| [f(Precision::Exact), f(Precision::Compact)];
        let sent = |p: Precision| {
            (1..r.layers)
                .map(|c| {
                    let disk = r.layer_bytes(p, c) / DISK_SHARE as u128;
                    disk * ranks.saturating_sub(1).min(c) as u128
                })
                .max()
                .map_or(0, |b| u64::try_from(b).unwrap_or(u64::MAX))
        };
        AcrossCosts {
            ranks,
            per_rank: both(&|p| r.peak_across(p, ranks).saturating_add(e.ranked_bytes)),
            numbering: e.ranked_bytes,
            index: r.index_bytes(),
            setup: r.setup_bytes(),
            disk: both(&|p| r.values_bytes(p) / DISK_SHARE),
            sent_most: both(&sent),
            seconds: r.positions as f64 / (ACROSS_POSITIONS_PER_SECOND * ranks.max(1) as f64),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Board;

    #[test]
    fn the_costs_order_as_the_ways_to_run() {
        let c = Costs::of(Cell::new(Board::new(5, 5).unwrap(), 4), 1 << 30);
        assert!(c.parts_compact < c.parts_exact);
        assert!(c.compact_two < c.exact_two && c.exact_two < c.exact_every);
        assert!(c.values_compact * 4 >= c.values_exact && c.values_compact * 3 < c.values_exact);
        let one = AcrossCosts::of(Cell::new(Board::new(5, 5).unwrap(), 4), 1);
        let four = AcrossCosts::of(Cell::new(Board::new(5, 5).unwrap(), 4), 4);
        assert!(four.per_rank[0] < one.per_rank[0] && four.per_rank[1] < four.per_rank[0]);
        assert_eq!(one.sent_most, [0, 0], "one rank sends nothing");
        assert!(four.sent_most[0] > 0 && four.disk == one.disk);
        assert!((one.seconds / four.seconds - 4.0).abs() < 1e-9);
        let big = Costs::of(Cell::new(Board::new(9, 9).unwrap(), 3), 1 << 30);
        assert!(!big.retro_board);
    }
}
