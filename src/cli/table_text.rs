//! `table`'s text: the plans before a run, a line per cell on stderr with a bar of the
//! cells (`TableBars`, the run's `TableEvents`), what Ctrl-C says, and what the run did
//! and what the check found on stdout.

use std::io::Write;
use std::sync::OnceLock;

use indicatif::ProgressBar;
use quoridor_solver::cell::solver::Outcome;
use quoridor_solver::error::count;
use quoridor_solver::output::report::beyond::even_heights_decided;
use quoridor_solver::output::report::check::CheckSummary;
use quoridor_solver::output::report::{self, CellRecord};
use quoridor_solver::rules::cell::Cell;
use quoridor_solver::support::progress::Progress;
use quoridor_solver::table::request::PlanList;
use quoridor_solver::table::{OtherBuilds, TableEvents, TableRun, TableSummary};
use quoridor_solver::{Error, Result};

use super::progress::Bars;

/// Each cell left to solve with its plan, and the hours they add up to; for a campaign in
/// its order, with the cells it gave up.
pub fn write_plans(job: &TableRun, plans: &PlanList, out: &mut dyn Write) -> Result<()> {
    for (cell, plan) in &plans.cells {
        writeln!(
            out,
            "plan: {cell}: {} (at most {})",
            plan.why,
            duration(plan.at_most)
        )?;
    }
    for r in &plans.given_up {
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
        count(plans.cells.len(), "cell"),
        duration(plans.at_most),
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

/// What Ctrl-C says of a run (`campaign`: of a campaign): what is kept, and how to go on.
pub fn interrupt_hint(job: &TableRun, campaign: bool) -> String {
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
    format!(
        "interrupted: every cell finished so far is in {}{scratch}; {again}",
        job.csv_path().display()
    )
}

/// What a finished run did (`done`), what the check against the published table found
/// (`summary`), what the even heights say and what the second method said.
pub fn write_done(
    job: &TableRun,
    done: &TableSummary,
    summary: &CheckSummary,
    out: &mut dyn Write,
) -> Result<()> {
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
    if let Some(other) = &done.other_builds {
        writeln!(out, "{}", other.text("--resume"))?;
    }
    write_summary(summary, out)?;
    write_even_heights(&done.records, out)?;
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
    }
    Ok(())
}

/// A table run's events on the terminal: its lines above the bars, and a bar of the cells.
pub struct TableBars<'a> {
    bars: &'a Bars,
    overall: OnceLock<ProgressBar>,
}

impl<'a> TableBars<'a> {
    pub fn new(bars: &'a Bars) -> TableBars<'a> {
        TableBars {
            bars,
            overall: OnceLock::new(),
        }
    }

    /// Clears the bar of the cells, if it was drawn, once the run is over.
    pub fn finish_overall(&self) {
        if let Some(overall) = self.overall.get() {
            overall.finish_and_clear();
        }
    }
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
    fn shows_status(&self) -> bool {
        self.bars.shows_status()
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
    fn cell_begins(&self, cell: Cell) {
        if let Some(o) = self.overall.get() {
            o.set_message(format!("table: {cell}"));
        }
    }
    fn cell_done(&self) {
        if let Some(o) = self.overall.get() {
            o.inc(1);
        }
    }
    fn kept_from_other_builds(&self, other: &OtherBuilds) {
        self.bars.line(&other.text("--resume"));
    }
    fn cell_skipped(&self, at: &str, why: &Error) {
        self.bars
            .line(&format!("{at} skipped: {}", super::error_text(why)));
    }
}

/// The check against the published table: its line, then each cell that differs, each
/// new result and each cell left undecided.
pub fn write_summary(s: &CheckSummary, out: &mut dyn Write) -> Result<()> {
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
