//! The fast engine against the reference engine (tests/common/reference.rs), which shares no
//! move-generation code with it: identical legal actions on every reachable position of small
//! cells, with path legality decided both by flood fill and by the configuration tables, and
//! identical perft counts against the stored fixtures.

mod common;

use common::reference::{RefBoard, reachable_slow};
use quoridor_solver::geometry::{Board, Player};
use quoridor_solver::movegen::{FloodFill, PathOracle};
use quoridor_solver::notation::action_name;
use quoridor_solver::perft::perft;
use quoridor_solver::position::Position;
use quoridor_solver::progress::Silent;
use quoridor_solver::tables::Tables;

fn names(board: Board, pos: &Position, oracle: &impl PathOracle) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_actions_with(board, oracle)
        .into_iter()
        .map(|a| action_name(board, a))
        .collect();
    v.sort();
    v
}

fn compare_all_reachable(w: usize, h: usize, n: u32) {
    let rb = RefBoard { w, h };
    let board = Board::new(w, h).unwrap();
    let tables = Tables::build(board, n as u8, u64::MAX, &Silent).unwrap();
    let positions = reachable_slow(rb, n);
    assert!(positions.len() > 1);
    for r in &positions {
        let pos = common::to_position(board, r);
        let mut want: Vec<String> = r.legal_actions(rb).iter().map(|a| a.notation()).collect();
        want.sort();
        assert_eq!(names(board, &pos, &FloodFill), want, "{w}x{h} n={n} {r:?}");
        assert_eq!(
            names(board, &pos, &tables),
            want,
            "{w}x{h} n={n} tables {r:?}"
        );
        let winner = r.winner(rb).map(Player::from_index);
        assert_eq!(pos.winner(board), winner);
    }
}

#[test]
fn legal_actions_match_reference_3x3_2_walls() {
    compare_all_reachable(3, 3, 2);
}

#[test]
fn legal_actions_match_reference_4x3_3_walls() {
    compare_all_reachable(4, 3, 3);
}

#[test]
fn legal_actions_match_reference_3x4_2_walls() {
    compare_all_reachable(3, 4, 2);
}

#[test]
fn legal_actions_match_reference_2x5_2_walls() {
    compare_all_reachable(2, 5, 2);
}

#[test]
fn legal_actions_match_reference_2x2_and_2x3() {
    compare_all_reachable(2, 2, 1);
    compare_all_reachable(2, 3, 1);
}

#[test]
fn perft_matches_fixtures_with_flood_fill_and_tables() {
    let rows: Vec<(usize, usize, u8, u32, u64)> = common::data_rows("perft.csv")
        .iter()
        .map(|f| {
            let n = |i: usize| f[i].parse::<u64>().unwrap();
            (n(0) as usize, n(1) as usize, n(2) as u8, n(3) as u32, n(4))
        })
        .collect();
    assert!(rows.iter().any(|r| (r.0, r.1, r.2, r.3) == (5, 5, 3, 4)));
    assert!(rows.iter().any(|r| (r.0, r.1, r.2, r.3) == (3, 9, 2, 4)));
    for (w, h, n, depth, count) in rows {
        let board = Board::new(w, h).unwrap();
        let start = Position::start(board, n).unwrap();
        assert_eq!(
            perft(board, &start, depth, &FloodFill),
            count,
            "{w}x{h} n={n} d={depth}"
        );
        let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
        assert_eq!(
            perft(board, &start, depth, &tables),
            count,
            "tables {w}x{h} n={n} d={depth}"
        );
    }
}
