//! Configuration records built on demand (`tables/on_demand.rs`) against the eager tables:
//! every configuration's record, configuration by configuration, on small cells; the proof
//! search's outcome and length from every reachable position of small cells with either
//! store; a store that runs out of room stops the search without an answer; and `solve`
//! picks the on-demand store when the eager tables do not fit the budget.

use quoridor_solver::cell::analysis::reachable;
use quoridor_solver::cell::solver::{self, Method, SolveOptions};
use quoridor_solver::configs::{ConfigTables, NO_CHILD, OnDemand, TableEstimate, Tables};
use quoridor_solver::rules::geometry::{Board, Player, Square};
use quoridor_solver::rules::position::Position;
use quoridor_solver::rules::walls::{Orientation, Wall, WallSet};
use quoridor_solver::search::{self, Limits};
use quoridor_solver::support::progress::Silent;

fn cell(width: usize, height: usize, walls: u8) -> (Board, Tables, OnDemand) {
    let board = Board::new(width, height).unwrap();
    let eager = Tables::build(board, walls, u64::MAX, &Silent).unwrap();
    let lazy = OnDemand::new(board, walls, u64::MAX);
    (board, eager, lazy)
}

/// Every configuration of the cell: the same walls, distances, reach masks, mirror image
/// and children (compared by their walls: ids differ between the stores).
fn same_records(width: usize, height: usize, walls: u8) {
    let (board, eager, lazy) = cell(width, height, walls);
    assert_eq!(lazy.configurations(), eager.len() as u128);
    for id in 0..eager.len() as u32 {
        let w = eager.walls(id);
        let other = lazy.id_of(w).expect("every configuration has an id");
        assert_eq!(ConfigTables::walls(&lazy, other), w);
        for p in [Player::One, Player::Two] {
            assert_eq!(ConfigTables::reach(&lazy, other, p), eager.reach(id, p));
            for c in 0..board.squares() as Square {
                let d = ConfigTables::distance(&lazy, other, p, c);
                assert_eq!(d, eager.distance(id, p, c), "{board} {w:?} {p:?} {c}");
            }
        }
        let mirror = ConfigTables::mirror(&lazy, other);
        assert_eq!(
            ConfigTables::walls(&lazy, mirror),
            eager.walls(eager.mirror(id))
        );
        // One child at a time first (before the configuration is expanded), then all.
        let theirs = eager.children(id);
        for (slot, &b) in theirs.iter().enumerate().chain([(theirs.len(), &NO_CHILD)]) {
            let a = ConfigTables::child(&lazy, other, slot);
            assert_eq!(a == NO_CHILD, b == NO_CHILD, "{board} {w:?} slot {slot}");
            if b != NO_CHILD {
                assert_eq!(ConfigTables::walls(&lazy, a), eager.walls(b));
            }
        }
        let mine = ConfigTables::children(&lazy, other);
        assert_eq!(mine.len(), theirs.len());
        for (slot, &a) in mine.iter().enumerate() {
            assert_eq!(ConfigTables::child(&lazy, other, slot), a);
        }
        for (&a, &b) in mine.iter().zip(theirs) {
            assert_eq!(a == NO_CHILD, b == NO_CHILD, "{board} {w:?}");
            if b != NO_CHILD {
                assert_eq!(ConfigTables::walls(&lazy, a), eager.walls(b));
            }
        }
    }
    let pairs = (0..eager.len() as u32)
        .filter(|&id| eager.mirror(id) >= id)
        .count();
    assert_eq!(
        lazy.built(),
        pairs,
        "each configuration and its mirror built once"
    );
    assert!(!lazy.exhausted());
}

#[test]
fn records_equal_the_eager_tables_on_small_cells() {
    for (w, h, n) in [
        (3, 3, 20),
        (4, 3, 3),
        (3, 4, 3),
        (2, 5, 20),
        (4, 4, 2),
        (5, 3, 2),
    ] {
        same_records(w, h, n);
    }
}

