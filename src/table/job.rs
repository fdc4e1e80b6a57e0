//! What a table run is asked (`TableRun`: the cells, the options every cell starts from,
//! the directories) and what it tells while it goes (`TableEvents`), with the plan of each
//! cell as the run would make it. The run itself (`run.rs`), the campaign (`campaign.rs`)
//! and the second method (`confirm.rs`) all read these, so they live apart from each.

use crate::retro::saved_dir;
use std::path::PathBuf;
use std::time::Duration;

use crate::cell::estimate::CellEstimate;
use crate::cell::plan::{self, Plan};
use crate::cell::solver::{MethodUsed, Need, SolveOptions};
use crate::error::{Error, Result, count};
use crate::output::report::{self, CSV_NAME, CellRecord};
use crate::retro::spill;
use crate::rules::cell::Cell;
use crate::rules::geometry::Board;
use crate::support::dir_lock::{self, DirLock};
use crate::support::progress::Progress;

/// A cell and how the run would solve it now.
pub type Planned = (Cell, Plan);

/// What a table run solves, and where it writes.
#[derive(Clone, Debug)]
pub struct TableRun {
    /// The cells, in the order they are solved.
    pub cells: Vec<Cell>,
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

/// The selected cells a resumed run keeps that another build than this one solved
/// (`run.rs`). They are kept, not solved again: a build differs at every
/// commit, and most commits change no result, so redoing them would make a resumed run of
/// the whole table start over. The line says how to redo them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtherBuilds {
    /// How many cells.
    pub cells: usize,
    /// The builds that solved them, sorted, each once.
    pub versions: Vec<String>,
    /// This build (`report::version`).
    pub this: String,
}

impl OtherBuilds {
    /// The line, `resume` naming how a run resumes (the library's words, or an edge's flag).
    pub fn text(&self, resume: &str) -> String {
        format!(
            "kept {} solved by another version of this tool ({}; this is {}): remove their \
             rows from table.csv, or run without {resume}, to solve them again",
            count(self.cells, "cell"),
            self.versions.join(", "),
            self.this
        )
    }
}

impl std::fmt::Display for OtherBuilds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text("resuming"))
    }
}

/// What a run tells while it goes, besides the solver's own progress.
pub trait TableEvents: Progress {
    /// A line for the reader: a cell solved or skipped, a note on the rows kept.
    fn line(&self, text: &str);
    /// `n` cells are left to solve besides those done so far; a smaller count than an
    /// earlier one leaves the total as it was.
    fn cells_to_solve(&self, n: u64);
    /// The next cell begins.
    fn cell_begins(&self, cell: Cell);
    /// The cell is done (solved or skipped).
    fn cell_done(&self);
    /// A resumed run keeps cells another build solved (`other`). Apart from `line` so that
    /// an edge can name its flag that resumes.
    fn kept_from_other_builds(&self, other: &OtherBuilds) {
        self.line(&other.to_string());
    }
    /// The cell `at` is skipped: it needs more memory or disk than the run has (`why`).
    /// Apart from `line` so that an edge can say `why` in its own words (a flag to raise).
    fn cell_skipped(&self, at: &str, why: &Error) {
        self.line(&format!("{at} skipped: {why}"));
    }
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
            .map(|&cell| {
                let estimate = CellEstimate::new(cell.board, cell.walls);
                let need = Need::least(cell.board, &estimate, options);
                (need.bytes, need.what(cell, &estimate))
            })
            .min_by_key(|(bytes, _)| *bytes);
        match least {
            Some((bytes, what)) if bytes > options.memory_budget => Err(Error::BudgetBelowCells {
                budget: options.memory_budget,
                least: what,
                needed: bytes,
            }),
            _ => Ok(()),
        }
    }

    /// How the run solves the cell, knowing the rows of the results table so far (and
    /// what its scratch directory holds of the cell: an interrupted run's layers are gone
    /// on from).
    pub(crate) fn plan_cell(&self, cell: Cell, records: &[CellRecord]) -> plan::Plan {
        let options = &self.options;
        let disk = match &self.scratch {
            None => plan::Disk::None,
            Some(dir) if spill::holds_layers(&dir.join(saved_dir::cell_dir_name(cell))) => {
                plan::Disk::Written
            }
            Some(_) => plan::Disk::Scratch,
        };
        let limit = options.time_limit.unwrap_or(Duration::MAX);
        plan::plan_with_disk(
            cell,
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
    pub fn plans(&self, records: &[CellRecord]) -> Vec<Planned> {
        let mut boards: Vec<Board> = Vec::new();
        let mut plans = Vec::new();
        for &cell in &self.cells {
            let solved = records.iter().any(|r| r.is(cell) && r.is_solved());
            if solved || (self.stop_at_undecided && boards.contains(&cell.board)) {
                continue;
            }
            boards.push(cell.board);
            plans.push((cell, self.plan_cell(cell, records)));
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
        std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e))?;
        let probe = dir.join(SCRATCH_PROBE);
        // The action names the directory, the path the probe that failed in it.
        crate::support::output_file::check(&probe).map_err(|e| {
            Error::io(
                format!("write in the scratch directory {}:", dir.display()),
                probe,
                e,
            )
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
pub fn search_checkpoint_name(cell: Cell) -> String {
    format!("{}.checkpoint", saved_dir::cell_dir_name(cell))
}
