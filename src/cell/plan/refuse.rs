//! The options refused because they would do nothing on this cell: a caller asked for
//! something the plan does not run (a precision where no analysis runs, a bound on the
//! proof search where none runs). Never accepted and then silently ignored. Some of these
//! are known only from the estimates, so they live beside the planner rather than at the
//! edge; each is a typed `Clash`, which the edges word with their flags.

use super::ask::{Method, SolveOptions};
use super::decide::decide;
use super::need::{retro_configs_bytes, retro_precision};
use crate::cell::estimate::CellEstimate;
use crate::error::{Clash, Error, NoSearch, Result, Setting};
use crate::retro::Precision;
use crate::rules::cell::Cell;

/// Refuses a precision given (`precision_given`) under `Method::Auto` where the plan runs
/// no analysis, the proof search alone (the analysis does not fit, or not the board): it
/// says what the analysis keeps, and would be ignored. Counting the configurations takes
/// a moment on large boards, so callers ask it last.
pub fn refuse_ignored_precision(
    cell: Cell,
    options: &SolveOptions,
    precision_given: bool,
) -> Result<()> {
    if options.method != Method::Auto || !precision_given {
        return Ok(());
    }
    let decision = decide(cell, options);
    match decision.retro {
        Some(_) => Ok(()),
        None => Err(Error::Options(Clash::PrecisionUnused { why: decision.why })),
    }
}

/// Refuses the settings that bound the proof search when the command runs none: there
/// they would do nothing, silently. `why` says why none runs. `given` pairs each setting
/// with whether it was given; that is why these flags are `Option`s with their default
/// stated in the help.
pub fn refuse_search_flags(
    runs_search: bool,
    why: NoSearch,
    given: &[(Setting, bool)],
) -> Result<()> {
    match given.iter().find(|(_, g)| *g) {
        Some(&(setting, _)) if !runs_search => {
            Err(Error::Options(Clash::SearchBound { setting, why }))
        }
        _ => Ok(()),
    }
}

/// Refuses the flags that bound the proof search (`given`, as for `refuse_search_flags`)
/// where `solve` under `options` runs none: the exact analysis (asked for, or what
/// `Method::Retro` gets where every layer fits the budget at a byte). The compact one runs
/// a search for the length, which they bound. `precision_given`: whether the precision was
/// asked for. Counting the configurations takes a moment on large boards, so it is done
/// only when such a flag was given.
pub fn refuse_ignored_search_flags(
    cell: Cell,
    options: &SolveOptions,
    given: &[(Setting, bool)],
    precision_given: bool,
) -> Result<()> {
    if options.method != Method::Retro || !given.iter().any(|(_, g)| *g) {
        return Ok(());
    }
    let e = CellEstimate::new(cell.board, cell.walls);
    let configs = retro_configs_bytes(&e, options);
    let exact = retro_precision(&e.retro, configs, options) == Precision::Exact;
    // A table saved (or written through a scratch directory) is exact unless asked not.
    let why = match (options.save.is_some(), precision_given) {
        (true, _) => NoSearch::SavedExact,
        (false, true) => NoSearch::ExactAsked,
        (false, false) => NoSearch::ExactChosen,
    };
    refuse_search_flags(!exact, why, given)
}

/// What a solve asks for beside its method, for the refusals that hold whatever the cell
/// (`refuse_unrun_by_method`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Asked {
    /// The counts over every position (`--stats`).
    pub stats: bool,
    /// A precision (`--precision`).
    pub precision: bool,
    /// The analysis shared out across MPI ranks (`--distributed`).
    pub distributed: bool,
    /// The plan only (`--plan`).
    pub plan: bool,
    /// The analysis's values written to a directory (`--save`, `--scratch`).
    pub table: bool,
}

/// Refuses what `method` never runs, whatever the cell: the counts over every position,
/// a precision, the analysis across ranks or a table written without the analysis (or
/// ranks without MPI in this build, or with only the plan asked for).
pub fn refuse_unrun_by_method(method: Method, asked: &Asked) -> Result<()> {
    let refuse = |clash| Err(Error::Options(clash));
    if asked.stats && method != Method::Retro {
        return refuse(Clash::StatsWithoutRetro);
    }
    if asked.precision && method == Method::Search {
        return refuse(Clash::PrecisionWithSearch);
    }
    if asked.distributed && (method != Method::Retro || asked.plan) {
        return refuse(Clash::RanksWithoutRetro);
    }
    if asked.distributed && !cfg!(feature = "mpi") {
        return refuse(Clash::RanksWithoutMpi);
    }
    if asked.table && method != Method::Retro {
        return refuse(Clash::TableWithoutRetro);
    }
    Ok(())
}
