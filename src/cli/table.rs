//! `table`: solve the cells of the published table (cheapest first), write results/ as
//! CSV, JSON and Markdown after every cell, and check the outcomes against the published
//! table. The flags become a `table::TableRequest` (the cells chosen by `table::select`);
//! the library checks it into a `TableJob` and runs it; `table_text.rs` prints.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use quoridor_solver::output::report::check::CheckSummary;
use quoridor_solver::table::confirm::ConfirmSummary;
use quoridor_solver::table::request::{self, TableJob, TableRequest};
use quoridor_solver::table::select::{self, Boards};
use quoridor_solver::{Error, Result};

use super::progress::Bars;
use super::resources::ResourceArgs;
use super::table_text::{TableBars, interrupt_hint, write_done, write_plans, write_summary};

/// Solve the table of small boards (the published one by default) and check it
#[derive(Args, Debug)]
pub struct TableArgs {
    /// Only these boards, e.g. 5x5,3x7 (any valid board, published or not)
    #[arg(long, value_name = "WxH,...")]
    boards: Option<String>,

    /// Only these wall counts (0 to 31): N, A..B, A..=B or a list A,B,C
    #[arg(
        long,
        value_name = "RANGE",
        default_value = "0..=10",
        allow_negative_numbers = true
    )]
    walls: String,

    /// Also the even-height boards of at most 28 cells (2x4 to 7x4, 2x6 to 4x6, 2x8, 3x8),
    /// which "Solving Quoridor" says are all Player 1 wins
    #[arg(long)]
    even: bool,

    /// The second table, beyond the published one: boards of 29 to 81 cells (10x3 to 21x3,
    /// 6x5 to 12x5, 5x7 to 9x7, 4x9 to 7x9, the standard 9x9, 3x11, 5x11; even heights 5x6,
    /// 6x6, 4x8, 8x8).
    /// Proof search with configurations built on demand where the full tables do not fit.
    /// Implies --stop-at-undecided. Output in results/beyond unless --out is given;
    /// --max-seconds defaults to 60
    #[arg(long, conflicts_with_all = ["boards", "even"])]
    beyond: bool,

    /// Once a board has a cell left undecided (time or depth limit), skip its cells with
    /// more walls: they are harder, and each would cost the limit again
    #[arg(long)]
    stop_at_undecided: bool,

    /// Give up on a cell's proof search after this many seconds: it is recorded as unknown
    /// with the depth reached, and retried by a later --resume [default: 900; 60 with
    /// --beyond]. A search that goes on from its checkpoint (--scratch, --campaign) counts
    /// the seconds of its earlier runs in this limit, as its row does. A retrograde
    /// analysis runs only when its estimated time fits; the search for its length then gets
    /// the limit again
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    max_seconds: Option<f64>,

    /// How to decide each cell: `auto` (planned per cell from the estimated cost of each
    /// method and the cells already solved: the retrograde analysis, or proof search and
    /// then the analysis if neither player has won, or proof search alone when no analysis
    /// fits), `search` or `retro` (see `solve --help`)
    #[arg(long, value_enum, default_value_t = super::choices::MethodArg::Auto)]
    method: super::choices::MethodArg,

    /// Deepest search iteration in plies for each cell [default: 120]
    #[arg(long, value_name = "D")]
    max_depth: Option<u8>,

    /// Keep the cells already decided in OUT/table.csv and solve only the others (a win
    /// whose length was not found counts as one to solve)
    #[arg(long)]
    resume: bool,

    /// Solve nothing: compare the results in FILE (a table.csv) with the published table.
    /// Not with the options that choose or solve cells, which it would ignore
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = [
            "boards", "walls", "even", "beyond", "stop_at_undecided", "max_seconds", "method", "max_depth",
            "resume", "out", "threads", "memory", "save", "scratch", "campaign",
            "confirm_seconds", "plan",
        ]
    )]
    check: Option<PathBuf>,

    /// Directory for table.csv, table.json, table.md and table.svg [default: results, or
    /// results/beyond with --beyond]
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,

    /// Also save each cell's values in DIR/WxH-wN (as `solve --save`, read by `analyze
    /// --table`): such a cell is solved by the exact retrograde analysis, each layer saved
    /// as it is solved, where that fits the memory budget; the others are planned as usual and not
    /// saved (their line says why). DIR must be new or empty (checked before solving);
    /// with --resume it may hold the cells of the run resumed: those kept stay, those
    /// solved again are replaced. Each cell is written beside its directory and renamed
    /// onto it when whole
    #[arg(long, value_name = "DIR")]
    save: Option<PathBuf>,

    /// Solve a cell whose retrograde analysis does not fit the memory budget in parts
    /// through DIR/WxH-wN (compact: every position's outcome, the length then by a search
    /// guided by them), where its parts fit the budget and its estimated time the limit
    /// (--max-seconds); a cell stopped in the middle goes on from its layers written when
    /// the run is resumed (whatever the budget then: layers written are never solved
    /// again). Without it such a cell gets the proof search alone. A proof search keeps
    /// its table in DIR/WxH-wN.checkpoint, which a later run goes on from, until the cell
    /// is solved
    #[arg(long, value_name = "DIR", conflicts_with = "save")]
    scratch: Option<PathBuf>,

    /// A campaign over many runs, its layers and their checkpoints in DIR (outside the
    /// repository): resumes from OUT's table (a decided cell is never solved again or
    /// lost), stops a board only at a cell it could not decide within its limit, runs an
    /// analysis that does not fit in memory in parts through DIR/scratch (resumed from the
    /// layers written), keeps each proof search's table in DIR/scratch/WxH-wN.checkpoint
    /// (the second method's in WxH-wN.second.checkpoint) until the cell is solved, gives
    /// each cell up to --max-seconds [default with it: 10800], prints each cell's plan and
    /// the hours they add up to before it starts, and then runs the second method on every
    /// decided cell (--confirm-seconds). Implies --resume and --stop-at-undecided
    #[arg(long, value_name = "DIR", conflicts_with_all = ["save", "scratch"])]
    campaign: Option<PathBuf>,

    /// After the run's cells, solve every decided cell of the selection again by the other
    /// method within S seconds and compare: proof search alone for a cell the analysis
    /// decided, the analysis alone for one the search decided. The second answers go to
    /// OUT/confirm.csv (a cell decided there is not tried again; an undecided one only
    /// with a longer limit; a search's earlier runs, from its checkpoint, count in the
    /// limit); a disagreement is printed and the run exits 1. 0: none
    /// [default: none; --max-seconds with --campaign]
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    confirm_seconds: Option<f64>,

    /// Print the plan of each cell left to solve (method, estimated time) and the hours
    /// they add up to, and solve nothing
    #[arg(long)]
    plan: bool,

    /// With --save: replace the saved tables already in DIR: each cell's as it is saved,
    /// and at the end of the run those this run did not save (with --resume, only a
    /// single table saved by `solve`; the cells kept stay). A directory holding other
    /// files is never replaced
    #[arg(long, requires = "save")]
    force: bool,

    #[command(flatten)]
    resources: ResourceArgs,

    /// Also print the solver's own messages on stderr: a line per search depth of each cell
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,

    /// Print nothing on stderr but errors: no progress bars, no line per cell
    #[arg(short, long)]
    pub quiet: bool,
}

