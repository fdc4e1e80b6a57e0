//! `search::request_stop` (what Ctrl-C calls during `solve --checkpoint`): the search stops
//! as at its deadline, answers `unknown`, and saves its checkpoint. A test binary of its
//! own: the request holds for every search of the process.

use quoridor_solver::geometry::Board;
use quoridor_solver::progress::Silent;
use quoridor_solver::search;
use quoridor_solver::solver::{Method, Outcome, SolveOptions, Store, solve};

#[test]
fn a_stopped_search_saves_its_checkpoint() {
    let path = std::env::temp_dir().join(format!("qs-stop-{}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let options = SolveOptions {
        method: Method::Search,
        max_depth: 60,
        time_limit: None,
        threads: 1,
        memory_budget: 1 << 30,
        tt_bytes: 16 << 20,
        precision: None,
        save: None,
        store: Store::Full,
        checkpoint: Some(path.clone()),
        in_campaign: false,
        winner: None,
    };
    assert!(!search::request_stop());
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
