//! Unit tests of the reference engine (tests/common/reference.rs) on
//! hand-made situations checked by reasoning from RULES.md, plus the fixture
//! generator for tests/data/*.csv and a check that the stored fixtures still
//! agree with the reference.

mod common;

use common::reference::{RefAction, RefBoard, RefPos, perft_slow, reachable_slow};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

fn board(w: usize, h: usize) -> RefBoard {
    RefBoard { w, h }
}

/// A hand-made position.
fn pos(
    p1: (usize, usize),
    p2: (usize, usize),
    hwalls: &[(usize, usize)],
    vwalls: &[(usize, usize)],
    left: [u32; 2],
    to_move: usize,
) -> RefPos {
    RefPos {
        pawns: [p1, p2],
        hwalls: hwalls.iter().copied().collect(),
        vwalls: vwalls.iter().copied().collect(),
        left,
        to_move,
    }
}

/// Notations of all legal actions, in the engine's (sorted) order.
fn names(b: RefBoard, p: &RefPos) -> Vec<String> {
    p.legal_actions(b).iter().map(|a| a.notation()).collect()
}

/// Sorted notations of the legal pawn moves only.
fn pawn_names(b: RefBoard, p: &RefPos) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_actions(b)
        .iter()
        .filter(|a| matches!(a, RefAction::Pawn { .. }))
        .map(|a| a.notation())
        .collect();
    v.sort();
    v
}

/// Set of the legal wall placements as `(col, row, horizontal)`.
fn wall_set(b: RefBoard, p: &RefPos) -> BTreeSet<(usize, usize, bool)> {
    p.legal_actions(b)
        .iter()
        .filter_map(|a| match *a {
            RefAction::Wall {
                col,
                row,
                horizontal,
            } => Some((col, row, horizontal)),
            RefAction::Pawn { .. } => None,
        })
        .collect()
}

fn all_walls(b: RefBoard) -> BTreeSet<(usize, usize, bool)> {
    let mut s = BTreeSet::new();
    for c in 0..b.w - 1 {
        for r in 0..b.h - 1 {
            s.insert((c, r, true));
            s.insert((c, r, false));
        }
    }
    s
}

