//! `table`: solve the cells of the published table (cheapest first), write results/ as
//! CSV, JSON and Markdown after every cell, and check the outcomes against the published
//! table.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::OnceLock;

use clap::Args;
use indicatif::ProgressBar;
use quoridor_solver::cell::solver::{DEFAULT_TT_BYTES, Method, Outcome, SolveOptions, Store};
use quoridor_solver::error::{clip, count};
use quoridor_solver::output::report::beyond::{BEYOND_BOARDS, even_heights_decided};
use quoridor_solver::output::report::check::{CheckSummary, check};
use quoridor_solver::output::report::published::{self, EVEN_BOARDS};
use quoridor_solver::output::report::{self, CellRecord};
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::rules::position::MAX_WALLS_PER_PLAYER;
use quoridor_solver::support::progress::Progress;
use quoridor_solver::table::campaign;
use quoridor_solver::table::{self, TableEvents, TableRun};
use quoridor_solver::{Error, Result};

use super::progress::Bars;
use super::resources::ResourceArgs;
use super::walls_range;

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
    #[arg(long, value_enum, default_value_t = super::solve::MethodArg::Auto)]
    method: super::solve::MethodArg,

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

/// The time limit of each cell when `--max-seconds` is not given.
const DEFAULT_MAX_SECONDS: f64 = 900.0;
/// The same with `--beyond`: a first pass over many more cells, most decided by search
/// in seconds or not within minutes.
const BEYOND_MAX_SECONDS: f64 = 60.0;
/// The same with `--campaign`: hours a cell, which a session of a few hours can run (an
/// analysis in parts goes on from its layers in the next).
const CAMPAIGN_MAX_SECONDS: f64 = 10800.0;

/// What a checked `table` command does (named apart from the configuration tables and the
/// results table it writes).
pub enum TableJob {
    Check(PathBuf),
    Run(TableRun),
    /// `--campaign`: the cheapest cell left at every step (`campaign.rs`).
    Campaign(TableRun),
    /// Print the plans of the cells left (`--plan`), solve nothing; `true` for a campaign.
    Plan(TableRun, bool),
}

impl TableArgs {
    pub fn validate(&self) -> Result<TableJob> {
        if let Some(file) = &self.check {
            return Ok(TableJob::Check(file.clone()));
        }
        let walls = parse_walls(&self.walls)?;
        let mut boards: Vec<Board> = match &self.boards {
            None if self.beyond => BEYOND_BOARDS
                .iter()
                .map(|&(w, h)| Board::new(w, h))
                .collect::<Result<_>>()?,
            Some(list) => {
                let boards: Vec<Board> = list
                    .split(',')
                    .map(|b| Board::parse(b.trim()))
                    .collect::<Result<_>>()?;
                // A board given twice would be solved twice: almost surely a slip.
                if let Some((_, b)) = boards
                    .iter()
                    .enumerate()
                    .find(|&(i, b)| boards[..i].contains(b))
                {
                    return Err(Error::Argument(format!(
                        "--boards '{}': {b} is given twice",
                        clip(list)
                    )));
                }
                boards
            }
            None => {
                let mut v: Vec<Board> = Vec::new();
                for c in published::cells() {
                    let b = Board::new(c.width, c.height)?;
                    if !v.contains(&b) {
                        v.push(b);
                    }
                }
                v
            }
        };
        if self.even {
            for (w, h) in EVEN_BOARDS {
                let b = Board::new(w, h)?;
                if !boards.contains(&b) {
                    boards.push(b);
                }
            }
        }
        let mut cells: Vec<(Board, u8)> = boards
            .iter()
            .flat_map(|&b| walls.iter().map(move |&n| (b, n)))
            .collect();
        // Cheapest first: smaller boards, then fewer walls.
        cells.sort_by_key(|(b, n)| (b.squares(), *n, b.height(), b.width()));
        let default_seconds = match (&self.campaign, self.beyond) {
            (Some(_), _) => CAMPAIGN_MAX_SECONDS,
            (None, true) => BEYOND_MAX_SECONDS,
            (None, false) => DEFAULT_MAX_SECONDS,
        };
        let time_limit = super::time_limit(self.max_seconds.unwrap_or(default_seconds))?;
        let confirm = match (self.confirm_seconds, &self.campaign) {
            (Some(0.0), _) => None,
            (Some(s), _) => Some(super::time_limit(s).map_err(|e| {
                Error::Argument(e.to_string().replace(
                    "--max-seconds must be",
                    "--confirm-seconds must be 0 (no second method) or",
                ))
            })?),
            (None, Some(_)) => Some(time_limit),
            (None, None) => None,
        };
        let max_depth = super::max_depth(self.max_depth)?;
        let method = self.method.into();
        if self.save.is_some() && method == Method::Search {
            return Err(Error::Argument(
                "--save keeps the retrograde analysis's values; --method search runs none".into(),
            ));
        }
        let r = self.resources.validate()?;
        let options = SolveOptions {
            checkpoint: None,
            in_campaign: false,
            winner: None,
            method,
            max_depth,
            time_limit: Some(time_limit),
            threads: r.threads,
            memory_budget: r.memory_budget,
            tt_bytes: DEFAULT_TT_BYTES,
            precision: None,
            save: None,
            store: Store::Auto,
        };
        let mut job = TableRun {
            cells,
            options,
            resume: self.resume,
            dir: self.out.clone().unwrap_or_else(|| match self.beyond {
                true => PathBuf::from("results/beyond"),
                false => PathBuf::from("results"),
            }),
            save: self.save.clone(),
            scratch: match &self.campaign {
                Some(dir) => Some(dir.join("scratch")),
                None => self.scratch.clone(),
            },
            force: self.force,
            stop_at_undecided: self.beyond || self.stop_at_undecided || self.campaign.is_some(),
            confirm,
        };
        job.resume |= self.campaign.is_some();
        job.check_budget()?;
        Ok(match (self.plan, self.campaign.is_some()) {
            (true, campaign) => TableJob::Plan(job, campaign),
            (false, true) => TableJob::Campaign(job),
            (false, false) => TableJob::Run(job),
        })
    }
}

