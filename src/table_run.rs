//! A table run: the selected cells solved one by one, cheapest first, each as the plan
//! says (`plan.rs`), the results table written after every cell so that an interrupted
//! run loses at most the cell it was on (`--resume` goes on from the rows written), and
//! with a save directory each cell's analysis saved there. The CLI's `table` parses its
//! flags into a `TableRun` and prints what `run` tells and returns; anything else that
//! runs a table (a server, a driver over many machines) calls the same function.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::confirm::{self, ConfirmSummary};
use crate::dir_lock::{self, DirLock};
use crate::error::{Error, Result, count, format_bytes};
use crate::estimate::CellEstimate;
use crate::geometry::Board;
use crate::plan;
use crate::progress::Progress;
use crate::report::{self, CSV_NAME, CellRecord};
use crate::retro::{Keep, Precision, saved, spill};
use crate::solver::{CellResult, Method, MethodUsed, Need, Outcome, SolveOptions, solve};

/// What a table run solves, and where it writes.
#[derive(Clone, Debug)]
pub struct TableRun {
    /// The cells, in the order they are solved.
    pub cells: Vec<(Board, u8)>,
    /// The options every cell starts from; the plan sets each cell's method, precision and
    /// transposition table (`method` other than `Auto` is kept).
    pub options: SolveOptions,
    /// Keep the decided rows of the results table in `dir` and solve only the others.
    pub resume: bool,
    /// Where the results table goes (CSV, JSON, Markdown, SVG).
    pub dir: PathBuf,
    /// Where each cell's analysis is saved, one directory a cell, where it fits.
    pub save: Option<PathBuf>,
    /// Where a cell whose analysis does not fit in memory runs it in parts, one directory
    /// a cell (`WxH-wN`, resumed from the layers written); `None`: such a cell is searched.
    pub scratch: Option<PathBuf>,
    /// Replace the saved tables found in `save`.
    pub force: bool,
    /// Skip a board's cells with more walls than one left undecided.
    pub stop_at_undecided: bool,
    /// After the cells, solve each decided cell of the selection again by the other
    /// method within this limit and compare (`confirm.rs`); `None`: no second method.
    pub confirm: Option<Duration>,
}

/// What a run tells while it goes, besides the solver's own progress.
pub trait TableEvents: Progress {
    /// A line for the reader: a cell solved or skipped, a note on the rows kept.
    fn line(&self, text: &str);
    /// `n` cells are left to solve besides those done so far; a smaller count than an
    /// earlier one leaves the total as it was.
    fn cells_to_solve(&self, n: u64);
    /// The next cell begins.
    fn cell_begins(&self, board: Board, walls: u8);
    /// The cell is done (solved or skipped).
    fn cell_done(&self);
}

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
    /// With `resume`, the line naming the kept cells another build solved.
    pub other_builds: Option<String>,
    /// What the second method said, when the run asked for it.
    pub confirmed: Option<ConfirmSummary>,
}

impl TableRun {
    /// Refuses a budget below what the least demanding cell needs: every cell would be
    /// skipped, and the run would write an empty table and succeed after doing nothing. A
    /// budget that fits some cells only runs; the others are skipped with a line each.
    pub fn check_budget(&self) -> Result<()> {
        let options = &self.options;
        let least = self
            .cells
            .iter()
            .map(|&(board, walls)| {
                let estimate = CellEstimate::new(board, walls);
                let need = Need::least(board, &estimate, options);
                (need.bytes, need.what(board, walls, &estimate))
            })
            .min_by_key(|(bytes, _)| *bytes);
        match least {
            Some((bytes, what)) if bytes > options.memory_budget => Err(Error::Argument(format!(
                "the memory budget, {}, is below what any selected cell needs: the least \
                     is {what}, an estimated {} (raise it with --memory)",
                format_bytes(options.memory_budget),
                format_bytes(bytes)
            ))),
            _ => Ok(()),
        }
    }

