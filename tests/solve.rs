//! Proof search against the published table (data/published_table.csv, from
//! "Solving Quoridor", docs/SOURCES.md), with every principal line replayed by the flood-fill engine.

mod common;

use quoridor_solver::cell::solver::{CellResult, Method, Outcome, SolveOptions, solve};
use quoridor_solver::rules::geometry::{Board, Player};
use quoridor_solver::rules::position::Position;
use quoridor_solver::support::progress::Silent;

fn options(threads: usize) -> SolveOptions {
    SolveOptions {
        method: Method::Search,
        max_depth: 80,
        threads,
        memory_budget: 8 << 30,
        tt_bytes: Some(64 << 20),
        ..SolveOptions::default()
    }
}

/// The principal line is legal, nobody wins before its end, and it ends with the winner on
/// their goal row after exactly `plies` plies.
fn check_line(board: Board, r: &CellResult) {
    let plies = r.plies.expect("a win has a length") as usize;
    assert_eq!(r.line.len(), plies, "line length {:?}", r.line);
    let mut pos = Position::start(board, r.walls).unwrap();
    for (i, &action) in r.line.iter().enumerate() {
        assert_eq!(pos.winner(board), None, "game over before ply {}", i + 1);
        assert_eq!(
            pos.why_illegal(board, action),
            None,
            "ply {} {action:?}",
            i + 1
        );
        pos = pos.play(action);
    }
    let winner = match r.outcome {
        Outcome::Player1 => Player::One,
        Outcome::Player2 => Player::Two,
        other => panic!("not a win: {other:?}"),
    };
    assert_eq!(pos.winner(board), Some(winner));
}

fn check_published(max_area: usize) {
    let rows: Vec<_> = common::published()
        .into_iter()
        .filter(|(w, h, _, o)| w * h <= max_area && o != "?")
        .collect();
    assert!(rows.len() >= 66);
    for (w, h, n, want) in rows {
        let board = Board::new(w, h).unwrap();
        let r = solve(board, n, &options(2), &Silent).unwrap();
        assert_eq!(r.outcome.code(), want, "{w}x{h} with {n} walls");
        check_line(board, &r);
    }
}

/// Every published cell of up to 20 cells (about 5 s with the release build).
#[test]
fn published_cells_up_to_area_20() {
    check_published(20);
}

#[test]
fn outcome_and_length_do_not_depend_on_threads() {
    for (w, h, n) in [(3, 5, 3), (5, 3, 4), (4, 3, 2), (2, 7, 2)] {
        let board = Board::new(w, h).unwrap();
        let one = solve(board, n, &options(1), &Silent).unwrap();
        let two = solve(board, n, &options(2), &Silent).unwrap();
        assert_eq!(
            (one.outcome, one.plies),
            (two.outcome, two.plies),
            "{w}x{h} {n}"
        );
    }
}

#[test]
fn single_thread_search_is_deterministic() {
    let board = Board::new(3, 5).unwrap();
    let a = solve(board, 4, &options(1), &Silent).unwrap();
    let b = solve(board, 4, &options(1), &Silent).unwrap();
    assert_eq!((a.nodes, a.line), (b.nodes, b.line));
}

#[test]
fn a_depth_limit_gives_unknown_never_a_guess() {
    let board = Board::new(3, 5).unwrap();
    let opts = SolveOptions {
        method: Method::Search,
        max_depth: 10,
        ..options(2)
    };
    let r = solve(board, 3, &opts, &Silent).unwrap();
    assert_eq!(r.outcome, Outcome::Unknown);
    assert_eq!((r.plies, r.depth_reached), (None, 10));
    assert!(r.line.is_empty());
}

/// A guessed winner (`SolveOptions::winner`) spares the other player's iterations: the
/// right guess gives the fresh search's outcome and length with fewer nodes, the wrong one
/// stays unknown.
#[test]
fn a_guessed_winner_gives_the_same_win_or_none() {
    for (w, h, n) in [(3, 5, 3), (5, 3, 2), (4, 4, 2), (3, 3, 1)] {
        let board = Board::new(w, h).unwrap();
        let fresh = solve(board, n, &options(1), &Silent).unwrap();
        let winner = match fresh.outcome {
            Outcome::Player1 => Player::One,
            Outcome::Player2 => Player::Two,
            other => panic!("{w}x{h} with {n} walls: not a win ({other:?})"),
        };
        let right = solve(
            board,
            n,
            &SolveOptions {
                winner: Some(winner),
                ..options(1)
            },
            &Silent,
        )
        .unwrap();
        assert_eq!(
            (right.outcome, right.plies),
            (fresh.outcome, fresh.plies),
            "{w}x{h} with {n} walls"
        );
        check_line(board, &right);
        assert!(right.nodes < fresh.nodes, "{w}x{h} with {n} walls");
        let wrong = solve(
            board,
            n,
            &SolveOptions {
                winner: Some(winner.other()),
                max_depth: fresh.plies.unwrap() as u8 + 4,
                ..options(1)
            },
            &Silent,
        )
        .unwrap();
        assert_eq!(wrong.outcome, Outcome::Unknown, "{w}x{h} with {n} walls");
        assert!(wrong.depth_reached <= 1, "{w}x{h} with {n} walls");
    }
}
