//! A campaign: the cells of a table decided over many runs (sessions of a few hours), each
//! given the method its estimates favour (`plan.rs`), and at every step the cheapest cell
//! left: of each board the first wall count not decided yet (the next follows once that
//! one is), ordered by the plan's time. A cell is one table run of its own (`table_run`),
//! so the results table is written after each and nothing decided is lost; a cell left
//! undecided after the whole limit is given up and not tried again at that limit, which
//! a resumed campaign reads from the table itself. Then the second method
//! (`confirm.rs`) on every decided cell of the selection.

use std::time::{Duration, Instant};

use crate::error::Result;
use crate::output::report::CellRecord;
use crate::rules::cell::Cell;
use crate::table::confirm;
use crate::table::job::{Planned, TableEvents, TableRun};
use crate::table::run::{self, TableSummary};

/// The campaign's next cells, cheapest first by their plans, and the cells given up.
pub fn next_cells(t: &TableRun) -> Result<(Vec<Planned>, Vec<CellRecord>)> {
    let limit = t.options.time_limit.unwrap_or(Duration::MAX);
    let records = t.kept_records()?;
    let row = |cell: Cell| records.iter().find(|r| r.is(cell));
    let mut next = Vec::new();
    let mut given = Vec::new();
    for (cell, plan) in t.plans(&records) {
        match row(cell) {
            Some(r) if r.undecided_after(limit) => given.push(r.clone()),
            _ => next.push((cell, plan)),
        }
    }
    next.sort_by(|x, y| x.1.at_most.total_cmp(&y.1.at_most));
    Ok((next, given))
}

/// Runs the campaign until no cell is left to try, then the second method when asked.
/// `t` must resume (its table is the campaign's memory) and stop a board at a cell it
/// cannot decide.
pub fn run(t: &TableRun, events: &dyn TableEvents) -> Result<TableSummary> {
    debug_assert!(t.resume && t.stop_at_undecided);
    // Held over every cell's run (each takes them again, within this process).
    let _taken = t.take_dirs()?;
    let started = Instant::now();
    let mut total = TableSummary {
        records: Vec::new(),
        solved: 0,
        undecided: 0,
        skipped: 0,
        passed_over: 0,
        seconds: 0.0,
        other_builds: None,
        confirmed: None,
    };
    // A cell this run tried is not tried again in it, whatever became of it (skipped over
    // the budget, or undecided short of the limit at the search's depth or memory).
    let mut tried: Vec<Cell> = Vec::new();
    loop {
        let (next, _) = next_cells(t)?;
        let untried: Vec<_> = next
            .iter()
            .filter(|(cell, _)| !tried.contains(cell))
            .collect();
        let Some(&&(cell, _)) = untried.first() else {
            break;
        };
        // A decided cell brings its board's next wall count: the whole grows as it goes.
        events.cells_to_solve(untried.len() as u64);
        tried.push(cell);
        let one = TableRun {
            cells: vec![cell],
            confirm: None,
            ..t.clone()
        };
        // Its place, and the cells known now: those tried before it and those left (the
        // count grows as decided cells bring their boards' next wall counts).
        let (place, known) = (tried.len(), tried.len() - 1 + untried.len());
        let done = run::run_in_campaign(&one, events, place, known)?;
        total.solved += done.solved;
        total.undecided += done.undecided;
        total.skipped += done.skipped;
        total.passed_over += done.passed_over;
        total.other_builds = total.other_builds.or(done.other_builds);
    }
    total.records = t.kept_records()?;
    total.seconds = started.elapsed().as_secs_f64();
    if let Some(limit) = t.confirm {
        total.confirmed = Some(confirm::run(t, &total.records, limit, events)?);
    }
    Ok(total)
}