fn strs(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

// ---------------------------------------------------------------- notation

#[test]
fn notation_cells_and_walls() {
    assert_eq!(RefAction::Pawn { col: 0, row: 0 }.notation(), "a1");
    assert_eq!(RefAction::Pawn { col: 2, row: 1 }.notation(), "c2");
    assert_eq!(RefAction::Pawn { col: 0, row: 9 }.notation(), "a10");
    assert_eq!(RefAction::Pawn { col: 25, row: 1 }.notation(), "z2");
    let w = |col, row, horizontal| RefAction::Wall {
        col,
        row,
        horizontal,
    };
    assert_eq!(w(1, 1, true).notation(), "b2h");
    assert_eq!(w(1, 1, false).notation(), "b2v");
    assert_eq!(w(0, 0, false).notation(), "a1v");
    assert_eq!(w(3, 11, true).notation(), "d12h");
}

// ---------------------------------------------------------------- start

#[test]
fn start_position() {
    let p = RefPos::start(board(3, 3), 2);
    assert_eq!(p.pawns, [(1, 0), (1, 2)]);
    assert!(p.hwalls.is_empty() && p.vwalls.is_empty());
    assert_eq!(p.left, [2, 2]);
    assert_eq!(p.to_move, 0);
    // Even width: both pawns in column W/2.
    let p = RefPos::start(board(4, 5), 0);
    assert_eq!(p.pawns, [(2, 0), (2, 4)]);
    let p = RefPos::start(board(2, 3), 1);
    assert_eq!(p.pawns, [(1, 0), (1, 2)]);
}

#[test]
fn start_moves_3x3_no_walls() {
    let b = board(3, 3);
    let p = RefPos::start(b, 0);
    assert_eq!(names(b, &p), vec!["a1", "b2", "c1"]);
    // Player 2 after b1-a1: b3 can go to a3, c3, b2.
    let p = p.play(b, RefAction::Pawn { col: 0, row: 0 });
    assert_eq!(p.to_move, 1);
    assert_eq!(pawn_names(b, &p), strs(&["a3", "b2", "c3"]));
}

#[test]
fn start_moves_3x3_with_walls() {
    // 4 anchors x 2 orientations, none can cut a pawn off on an empty board.
    let b = board(3, 3);
    let p = RefPos::start(b, 1);
    assert_eq!(wall_set(b, &p), all_walls(b));
    assert_eq!(p.legal_actions(b).len(), 3 + 8);
    // 5x5: 16 anchors -> 32 walls + 3 steps.
    let b = board(5, 5);
    let p = RefPos::start(b, 3);
    assert_eq!(p.legal_actions(b).len(), 3 + 32);
}

#[test]
fn actions_sorted_and_unique() {
    let b = board(5, 5);
    let p = pos((2, 1), (2, 2), &[(1, 2)], &[(0, 0)], [2, 2], 0);
    let a = p.legal_actions(b);
    let mut s = a.clone();
    s.sort();
    s.dedup();
    assert_eq!(a, s);
}

// ---------------------------------------------------------------- jumps

#[test]
fn straight_jump() {
    // 3x5: P1 b2, P2 b3 directly in front: jump to b4.
    let b = board(3, 5);
    let p = pos((1, 1), (1, 2), &[], &[], [0, 0], 0);
    assert_eq!(pawn_names(b, &p), strs(&["a2", "c2", "b1", "b4"]));
    // Player 2 jumping down over Player 1.
    let p = pos((1, 2), (1, 3), &[], &[], [0, 0], 1);
    assert_eq!(pawn_names(b, &p), strs(&["a4", "c4", "b5", "b2"]));
    // Sideways jump: P1 a2, P2 b2 -> c2.
    let p = pos((0, 1), (1, 1), &[], &[], [0, 0], 0);
    assert_eq!(pawn_names(b, &p), strs(&["a1", "a3", "c2"]));
}

#[test]
fn wall_behind_gives_diagonals() {
    // 3x5: P1 b2, P2 b3, horizontal wall (1,2) blocks b3-b4 and c3-c4.
    let b = board(3, 5);
    let p = pos((1, 1), (1, 2), &[(1, 2)], &[], [0, 0], 0);
    assert_eq!(pawn_names(b, &p), strs(&["a2", "c2", "b1", "a3", "c3"]));
    // Same with horizontal wall (0,2) (blocks a3-a4 and b3-b4).
    let p = pos((1, 1), (1, 2), &[(0, 2)], &[], [0, 0], 0);
    assert_eq!(pawn_names(b, &p), strs(&["a2", "c2", "b1", "a3", "c3"]));
    // No jump at all if the edge to the other pawn is blocked.
    let p = pos((1, 1), (1, 2), &[(1, 1)], &[], [0, 0], 0);
    assert_eq!(pawn_names(b, &p), strs(&["a2", "c2", "b1"]));
}

#[test]
fn board_edge_gives_diagonals() {
    // 3x3: P1 b2, P2 b3 on the top row: no cell behind -> a3, c3.
    let b = board(3, 3);
    let p = pos((1, 1), (1, 2), &[], &[], [0, 0], 0);
    assert_eq!(pawn_names(b, &p), strs(&["a2", "c2", "b1", "a3", "c3"]));
    // 3x5: P1 b2, P2 c2 on the right edge -> c1, c3.
    let b = board(3, 5);
    let p = pos((1, 1), (2, 1), &[], &[], [0, 0], 0);
    assert_eq!(pawn_names(b, &p), strs(&["a2", "b1", "b3", "c1", "c3"]));
    // Corner: 3x5, P1 a4, P2 a5: nothing behind, diagonal b5 only (no
    // column left of a).
    let p = pos((0, 3), (0, 4), &[], &[], [0, 0], 0);
    assert_eq!(pawn_names(b, &p), strs(&["a3", "b4", "b5"]));
}

#[test]
fn diagonal_blocked_by_wall() {
    // 3x5: P1 b2, P2 c2 (right edge). Horizontal wall (1,1) blocks b2-b3 and
    // c2-c3: diagonal c3 is refused, c1 allowed, and b3 is no longer a step.
    let b = board(3, 5);
    let p = pos((1, 1), (2, 1), &[(1, 1)], &[], [0, 0], 0);
    assert_eq!(pawn_names(b, &p), strs(&["a2", "b1", "c1"]));
    // 3x5: P1 b2, P2 b3, wall behind (1,2); vertical wall (0,2) blocks a3-b3
    // (and a4-b4): diagonal a3 refused, c3 allowed.
    let p = pos((1, 1), (1, 2), &[(1, 2)], &[(0, 2)], [0, 0], 0);
    assert_eq!(pawn_names(b, &p), strs(&["a2", "c2", "b1", "c3"]));
    // Vertical wall (0,1) blocks a2-b2 and a3-b3: step a2 and diagonal a3 refused.
    let p = pos((1, 1), (1, 2), &[(1, 2)], &[(0, 1)], [0, 0], 0);
    assert_eq!(pawn_names(b, &p), strs(&["c2", "b1", "c3"]));
}

#[test]
fn walls_block_steps() {
    // 3x3, P1 at b1. Horizontal (0,0) blocks a1-a2, b1-b2; vertical (1,0)
    // blocks b1-c1, b2-c2.
    let b = board(3, 3);
    let p = pos((1, 0), (1, 2), &[(0, 0)], &[(1, 0)], [0, 0], 0);
    assert_eq!(pawn_names(b, &p), strs(&["a1"]));
    // Vertical wall (0,1) blocks a2-b2, a3-b3 but not a1-b1.
    let p = pos((1, 0), (1, 2), &[], &[(0, 1)], [0, 0], 0);
    assert_eq!(pawn_names(b, &p), strs(&["a1", "b2", "c1"]));
    // Horizontal wall (1,1) blocks b2-b3 and c2-c3 but not a2-a3.
    let p = pos((0, 1), (2, 2), &[(1, 1)], &[], [0, 0], 0);
    assert_eq!(pawn_names(b, &p), strs(&["a1", "a3", "b2"]));
}

// ---------------------------------------------------------------- walls

#[test]
fn overlap_and_crossing_horizontal() {
    let b = board(5, 5);
    let p = pos((2, 0), (2, 4), &[(1, 1)], &[], [3, 3], 0);
    let ws = wall_set(b, &p);
    for refused in [(1, 1, true), (0, 1, true), (2, 1, true), (1, 1, false)] {
        assert!(!ws.contains(&refused), "{refused:?} should be refused");
    }
    for allowed in [
        (3, 1, true),
        (1, 0, true),
        (1, 2, true),
        (1, 0, false),
        (1, 2, false),
        (0, 1, false),
        (2, 1, false),
    ] {
        assert!(ws.contains(&allowed), "{allowed:?} should be allowed");
    }
    assert_eq!(ws.len(), 32 - 4);
}

#[test]
fn overlap_and_crossing_vertical() {
    let b = board(5, 5);
    let p = pos((2, 0), (2, 4), &[], &[(1, 1)], [3, 3], 0);
    let ws = wall_set(b, &p);
    for refused in [(1, 1, false), (1, 0, false), (1, 2, false), (1, 1, true)] {
        assert!(!ws.contains(&refused), "{refused:?} should be refused");
    }
    for allowed in [
        (1, 3, false),
        (0, 1, false),
        (2, 1, false),
        (0, 1, true),
        (2, 1, true),
        (1, 0, true),
        (1, 2, true),
    ] {
        assert!(ws.contains(&allowed), "{allowed:?} should be allowed");
    }
    assert_eq!(ws.len(), 32 - 4);
}

#[test]
fn wall_cutting_off_a_pawn_is_refused() {
    // 4x3: horizontal (0,0) blocks columns a,b between rows 1 and 2; adding
    // horizontal (2,0) (columns c,d) would cut Player 1 off from its goal.
    let b = board(4, 3);
    let p = pos((2, 0), (2, 2), &[(0, 0)], &[], [3, 3], 0);
    let ws = wall_set(b, &p);
    assert!(!ws.contains(&(2, 0, true)));
    assert!(ws.contains(&(2, 1, true)));
    // Same on Player 2's side, and it does not matter who is to move.
    let p = pos((2, 0), (2, 2), &[(0, 1)], &[], [3, 3], 1);
    let ws = wall_set(b, &p);
    assert!(!ws.contains(&(2, 1, true)));
    assert!(ws.contains(&(2, 0, true)));
    // 2x3: a single horizontal wall spans the whole width.
    let b = board(2, 3);
    let p = RefPos::start(b, 1);
    assert_eq!(
        wall_set(b, &p),
        BTreeSet::from([(0, 0, false), (0, 1, false)])
    );
    assert_eq!(names(b, &p), vec!["a1", "b2", "a1v", "a2v"]);
}

#[test]
fn enclosed_region_without_pawn_is_allowed() {
    // 4x4, P1 c1, P2 c4. v(2,0) blocks c1-d1 and c2-d2; adding h(2,1)
    // (blocks c2-c3, d2-d3) encloses {d1, d2}, which holds no pawn: both pawns
    // still reach their goal rows (P1 via c1 c2 b2 b3 b4), so it is legal.
    let b = board(4, 4);
    let p = pos((2, 0), (2, 3), &[], &[(2, 0)], [2, 2], 0);
    let ws = wall_set(b, &p);
    assert!(ws.contains(&(2, 1, true)));
    let q = p.play(
        b,
        RefAction::Wall {
            col: 2,
            row: 1,
            horizontal: true,
        },
    );
    // Now h(0,1) (a2-a3, b2-b3) would cut Player 1 off: refused.
    assert!(!wall_set(b, &q).contains(&(0, 1, true)));
}

#[test]
fn pawns_do_not_block_paths() {
    // 3x3: h(0,0) blocks a1-a2 and b1-b2, so Player 1 (b1) must climb via
    // c1-c2, where Player 2 stands. v(0,1) (a2-b2, a3-b3) leaves the path
    // b1 c1 c2 c3 which passes through Player 2's cell: still legal.
    let b = board(3, 3);
    let p = pos((1, 0), (2, 1), &[(0, 0)], &[], [2, 2], 0);
    let ws = wall_set(b, &p);
    assert!(ws.contains(&(0, 1, false)));
    // h(1,1) (b2-b3, c2-c3) also leaves c1 c2 b2? b2-b3 blocked, c2-c3 blocked,
    // a2-a3 open: path b1 c1 c2 b2 a2 a3 -> legal.
    assert!(ws.contains(&(1, 1, true)));
    // v(1,0) (b1-c1, b2-c2) cuts Player 1 (b1 reaches only a1, both blocked up).
    assert!(!ws.contains(&(1, 0, false)));
}

#[test]
fn no_walls_left_no_wall_moves() {
    let b = board(3, 3);
    let p = pos((1, 0), (1, 2), &[], &[], [0, 2], 0);
    assert!(wall_set(b, &p).is_empty());
    assert_eq!(p.legal_actions(b).len(), 3);
    let p = pos((1, 0), (1, 2), &[], &[], [0, 2], 1);
    assert_eq!(wall_set(b, &p).len(), 8);
    let p = pos((1, 0), (1, 2), &[], &[], [2, 0], 1);
    assert!(wall_set(b, &p).is_empty());
}

#[test]
fn play_updates_position() {
    let b = board(3, 3);
    let p = RefPos::start(b, 2);
    let q = p.play(
        b,
        RefAction::Wall {
            col: 1,
            row: 0,
            horizontal: true,
        },
    );
    assert_eq!(q.hwalls, BTreeSet::from([(1, 0)]));
    assert!(q.vwalls.is_empty());
    assert_eq!(q.left, [1, 2]);
    assert_eq!(q.to_move, 1);
    let r = q.play(
        b,
        RefAction::Wall {
            col: 0,
            row: 1,
            horizontal: false,
        },
    );
    assert_eq!(r.vwalls, BTreeSet::from([(0, 1)]));
    assert_eq!(r.left, [1, 1]);
    assert_eq!(r.to_move, 0);
    let s = r.play(b, RefAction::Pawn { col: 0, row: 0 });
    assert_eq!(s.pawns, [(0, 0), (1, 2)]);
    assert_eq!(s.left, [1, 1]);
    assert_eq!(s.to_move, 1);
}

// ---------------------------------------------------------------- end of game

#[test]
fn winner_detection() {
    let b = board(3, 4);
    assert_eq!(RefPos::start(b, 1).winner(b), None);
    let p = pos((0, 3), (1, 2), &[], &[], [1, 1], 1);
    assert_eq!(p.winner(b), Some(0));
    assert!(p.legal_actions(b).is_empty());
    let p = pos((1, 1), (2, 0), &[], &[], [1, 1], 0);
    assert_eq!(p.winner(b), Some(1));
    assert!(p.legal_actions(b).is_empty());
    // Both on goal rows (cannot arise in play): Player 1 is checked first.
    let p = pos((0, 3), (2, 0), &[], &[], [1, 1], 0);
    assert_eq!(p.winner(b), Some(0));
    // Reaching the goal by a (diagonal) jump wins.
    let b = board(3, 3);
    let p = pos((1, 1), (1, 2), &[], &[], [0, 0], 0);
    let q = p.play(b, RefAction::Pawn { col: 0, row: 2 });
    assert_eq!(q.winner(b), Some(0));
}

#[test]
fn h2_position_without_legal_action() {
    // 2x2, 1 wall each. Start: P1 b1, P2 b2. P1's actions: a1; b2 holds P2
    // and nothing is behind it, so the diagonal a2 (wins); walls: h(0,0)
    // spans the width and cuts both pawns off, v(0,0) is fine.
    let b = board(2, 2);
    let p = RefPos::start(b, 1);
    assert_eq!(names(b, &p), vec!["a1", "a2", "a1v"]);
    // After a1v, P2 on b2: a2 blocked by the wall, b1 holds P1 with nothing
    // behind, diagonal a1 blocked by the wall, c1 off the board; its only
    // possible wall h(0,0) crosses v(0,0). No legal action: a draw.
    let q = p.play(
        b,
        RefAction::Wall {
            col: 0,
            row: 0,
            horizontal: false,
        },
    );
    assert_eq!(q.winner(b), None);
    assert!(q.legal_actions(b).is_empty());
    for d in 0..5 {
        assert_eq!(perft_slow(b, &q, d), 1);
    }
    // perft from the start: depth 1 = 3, depth 2 = a1 (P2: a2, b1 wins, wall
    // a1v; h(0,0) cuts off -> 3 actions) + a2 (finished, 1) + a1v (draw, 1) = 5.
    assert_eq!(perft_slow(b, &p, 1), 3);
    let after_a1 = p.play(b, RefAction::Pawn { col: 0, row: 0 });
    assert_eq!(names(b, &after_a1), vec!["a2", "b1", "a1v"]);
    assert_eq!(perft_slow(b, &p, 2), 5);
}

// ---------------------------------------------------------------- perft / reachable

#[test]
fn perft_semantics_2x2_no_walls() {
    // Hand count. S0 = start (P1 b1, P2 b2). P1: a1 -> S1, a2 (diagonal
    // jump, wins). S1: P2: a2 -> S2, b1 (wins). S2: P1 a1: b1 -> S3, b2
    // (diagonal, wins). S3: P2 a2: b2 -> S0 again, a1 (wins).
    let b = board(2, 2);
    let p = RefPos::start(b, 0);
    assert_eq!(perft_slow(b, &p, 0), 1);
    assert_eq!(perft_slow(b, &p, 1), 2);
    assert_eq!(perft_slow(b, &p, 2), 3);
    assert_eq!(perft_slow(b, &p, 3), 4);
    assert_eq!(perft_slow(b, &p, 4), 5);
    // After 4 plies we are back at the start, so each 4 plies add 4.
    assert_eq!(perft_slow(b, &p, 5), 6);
    // A finished position counts once at any depth.
    let won = p.play(b, RefAction::Pawn { col: 0, row: 1 });
    assert_eq!(won.winner(b), Some(0));
    for d in 0..4 {
        assert_eq!(perft_slow(b, &won, d), 1);
    }
    // Four non-finished positions and four finished ones.
    let all = reachable_slow(b, 0);
    assert_eq!(all.len(), 8);
    assert_eq!(all.iter().filter(|q| q.winner(b).is_some()).count(), 4);
    assert!(all.contains(&p));
}

#[test]
fn perft_depth1_is_action_count() {
    let b = board(5, 5);
    let p = RefPos::start(b, 3);
    assert_eq!(perft_slow(b, &p, 1), 35);
    let b = board(3, 3);
    let p = RefPos::start(b, 0);
    // a1, c1 -> P2 has 3 each; b2 -> P2 on b3: a3, c3, and b2 holds P1 with
    // b1 behind free -> jump to b1 (wins): 3. Total 9.
    assert_eq!(perft_slow(b, &p, 2), 9);
}

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
}

