//! The analysis across ranks (`retro::across`), with ranks as threads of the test
//! (`retro::ranks::InProcess`; the MPI ranks are checked by `tests/mpi.rs` under the `mpi`
//! feature): for 1 to 4 ranks, the directory they share ends as the table one process
//! saves, file for file (the same manifest of SHA-256), exact and compact, and the start's
//! answer is the same. A run stopped after some layers goes on, with another number of
//! ranks, to the same table.

use quoridor_solver::cell::solver::{CellResult, Method, SolveOptions, solve, solve_share};
use quoridor_solver::retro::Precision;
use quoridor_solver::retro::ranks::{InProcess, Ranks, SharedRanks};
use quoridor_solver::retro::saved_dir::Target;
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::support::progress::Silent;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

mod common;
use common::cli::{killed_when, scratch};

fn options(precision: Precision, save: Option<Target>) -> SolveOptions {
    SolveOptions {
        method: Method::Retro,
        max_depth: 60,
        time_limit: Some(Duration::from_secs(120)),
        threads: 1,
        memory_budget: 1 << 30,
        tt_bytes: Some(8 << 20),
        precision: Some(precision),
        save,
        ..SolveOptions::default()
    }
}

fn target(dir: &Path, ranks: Option<SharedRanks>) -> Target {
    Target {
        dir: dir.to_path_buf(),
        replace: false,
        resume: true,
        ranks,
        bound_only: false,
    }
}

/// Solves the cell across `n` ranks (threads) through `dir`: rank 0's answer.
fn across(board: Board, walls: u8, precision: Precision, n: usize, dir: &Path) -> CellResult {
    let handles: Vec<_> = InProcess::ranks(n)
        .into_iter()
        .map(|rank| {
            let dir = dir.to_path_buf();
            std::thread::spawn(move || {
                let me = rank.rank();
                let shared = SharedRanks(Arc::new(rank));
                let options = options(precision, Some(target(&dir, Some(shared))));
                match me {
                    0 => Some(solve(board, walls, &options, &Silent).expect("rank 0 solves")),
                    _ => {
                        solve_share(board, walls, &options, &Silent).expect("a rank's share");
                        None
                    }
                }
            })
        })
        .collect();
    let mut answers: Vec<Option<CellResult>> =
        handles.into_iter().map(|h| h.join().unwrap()).collect();
    answers.remove(0).expect("rank 0 answers")
}

fn manifest(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("MANIFEST.sha256")).expect("a finished table")
}

/// The table one process writes through `dir` (`--scratch`), and its answer.
fn alone(board: Board, walls: u8, precision: Precision, dir: &Path) -> CellResult {
    let options = options(precision, Some(target(dir, None)));
    solve(board, walls, &options, &Silent).expect("one process solves")
}

#[test]
fn any_number_of_ranks_writes_the_table_one_process_writes() {
    let root = scratch("across");
    let cells = [
        (Board::new(3, 3).unwrap(), 1, Precision::Exact),
        (Board::new(3, 4).unwrap(), 2, Precision::Exact),
        (Board::new(4, 3).unwrap(), 2, Precision::Compact),
        (Board::new(3, 5).unwrap(), 2, Precision::Exact),
    ];
    for (board, walls, precision) in cells {
        let one = root.join(format!("{board}-{walls}-one"));
        let want = alone(board, walls, precision, &one);
        for n in 1..=4 {
            let dir = root.join(format!("{board}-{walls}-{n}"));
            let got = across(board, walls, precision, n, &dir);
            let what = format!("{board} with {walls} walls across {n} ranks");
            assert_eq!(manifest(&dir), manifest(&one), "{what}");
            assert_eq!(
                (got.outcome, got.plies, got.stats),
                (want.outcome, want.plies, want.stats),
                "{what}"
            );
            assert!(!dir.join("progress.json").exists(), "{what}");
            let shards = std::fs::read_dir(&dir)
                .unwrap()
                .filter(|e| {
                    e.as_ref()
                        .unwrap()
                        .file_name()
                        .to_string_lossy()
                        .contains("rank")
                })
                .count();
            assert_eq!(shards, 0, "{what}: the ranks' files are joined and removed");
        }
    }
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_run_stopped_after_a_layer_goes_on_across_ranks_to_the_same_table() {
    let root = scratch("across-resumed");
    let board = Board::new(5, 5).unwrap();
    let whole = root.join("whole");
    let want = alone(board, 3, Precision::Exact, &whole);
    // One process, killed as soon as its first layer is written.
    let dir = root.join("run");
    let progress = dir.join("progress.json");
    let args = ["solve", "5x5", "--walls", "3", "--method", "retro", "-q"];
    killed_when(
        &[&args[..], &["--scratch", dir.to_str().unwrap()]].concat(),
        || progress.exists(),
    );
    assert!(progress.exists() && !dir.join("MANIFEST.sha256").exists());
    // Three ranks go on from it.
    let got = across(board, 3, Precision::Exact, 3, &dir);
    assert_eq!(manifest(&dir), manifest(&whole));
    assert_eq!(
        (got.outcome, got.plies, got.stats),
        (want.outcome, want.plies, want.stats)
    );
    std::fs::remove_dir_all(&root).unwrap();
}
