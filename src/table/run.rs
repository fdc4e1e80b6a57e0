//! A table run: the selected cells solved one by one, cheapest first, each as the plan
//! says (`plan.rs`), the results table written after every cell so that an interrupted
//! run loses at most the cell it was on (`--resume` goes on from the rows written), and
//! with a save directory each cell's analysis saved there. The CLI's `table` parses its
//! flags into a `TableRequest` (`request.rs`), which becomes a `TableRun`, and prints what
//! `run` tells and returns; anything else that runs a table (a server, a driver over many
//! machines) calls the same functions.

use crate::retro::saved_dir;
use std::path::Path;
use std::time::Instant;

use crate::cell::estimate::CellEstimate;
use crate::cell::solver::{CellResult, Method, Outcome, SolveOptions, solve, solve_pair};
use crate::error::{Error, Occupied, Result, count, format_bytes};
use crate::output::report::{self, CellRecord};
use crate::retro::{Keep, Precision};
use crate::rules::cell::Cell;
use crate::table::confirm::{self, ConfirmSummary};
use crate::table::job::{OtherBuilds, TableEvents, TableRun, search_checkpoint_name};
use crate::table::stopped::{cut_short, remove_checkpoint};

/// What a finished run did.
#[derive(Clone, Debug)]
pub struct TableSummary {
    /// Every row of the results table as written, the kept ones included.
    pub records: Vec<CellRecord>,
    /// Cells decided by this run.
    pub solved: usize,
    /// Cells this run tried and left undecided (the search's limit reached).
    pub undecided: usize,
    /// Cells over the memory budget.
    pub skipped: usize,
    /// Cells skipped because a cell of the board with fewer walls stayed undecided.
    pub passed_over: usize,
    pub seconds: f64,
    /// With `resume`, the kept cells another build solved.
    pub other_builds: Option<OtherBuilds>,
    /// What the second method said, when the run asked for it.
    pub confirmed: Option<ConfirmSummary>,
}

/// Runs the table: checks the directories first (a refusal at the first save would come
/// minutes in), then solves every cell left, writing the results table after each one.
/// Each cell's line starts `[i/n]`: its place among the cells left to solve.
pub fn run(t: &TableRun, events: &dyn TableEvents) -> Result<TableSummary> {
    run_numbered(t, events, None)
}

/// `run` for one cell of a campaign (`campaign.rs`), whose line starts `[place/known]`:
/// its place in the campaign's run and the cells known then (those tried and those left),
/// rather than `[1/1]` for a table of one cell.
pub fn run_in_campaign(
    t: &TableRun,
    events: &dyn TableEvents,
    place: usize,
    known: usize,
) -> Result<TableSummary> {
    run_numbered(t, events, Some((place, known)))
}