/// `N`, `A..B`, `A..=B` or `A,B,C` into a sorted list of wall counts. A number out of
/// range gets the same words as `--walls` of the other commands; an empty range or a count
/// given twice is refused rather than quietly dropped, since it is almost surely a slip.
fn parse_walls(text: &str) -> Result<Vec<u8>> {
    let refuse = |why: String| Error::Argument(format!("--walls '{}': {why}", clip(text)));
    let num = |s: &str| -> Result<u8> {
        let s = s.trim();
        let digits = s.strip_prefix('-').unwrap_or(s);
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(refuse("write N, A..B, A..=B or A,B,C (e.g. 0..=10)".into()));
        }
        s.parse::<u8>()
            .ok()
            .filter(|&n| n <= MAX_WALLS_PER_PLAYER)
            .ok_or_else(|| refuse(format!("{} is out of range: {}", clip(s), walls_range())))
    };
    let mut v: Vec<u8> = if let Some((a, b)) = text.split_once("..=") {
        (num(a)?..=num(b)?).collect()
    } else if let Some((a, b)) = text.split_once("..") {
        (num(a)?..num(b)?).collect()
    } else {
        text.split(',').map(num).collect::<Result<_>>()?
    };
    if v.is_empty() {
        return Err(refuse("the range is empty (it has no wall count)".into()));
    }
    v.sort_unstable();
    if let Some(pair) = v.windows(2).find(|p| p[0] == p[1]) {
        return Err(refuse(format!("{} is given twice", pair[0])));
    }
    Ok(v)
}