/// The store's index compares wall sets of at most 8 walls packed in a word and larger ones
/// through the records: both ways are covered on a cell with configurations of 9 and more.
#[test]
fn records_equal_the_eager_tables_past_8_walls() {
    let (_, eager, _) = cell(4, 4, 6);
    let most = (0..eager.len() as u32)
        .map(|id| eager.walls(id).len())
        .max();
    assert!(
        most > Some(8),
        "4x4 has configurations of more than 8 walls: {most:?}"
    );
    same_records(4, 4, 6);
}

/// 9x9 (81 cells, anchors up to bit 70): the eager tables can still number its
/// configurations, so the two stores are compared record by record.
#[test]
fn records_equal_the_eager_tables_on_9x9() {
    same_records(9, 9, 1);
}

/// Steps to `goal_row` from every cell by a plain BFS over coordinates, walls as anchors
/// (the blocked edges from RULES.md): no masks.
fn distances_slow(board: Board, walls: WallSet, goal_row: usize) -> Vec<u8> {
    let (w, h) = (board.width(), board.height());
    let list: Vec<(usize, usize, Orientation)> = walls
        .iter()
        .map(|wall| {
            (
                board.col(wall.anchor),
                board.row(wall.anchor),
                wall.orientation,
            )
        })
        .collect();
    let open = |(c, r): (usize, usize), (nc, nr): (usize, usize)| {
        !list.iter().any(|&(ac, ar, o)| match o {
            Orientation::Horizontal => c == nc && (c == ac || c == ac + 1) && r.min(nr) == ar,
            Orientation::Vertical => r == nr && (r == ar || r == ar + 1) && c.min(nc) == ac,
        })
    };
    let mut dist = vec![u8::MAX; w * h];
    let mut queue: std::collections::VecDeque<(usize, usize)> =
        (0..w).map(|c| (c, goal_row)).collect();
    for &(c, r) in &queue {
        dist[r * w + c] = 0;
    }
    while let Some((c, r)) = queue.pop_front() {
        let around = [
            (c, r + 1),
            (c, r.wrapping_sub(1)),
            (c + 1, r),
            (c.wrapping_sub(1), r),
        ];
        for (nc, nr) in around {
            if nc < w && nr < h && dist[nr * w + nc] == u8::MAX && open((c, r), (nc, nr)) {
                dist[nr * w + nc] = dist[r * w + c] + 1;
                queue.push_back((nc, nr));
            }
        }
    }
    dist
}

/// Boards with more than 64 anchors (no eager tables): the records the store makes along
/// the first two layers (every child of the empty configuration, every child of some of
/// those) against a coordinate BFS, and their children and mirror images against the rules.
#[test]
fn records_on_boards_over_64_cells_agree_with_flood_fills() {
    for (w, h) in [(11, 11), (16, 8), (10, 10)] {
        let board = Board::new(w, h).unwrap();
        let walls_per_player = 2;
        let store = OnDemand::new(board, walls_per_player, 256 << 20);
        let check = |id: u32| {
            let walls = ConfigTables::walls(&store, id);
            for (p, goal_row) in [(Player::One, h - 1), (Player::Two, 0)] {
                let want = distances_slow(board, walls, goal_row);
                let reach = ConfigTables::reach(&store, id, p);
                for c in 0..board.squares() as Square {
                    assert_eq!(ConfigTables::distance(&store, id, p, c), want[c as usize]);
                    assert_eq!(reach >> c & 1 == 1, want[c as usize] != u8::MAX);
                }
            }
            let mirror = ConfigTables::mirror(&store, id);
            assert_eq!(ConfigTables::walls(&store, mirror), walls.mirror(board));
            let children = ConfigTables::children(&store, id).to_vec();
            assert_eq!(children.len(), 2 * board.anchor_count());
            for (slot, &child) in children.iter().enumerate() {
                let wall = store.slot_wall(slot);
                let fits =
                    walls.clash(board, wall).is_none() && walls.len() < 2 * walls_per_player as u32;
                assert_eq!(child != NO_CHILD, fits, "{board} {walls:?} {wall:?}");
                if fits {
                    assert_eq!(ConfigTables::walls(&store, child), walls.with(wall));
                }
            }
            children
        };
        let empty = store.id_of(WallSet::EMPTY).unwrap();
        let first = check(empty);
        assert!(first.iter().all(|&c| c != NO_CHILD));
        for &child in first.iter().step_by(7) {
            check(child);
        }
        // A wall past cell 63: the top row of anchors.
        let top = Wall {
            anchor: board.square(w - 2, h - 2),
            orientation: Orientation::Vertical,
        };
        assert!(top.anchor >= 64);
        let id = store.id_of(WallSet::EMPTY.with(top)).unwrap();
        check(id);
        assert!(!store.exhausted());
    }
}