/// `run`, each cell's line numbered by `numbered` where it is given.
fn run_numbered(
    t: &TableRun,
    events: &dyn TableEvents,
    numbered: Option<(usize, usize)>,
) -> Result<TableSummary> {
    let (dir, options) = (&t.dir, &t.options);
    report::check_writable(dir)?;
    t.create_scratch()?;
    // Before anything in them is read or removed: another run's cells are not ours to drop.
    let _taken = t.take_dirs()?;
    report::remove_stale_temporaries(dir);
    let found = match &t.save {
        Some(save) => check_save_dir(save, t.force, t.resume)?,
        None => saved_dir::Contents::default(),
    };
    // The cells saved by this run, and (with --resume) those kept: what --force keeps.
    let mut keep = match t.resume {
        true => found.cells.clone(),
        false => Vec::new(),
    };
    let mut records = t.kept_records()?;
    let done =
        |records: &[CellRecord], cell: Cell| records.iter().any(|r| r.is(cell) && r.is_solved());
    let todo: Vec<Cell> = t
        .cells
        .iter()
        .copied()
        .filter(|&cell| !done(&records, cell))
        .collect();
    let other_builds = kept_from_other_builds(&records, &t.cells);
    if let Some(other) = &other_builds {
        events.kept_from_other_builds(other);
    }
    events.cells_to_solve(todo.len() as u64);
    let started = Instant::now();
    let (mut skipped, mut passed_over, mut undecided) = (0, 0, 0);
    // The cells of the next wall count, decided with the one before by the search that
    // one's exact analysis bounds (`solver::solve_pair`), wait here for their turn (the
    // run goes cheapest first, so another board's cells may come between).
    let mut paired: Vec<CellResult> = Vec::new();
    for (i, &cell) in todo.iter().enumerate() {
        let Cell { board, walls } = cell;
        events.cell_begins(cell);
        let (place, of) = numbered.unwrap_or((i + 1, todo.len()));
        let at = format!("[{place}/{of}]");
        let undecided_below = || {
            records.iter().find(|r| {
                (r.width, r.height) == (board.width(), board.height())
                    && r.walls < walls
                    && !r.is_decided()
            })
        };
        if t.stop_at_undecided
            && let Some(r) = undecided_below()
        {
            events.line(&format!(
                "{at} {cell} skipped: {} was not decided within the limit",
                count(r.walls, "wall")
            ));
            events.cell_done();
            passed_over += 1;
            continue;
        }
        let planned = t.plan_cell(cell, &records);
        let mut cell_options = SolveOptions {
            // `auto` (the default) follows the plan; `search` and `retro` are the user's.
            method: match options.method {
                Method::Auto => planned.method,
                m => m,
            },
            tt_bytes: Some(planned.tt_bytes),
            precision: planned.precision,
            ..options.clone()
        };
        let mut saved = String::new();
        if let Some(save) = &t.save {
            // The layers go to disk as they are solved: the streaming analysis's memory.
            let e = CellEstimate::new(board, walls);
            let needed = e
                .tables
                .bytes
                .saturating_add(e.retro.exact_peak(&Keep::Two));
            if e.retro
                .exact_fits(e.tables.bytes, options.memory_budget, Keep::Two)
            {
                let name = saved_dir::cell_dir_name(cell);
                let path = save.join(&name);
                saved = format!("; values saved in {}", path.display());
                cell_options.method = Method::Retro;
                cell_options.precision = Some(Precision::Exact);
                // The directory was checked as a whole: a cell's own table found there is
                // the resumed run's or one --force replaces.
                cell_options.save = Some(saved_dir::Target {
                    dir: path,
                    replace: t.force || t.resume,
                    resume: false,
                    ranks: None,
                    bound_only: false,
                });
                keep.push(name);
            } else {
                saved = format!(
                    "; not saved: the exact analysis needs {}",
                    format_bytes(needed)
                );
            }
        }
        if let (true, Some(scratch)) = (planned.through_disk, &t.scratch) {
            let name = saved_dir::cell_dir_name(cell);
            let path = scratch.join(&name);
            // The search for the length keeps its table beside the layers: a run stopped
            // in it goes on from there (hours of search on the largest cells).
            let checkpoint = scratch.join(search_checkpoint_name(cell));
            saved = format!(
                "; layers in {}, the length's search in {}",
                path.display(),
                checkpoint.display()
            );
            cell_options.save = Some(saved_dir::Target::scratch(path));
            cell_options.checkpoint = Some(checkpoint);
        } else if let (false, Some(scratch)) = (cell_options.method == Method::Retro, &t.scratch) {
            // A proof search from the start keeps its table there too: a cell stopped (by
            // the end of a session, or its limit) goes on from what it had proven.
            let checkpoint = scratch.join(search_checkpoint_name(cell));
            saved = format!("; the search's table in {}", checkpoint.display());
            cell_options.checkpoint = Some(checkpoint);
        }
        cell_options.in_campaign = true;
        // Paired from the board's most walls down, so that the searches take the larger
        // cells of each pair (the analyses grow with the walls).
        let pairs = in_a_row(cell, &todo[i..]).is_multiple_of(2)
            && t.save.is_none()
            && options.method == Method::Auto
            && cell_options.method == Method::Retro
            && cell_options.precision == Some(Precision::Exact)
            && cell_options.save.is_none();
        let waiting = paired
            .iter()
            .position(|r| (r.width, r.height, r.walls) == (board.width(), board.height(), walls));
        let from_pair = waiting.is_some();
        let solved = match waiting.map(|at| paired.swap_remove(at)) {
            Some(r) => {
                if let Some(by) = r.pruned_by {
                    saved = format!("; proof search {by}, the analysis run with that cell");
                }
                Ok(r)
            }
            None if pairs => solve_pair(board, walls, &cell_options, events).map(|(r, next)| {
                // A second cell the search left undecided (its limit) is solved alone.
                paired.extend(next.filter(|n| n.outcome != Outcome::Unknown));
                r
            }),
            None => solve(board, walls, &cell_options, events),
        };
        let result = match solved {
            Ok(r) => r,
            // One cell too large for the budget or the disk does not stop the others; it
            // stays missing.
            Err(e @ (Error::Memory { .. } | Error::Disk { .. })) => {
                events.cell_skipped(&at, &e);
                events.cell_done();
                skipped += 1;
                continue;
            }
            Err(e) => return Err(e),
        };
        if cut_short(&result, cell_options.checkpoint.as_deref(), events) {
            return Err(Error::Interrupted);
        }
        let record = CellRecord::from_result(&result);
        undecided += usize::from(!record.is_decided());
        if let (true, Some(path)) = (record.is_solved(), &cell_options.checkpoint) {
            // Solved: nothing left to go on with (gigabytes each).
            remove_checkpoint(path, events);
        }
        // The plan's reason where the plan was followed, then what was saved.
        let followed =
            !from_pair && cell_options.save.is_none() && cell_options.method == planned.method;
        let mut why = match followed {
            true => format!("; planned {}{saved}", planned.why),
            false => saved,
        };
        // A row says how far the search has gone on an undecided cell: a shorter try
        // (--resume with a smaller limit) does not take that back.
        let deeper_before = records
            .iter()
            .find(|r| r.cell() == record.cell() && !r.is_decided() && !record.is_decided())
            .map(|r| r.depth_reached)
            .filter(|&d| d > record.depth_reached);
        if let Some(d) = deeper_before {
            why.push_str(&format!(
                "; the earlier row, searched to {}, is kept",
                count(d, "ply")
            ));
        }
        events.line(&format!(
            "{at} {cell}: {} in {:.2} s{} ({}, peak {:.2} GiB){why}",
            report::markdown::cell_text(&record),
            record.seconds,
            result.earlier_note(),
            count(record.nodes, "node"),
            record.peak_bytes as f64 / (1u64 << 30) as f64
        ));
        if deeper_before.is_none() {
            records.retain(|r| r.cell() != record.cell());
            records.push(record);
        }
        report::write_all(dir, &records)?;
        events.cell_done();
        if crate::search::stop_requested() {
            // Decided as the stop came: written, and the run ends there.
            return Err(Error::Interrupted);
        }
    }
    if let (Some(save), true) = (&t.save, t.force) {
        saved_dir::remove_tables_except(save, &keep)?;
    }
    // Written again at the end, so that a run with nothing left to solve (--resume)
    // brings the files up to date with this version, table.svg included.
    report::write_all(dir, &records)?;
    let confirmed = match t.confirm {
        Some(limit) => Some(confirm::run(t, &records, limit, events)?),
        None => None,
    };
    Ok(TableSummary {
        records,
        solved: todo.len() - skipped - passed_over - undecided,
        undecided,
        skipped,
        passed_over,
        seconds: started.elapsed().as_secs_f64(),
        other_builds,
        confirmed,
    })
}

