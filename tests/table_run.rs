//! The table run as a library call (`table_run::run`), without the CLI: it solves the
//! cells it is given, writes the results table after each, tells its events, goes on from
//! the rows written with `resume`, and skips a board's cells past an undecided one when
//! asked.

use quoridor_solver::cell::solver::{Method, SolveOptions};
use quoridor_solver::output::report::{self, CellRecord};
use quoridor_solver::rules::cell::Cell;
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::support::progress::Progress;
use quoridor_solver::table::{self, TableEvents, TableRun};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

/// The events a run told, in order.
#[derive(Default)]
struct Told(Mutex<Vec<String>>);

impl Told {
    fn push(&self, s: String) {
        self.0.lock().unwrap().push(s);
    }
    fn all(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

impl Progress for Told {
    fn begin(&self, _stage: &str, _total: u64) {}
    fn advance(&self, _units: u64) {}
    fn finish(&self) {}
}

impl TableEvents for Told {
    fn line(&self, text: &str) {
        self.push(format!("line {text}"));
    }
    fn cells_to_solve(&self, n: u64) {
        self.push(format!("to solve {n}"));
    }
    fn cell_begins(&self, cell: Cell) {
        self.push(format!("begin {} {}", cell.board, cell.walls));
    }
    fn cell_done(&self) {
        self.push("done".into());
    }
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("qs-table-run-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn job(cells: Vec<Cell>, dir: PathBuf, max_depth: u8) -> TableRun {
    TableRun {
        cells,
        options: SolveOptions {
            method: Method::Search,
            max_depth,
            time_limit: Some(Duration::from_secs(60)),
            threads: 2,
            memory_budget: 1 << 30,
            tt_bytes: Some(16 << 20),
            ..SolveOptions::default()
        },
        resume: false,
        dir,
        save: None,
        scratch: None,
        force: false,
        stop_at_undecided: false,
        confirm: None,
    }
}

fn rows(dir: &std::path::Path) -> Vec<CellRecord> {
    report::read_csv(&dir.join(report::CSV_NAME)).unwrap()
}

#[test]
fn a_run_solves_its_cells_writes_them_and_resumes() {
    let d = dir("resume");
    let b = Board::new(3, 3).unwrap();
    let mut t = job(vec![Cell::new(b, 0), Cell::new(b, 1)], d.clone(), 40);
    let told = Told::default();
    let done = table::run(&t, &told).unwrap();
    assert_eq!((done.solved, done.skipped, done.passed_over), (2, 0, 0));
    assert_eq!(done.records.len(), 2);
    assert!(done.records.iter().all(|r| r.is_decided()));
    assert_eq!(rows(&d), done.records);
    let events = told.all();
    assert_eq!(events[0], "to solve 2");
    assert_eq!(events[1], "begin 3x3 0");
    assert_eq!(events.iter().filter(|e| *e == "done").count(), 2);
    assert!(
        events
            .iter()
            .any(|e| e.starts_with("line [2/2] 3x3 with 1 wall: "))
    );
    // Resumed: both rows kept, nothing solved again; a new cell is solved.
    t.resume = true;
    t.cells.push(Cell::new(b, 2));
    let told = Told::default();
    let again = table::run(&t, &told).unwrap();
    assert_eq!(again.solved, 1);
    assert_eq!(again.records.len(), 3);
    assert_eq!(told.all()[0], "to solve 1");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_board_past_an_undecided_cell_is_passed_over_when_asked() {
    let d = dir("undecided");
    let b = Board::new(3, 5).unwrap();
    // Two plies decide nothing on 3x5: the first cell stays undecided.
    let mut t = job(vec![Cell::new(b, 0), Cell::new(b, 1)], d.clone(), 2);
    t.stop_at_undecided = true;
    let done = table::run(&t, &Told::default()).unwrap();
    // Tried and left undecided: not counted as solved.
    assert_eq!((done.solved, done.undecided, done.passed_over), (0, 1, 1));
    assert_eq!(done.records.len(), 1);
    assert!(!done.records[0].is_decided());
    let _ = std::fs::remove_dir_all(&d);
}

/// A campaign tells how many cells are left before each of its cells (its one-cell runs
/// tell 1 each): a bar that takes the largest "done + left" knows both boards before the
/// first cell and ends at the number of cells solved.
#[test]
fn a_campaign_tells_the_cells_left_as_its_boards_go_on() {
    let d = dir("campaign-count");
    let (b3, b4) = (Board::new(3, 3).unwrap(), Board::new(4, 3).unwrap());
    let cells = vec![
        Cell::new(b3, 0),
        Cell::new(b3, 1),
        Cell::new(b4, 0),
        Cell::new(b4, 1),
    ];
    let mut t = job(cells, d.clone(), 40);
    t.resume = true;
    t.stop_at_undecided = true;
    let told = Told::default();
    let done = quoridor_solver::table::campaign::run(&t, &told).unwrap();
    assert_eq!(done.solved, 4);
    let (mut finished, mut total, mut at_first_begin) = (0, 0, None);
    for e in told.all() {
        if let Some(n) = e.strip_prefix("to solve ") {
            total = total.max(finished + n.parse::<u64>().unwrap());
        } else if e.starts_with("begin ") {
            assert!(total > finished, "{:?}", told.all());
            at_first_begin.get_or_insert(total);
        } else if e == "done" {
            finished += 1;
        }
    }
    assert_eq!(at_first_begin, Some(2), "{:?}", told.all());
    assert_eq!((finished, total), (4, 4), "{:?}", told.all());
    let _ = std::fs::remove_dir_all(&d);
}

/// Where a board's cell goes to the exact analysis and every layer of it fits beside the
/// next cell's search (`solver::solve_pair`), the next wall count is decided by the search
/// that analysis bounds: the same outcomes and lengths as each cell's own analysis, the
/// second's line saying what pruned it. 8x3 with 3 walls is a draw (the analysis alone),
/// so 4 and 5 walls are planned for the analysis: 4 is analysed, 5 searched; three cells
/// from 3 walls pair from the top (3 alone, then 4 with 5). Another board's cell between
/// them (a run goes cheapest first) does not keep them apart.
#[test]
fn the_next_wall_count_is_searched_within_the_bound_of_the_analysis_before() {
    let d = dir("pairs");
    let b = Board::new(8, 3).unwrap();
    let mut cells: Vec<Cell> = (3..=5).map(|w| Cell::new(b, w)).collect();
    cells.insert(2, Cell::new(Board::new(3, 3).unwrap(), 1));
    let mut t = job(cells.clone(), d.clone(), 60);
    t.options.method = Method::Auto;
    t.options.memory_budget = 4 << 30;
    t.options.tt_bytes = None;
    let told = Told::default();
    let done = table::run(&t, &told).unwrap();
    assert_eq!(done.solved, 4);
    let lines: Vec<String> = told
        .all()
        .into_iter()
        .filter(|e| e.starts_with("line"))
        .collect();
    assert!(
        lines[3].contains("pruned by the exact analysis of 4 walls"),
        "{lines:?}"
    );
    assert!(
        lines[..3].iter().all(|l| !l.contains("pruned")),
        "{lines:?}"
    );
    // Against each cell's own exact analysis.
    let mut alone = job(cells, dir("pairs-alone"), 60);
    alone.options.method = Method::Retro;
    alone.options.memory_budget = 4 << 30;
    alone.options.tt_bytes = None;
    let each = table::run(&alone, &Told::default()).unwrap();
    let values =
        |r: &[CellRecord]| -> Vec<_> { r.iter().map(|r| (r.walls, r.outcome, r.plies)).collect() };
    assert_eq!(values(&done.records), values(&each.records));
    assert_eq!(done.records[3].method.to_string(), "proof-search");
    let _ = std::fs::remove_dir_all(&d);
}
