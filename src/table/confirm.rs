//! The second method. A cell one method decided is solved again by the other, and the two
//! answers are compared: the proof search alone for a cell the retrograde analysis decided
//! (asked for the winner the analysis found: a win it proves is proven and exact by the
//! search alone), the analysis alone for a cell the search decided. The two share the
//! rules, move generation and configuration tables, nothing of their solving. A table run
//! with a confirmation limit does this after its own cells, for every decided cell of its
//! selection, cheapest first; the second answers go to `confirm.csv` beside the results
//! table (the same columns), written after each cell, so a campaign resumed later tries
//! only what is left (or what a longer limit may now finish).

use crate::retro::saved_dir;
use std::path::Path;
use std::time::Duration;

use crate::cell::plan::{self, Method, SolveOptions};
use crate::cell::solver::{Outcome, solve};
use crate::error::{Result, count};
use crate::output::report::{self, CellRecord};
use crate::rules::cell::Cell;
use crate::rules::geometry::{Board, Player};
use crate::table::job::{TableEvents, TableRun};

/// The file of second answers, in the results table's directory.
pub const CONFIRM_NAME: &str = "confirm.csv";

/// What the two methods said of one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// The same outcome and the same length.
    Agree,
    /// The same outcome; one of them has no length (a compact analysis whose length
    /// search stopped), so the length rests on the other alone.
    AgreeOnOutcome,
    /// A bug to find, never a result to publish.
    Differ,
    /// The second method did not decide the cell within its limit.
    Unfinished,
}

/// Compares a cell's first answer (decided) with its second.
pub fn agreement(first: &CellRecord, second: &CellRecord) -> Agreement {
    if !second.is_decided() {
        return Agreement::Unfinished;
    }
    if first.outcome != second.outcome {
        return Agreement::Differ;
    }
    match (first.plies, second.plies) {
        (Some(a), Some(b)) if a != b => Agreement::Differ,
        (Some(_), Some(_)) => Agreement::Agree,
        _ => Agreement::AgreeOnOutcome,
    }
}

/// What the pass did, the cells it found confirmed already included.
#[derive(Clone, Debug, Default)]
pub struct ConfirmSummary {
    pub agree: usize,
    pub agree_on_outcome: usize,
    /// The cells whose answers differ: (first, second).
    pub differ: Vec<(CellRecord, CellRecord)>,
    pub unfinished: usize,
    /// Decided cells the second method cannot run on here (over the budget, the limit,
    /// or the analysis's board size).
    pub not_tried: usize,
}

impl ConfirmSummary {
    pub fn line(&self) -> String {
        format!(
            "second method: {} the same (outcome and length), {} the same outcome (the \
             length from one method), {} differ, {} not decided within the limit, {} not tried",
            count(self.agree, "cell"),
            self.agree_on_outcome,
            self.differ.len(),
            self.unfinished,
            self.not_tried
        )
    }

    fn add(&mut self, first: &CellRecord, second: &CellRecord) -> Agreement {
        let v = agreement(first, second);
        match v {
            Agreement::Agree => self.agree += 1,
            Agreement::AgreeOnOutcome => self.agree_on_outcome += 1,
            Agreement::Differ => self.differ.push((first.clone(), second.clone())),
            Agreement::Unfinished => self.unfinished += 1,
        }
        v
    }
}

/// How the second method runs on a cell the first decided (`first`), within `limit`;
/// or why it cannot here.
pub fn second_options(
    first: &CellRecord,
    cell: Cell,
    base: &SolveOptions,
    limit: Duration,
    scratch: Option<&Path>,
) -> std::result::Result<(SolveOptions, String), String> {
    let budget = base.memory_budget;
    if first.method.is_retro() {
        let winner = match first.outcome {
            Outcome::Player1 => Player::One,
            Outcome::Player2 => Player::Two,
            // A draw has no win to prove; the search alone decides no draw.
            _ => return Err("a draw: the proof search proves wins only".into()),
        };
        let planned = plan::plan(cell, budget, limit, &[]);
        // Its table kept apart from the first method's (the search for the length after
        // the analysis), which this search must not lean on.
        let checkpoint = scratch.map(|dir| dir.join(second_checkpoint_name(cell)));
        let options = SolveOptions {
            method: Method::Search,
            winner: Some(winner),
            time_limit: Some(limit),
            tt_bytes: Some(planned.tt_bytes),
            precision: None,
            save: None,
            checkpoint: checkpoint.clone(),
            in_campaign: true,
            ..base.clone()
        };
        let why = format!(
            "proof search alone for Player {}'s wins, up to {:.0} s{}",
            winner.index() + 1,
            limit.as_secs_f64(),
            checkpoint.map_or(String::new(), |c| format!(
                " (its table kept in {})",
                c.display()
            ))
        );
        return Ok((options, why));
    }
    let disk = match scratch {
        Some(_) => plan::Disk::Scratch,
        None => plan::Disk::None,
    };
    let planned = plan::plan_with_disk(cell, (budget, limit), &[], disk);
    if planned.method == Method::Search {
        return Err(planned.why);
    }
    let save = match (planned.through_disk, scratch) {
        (true, Some(dir)) => Some(saved_dir::Target::scratch(
            dir.join(saved_dir::cell_dir_name(cell)),
        )),
        _ => None,
    };
    let why = format!(
        "{} retrograde analysis alone{}, about {:.0} s",
        match planned.precision {
            Some(crate::retro::Precision::Exact) => "exact",
            _ => "compact",
        },
        if planned.through_disk {
            " in parts through the scratch directory"
        } else {
            ""
        },
        planned.at_most
    );
    let options = SolveOptions {
        method: Method::Retro,
        winner: None,
        checkpoint: None,
        time_limit: Some(limit),
        tt_bytes: Some(planned.tt_bytes),
        precision: planned.precision,
        save,
        ..base.clone()
    };
    Ok((options, why))
}

