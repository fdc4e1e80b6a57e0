//! A table command as asked (`TableRequest`: the cells `select.rs` chose, their limits, the
//! directories) and what it becomes once checked (`TableJob`): a check of a results file
//! against the published table, a run, a campaign, or the plans of the cells left. The
//! CLI's `table` fills a request from its flags and prints what these functions return;
//! the defaults and the rules that tie the flags together (a campaign resumes, stops a
//! board at a cell left undecided and confirms every decided cell) live here, once.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cell::plan::{MAX_SECONDS, Method, SolveOptions, Store, max_depth, time_limit};
use crate::error::{Clash, Error, Result, Setting};
use crate::output::report::check::{CheckSummary, check};
use crate::output::report::{self, CellRecord, published};
use crate::rules::cell::Cell;
use crate::table::campaign;
use crate::table::job::{Planned, TableEvents, TableRun};
use crate::table::run::{self, TableSummary};

/// The time limit of each cell when none is given.
pub const DEFAULT_MAX_SECONDS: f64 = 900.0;
/// The same for the second table (`beyond`): a first pass over many more cells, most
/// decided by search in seconds or not within minutes.
pub const BEYOND_MAX_SECONDS: f64 = 60.0;
/// The same for a campaign: hours a cell, which a session of a few hours can run (an
/// analysis in parts goes on from its layers in the next).
pub const CAMPAIGN_MAX_SECONDS: f64 = 10800.0;

/// What a checked `table` command does (named apart from the configuration tables and the
/// results table it writes).
pub enum TableJob {
    /// Solve nothing: compare the results in the file (a table.csv) with the published table.
    Check(PathBuf),
    Run(TableRun),
    /// The cheapest cell left at every step (`campaign.rs`).
    Campaign(TableRun),
    /// The plans of the cells left, nothing solved; `true` for a campaign.
    Plan(TableRun, bool),
}

/// A table run as asked, each limit as given (`None`: its default).
#[derive(Clone, Debug)]
pub struct TableRequest {
    /// The cells, in the order they are solved (`select::select_cells`).
    pub cells: Vec<Cell>,
    /// The second table, beyond the published one: its own time limit and results
    /// directory, and a board stopped at its first cell left undecided.
    pub beyond: bool,
    /// Skip a board's cells with more walls than one left undecided.
    pub stop_at_undecided: bool,
    /// Each cell's time limit in seconds.
    pub max_seconds: Option<f64>,
    pub method: Method,
    pub max_depth: Option<u8>,
    /// Keep the decided rows of the results table and solve only the others.
    pub resume: bool,
    /// The results table's directory.
    pub out: Option<PathBuf>,
    /// Where each cell's analysis is saved, where it fits.
    pub save: Option<PathBuf>,
    /// Where a cell whose analysis does not fit in memory runs it in parts.
    pub scratch: Option<PathBuf>,
    /// A campaign over many runs, its layers and checkpoints in this directory.
    pub campaign: Option<PathBuf>,
    /// The second method's limit in seconds on every decided cell; 0: none.
    pub confirm_seconds: Option<f64>,
    /// Print the plans of the cells left, and solve nothing.
    pub plan: bool,
    /// Replace the saved tables found in `save`.
    pub force: bool,
}

/// A request's limits, checked (`TableRequest::limits`).
#[derive(Clone, Copy, Debug)]
pub struct TableLimits {
    time_limit: Duration,
    confirm: Option<Duration>,
    max_depth: u8,
}

impl TableRequest {
    /// Checks the limits (each cell's, the second method's, the depth) and that what is
    /// saved is what runs. Apart from `job` so that a caller checks them before its own
    /// resources, as the command line always has.
    pub fn limits(&self) -> Result<TableLimits> {
        let default_seconds = match (&self.campaign, self.beyond) {
            (Some(_), _) => CAMPAIGN_MAX_SECONDS,
            (None, true) => BEYOND_MAX_SECONDS,
            (None, false) => DEFAULT_MAX_SECONDS,
        };
        let limit = time_limit(self.max_seconds.unwrap_or(default_seconds))?;
        let confirm = match (self.confirm_seconds, &self.campaign) {
            (Some(0.0), _) => None,
            // The same range as the search's limit, and 0 (above) besides.
            (Some(s), _) => Some(time_limit(s).map_err(|_| Error::Seconds {
                setting: Setting::ConfirmSeconds,
                most: MAX_SECONDS,
            })?),
            (None, Some(_)) => Some(limit),
            (None, None) => None,
        };
        let max_depth = max_depth(self.max_depth)?;
        if self.save.is_some() && self.method == Method::Search {
            return Err(Error::Options(Clash::SaveWithSearch));
        }
        Ok(TableLimits {
            time_limit: limit,
            confirm,
            max_depth,
        })
    }