impl TableArgs {
    pub fn validate(&self) -> Result<TableJob> {
        if let Some(file) = &self.check {
            return Ok(TableJob::Check(file.clone()));
        }
        let walls = select::parse_wall_counts(&self.walls)?;
        let boards = match &self.boards {
            None if self.beyond => Boards::Beyond,
            Some(list) => Boards::Given(select::parse_boards(list)?),
            None => Boards::Published,
        };
        let request = TableRequest {
            cells: select::select_cells(boards, &walls, self.even)?,
            beyond: self.beyond,
            stop_at_undecided: self.stop_at_undecided,
            max_seconds: self.max_seconds,
            method: self.method.into(),
            max_depth: self.max_depth,
            resume: self.resume,
            out: self.out.clone(),
            save: self.save.clone(),
            scratch: self.scratch.clone(),
            campaign: self.campaign.clone(),
            confirm_seconds: self.confirm_seconds,
            plan: self.plan,
            force: self.force,
        };
        let limits = request.limits()?;
        let r = self.resources.validate()?;
        request.job(limits, r.threads, r.memory_budget)
    }
}

pub fn run(t: TableJob, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    let (job, campaign) = match t {
        TableJob::Check(file) => {
            let summary = request::check_file(&file)?;
            write_summary(&summary, out)?;
            return Ok(exit_code(&summary, None));
        }
        TableJob::Plan(job, campaign) => {
            write_plans(&job, &request::plans_left(&job, campaign)?, out)?;
            return Ok(ExitCode::SUCCESS);
        }
        TableJob::Campaign(job) => {
            // It says what it is about to do, and for how long, before hours of it.
            write_plans(&job, &request::plans_left(&job, true)?, out)?;
            out.flush()?;
            (job, true)
        }
        TableJob::Run(job) => (job, false),
    };
    let hint = interrupt_hint(&job, campaign);
    super::interrupt::on_interrupt(Some(super::interrupt::Hint::Fixed(&hint)));
    let events = TableBars::new(bars);
    let done = match request::run_job(&job, campaign, &events) {
        // Stopped by a signal once its search had saved its table.
        Err(Error::Interrupted) => {
            eprintln!("\n{hint}");
            return Ok(ExitCode::from(130));
        }
        done => done?,
    };
    events.finish_overall();
    let summary = request::check_published(&done.records);
    write_done(&job, &done, &summary, out)?;
    Ok(exit_code(&summary, done.confirmed.as_ref()))
}

/// 1 where a cell differs from the published table or (`confirmed`) from the second
/// method's answer; else 0.
fn exit_code(s: &CheckSummary, confirmed: Option<&ConfirmSummary>) -> ExitCode {
    match s.passed() && confirmed.is_none_or(|c| c.differ.is_empty()) {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(1),
    }
}