/// The file in a scratch directory where the second method's proof search of the cell
/// keeps its table between runs.
pub fn second_checkpoint_name(cell: Cell) -> String {
    format!("{}.second.checkpoint", saved_dir::cell_dir_name(cell))
}

/// The second-method pass over the decided cells of `t`'s selection (`records`: the
/// results table as the run left it).
pub fn run(
    t: &TableRun,
    records: &[CellRecord],
    limit: Duration,
    events: &dyn TableEvents,
) -> Result<ConfirmSummary> {
    let path = t.dir.join(CONFIRM_NAME);
    t.create_scratch()?;
    let mut seconds = report::read_csv_if_any(&path)?;
    let mut summary = ConfirmSummary::default();
    let firsts: Vec<&CellRecord> = t
        .cells
        .iter()
        .filter_map(|&cell| records.iter().find(|r| r.is(cell) && r.is_decided()))
        .collect();
    for (i, first) in firsts.iter().enumerate() {
        let at = format!("[second {}/{}]", i + 1, firsts.len());
        let cell = Cell::new(Board::new(first.width, first.height)?, first.walls);
        let before = seconds.iter().find(|r| r.cell() == first.cell()).cloned();
        // Decided, or tried as long as this limit allows: nothing new to learn.
        if let Some(before) = before.filter(|r| r.is_decided() || r.undecided_after(limit)) {
            summary.add(first, &before);
            continue;
        }
        let (options, why) =
            match second_options(first, cell, &t.options, limit, t.scratch.as_deref()) {
                Ok(planned) => planned,
                Err(why) => {
                    events.line(&format!("{at} {cell}: no second method here: {why}"));
                    summary.not_tried += 1;
                    continue;
                }
            };
        events.cell_begins(cell);
        let result = solve(cell.board, cell.walls, &options, events)?;
        if crate::table::stopped::cut_short(&result, options.checkpoint.as_deref(), events) {
            return Err(crate::error::Error::Interrupted);
        }
        let second = CellRecord::from_result(&result);
        if let (true, Some(path)) = (second.is_solved(), &options.checkpoint) {
            crate::table::stopped::remove_checkpoint(path, events);
        }
        let agreement = summary.add(first, &second);
        events.line(&format!(
            "{at} {cell}: {} by the {why}: {} ({}: {})",
            report::markdown::cell_text(&second),
            match agreement {
                Agreement::Agree => "the same",
                Agreement::AgreeOnOutcome => "the same outcome",
                Agreement::Differ => "DIFFERS",
                Agreement::Unfinished => "not decided",
            },
            first.method,
            report::markdown::cell_text(first),
        ));
        seconds.retain(|r| r.cell() != second.cell());
        seconds.push(second);
        report::write_csv(&path, &seconds)?;
        if crate::search::stop_requested() {
            return Err(crate::error::Error::Interrupted);
        }
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::solver::MethodUsed;

    fn record(outcome: Outcome, plies: Option<u32>, method: MethodUsed) -> CellRecord {
        CellRecord {
            width: 5,
            height: 5,
            walls: 3,
            outcome,
            plies,
            method,
            nodes: 0,
            seconds: 1.0,
            peak_bytes: 0,
            version: String::new(),
            depth_reached: 0,
            line: String::new(),
        }
    }

    #[test]
    fn answers_compare_by_outcome_and_length() {
        let search = |o, p| record(o, p, MethodUsed::Search);
        let retro = |o, p| record(o, p, MethodUsed::Retro);
        let p2 = Outcome::Player2;
        assert_eq!(
            agreement(&search(p2, Some(24)), &retro(p2, Some(24))),
            Agreement::Agree
        );
        assert_eq!(
            agreement(&search(p2, Some(24)), &retro(p2, Some(26))),
            Agreement::Differ
        );
        assert_eq!(
            agreement(&search(p2, Some(24)), &retro(Outcome::Player1, Some(23))),
            Agreement::Differ
        );
        assert_eq!(
            agreement(&search(p2, Some(24)), &retro(p2, None)),
            Agreement::AgreeOnOutcome
        );
        assert_eq!(
            agreement(&retro(p2, Some(24)), &search(Outcome::Unknown, None)),
            Agreement::Unfinished
        );
    }

    #[test]
    fn the_second_method_is_the_other_one() {
        let cell = Cell::new(Board::new(5, 5).unwrap(), 3);
        let base = SolveOptions {
            max_depth: 60,
            threads: 2,
            memory_budget: 4 << 30,
            tt_bytes: Some(8 << 20),
            ..SolveOptions::default()
        };
        let limit = Duration::from_secs(600);
        let by_retro = record(Outcome::Player2, Some(24), MethodUsed::Retro);
        let (o, _) = second_options(&by_retro, cell, &base, limit, None).unwrap();
        assert_eq!((o.method, o.winner), (Method::Search, Some(Player::Two)));
        let by_search = record(Outcome::Player2, Some(24), MethodUsed::Search);
        let (o, why) = second_options(&by_search, cell, &base, limit, None).unwrap();
        assert_eq!((o.method, o.winner), (Method::Retro, None), "{why}");
        let draw = record(Outcome::Draw, None, MethodUsed::Retro);
        assert!(second_options(&draw, cell, &base, limit, None).is_err());
        // A board over the analysis's cells has no second method when the search decided it.
        let big = Cell::new(Board::new(9, 9).unwrap(), 3);
        assert!(second_options(&by_search, big, &base, limit, None).is_err());
    }
}