/// How many of `cell`'s board's wall counts from `cell`'s on, one after the other, are
/// among `cells`.
fn in_a_row(cell: Cell, cells: &[Cell]) -> usize {
    (cell.walls..=u8::MAX)
        .take_while(|&walls| cells.contains(&Cell::new(cell.board, walls)))
        .count()
}

/// Refuses `dir` for `table --save` unless the run may write there: it does not exist or
/// is empty; or it holds saved tables and the run replaces them (`force`), or it holds
/// cells of the run resumed (`resume`). Files that are not a saved table's are never
/// replaced. Removes the remains of killed saves, which are never results; returns what
/// was there.
fn check_save_dir(dir: &Path, force: bool, resume: bool) -> Result<saved_dir::Contents> {
    let Some(found) = saved_dir::contents(dir)? else {
        return Ok(saved_dir::Contents::default());
    };
    if let Some(foreign) = &found.foreign {
        return Err(saved_dir::not_a_table(dir, foreign));
    }
    let occupied = |what| Error::Occupied {
        dir: dir.to_path_buf(),
        holds: saved_dir::describe(dir, &found),
        what,
    };
    if found.table_files && !force {
        return Err(occupied(Occupied::OneTable));
    }
    if !found.cells.is_empty() && !force && !resume {
        return Err(occupied(Occupied::Cells { many: found.many() }));
    }
    saved_dir::remove_leftovers(&found);
    Ok(found)
}

/// With `resume`, which of the selected `cells` it keeps were solved by another build
/// than this one, or `None`.
fn kept_from_other_builds(records: &[CellRecord], cells: &[Cell]) -> Option<OtherBuilds> {
    let this = report::version();
    let selected = |r: &CellRecord| cells.iter().any(|&cell| r.is(cell));
    let others: Vec<&CellRecord> = records
        .iter()
        .filter(|r| r.is_decided() && selected(r) && r.version != this)
        .collect();
    if others.is_empty() {
        return None;
    }
    let mut versions: Vec<String> = others.iter().map(|r| r.version.clone()).collect();
    versions.sort_unstable();
    versions.dedup();
    Some(OtherBuilds {
        cells: others.len(),
        versions,
        this,
    })
}
