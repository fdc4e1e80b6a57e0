//! What a `solve` request takes beside the solve itself (`solver.rs`): where its values are
//! written and at which precision (`save_target`, `table_precision`), the report of how the
//! cell would be solved (`plan_report`, `solve --plan`), what became of a search's
//! checkpoint once it stopped (`checkpoint_note`), and a solve across MPI ranks as one of
//! them (`solve_as_rank`, and how a rank ends on an error: `rank_end`). The CLI turns these into text and exit codes. (The
//! refusals of what a request asks in vain are the planner's: `plan/refuse.rs`.)

use std::path::Path;
use std::sync::Arc;

use crate::cell::outcome::{CellResult, Outcome};
use crate::cell::plan::{AcrossCosts, Costs, Decision, SolveOptions, decide};
use crate::cell::solver::solve_share;
use crate::error::{Error, Result};
use crate::retro::Precision;
use crate::retro::ranks::{Ranks, SharedRanks};
use crate::retro::saved_dir::Target;
use crate::rules::cell::Cell;
use crate::search::NoWin;
use crate::support::progress::Silent;

/// Where a solve writes the analysis's values: `save`, a new table (one already there
/// replaced only with `replace`), or else `scratch`, a directory gone on from (the layers
/// written are kept and never replaced); `None` for neither.
pub fn save_target(save: Option<&Path>, scratch: Option<&Path>, replace: bool) -> Option<Target> {
    let (dir, replace, resume) = match (save, scratch) {
        (Some(dir), _) => (dir, replace, false),
        (None, Some(dir)) => (dir, false, true),
        (None, None) => return None,
    };
    Some(Target {
        dir: dir.to_path_buf(),
        replace,
        resume,
        ranks: None,
        bound_only: false,
    })
}

/// The precision a solve asks for (`asked`, `None`: the solver's choice): a table written
/// (`writes_table`) is exact unless the outcomes only are asked for.
pub fn table_precision(asked: Option<Precision>, writes_table: bool) -> Option<Precision> {
    match writes_table {
        true => Some(asked.unwrap_or(Precision::Exact)),
        false => asked,
    }
}

/// How the cell would be solved, and what each way to solve it would take, from the
/// estimates alone: nothing is built.
pub struct PlanReport {
    /// The planner's decision, which `solve` follows.
    pub decision: Decision,
    /// Whether the least the decision needs fits the memory budget.
    pub fits: bool,
    /// What each way to solve the cell would take (memory, disk, time).
    pub costs: Costs,
    /// The same across MPI ranks, when asked for and the analysis can run on the board.
    pub across: Option<AcrossCosts>,
}

/// The report of `solve --plan` for the cell under `options`; with `ranks`, what the
/// analysis across that many ranks would take too.
pub fn plan_report(cell: Cell, options: &SolveOptions, ranks: Option<u16>) -> PlanReport {
    let decision = decide(cell, options);
    let fits = decision.need.bytes <= options.memory_budget;
    let costs = Costs::of(cell, options.memory_budget);
    let across = ranks
        .filter(|_| costs.retro_board)
        .map(|r| AcrossCosts::of(cell, r.into()));
    PlanReport {
        decision,
        fits,
        costs,
        across,
    }
}

/// What became of the checkpoint of a search that stopped, where the reader needs to know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckpointNote<'r> {
    /// The cell is undecided, or a winner's length was not reached: the table is saved with
    /// these bounds (no win for Player 1 within `no_win.0[0]` plies, for Player 2 within
    /// `no_win.0[1]`), and the same command goes on from it; with `deeper`, only with a
    /// larger depth limit, since the same one would stop at once.
    GoOn { no_win: NoWin, deeper: bool },
    /// The save at the end failed (why): the work since the last save is lost.
    NotSaved(&'r str),
}

