//! The fast engine against the reference engine (tests/common/reference.rs), which shares no
//! move-generation code with it: identical legal actions on every reachable position of small
//! cells, with path legality decided both by flood fill and by the configuration tables, and
//! identical perft counts against the stored fixtures.

mod common;

use common::reference::{RefBoard, reachable_slow};
use quoridor_solver::configs::Tables;
use quoridor_solver::rules::geometry::{Board, Player};
use quoridor_solver::rules::movegen::{FloodFill, PathOracle};
use quoridor_solver::rules::notation::action_name;
use quoridor_solver::rules::perft::perft;
use quoridor_solver::rules::position::Position;
use quoridor_solver::support::progress::Silent;

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

/// Boards over 64 cells: the legal actions of the fast engine (flood fill, and the tables
/// where they can be built) against the reference engine along pseudo-random games, which
/// wall the board and take the pawns past cell 63; and perft against the reference.
#[test]
fn legal_actions_match_reference_on_wide_boards() {
    use common::reference::RefPos;
    for (w, h, n) in [
        (9, 9, 4),
        (11, 11, 3),
        (16, 8, 3),
        (8, 16, 3),
        (2, 64, 2),
        (26, 4, 2),
    ] {
        let rb = RefBoard { w, h };
        let board = Board::new(w, h).unwrap();
        // The eager tables of 9x9 with 1 wall each (up to 2 walls: 8 thousand
        // configurations) check the table oracle too while at most one wall stands; the
        // other boards have more than 64 anchors, which the eager tables cannot number.
        let tables = (w * h == 81).then(|| Tables::build(board, 1, u64::MAX, &Silent).unwrap());
        let mut x: u64 = 0x2545_F491_4F6C_DD1D ^ (w * 131 + h) as u64;
        let mut next = |len: usize| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as usize % len
        };
        for _game in 0..3 {
            let mut r = RefPos::start(rb, n);
            for _ply in 0..60 {
                let pos = common::to_position(board, &r);
                let actions = r.legal_actions(rb);
                let mut want: Vec<String> = actions.iter().map(|a| a.notation()).collect();
                want.sort();
                assert_eq!(names(board, &pos, &FloodFill), want, "{w}x{h} {r:?}");
                if let Some(t) = &tables
                    && pos.walls.len() <= 1
                {
                    assert_eq!(names(board, &pos, t), want, "{w}x{h} tables {r:?}");
                }
                let winner = r.winner(rb).map(Player::from_index);
                assert_eq!(pos.winner(board), winner);
                if actions.is_empty() {
                    break;
                }
                // Pawn moves two times in three, so that the pawns travel.
                let pawns: Vec<_> = actions
                    .iter()
                    .filter(|a| matches!(a, common::reference::RefAction::Pawn { .. }))
                    .collect();
                let action = if next(3) < 2 {
                    *pawns[next(pawns.len())]
                } else {
                    actions[next(actions.len())]
                };
                r = r.play(rb, action);
            }
        }
    }
    for (w, h, n, depth) in [(9, 9, 1, 2), (11, 11, 1, 2), (16, 8, 2, 2)] {
        let rb = RefBoard { w, h };
        let board = Board::new(w, h).unwrap();
        let start = Position::start(board, n).unwrap();
        let want = common::reference::perft_slow(rb, &RefPos::start(rb, n as u32), depth);
        assert_eq!(perft(board, &start, depth, &FloodFill), want, "{w}x{h}");
    }
}