    /// The run asked, with `threads` and `memory_budget` for every cell; refused where the
    /// budget is below what every cell needs (`TableRun::check_budget`).
    pub fn job(self, limits: TableLimits, threads: usize, memory_budget: u64) -> Result<TableJob> {
        let options = SolveOptions {
            checkpoint: None,
            in_campaign: false,
            winner: None,
            fewer_walls: None,
            default_bound: true,
            fewer_scratch: None,
            method: self.method,
            max_depth: limits.max_depth,
            time_limit: Some(limits.time_limit),
            threads,
            memory_budget,
            tt_bytes: None,
            precision: None,
            save: None,
            store: Store::Auto,
        };
        let campaign = self.campaign.is_some();
        let job = TableRun {
            cells: self.cells,
            options,
            resume: self.resume || campaign,
            dir: self.out.unwrap_or_else(|| match self.beyond {
                true => PathBuf::from("results/beyond"),
                false => PathBuf::from("results"),
            }),
            save: self.save,
            scratch: match self.campaign {
                Some(dir) => Some(dir.join("scratch")),
                None => self.scratch,
            },
            force: self.force,
            stop_at_undecided: self.beyond || self.stop_at_undecided || campaign,
            confirm: limits.confirm,
        };
        job.check_budget()?;
        Ok(match (self.plan, campaign) {
            (true, campaign) => TableJob::Plan(job, campaign),
            (false, true) => TableJob::Campaign(job),
            (false, false) => TableJob::Run(job),
        })
    }
}

/// The results in `file` (a table.csv) compared with the published table. An empty file
/// is refused: a check of nothing would pass, and it is a wrong path, not a result.
pub fn check_file(file: &Path) -> Result<CheckSummary> {
    let records = report::read_csv(file)?;
    if records.is_empty() {
        return Err(Error::Input(format!(
            "{}: no results to check (the file has no rows)",
            file.display()
        )));
    }
    Ok(check(&records, &published::cells()))
}

/// The rows of a results table compared with the published table.
pub fn check_published(records: &[CellRecord]) -> CheckSummary {
    check(records, &published::cells())
}

/// The cells a run has left to solve, each with its plan, as it would make them now.
pub struct PlanList {
    /// In the order they would be solved (a campaign's: cheapest first).
    pub cells: Vec<Planned>,
    /// A campaign's cells given up: undecided after the whole limit, not tried again.
    pub given_up: Vec<CellRecord>,
    /// The seconds the plans add up to at most.
    pub at_most: f64,
}

/// The plans of the cells `t` has left (`TableRun::plans`), or for a campaign
/// (`campaign`) its next cells in its order and those it gave up.
pub fn plans_left(t: &TableRun, campaign: bool) -> Result<PlanList> {
    let (cells, given_up) = match campaign {
        true => campaign::next_cells(t)?,
        false => (t.plans(&t.kept_records()?), Vec::new()),
    };
    // Folded from +0.0 as the plans were always added: no plan at all is "0 s", not "-0 s".
    let at_most = cells
        .iter()
        .fold(0.0, |total, (_, plan)| total + plan.at_most);
    Ok(PlanList {
        cells,
        given_up,
        at_most,
    })
}

/// Runs `t` as a campaign (`campaign::run`) or as one table run (`run::run`).
pub fn run_job(t: &TableRun, campaign: bool, events: &dyn TableEvents) -> Result<TableSummary> {
    match campaign {
        true => campaign::run(t, events),
        false => run::run(t, events),
    }
}
