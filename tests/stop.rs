//! `search::request_stop` (what Ctrl-C calls during `solve --checkpoint`): the search stops
//! as at its deadline, answers `unknown`, and saves its checkpoint; a table run writes no
//! row for a cell so stopped. A test binary of its own: the request holds for every search
//! of the process.

use quoridor_solver::cell::solver::{Method, Outcome, SolveOptions, Store, solve};
use quoridor_solver::retro::Precision;
use quoridor_solver::rules::cell::Cell;
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::search;
use quoridor_solver::support::progress::{Progress, Silent};
use quoridor_solver::table::TableEvents;
use quoridor_solver::table::stopped::cut_short;
use std::sync::Mutex;

#[test]
fn a_stopped_search_saves_its_checkpoint() {
    let path = std::env::temp_dir().join(format!("qs-stop-{}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let options = SolveOptions {
        method: Method::Search,
        max_depth: 60,
        threads: 1,
        memory_budget: 1 << 30,
        tt_bytes: Some(16 << 20),
        store: Store::Full,
        checkpoint: Some(path.clone()),
        ..SolveOptions::default()
    };
    // (Another test of this binary may have asked first.)
    search::request_stop();
    assert!(search::stop_requested());
    // The search checks at its first node that goes past the table.
    let r = solve(Board::new(5, 5).unwrap(), 2, &options, &Silent).unwrap();
    assert_eq!(r.outcome, Outcome::Unknown);
    let header = std::fs::read(&path).unwrap();
    let line = String::from_utf8_lossy(&header[..80]);
    assert!(
        line.starts_with("quoridor-solver checkpoint 4 board 5x5 walls 2"),
        "{line}"
    );
    // Each player's deepest iteration finished: Player 1's are the odd depths.
    let d = r.depth_reached as u8;
    let (one, two) = if d % 2 == 1 {
        (d, d.saturating_sub(1))
    } else {
        (d.saturating_sub(1), d)
    };
    assert!(line.contains(&format!(" no-win {one} {two} ")), "{line}");
    std::fs::remove_file(&path).unwrap();
}

/// The lines a table run told.
#[derive(Default)]
struct Lines(Mutex<Vec<String>>);

impl Progress for Lines {
    fn begin(&self, _stage: &str, _total: u64) {}
    fn advance(&self, _units: u64) {}
    fn finish(&self) {}
}

impl TableEvents for Lines {
    fn line(&self, text: &str) {
        self.0.lock().unwrap().push(text.to_string());
    }
    fn cells_to_solve(&self, _: u64) {}
    fn cell_begins(&self, _: Cell) {}
    fn cell_done(&self) {}
}

#[test]
fn a_cell_whose_search_for_the_length_was_stopped_gets_no_row() {
    let path = std::env::temp_dir().join(format!("qs-stop-length-{}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let options = SolveOptions {
        method: Method::Retro,
        max_depth: 60,
        threads: 1,
        memory_budget: 1 << 30,
        tt_bytes: Some(16 << 20),
        precision: Some(Precision::Compact),
        store: Store::Full,
        checkpoint: Some(path.clone()),
        in_campaign: true,
        ..SolveOptions::default()
    };
    search::request_stop();
    // The analysis finds the winner; the search for the length stops at once.
    let r = solve(Board::new(3, 3).unwrap(), 1, &options, &Silent).unwrap();
    assert_eq!((r.outcome, r.plies), (Outcome::Player2, None));
    // A table run (or the second method) ends there, the cell not written: the next run
    // goes on from the checkpoint rather than keep a row a stop cut short.
    let told = Lines::default();
    assert!(cut_short(&r, Some(&path), &told));
    let told = told.0.into_inner().unwrap();
    assert!(
        told.len() == 1
            && told[0].starts_with("3x3 with 1 wall: stopped after ")
            && told[0].contains("Player 2 wins")
            && told[0].ends_with(&path.display().to_string()),
        "{told:?}"
    );
    std::fs::remove_file(&path).unwrap();
}
