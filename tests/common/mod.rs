#![allow(dead_code)]
//! Helpers shared by the integration tests.

pub mod cli;
pub mod naive_retro;
pub mod reference;

use quoridor_solver::rules::geometry::{Board, Player};
use quoridor_solver::rules::position::Position;
use quoridor_solver::rules::walls::{Orientation, Wall, WallSet};
use reference::RefPos;

/// The fast engine's position for a reference engine's position.
pub fn to_position(board: Board, r: &RefPos) -> Position {
    let cell = |(c, row): (usize, usize)| board.square(c, row);
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

/// The data rows of tests/data/`name` (header skipped), split at commas.
pub fn data_rows(name: &str) -> Vec<Vec<String>> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

/// (width, height, walls, outcome) rows of the published table (data/published_table.csv,
/// the library's own copy); outcome 1, 2, D or ?.
pub fn published() -> Vec<(usize, usize, u8, String)> {
    quoridor_solver::output::report::published::PUBLISHED_CSV
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect::<Vec<_>>())
        .map(|f| {
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                f[3].clone(),
            )
        })
        .collect()
}

/// Checks that a proof search's answers, `wins(attacker, pos, plies)` (can `attacker` force
/// a win within `plies`?), give `value`, the exact value of `pos` for its side to move: the
/// winner wins within the length and not within two plies less; after a draw neither
/// player wins within 40 plies. `cell` names the position in the failure.
pub fn assert_search_gives(
    value: quoridor_solver::retro::Value,
    pos: &Position,
    wins: impl Fn(Player, &Position, u32) -> bool,
    cell: &str,
) {
    use quoridor_solver::retro::Value;
    let me = pos.to_move;
    match value {
        Value::Win(k) => assert!(
            wins(me, pos, k) && !wins(me, pos, k.saturating_sub(2)),
            "{cell}"
        ),
        Value::Loss(k) => assert!(
            wins(me.other(), pos, k) && !wins(me.other(), pos, k.saturating_sub(2)),
            "{cell}"
        ),
        Value::Draw => assert!(!wins(me, pos, 40) && !wins(me.other(), pos, 40), "{cell}"),
    }
}