/// Parses a CSV with a header line into rows of unsigned integers.
fn read_csv(name: &str, header: &str) -> Vec<Vec<u64>> {
    let text = std::fs::read_to_string(data_dir().join(name))
        .unwrap_or_else(|e| panic!("cannot read tests/data/{name}: {e}"));
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(header), "header of {name}");
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(',').map(|f| f.trim().parse().unwrap()).collect())
        .collect()
}

#[test]
fn stored_perft_matches_reference() {
    let rows = read_csv("perft.csv", "width,height,walls,depth,count");
    let mut checked = 0;
    for row in rows {
        let [w, h, walls, depth, count] = row[..] else {
            panic!("bad row {row:?}")
        };
        if depth > 3 {
            continue;
        }
        let b = board(w as usize, h as usize);
        let p = RefPos::start(b, walls as u32);
        assert_eq!(
            perft_slow(b, &p, depth as u32),
            count,
            "perft {w}x{h} walls {walls} depth {depth}"
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} rows checked");
}

#[test]
fn stored_reachable_matches_reference_small() {
    let rows = read_csv("reachable.csv", "width,height,walls,positions");
    let mut checked = 0;
    for row in rows {
        let [w, h, walls, positions] = row[..] else {
            panic!("bad row {row:?}")
        };
        // Only the quick ones.
        if !matches!((w, h, walls), (2, 3, 1) | (3, 3, 1)) {
            continue;
        }
        let b = board(w as usize, h as usize);
        assert_eq!(reachable_slow(b, walls as u32).len() as u64, positions);
        checked += 1;
    }
    assert_eq!(checked, 2);
}

/// Writes tests/data/perft.csv and tests/data/reachable.csv from the reference.
/// Run with `cargo test --release --test reference_engine -- --ignored generate_fixtures`.
#[test]
#[ignore]
fn generate_fixtures() {
    let total = Instant::now();
    let perft_cases: [(usize, usize, u32, u32); 6] = [
        (5, 5, 3, 4),
        (3, 9, 2, 4),
        (3, 3, 2, 5),
        (4, 3, 3, 5),
        (3, 4, 2, 5),
        (2, 5, 2, 5),
    ];
    let mut perft = String::from("width,height,walls,depth,count\n");
    for (w, h, walls, max_depth) in perft_cases {
        let b = board(w, h);
        let p = RefPos::start(b, walls);
        for depth in 1..=max_depth {
            let t = Instant::now();
            let n = perft_slow(b, &p, depth);
            eprintln!(
                "perft {w}x{h} w{walls} d{depth} = {n} ({:.2?})",
                t.elapsed()
            );
            writeln!(perft, "{w},{h},{walls},{depth},{n}").unwrap();
        }
    }
    let reach_cases: [(usize, usize, u32); 6] = [
        (3, 3, 2),
        (4, 3, 3),
        (3, 4, 2),
        (2, 5, 2),
        (2, 3, 1),
        (3, 3, 1),
    ];
    let mut reach = String::from("width,height,walls,positions\n");
    for (w, h, walls) in reach_cases {
        let t = Instant::now();
        let n = reachable_slow(board(w, h), walls).len();
        eprintln!("reachable {w}x{h} w{walls} = {n} ({:.2?})", t.elapsed());
        writeln!(reach, "{w},{h},{walls},{n}").unwrap();
    }
    std::fs::create_dir_all(data_dir()).unwrap();
    std::fs::write(data_dir().join("perft.csv"), perft).unwrap();
    std::fs::write(data_dir().join("reachable.csv"), reach).unwrap();
    eprintln!("fixtures written in {:.2?}", total.elapsed());
}