pub fn run(t: TableJob, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    let (job, campaign) = match t {
        TableJob::Check(file) => {
            let records = report::read_csv(&file)?;
            // A check of nothing would pass: an empty file is a wrong path, not a result.
            if records.is_empty() {
                return Err(Error::Input(format!(
                    "{}: no results to check (the file has no rows)",
                    file.display()
                )));
            }
            let summary = check(&records, &published::cells());
            write_summary(&summary, out)?;
            return Ok(exit_code(&summary));
        }
        TableJob::Plan(job, campaign) => {
            write_plans(&job, campaign, out)?;
            return Ok(ExitCode::SUCCESS);
        }
        TableJob::Campaign(job) => {
            // It says what it is about to do, and for how long, before hours of it.
            write_plans(&job, true, out)?;
            out.flush()?;
            (job, true)
        }
        TableJob::Run(job) => (job, false),
    };
    let scratch = job.scratch.as_ref().map_or(String::new(), |dir| {
        format!(
            ", the layers written and the searches' tables last saved in {}",
            dir.display()
        )
    });
    let again = match campaign {
        true => "run the same command again to go on",
        false => "run the same command again with --resume to solve only the others",
    };
    let hint = format!(
        "interrupted: every cell finished so far is in {}{scratch}; {again}",
        job.csv_path().display()
    );
    super::interrupt::on_interrupt(Some(super::interrupt::Hint::Fixed(&hint)));
    let events = TableBars {
        bars,
        overall: OnceLock::new(),
    };
    let done = match campaign {
        true => campaign::run(&job, &events),
        false => table::run(&job, &events),
    };
    let done = match done {
        // Stopped by a signal once its search had saved its table.
        Err(Error::Interrupted) => {
            eprintln!("\n{hint}");
            return Ok(ExitCode::from(130));
        }
        done => done?,
    };
    if let Some(overall) = events.overall.get() {
        overall.finish_and_clear();
    }
    let undecided = match done.undecided {
        0 => String::new(),
        n => format!(", {n} undecided within the limit"),
    };
    writeln!(
        out,
        "{} solved{undecided}, {} skipped (over the memory budget), {} skipped (a cell of the \
         board with fewer walls undecided) in {:.1} s; results in {}",
        count(done.solved, "cell"),
        done.skipped,
        done.passed_over,
        done.seconds,
        job.dir.display()
    )?;
    if let Some(line) = &done.other_builds {
        writeln!(out, "{line}")?;
    }
    let summary = check(&done.records, &published::cells());
    write_summary(&summary, out)?;
    write_even_heights(&done.records, out)?;
    let mut code = exit_code(&summary);
    if let Some(confirmed) = &done.confirmed {
        writeln!(out, "{}", confirmed.line())?;
        for (first, second) in &confirmed.differ {
            writeln!(
                out,
                "DIFFERS {}x{} with {}: {} by {}, {} by {}",
                first.width,
                first.height,
                count(first.walls, "wall"),
                report::markdown::cell_text(first),
                first.method,
                report::markdown::cell_text(second),
                second.method
            )?;
        }
        if !confirmed.differ.is_empty() {
            code = ExitCode::from(1);
        }
    }
    Ok(code)
}

/// Each cell left to solve with its plan, and the hours they add up to; for a campaign in
/// its order, with the cells it gave up.
fn write_plans(job: &TableRun, campaign: bool, out: &mut dyn Write) -> Result<()> {
    let (plans, given_up) = match campaign {
        true => campaign::next_cells(job)?,
        false => (job.plans(&job.kept_records()?), Vec::new()),
    };
    let mut total = 0.0;
    for (board, walls, plan) in &plans {
        total += plan.at_most;
        writeln!(
            out,
            "plan: {board} with {}: {} (at most {})",
            count(*walls, "wall"),
            plan.why,
            duration(plan.at_most)
        )?;
    }
    for r in &given_up {
        let left = match r.is_decided() {
            true => "its length not found",
            false => "undecided",
        };
        writeln!(
            out,
            "plan: {}x{} with {}: not tried again: {left} after {:.0} s (searched to {}); \
             a longer --max-seconds tries it",
            r.width,
            r.height,
            count(r.walls, "wall"),
            r.seconds,
            count(r.depth_reached, "ply")
        )?;
    }
    let confirm = match job.confirm {
        Some(limit) => format!(
            "; then the second method on every decided cell, up to {} each",
            duration(limit.as_secs_f64())
        ),
        None => String::new(),
    };
    let scratch = match &job.scratch {
        Some(dir) => format!("; layers and checkpoints in {}", dir.display()),
        None => String::new(),
    };
    writeln!(
        out,
        "plan: {} to solve, at most {} as planned now{}{confirm}; results in {}{scratch}",
        count(plans.len(), "cell"),
        duration(total),
        match job.stop_at_undecided {
            true =>
                " (each board's first undecided cell; its next wall count follows once it is decided)",
            false => "",
        },
        job.dir.display()
    )?;
    Ok(())
}