#[test]
fn wall_sets_that_are_not_configurations_have_no_id() {
    let (board, _, lazy) = cell(4, 4, 1);
    let h = |c, r| Wall {
        anchor: board.square(c, r),
        orientation: Orientation::Horizontal,
    };
    let v = |c, r| Wall {
        anchor: board.square(c, r),
        orientation: Orientation::Vertical,
    };
    let overlapping = WallSet::EMPTY.with(h(0, 0)).with(h(1, 0));
    let crossing = WallSet::EMPTY.with(h(1, 1)).with(v(1, 1));
    let too_many = WallSet::EMPTY.with(h(0, 0)).with(h(0, 2)).with(v(2, 0));
    let off_the_anchors = WallSet::EMPTY.with(h(3, 0));
    for walls in [overlapping, crossing, too_many, off_the_anchors] {
        assert_eq!(lazy.id_of(walls), None, "{walls:?}");
    }
    assert!(
        lazy.id_of(WallSet::EMPTY.with(h(0, 0)).with(v(2, 2)))
            .is_some()
    );
}

fn limits() -> Limits<'static> {
    Limits::new(60, 16 << 20)
}

/// Winner and length of the search from every reachable position, with either store.
fn same_search(width: usize, height: usize, walls: u8) {
    let (_, eager, lazy) = cell(width, height, walls);
    let positions = reachable(&eager, usize::MAX).unwrap();
    let outcome = |r: search::SearchResult| r.win.map(|w| (w.winner, w.plies));
    for pos in positions
        .iter()
        .filter(|p| p.winner(eager.board()).is_none())
    {
        let a = search::solve(&eager, pos, &limits(), &Silent);
        let b = search::solve(&lazy, pos, &limits(), &Silent);
        assert!(!b.out_of_memory);
        assert_eq!(outcome(a), outcome(b), "{pos:?}");
    }
}

#[test]
fn search_answers_equal_on_every_reachable_position_of_small_cells() {
    for (w, h, n) in [(3, 3, 2), (4, 3, 2), (3, 4, 1)] {
        same_search(w, h, n);
    }
}

#[test]
fn a_full_store_stops_the_search_without_an_answer() {
    let board = Board::new(5, 5).unwrap();
    let lazy = OnDemand::new(board, 4, 200_000);
    let start = Position::start(board, 4).unwrap();
    let found = search::solve(&lazy, &start, &limits(), &Silent);
    assert!(found.out_of_memory);
    assert!(lazy.exhausted());
    assert_eq!(found.win, None);
    assert!(
        lazy.bytes() > 150_000,
        "stopped near the budget: {}",
        lazy.bytes()
    );
}

#[test]
fn solve_builds_configurations_on_demand_when_the_tables_do_not_fit() {
    // 7x7 with 2 walls: the search finds Player 2's win in 22 plies either way; the eager
    // tables do not fit the smaller budget, so it can only have built them on demand.
    let board = Board::new(7, 7).unwrap();
    assert!(TableEstimate::new(board, 2).bytes > 350 << 20);
    let options = |memory_budget| SolveOptions {
        method: Method::Search,
        max_depth: 40,
        threads: 2,
        memory_budget,
        tt_bytes: Some(16 << 20),
        ..SolveOptions::default()
    };
    let eager = solver::solve(board, 2, &options(4 << 30), &Silent).unwrap();
    let lazy = solver::solve(board, 2, &options(350 << 20), &Silent).unwrap();
    assert_eq!((lazy.outcome, lazy.plies), (eager.outcome, eager.plies));
    assert_eq!(eager.plies, Some(22));
}

fn bin() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_quoridor-solver"))
}