/// The note on the checkpoint of `r`, solved with `max_depth`, or `None` when there is
/// nothing to say (no save made, or the cell decided whole).
pub fn checkpoint_note(r: &CellResult, max_depth: u8) -> Option<CheckpointNote<'_>> {
    match &r.checkpoint_saved {
        Some(Ok(no_win)) if r.outcome != Outcome::Draw && r.plies.is_none() => {
            let NoWin([one, two]) = *no_win;
            Some(CheckpointNote::GoOn {
                no_win: *no_win,
                deeper: one.max(two) + 1 >= max_depth,
            })
        }
        Some(Err(e)) => Some(CheckpointNote::NotSaved(e)),
        _ => None,
    }
}

/// `solve` as one rank of a job across `ranks`, the same options on every rank: rank 0 runs
/// `here` with the ranks in its options (it solves as one process would, and answers),
/// any other rank its share of every layer of the analysis (`solver::solve_share`),
/// silently, and ends `Done(None)`. Then how the rank ends (`rank_end`).
pub fn solve_as_rank<T>(
    cell: Cell,
    mut options: SolveOptions,
    ranks: Arc<dyn Ranks>,
    here: impl FnOnce(SolveOptions) -> Result<T>,
) -> RankEnd<Option<T>> {
    let rank = ranks.rank();
    if let Some(to) = options.save.as_mut() {
        to.ranks = Some(SharedRanks(ranks));
    }
    let result = match rank {
        0 => here(options).map(Some),
        _ => solve_share(cell.board, cell.walls, &options, &Silent).map(|()| None),
    };
    rank_end(rank, result)
}

/// How a rank of a solve across ranks ends (`rank_end`).
#[derive(Debug)]
pub enum RankEnd<T> {
    /// Its work went well.
    Done(T),
    /// Rank 0's refusal (memory, arguments): reported as any error of one process is.
    Refused(Error),
    /// Another rank's refusal: every rank makes it alike, and rank 0 reports it. This rank
    /// ends quietly with status 0: a rank's non-zero status makes `mpirun` end the job at
    /// once, which could cut rank 0 off before its line; the job's status is rank 0's.
    Quiet,
    /// Any other error stops the whole job: the rank reports it, naming itself and the
    /// layer, and aborts every rank (the others would wait for it in an exchange forever).
    Abort(Error),
}

/// How rank `rank` ends after its work returned `result`. The refusals every rank makes
/// alike, before any rank waits on another (memory, arguments, a directory none can take
/// up), are reported by rank 0 alone.
pub fn rank_end<T>(rank: usize, result: Result<T>) -> RankEnd<T> {
    match result {
        Err(e) if e.is_refusal() && rank == 0 => RankEnd::Refused(e),
        Err(e) if e.is_refusal() => RankEnd::Quiet,
        // Rank 0 could not take up the directory: it reports why, the others end quietly.
        Err(Error::PeerTakeUp { rank: 0, .. }) => RankEnd::Quiet,
        Err(e) => RankEnd::Abort(e),
        Ok(done) => RankEnd::Done(done),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_zero_alone_reports_a_refusal() {
        let refused = || Err::<(), _>(Error::Argument("no".into()));
        assert!(matches!(rank_end(0, refused()), RankEnd::Refused(_)));
        assert!(matches!(rank_end(3, refused()), RankEnd::Quiet));
        // A typed refusal (once an `Argument` string) ends the same way.
        let typed = || Err::<(), _>(Error::Unrun(crate::error::Unrun::RanksWithoutRetro));
        assert!(matches!(rank_end(0, typed()), RankEnd::Refused(_)));
        assert!(matches!(rank_end(2, typed()), RankEnd::Quiet));
        let broken = || Err::<(), _>(Error::io("write", "disk", std::io::Error::other("full")));
        assert!(matches!(rank_end(0, broken()), RankEnd::Abort(_)));
        assert!(matches!(rank_end(1, broken()), RankEnd::Abort(_)));
        assert!(matches!(rank_end(1, Ok(7)), RankEnd::Done(7)));
    }
}