/// Seconds as a reader takes them in a plan: seconds, minutes or hours.
fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 5400.0 => format!("{:.0} min", s / 60.0),
        s => format!("{:.1} h", s / 3600.0),
    }
}

/// A table run's events on the terminal: its lines above the bars, and a bar of the cells.
struct TableBars<'a> {
    bars: &'a Bars,
    overall: OnceLock<ProgressBar>,
}

impl Progress for TableBars<'_> {
    fn begin(&self, stage: &str, total: u64) {
        self.bars.begin(stage, total)
    }
    fn advance(&self, units: u64) {
        self.bars.advance(units)
    }
    fn status(&self, text: &str) {
        self.bars.status(text)
    }
    fn message(&self, text: &str) {
        self.bars.message(text)
    }
    fn warn(&self, text: &str) {
        self.bars.warn(text)
    }
    fn finish(&self) {
        self.bars.finish()
    }
}

impl TableEvents for TableBars<'_> {
    fn line(&self, text: &str) {
        self.bars.line(text)
    }
    fn cells_to_solve(&self, n: u64) {
        // A campaign tells its count before each cell, and its one-cell runs tell 1: the bar
        // grows to what is left after the cells done, and never shrinks.
        let bar = self.overall.get_or_init(|| self.bars.overall("table", 0));
        let wanted = bar.position() + n;
        if wanted > bar.length().unwrap_or(0) {
            bar.set_length(wanted);
        }
    }
    fn cell_begins(&self, board: Board, walls: u8) {
        if let Some(o) = self.overall.get() {
            o.set_message(format!("table: {board} with {}", count(walls, "wall")));
        }
    }
    fn cell_done(&self) {
        if let Some(o) = self.overall.get() {
            o.inc(1);
        }
    }
}

fn write_summary(s: &CheckSummary, out: &mut dyn Write) -> Result<()> {
    writeln!(out, "{}", s.line())?;
    for (r, published) in &s.differing {
        writeln!(
            out,
            "DIFFERS {}x{} with {}: ours {}, published {published}",
            r.width,
            r.height,
            count(r.walls, "wall"),
            r.outcome
        )?;
    }
    for r in &s.new {
        writeln!(
            out,
            "new result {}x{} with {}: {}",
            r.width,
            r.height,
            count(r.walls, "wall"),
            report::markdown::cell_text(r)
        )?;
    }
    for r in &s.unknown {
        writeln!(
            out,
            "undecided {}x{} with {} (searched to {})",
            r.width,
            r.height,
            count(r.walls, "wall"),
            count(r.depth_reached, "ply")
        )?;
    }
    Ok(())
}

/// What the decided even-height cells say of the claim that they are all Player 1 wins.
fn write_even_heights(records: &[CellRecord], out: &mut dyn Write) -> Result<()> {
    let decided = even_heights_decided(records);
    if decided.is_empty() {
        return Ok(());
    }
    let exceptions: Vec<&CellRecord> = decided
        .iter()
        .copied()
        .filter(|r| r.outcome != Outcome::Player1)
        .collect();
    writeln!(
        out,
        "even heights: {} decided, {} not a Player 1 win",
        count(decided.len(), "cell"),
        exceptions.len()
    )?;
    for r in exceptions {
        writeln!(
            out,
            "even height, not a Player 1 win: {}x{} with {}: {}",
            r.width,
            r.height,
            count(r.walls, "wall"),
            report::markdown::cell_text(r)
        )?;
    }
    Ok(())
}

fn exit_code(s: &CheckSummary) -> ExitCode {
    if s.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

#[cfg(test)]
mod tests {
    use super::parse_walls;

    #[test]
    fn wall_ranges() {
        assert_eq!(parse_walls("0..=3").unwrap(), vec![0, 1, 2, 3]);
        assert_eq!(parse_walls("2..4").unwrap(), vec![2, 3]);
        assert_eq!(parse_walls("5,1").unwrap(), vec![1, 5]);
        assert_eq!(parse_walls("7").unwrap(), vec![7]);
        assert_eq!(parse_walls("31").unwrap(), vec![31]);
        for bad in [
            "", "a", "3..1", "3..3", "1..=x", "40", "256", "-1", "5,1,5", "0..=32",
        ] {
            assert!(parse_walls(bad).is_err(), "{bad}");
        }
    }
}