#[test]
fn solve_store_flag_chooses_the_store_and_refuses_it_for_the_analysis() {
    let answer = |store: &str| {
        let out = bin()
            .args([
                "solve", "4x5", "--walls", "2", "--method", "search", "--json",
            ])
            .args(["--store", store])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (v["outcome"].clone(), v["plies"].clone())
    };
    assert_eq!(answer("on-demand"), answer("full"));
    let out = bin()
        .args(["solve", "3x3", "--walls", "1", "--store", "on-demand"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--method search"));
}

/// An oracle's memo is kept per configuration, apart from its mirror image's, and goes
/// with the records when the store is emptied: a number written for one configuration is
/// never read back for another.
#[test]
fn an_oracle_memo_belongs_to_its_configuration() {
    use quoridor_solver::configs::NO_MEMO;
    use std::sync::atomic::Ordering::Relaxed;
    let board = Board::new(4, 4).unwrap();
    let mut lazy = OnDemand::new(board, 2, u64::MAX);
    assert!(lazy.can_forget());
    let wall = |anchor, orientation| Wall {
        anchor,
        orientation,
    };
    let one = WallSet::EMPTY.with(wall(0, Orientation::Horizontal));
    let id = lazy.id_of(one).unwrap();
    let mirror = lazy.mirror(id);
    assert_ne!(id, mirror);
    let memo = |s: &OnDemand, id| s.oracle_memo(id).unwrap().load(Relaxed);
    assert_eq!((memo(&lazy, id), memo(&lazy, mirror)), (NO_MEMO, NO_MEMO));
    lazy.oracle_memo(id).unwrap().store(7, Relaxed);
    assert_eq!((memo(&lazy, id), memo(&lazy, mirror)), (7, NO_MEMO));
    assert!(lazy.forget());
    let other = WallSet::EMPTY.with(wall(5, Orientation::Vertical));
    let again = lazy.id_of(other).unwrap();
    assert_eq!(
        again / 2,
        id / 2,
        "the emptied store hands the first pair out again"
    );
    assert_eq!(memo(&lazy, again), NO_MEMO);
    assert_eq!(memo(&lazy, lazy.mirror(again)), NO_MEMO);
}

/// A store far smaller than the search needs, emptied whenever it fills
/// (`solve_forgetting`): the same winner and length as the eager tables, and a line of that
/// length that the rules allow.
#[test]
fn a_store_emptied_when_full_finds_the_same_win() {
    for (w, h, walls, budget) in [(4, 4, 3, 300_000), (5, 5, 2, 1_500_000), (3, 5, 4, 200_000)] {
        let board = Board::new(w, h).unwrap();
        let eager = Tables::build(board, walls, u64::MAX, &Silent).unwrap();
        let start = Position::start(board, walls).unwrap();
        let want = search::solve(&eager, &start, &limits(), &Silent);
        let mut lazy = OnDemand::new(board, walls, budget);
        assert!(lazy.can_forget());
        let (found, emptied) = search::solve_forgetting(&mut lazy, &start, &limits(), &Silent);
        eprintln!(
            "{board} {walls}: emptied {emptied}, {} nodes against {}",
            found.nodes, want.nodes
        );
        assert!(emptied > 0, "{board} {walls}: the store never filled");
        assert_same_win(board, &found, &want, &start);
    }
}

/// `found` is a whole answer with `want`'s winner and length, and its line is legal from
/// `start` on `board` and ends on the winner's goal.
fn assert_same_win(
    board: Board,
    found: &search::SearchResult,
    want: &search::SearchResult,
    start: &Position,
) {
    assert!(!found.out_of_memory);
    let outcome = |r: &search::SearchResult| r.win.as_ref().map(|w| (w.winner, w.plies));
    assert_eq!(outcome(found), outcome(want), "{board}");
    let win = found.win.as_ref().expect("decided");
    assert_eq!(win.line.len(), win.plies as usize);
    let end = win.line.iter().fold(*start, |pos, &a| {
        assert!(pos.legal_actions(board).contains(&a), "{board}: {a:?}");
        pos.play(a)
    });
    assert_eq!(end.winner(board), Some(win.winner));
}

/// A child made alone before the store filled is given again after the configuration's
/// list of children was made in a full store (that list lacks it): the search checks a
/// wall move with `child` and then plays it with `child`, and both must agree.
#[test]
fn a_child_once_given_is_given_again_in_a_full_store() {
    let board = Board::new(5, 5).unwrap();
    let store = OnDemand::new(board, 4, 400_000);
    let empty = store.id_of(WallSet::EMPTY).unwrap();
    let slot = 3;
    let child = ConfigTables::child(&store, empty, slot);
    assert_ne!(child, NO_CHILD);
    // Fill the store by expanding other configurations (not the empty one).
    let mut queue = vec![child];
    while let Some(id) = queue.pop() {
        if store.exhausted() {
            break;
        }
        queue.extend(
            ConfigTables::children(&store, id)
                .iter()
                .filter(|&&c| c != NO_CHILD),
        );
    }
    assert!(store.exhausted());
    let list = ConfigTables::children(&store, empty);
    assert!(list.iter().all(|&c| c == NO_CHILD), "made in a full store");
    assert_eq!(ConfigTables::child(&store, empty, slot), child);
}

/// Records the messages of a search.
#[derive(Default)]
struct Messages(std::sync::Mutex<Vec<String>>);

impl quoridor_solver::support::progress::Progress for Messages {
    fn begin(&self, _stage: &str, _total: u64) {}
    fn advance(&self, _units: u64) {}
    fn message(&self, text: &str) {
        self.0.lock().unwrap().push(text.to_string());
    }
    fn finish(&self) {}
}

/// A store that fills while the line of a proven win is read is emptied and the line read
/// on from where it stopped: the win is proven once (before, the whole depth was proven
/// again, five times over for 6x5 with 7 walls), and the line is whole and legal. Which
/// budgets make the line, not the iterations, fill the store moves with every change of
/// the search's node counts, so each cell tries a range of budgets: at every one the win
/// is proven once and read whole, and at one at least the line was cut (2026-11-29, the
/// store counting its chunks as they are made: 5x3 with 4 walls at 230,000 and 280,000
/// bytes; 3x5 with 4 at 180,000 to 220,000).
#[test]
fn a_line_cut_by_a_full_store_is_read_on_not_proven_again() {
    for (w, h, walls, budgets) in [(5, 3, 4, 200_000..=300_000), (3, 5, 4, 180_000..=250_000)] {
        let board = Board::new(w, h).unwrap();
        let eager = Tables::build(board, walls, u64::MAX, &Silent).unwrap();
        let start = Position::start(board, walls).unwrap();
        let want = search::solve(&eager, &start, &limits(), &Silent);
        let mut cut = 0;
        for budget in budgets.step_by(10_000) {
            let mut lazy = OnDemand::new(board, walls, budget);
            let told = Messages::default();
            let (found, _) = search::solve_forgetting(&mut lazy, &start, &limits(), &told);
            let messages = told.0.lock().unwrap();
            let count = |what: &str| messages.iter().filter(|m| m.contains(what)).count();
            cut += count("to read on from ply").min(1);
            assert_eq!(
                count("wins within"),
                1,
                "{board} {walls} at {budget}: {messages:?}"
            );
            assert_same_win(board, &found, &want, &start);
        }
        assert!(cut > 0, "{board} {walls}: no budget cut the line");
    }
}

/// Every 7x5 cell can empty its store during a search (from 7 walls each its numbers are
/// the configurations' places, `profile-1`: the ranks of all wall sets pass 39 bits), and
/// its checkpoints say which numbering their keys are in.
#[test]
fn a_7x5_store_can_be_emptied_at_every_wall_count() {
    let board = Board::new(7, 5).unwrap();
    for walls in 0..=10 {
        let store = OnDemand::new(board, walls, 64 << 20);
        assert!(store.can_forget(), "7x5 with {walls} walls");
        let numbering = if walls < 7 { "ranks-1" } else { "profile-1" };
        assert_eq!(
            store.key_numbering(),
            Some(numbering),
            "7x5 with {walls} walls"
        );
    }
}