    /// How the run solves the cell, knowing the rows of the results table so far (and
    /// what its scratch directory holds of the cell: an interrupted run's layers are gone
    /// on from).
    fn plan_cell(&self, board: Board, walls: u8, records: &[CellRecord]) -> plan::Plan {
        let options = &self.options;
        let disk = match &self.scratch {
            None => plan::Disk::None,
            Some(dir) if spill::holds_layers(&dir.join(saved::cell_dir_name(board, walls))) => {
                plan::Disk::Written
            }
            Some(_) => plan::Disk::Scratch,
        };
        let limit = options.time_limit.unwrap_or(Duration::MAX);
        plan::plan_with_disk(
            board,
            walls,
            (options.memory_budget, limit),
            &earlier(records),
            disk,
        )
        .for_method(options.method, limit)
    }

    /// The plan of every selected cell not decided in `records` (the results table) yet, as the run
    /// would make it now: what a campaign prints before it starts. With
    /// `stop_at_undecided`, only each board's first such cell: the board's next wall
    /// count is tried only if that one is decided, and is planned then.
    pub fn plans(&self, records: &[CellRecord]) -> Vec<crate::campaign::Planned> {
        let mut boards: Vec<Board> = Vec::new();
        let mut plans = Vec::new();
        for &(b, n) in &self.cells {
            let solved = records
                .iter()
                .any(|r| r.cell() == (b.width(), b.height(), n) && r.is_solved());
            if solved || (self.stop_at_undecided && boards.contains(&b)) {
                continue;
            }
            boards.push(b);
            plans.push((b, n, self.plan_cell(b, n, records)));
        }
        plans
    }

    /// The rows of the results table the run keeps: those in `dir` with `resume`, none
    /// without it.
    pub fn kept_records(&self) -> Result<Vec<CellRecord>> {
        match self.resume {
            true => report::read_csv_if_any(&self.csv_path()),
            false => Ok(Vec::new()),
        }
    }

