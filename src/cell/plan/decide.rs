//! How `solve` runs one cell, decided in one place from the estimates alone, before
//! anything is built: where the configurations come from, whether the proof search runs
//! and for how long, whether the retrograde analysis runs and at which precision. The
//! solver follows the decision; `-v` prints its reason.

use super::ask::{AUTO_SEARCH_SHARE, MIN_SEARCH_SECONDS, Method, SolveOptions, Store};
use super::need::{Need, retro_configs_bytes, retro_precision};
use crate::cell::estimate::CellEstimate;
use crate::error::count;
use crate::retro::{self, Precision};
use crate::rules::cell::Cell;
use crate::rules::geometry::Board;
use std::time::Duration;

/// How one cell is solved.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// Where the configurations come from (built first, on demand, or ranked) and the
    /// least budget that takes.
    pub need: Need,
    /// Whether the proof search runs (first, with `Method::Auto`), and its time limit.
    pub search: Option<Option<Duration>>,
    /// Whether the retrograde analysis runs (with `Method::Auto`, only if the search left
    /// the cell undecided), and at which precision.
    pub retro: Option<Precision>,
    /// One line: what runs, and why.
    pub why: String,
}

impl Decision {
    /// Whether a proof search may run: first (`search`), or for the length after a
    /// compact analysis (the exact one finds the length itself).
    pub fn searches(&self) -> bool {
        self.search.is_some() || self.retro == Some(Precision::Compact)
    }
}

/// Decides how `solve` runs `cell` under `options`.
pub fn decide(cell: Cell, options: &SolveOptions) -> Decision {
    let Cell { board, walls } = cell;
    let estimate = CellEstimate::new(board, walls);
    let need = Need::new(board, &estimate, options);
    let precision = || {
        retro_precision(
            &estimate.retro,
            retro_configs_bytes(&estimate, options),
            options,
        )
    };
    let (search, retro, why) = if need.on_demand {
        let why = match (options.store, crate::configs::keys_fit(board)) {
            (Store::OnDemand, _) => "--store on-demand",
            (_, false) => "the board has too many wall slots to number its tables",
            (_, true) => "the full tables do not fit the budget",
        };
        let why = format!("proof search over configurations built on demand ({why})");
        (Some(options.time_limit), None, why)
    } else if options.method == Method::Retro {
        let p = precision();
        let across = options.save.as_ref().and_then(|to| to.ranks.as_ref());
        let over = match (need.ranked, across) {
            (true, Some(r)) => &format!(
                "the ranked numbering, across {} (each holds its own numbering and its \
                 share of a layer)",
                count(r.0.size(), "rank")
            ),
            (true, None) => "the ranked numbering (the tables do not fit)",
            (false, _) => "the tables",
        };
        (
            None,
            Some(p),
            format!("{} retrograde analysis over {over}", name(p)),
        )
    } else if options.method == Method::Search {
        (Some(options.time_limit), None, "proof search".to_string())
    } else if analysis_fits(
        board,
        &estimate,
        (options.precision, options.memory_budget),
        options.time_limit,
    ) {
        // The search gets a quarter of what the analysis would take (at least a second):
        // a cell then costs at most about 1.25 times the analysis (`AUTO_SEARCH_SHARE`).
        let p = precision();
        let slice = Duration::from_secs_f64(
            (estimate.retro_seconds_at(Some(p)) * AUTO_SEARCH_SHARE).max(MIN_SEARCH_SECONDS),
        );
        let limit = options.time_limit.map_or(slice, |t| t.min(slice));
        let why = format!(
            "proof search for {:.0} s, then if undecided the {} retrograde analysis",
            limit.as_secs_f64(),
            name(p)
        );
        (Some(Some(limit)), Some(p), why)
    } else {
        let why = "proof search alone (the retrograde analysis does not fit the budget or the \
                   time limit beside the tables)";
        (Some(options.time_limit), None, why.to_string())
    };
    Decision {
        need,
        search,
        retro,
        why: format!("{board} with {}: {why}", count(walls, "wall")),
    }
}

/// Whether the retrograde analysis at `precision` (`None`: the solver's choice) can
/// follow the proof search over the same tables: the board is one it handles, it fits
/// `budget` with the tables, and its estimated time fits `time_limit`. What `decide` asks
/// for `Method::Auto`, and what the table plan asks before it plans the search first.
pub fn analysis_fits(
    board: Board,
    estimate: &CellEstimate,
    (precision, budget): (Option<Precision>, u64),
    time_limit: Option<Duration>,
) -> bool {
    retro::handles(board)
        && estimate.retro_bytes(precision) <= budget
        && time_limit.is_none_or(|t| estimate.retro_seconds_at(precision) <= t.as_secs_f64())
}

fn name(p: Precision) -> &'static str {
    match p {
        Precision::Exact => "exact",
        Precision::Compact => "compact",
    }
}
