//! What a cell will cost, known before anything is built: the configuration tables' bytes
//! (`TableEstimate`, from the exact configuration counts), the retrograde analysis's
//! positions and bytes at each precision (`RetroEstimate`), and its time at a measured
//! rate. The solver checks the memory budget with it; the table's plan chooses with it.

use crate::configs::{Ranked, TableEstimate};
use crate::retro::{self, Precision, RetroEstimate};
use crate::rules::geometry::Board;

/// A rate of the exact retrograde analysis in memory, in positions of its estimate (an
/// upper bound, 2-3 times the real positions) per second, tables included, for planning and
/// for deciding whether it fits a time limit. Measured on 2 cores in the table run of
/// ed8f6a3 (2026-11-28): 857 million (4x7 with 5 walls, 49 s), 1,260 million (4x7 with 10
/// walls, 190 s), 885 million (3x9 with 5 walls, 11.3 s), 1,100 million (5x5 with 10
/// walls, 25.4 s); since then each child's exits are read a row at a time (4x7 w5 1.2
/// times faster). Taken a little under the slowest, so that a plan errs long. (It was 400
/// million, measured before the levels went a row at a time.)
pub const RETRO_POSITIONS_PER_SECOND: f64 = 800e6;

/// The rate of the compact analysis in memory with the search for the length after it:
/// 348 million positions of the estimate a second on 4x7 with 5 walls (120.65 s, against
/// 49 s exact; 2026-11-28).
pub const COMPACT_POSITIONS_PER_SECOND: f64 = 350e6;

/// The rate where the analysis reads the ranked numbering of the configurations instead of
/// the tables (they do not fit beside it): it unranks each configuration and ranks its
/// children where the tables would look them up, and pushes its last layer. Measured on 2
/// cores, in positions of the estimate a second: 250 million (6x9 with 3 walls, compact),
/// 231 million (7x7 with 3 walls, exact), 155 million (5x9 with 3 walls, exact, machine
/// shared); at 400 million the campaign planned 6x9 with 3 walls at 51 min, and it took 91.
pub const RANKED_POSITIONS_PER_SECOND: f64 = 200e6;

/// The estimates of one cell.
#[derive(Clone, Debug)]
pub struct CellEstimate {
    pub tables: TableEstimate,
    pub retro: RetroEstimate,
    /// Bytes of the ranked numbering of the configurations (`tables::Ranked`), which the
    /// analysis reads instead of the tables when those do not fit.
    pub ranked_bytes: u64,
}

impl CellEstimate {
    pub fn new(board: Board, walls: u8) -> CellEstimate {
        let tables = TableEstimate::new(board, walls);
        let retro = retro::estimate(board, walls, &tables.by_walls);
        let ranked_bytes = Ranked::estimate_bytes(board, tables.by_walls.len());
        CellEstimate {
            tables,
            retro,
            ranked_bytes,
        }
    }

    /// The least memory for a retrograde analysis at `precision`, tables included (see
    /// `retro_least_bytes`).
    pub fn retro_bytes(&self, precision: Option<Precision>) -> u64 {
        self.tables
            .bytes
            .saturating_add(retro_least_bytes(&self.retro, precision))
    }

    /// The least memory for a retrograde analysis at `precision` over the ranked numbering
    /// of the configurations (no tables; see `retro_least_bytes`).
    pub fn retro_ranked_bytes(&self, precision: Option<Precision>) -> u64 {
        self.ranked_bytes
            .saturating_add(retro_least_bytes(&self.retro, precision))
    }

    /// The least memory for a retrograde analysis at `precision`, over the tables or the
    /// ranked numbering, whichever needs less (`plan::retro_over_ranked` chooses so).
    pub fn retro_least(&self, precision: Option<Precision>) -> u64 {
        self.retro_bytes(precision)
            .min(self.retro_ranked_bytes(precision))
    }

    /// The exact analysis's estimated time over the tables.
    pub fn retro_seconds(&self) -> f64 {
        self.retro.positions as f64 / RETRO_POSITIONS_PER_SECOND
    }

    /// The analysis's estimated time over the tables at `precision`: exact, or compact
    /// with its search for the length (`None`, the solver's choice, is costed as compact,
    /// the slower of the two).
    pub fn retro_seconds_at(&self, precision: Option<Precision>) -> f64 {
        match precision {
            Some(Precision::Exact) => self.retro_seconds(),
            _ => self.retro.positions as f64 / COMPACT_POSITIONS_PER_SECOND,
        }
    }

    /// The analysis's estimated time over the ranked numbering (in memory).
    pub fn ranked_seconds(&self) -> f64 {
        self.retro.positions as f64 / RANKED_POSITIONS_PER_SECOND
    }
}

/// The least memory a retrograde analysis of the cell needs besides the tables: exact
/// (two layers at a byte) when asked for, else compact with two layers in two thirds of it
/// (`solver::retro_cell` gives the rest to the length's search).
pub fn retro_least_bytes(e: &RetroEstimate, precision: Option<Precision>) -> u64 {
    let two = e.layers.min(2);
    match precision {
        Some(Precision::Exact) => e.peak(Precision::Exact, two),
        _ => e.peak(Precision::Compact, two).saturating_mul(3) / 2,
    }
}