    /// Creates the scratch directory, if the run has one, and makes sure a file can be
    /// created in it (a probe, created and removed): the searches' checkpoints go there
    /// from the first cell on (the second method's too, in a campaign whose cells were all
    /// decided before). Without the probe, a directory that cannot be written was found
    /// at the first save, and the searches ran on without their checkpoints.
    pub fn create_scratch(&self) -> Result<()> {
        let Some(dir) = &self.scratch else {
            return Ok(());
        };
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::Argument(format!("cannot create {}: {e}", dir.display())))?;
        let probe = dir.join(SCRATCH_PROBE);
        crate::output_file::check(&probe).map_err(|e| {
            Error::Io(format!(
                "cannot write in the scratch directory {}: {}: {e}",
                dir.display(),
                probe.display()
            ))
        })
    }

    /// Takes the directories the run writes (results, saved tables, scratch) for this
    /// process, creating them if need be: refused, naming the other process, while another
    /// run writes one of them (`dir_lock.rs`).
    pub fn take_dirs(&self) -> Result<Vec<DirLock>> {
        dir_lock::take_all(
            std::iter::once(&self.dir)
                .chain(&self.save)
                .chain(&self.scratch),
        )
    }

    /// The results table's CSV file.
    pub fn csv_path(&self) -> PathBuf {
        self.dir.join(CSV_NAME)
    }
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
        None => saved::Contents::default(),
    };
    // The cells saved by this run, and (with --resume) those kept: what --force keeps.
    let mut keep = match t.resume {
        true => found.cells.clone(),
        false => Vec::new(),
    };
    let mut records = t.kept_records()?;
    let done = |records: &[CellRecord], b: &Board, n: u8| {
        records
            .iter()
            .any(|r| r.cell() == (b.width(), b.height(), n) && r.is_solved())
    };
    let todo: Vec<(Board, u8)> = t
        .cells
        .iter()
        .copied()
        .filter(|(b, n)| !done(&records, b, *n))
        .collect();
    let other_builds = kept_from_other_builds(&records, &t.cells);
    if let Some(line) = &other_builds {
        events.line(line);
    }
    events.cells_to_solve(todo.len() as u64);
    let started = Instant::now();
    let (mut skipped, mut passed_over, mut undecided) = (0, 0, 0);
    for (i, &(board, walls)) in todo.iter().enumerate() {
        events.cell_begins(board, walls);
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
                "{at} {board} with {} skipped: {} was not decided within the limit",
                count(walls, "wall"),
                count(r.walls, "wall")
            ));
            events.cell_done();
            passed_over += 1;
            continue;
        }
        let planned = t.plan_cell(board, walls, &records);
        let mut cell_options = SolveOptions {
            // `auto` (the default) follows the plan; `search` and `retro` are the user's.
            method: match options.method {
                Method::Auto => planned.method,
                m => m,
            },
            tt_bytes: planned.tt_bytes,
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
                let name = saved::cell_dir_name(board, walls);
                let path = save.join(&name);
                saved = format!("; values saved in {}", path.display());
                cell_options.method = Method::Retro;
                cell_options.precision = Some(Precision::Exact);
                // The directory was checked as a whole: a cell's own table found there is
                // the resumed run's or one --force replaces.
                cell_options.save = Some(saved::Target {
                    dir: path,
                    replace: t.force || t.resume,
                    resume: false,
                    ranks: None,
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
            let name = saved::cell_dir_name(board, walls);
            let path = scratch.join(&name);
            // The search for the length keeps its table beside the layers: a run stopped
            // in it goes on from there (hours of search on the largest cells).
            let checkpoint = scratch.join(search_checkpoint_name(board, walls));
            saved = format!(
                "; layers in {}, the length's search in {}",
                path.display(),
                checkpoint.display()
            );
            cell_options.save = Some(saved::Target {
                dir: path,
                replace: false,
                resume: true,
                ranks: None,
            });
            cell_options.checkpoint = Some(checkpoint);
        } else if let (false, Some(scratch)) = (cell_options.method == Method::Retro, &t.scratch) {
            // A proof search from the start keeps its table there too: a cell stopped (by
            // the end of a session, or its limit) goes on from what it had proven.
            let checkpoint = scratch.join(search_checkpoint_name(board, walls));
            saved = format!("; the search's table in {}", checkpoint.display());
            cell_options.checkpoint = Some(checkpoint);
        }
        cell_options.in_campaign = true;
        let result = match solve(board, walls, &cell_options, events) {
            Ok(r) => r,
            // One cell too large for the budget or the disk does not stop the others; it
            // stays missing.
            Err(e @ (Error::Memory { .. } | Error::Disk { .. })) => {
                events.line(&format!("{at} skipped: {e}"));
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
        let followed = cell_options.save.is_none() && cell_options.method == planned.method;
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
            "{at} {board} with {}: {} in {:.2} s{} ({}, peak {:.2} GiB){why}",
            count(walls, "wall"),
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
        saved::remove_tables_except(save, &keep)?;
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

/// Refuses `dir` for `table --save` unless the run may write there: it does not exist or
/// is empty; or it holds saved tables and the run replaces them (`force`), or it holds
/// cells of the run resumed (`resume`). Files that are not a saved table's are never
/// replaced. Removes the remains of killed saves, which are never results; returns what
/// was there.
fn check_save_dir(dir: &Path, force: bool, resume: bool) -> Result<saved::Contents> {
    let Some(found) = saved::contents(dir)? else {
        return Ok(saved::Contents::default());
    };
    if let Some(foreign) = &found.foreign {
        return Err(saved::not_a_table(dir, foreign));
    }
    if found.table_files && !force {
        return Err(Error::Argument(format!(
            "{} already holds {}, not one per cell; --force replaces it",
            dir.display(),
            saved::describe(dir, &found)
        )));
    }
    if !found.cells.is_empty() && !force && !resume {
        return Err(Error::Argument(format!(
            "{} already holds {}; --force replaces {} (--resume keeps those of the cells it \
             keeps)",
            dir.display(),
            saved::describe(dir, &found),
            found.it_or_them("it", "them")
        )));
    }
    saved::remove_leftovers(&found);
    Ok(found)
}

/// With --resume, says which of the selected cells it keeps were solved by another build
/// than this one (`report::version`), or `None`. They are kept, not solved again: a build
/// differs at every commit, and most commits change no result, so redoing them would make
/// a resumed run of the whole table start over. The line says how to redo them.
fn kept_from_other_builds(records: &[CellRecord], cells: &[(Board, u8)]) -> Option<String> {
    let this = report::version();
    let selected = |r: &CellRecord| {
        cells
            .iter()
            .any(|(b, n)| r.cell() == (b.width(), b.height(), *n))
    };
    let others: Vec<&CellRecord> = records
        .iter()
        .filter(|r| r.is_decided() && selected(r) && r.version != this)
        .collect();
    if others.is_empty() {
        return None;
    }
    let mut versions: Vec<&str> = others.iter().map(|r| r.version.as_str()).collect();
    versions.sort_unstable();
    versions.dedup();
    Some(format!(
        "kept {} solved by another version of this tool ({}; this is {this}): remove their \
         rows from table.csv, or run without --resume, to solve them again",
        count(others.len(), "cell"),
        versions.join(", ")
    ))
}

/// What the plan needs to know of the cells already solved.
fn earlier(records: &[CellRecord]) -> Vec<plan::Earlier> {
    records
        .iter()
        .filter_map(|r| {
            Some(plan::Earlier {
                board: Board::new(r.width, r.height).ok()?,
                walls: r.walls,
                by_search: r.method == MethodUsed::Search && r.is_decided(),
            })
        })
        .collect()
}

/// The file `TableRun::create_scratch` creates and removes in a scratch directory.
const SCRATCH_PROBE: &str = "probe.tmp";

/// The file in a scratch directory where the search of the cell (from the start, or for
/// its length after the analysis) keeps its table between runs.
pub fn search_checkpoint_name(board: Board, walls: u8) -> String {
    format!("{}.checkpoint", saved::cell_dir_name(board, walls))
}

/// Whether a signal stopped the search that left `result` unsolved: undecided, or a win
/// whose length the search after a compact analysis was looking for (it saved its table
/// in `checkpoint` first: `search::request_stop`). Such a row is not written: it took
/// less than its limit, and the next run goes on from the table. Says what is kept.
pub fn cut_short(result: &CellResult, checkpoint: Option<&Path>, events: &dyn TableEvents) -> bool {
    let solved = match result.outcome {
        Outcome::Unknown => false,
        Outcome::Draw => true,
        Outcome::Player1 | Outcome::Player2 => result.plies.is_some(),
    };
    if !crate::search::stop_requested() || solved {
        return false;
    }
    let found = match result.outcome.winning_player() {
        Some(p) => format!(
            "Player {} wins, the search for the length stopped at depth {}",
            p.number(),
            result.depth_reached
        ),
        // The deepest iteration that failed, whoever's: a search for one player's wins
        // leaves the other's at 0.
        None => format!(
            "no win within {}",
            count(result.no_win.into_iter().max().unwrap_or(0), "ply")
        ),
    };
    events.line(&format!(
        "{}x{} with {}: stopped after {:.0} s{}, {found}{}",
        result.width,
        result.height,
        count(result.walls, "wall"),
        result.seconds,
        result.earlier_note(),
        checkpoint.map_or(String::new(), |c| format!(
            "; its search's table saved in {}",
            c.display()
        ))
    ));
    true
}

/// Removes a checkpoint of a cell that needs it no more (a missing one is fine).
pub fn remove_checkpoint(path: &Path, events: &dyn TableEvents) {
    match std::fs::remove_file(path) {
        Ok(()) => events.line(&format!("{} removed: the cell is solved", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => events.warn(&format!("{} could not be removed: {e}", path.display())),
    }
}
