//! What each way to solve a cell needs of the memory budget, from the estimates alone
//! (before anything is built): the store of configurations the solver reads (tables, on
//! demand, ranked), the analysis's precision, and the least budget that takes.

use super::ask::{
    EAGER_SLACK_BYTES, MIN_ON_DEMAND_BYTES, Method, ON_DEMAND_SLACK_BYTES, SolveOptions, Store,
};
use crate::cell::estimate::CellEstimate;
use crate::retro::{Keep, LayerCost, Precision, RetroEstimate};
use crate::rules::cell::Cell;
use crate::rules::geometry::Board;

/// How `solve` runs a cell within the options' budget, and the least budget that takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Need {
    /// Whether the proof search builds its configurations on demand.
    pub on_demand: bool,
    /// Whether the retrograde analysis reads the ranked numbering of the configurations
    /// instead of the tables (`retro_over_ranked`).
    pub ranked: bool,
    pub bytes: u64,
    what: &'static str,
}

impl Need {
    pub fn new(board: Board, estimate: &CellEstimate, options: &SolveOptions) -> Need {
        // Proof search builds the configurations it meets when the full tables do not fit,
        // or cannot be numbered (boards of more than 64 wall anchors, `configs::keys_fit`).
        let eager_bytes = estimate.tables.bytes.saturating_add(EAGER_SLACK_BYTES);
        let keys_fit = crate::configs::keys_fit(board);
        let on_demand = match options.store {
            Store::Full => false,
            Store::OnDemand => true,
            Store::Auto => {
                options.method != Method::Retro
                    && (eager_bytes > options.memory_budget || !keys_fit)
            }
        };
        let ranked = retro_over_ranked(estimate, options);
        let (what, bytes) = match options.method {
            Method::Retro if ranked => (
                "retrograde analysis (configurations ranked, no tables) of",
                ranked_need(estimate, options),
            ),
            Method::Retro => ("retrograde analysis of", tables_need(estimate, options)),
            // Neither store fits the budget: name the smaller need, the least budget that
            // would do (a small cell's full tables need less than the on-demand floor).
            _ if on_demand
                && options.store == Store::Auto
                && keys_fit
                && eager_bytes < MIN_ON_DEMAND_BYTES =>
            {
                return Need {
                    on_demand: false,
                    ranked: false,
                    bytes: eager_bytes,
                    what: "solving",
                };
            }
            _ if on_demand => ("proof search on", MIN_ON_DEMAND_BYTES),
            _ => ("solving", eager_bytes),
        };
        Need {
            on_demand,
            ranked: ranked && options.method == Method::Retro,
            bytes,
            what,
        }
    }

    /// The least budget the cell can be solved with by `options`' method and store (the
    /// budget in `options` aside).
    pub fn least(board: Board, estimate: &CellEstimate, options: &SolveOptions) -> Need {
        let unbounded = SolveOptions {
            memory_budget: 0,
            ..options.clone()
        };
        Need::new(board, estimate, &unbounded)
    }

    /// What needs the bytes, as the memory error names it.
    pub fn what(&self, cell: Cell, estimate: &CellEstimate) -> String {
        format!(
            "{} {cell} ({} positions)",
            self.what, estimate.retro.positions
        )
    }
}

/// The least budget `solve --method retro` takes at `precision` (`None`: its choice)
/// without a directory: the tables or the ranked numbering, whichever needs less, and a
/// compact analysis's room for the length's search. What the table plan asks before it
/// plans the analysis in memory, so that a plan is never one the run then refuses.
pub fn retro_in_memory_need(
    board: Board,
    estimate: &CellEstimate,
    precision: Option<Precision>,
) -> u64 {
    let options = SolveOptions {
        method: Method::Retro,
        max_depth: u8::MAX,
        threads: 1,
        memory_budget: 0,
        tt_bytes: Some(0),
        precision,
        ..SolveOptions::default()
    };
    Need::least(board, estimate, &options).bytes
}

/// The precision the analysis of `solve` runs at: the one asked for, else exact when every
/// layer fits at a byte beside the configurations (`tables_bytes`: the finished tables or
/// the ranked numbering), else compact (2 bits; the length then comes from a proof search).
/// One rule for the CLI, which refuses the search's flags where the analysis will be exact,
/// and for `decide`, which the solver follows.
pub fn retro_precision(e: &RetroEstimate, tables_bytes: u64, options: &SolveOptions) -> Precision {
    options.precision.unwrap_or(
        match e.exact_fits(tables_bytes, options.memory_budget, Keep::Every) {
            true => Precision::Exact,
            false => Precision::Compact,
        },
    )
}

/// Whether `--method retro` reads the ranked numbering of the configurations
/// (`tables::Ranked`, a bit per wall-slot list) instead of building the tables: when the
/// analysis with the tables does not fit the budget and the one with the numbering needs
/// less (unless `--store full` asks for the tables), and always across ranks. The tables
/// are faster to read and
/// serve the length's search directly; the numbering takes a few bytes per configuration
/// where the tables take hundreds.
pub fn retro_over_ranked(estimate: &CellEstimate, options: &SolveOptions) -> bool {
    // Across ranks each rank holds its own configurations beside its share of a layer:
    // the numbering, not the tables, or no rank's memory would fall with their number.
    if across_ranks(options) {
        return true;
    }
    let (eager, ranked) = (
        tables_need(estimate, options),
        ranked_need(estimate, options),
    );
    // Saving, where two layers do not fit beside the tables the analysis runs in parts
    // (`retro::parts`), and the tables would only make its parts smaller.
    let e = &estimate.retro;
    let storing = e.peak_storing(Precision::Exact, 0..e.layers.min(2));
    let in_parts = options.save.is_some()
        && estimate.tables.bytes.saturating_add(storing) > options.memory_budget;
    // Where neither fits, the smaller need: the refusal names the least budget that does.
    options.store != Store::Full
        && (eager > options.memory_budget || in_parts)
        && (ranked <= options.memory_budget || ranked < eager)
}

