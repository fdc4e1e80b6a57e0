//! The fast engine against the reference engine (tests/common/reference.rs), which shares no
//! move-generation code with it: identical legal actions on every reachable position of small
//! cells, with path legality decided both by flood fill and by the configuration tables, and
//! identical perft counts against the stored fixtures.

mod common;

use common::reference::{RefBoard, RefPos, reachable_slow};
use quoridor_solver::geometry::{Board, Player};
use quoridor_solver::movegen::{FloodFill, PathOracle};
use quoridor_solver::notation::action_name;
use quoridor_solver::perft::perft;
use quoridor_solver::position::Position;
use quoridor_solver::progress::Silent;
use quoridor_solver::tables::Tables;
use quoridor_solver::walls::{Orientation, Wall, WallSet};

fn to_fast(board: Board, r: &RefPos) -> Position {
    let cell = |(c, row): (usize, usize)| board.cell(c, row);
    let mut walls = WallSet::EMPTY;
    for (set, orientation) in [
        (&r.hwalls, Orientation::Horizontal),
        (&r.vwalls, Orientation::Vertical),
    ] {
        for &a in set {
            walls = walls.with(Wall {
                anchor: cell(a),
                orientation,
            });
        }
    }
    Position {
        walls,
        pawns: [cell(r.pawns[0]), cell(r.pawns[1])],
        left: [r.left[0] as u8, r.left[1] as u8],
        to_move: Player::from_index(r.to_move),
    }
}

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
        let pos = to_fast(board, r);
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

/// Rows of tests/data/perft.csv: (width, height, walls, depth, count).
fn perft_fixtures() -> Vec<(usize, usize, u8, u32, u64)> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.csv"))
            .unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
                f[4].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn perft_matches_fixtures_with_flood_fill_and_tables() {
    let rows = perft_fixtures();
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