/// Whether the analysis runs across ranks (`retro::across`).
pub fn across_ranks(options: &SolveOptions) -> bool {
    options.save.as_ref().is_some_and(|to| to.ranks.is_some())
}

/// The budget of the analysis over the ranked numbering (`ranked_bytes`) at `precision`
/// within `budget`: the whole budget for the exact one; for the compact one, at most two
/// thirds of what the numbering leaves (more layers kept make a better oracle), and the
/// length's search at least its floor.
pub fn ranked_analysis_budget(ranked_bytes: u64, precision: Precision, budget: u64) -> u64 {
    let room = budget.saturating_sub(ranked_bytes);
    let search_floor = MIN_ON_DEMAND_BYTES + ON_DEMAND_SLACK_BYTES;
    match precision {
        Precision::Exact => budget,
        Precision::Compact => ranked_bytes + (room / 3 * 2).min(room.saturating_sub(search_floor)),
    }
}

/// The seconds of the analysis in parts over the ranked numbering at `precision` within
/// `budget` (`RetroEstimate::in_parts_layers`); `None` where its least part does not fit.
pub fn in_parts_seconds(estimate: &CellEstimate, precision: Precision, budget: u64) -> Option<f64> {
    let layers = in_parts_layers(estimate, precision, budget)?;
    Some(layers.iter().map(|l| l.seconds).sum())
}

/// `in_parts_seconds` layer by layer (`RetroEstimate::in_parts_layers`): the parts take the
/// whole budget, as they are freed before the length's search (`retro::Request::parts_budget`).
pub fn in_parts_layers(
    estimate: &CellEstimate,
    precision: Precision,
    budget: u64,
) -> Option<Vec<LayerCost>> {
    let room = budget.saturating_sub(estimate.ranked_bytes);
    estimate.retro.in_parts_layers(precision, room)
}

/// The least memory of the compact analysis in parts through a directory over the ranked
/// numbering, with room for the length's search after it: what `--scratch` needs where
/// the analysis does not fit in memory (the table plan's way through the disk).
pub fn through_disk_need(estimate: &CellEstimate) -> u64 {
    estimate
        .ranked_bytes
        .saturating_add(saving_bytes(estimate, Some(Precision::Compact)))
        .saturating_add(MIN_ON_DEMAND_BYTES + ON_DEMAND_SLACK_BYTES)
}

/// The least memory of `retro_ranked`: the analysis, and where it may be compact, room for
/// the length's search over configurations built on demand (at least the store's floor).
fn ranked_need(estimate: &CellEstimate, options: &SolveOptions) -> u64 {
    let precision = options.precision;
    if options.save.is_some() {
        let saving = estimate
            .ranked_bytes
            .saturating_add(saving_bytes(estimate, precision));
        // The compact analysis leaves the length's search its floor (`retro_ranked`).
        return match precision {
            Some(Precision::Compact) => saving + MIN_ON_DEMAND_BYTES + ON_DEMAND_SLACK_BYTES,
            _ => saving,
        };
    }
    let need = estimate.retro_ranked_bytes(precision);
    if precision == Some(Precision::Exact) {
        return need;
    }
    let analysis = estimate.retro_ranked_bytes(Some(Precision::Compact)) / 3 * 2;
    need.max(analysis + MIN_ON_DEMAND_BYTES + ON_DEMAND_SLACK_BYTES)
}

/// The least memory of the analysis that `--save` runs beside its configurations (exact
/// unless `precision` says compact): every layer in parts of a group through the disk
/// (`retro::parts`), or for the exact one, two layers, the last one stored too (it is
/// written, `RetroEstimate::peak_storing`), where that is less.
fn saving_bytes(estimate: &CellEstimate, precision: Option<Precision>) -> u64 {
    let e = &estimate.retro;
    let precision = precision.unwrap_or(Precision::Exact);
    let parts = e.peak_in_parts(precision, e.least_part(precision));
    match precision {
        Precision::Exact => e
            .peak_storing(Precision::Exact, 0..e.layers.min(2))
            .min(parts),
        Precision::Compact => parts,
    }
}

/// The least memory of the analysis over the tables (`retro_ranked` for the numbering).
fn tables_need(estimate: &CellEstimate, options: &SolveOptions) -> u64 {
    match options.save {
        // The compact analysis takes two thirds of what the tables leave (`retro_cell`).
        Some(_) => estimate
            .tables
            .bytes
            .saturating_add(match options.precision {
                Some(Precision::Compact) => saving_bytes(estimate, options.precision) / 2 * 3,
                _ => saving_bytes(estimate, options.precision),
            }),
        None => estimate.retro_bytes(options.precision),
    }
}

/// The bytes of what the analysis reads the configurations from (the finished tables or
/// the ranked numbering): what `retro_precision` leaves aside.
pub fn retro_configs_bytes(estimate: &CellEstimate, options: &SolveOptions) -> u64 {
    match retro_over_ranked(estimate, options) {
        true => estimate.ranked_bytes,
        false => estimate.tables.finished_bytes,
    }
}
