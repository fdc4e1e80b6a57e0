//! Retrograde analysis (src/retro) against a naive twin (tests/common/naive_retro.rs, on
//! the reference engine), against proof search and the published table, and on the
//! published draw (8x3 with 3 walls), with every principal line replayed by the rules
//! engine.

mod common;

use common::naive_retro::{NaiveValue, solve_naive};
use common::reference::RefBoard;
use quoridor_solver::Error;
use quoridor_solver::cell::solver::{Method, MethodUsed, Outcome, SolveOptions};
use quoridor_solver::configs::{TableEstimate, Tables};
use quoridor_solver::retro::{self, Precision, RetroResult, RetroStats, Value, Wdl};
use quoridor_solver::rules::geometry::{Board, Player, Square};
use quoridor_solver::rules::notation::format_moves;
use quoridor_solver::rules::position::Position;
use quoridor_solver::rules::walls::{Orientation, Wall, WallSet};
use quoridor_solver::support::progress::Silent;
use std::time::Instant;

const BUDGET: u64 = 8 << 30;

fn tables(w: usize, h: usize, n: u8) -> Tables {
    Tables::build(Board::new(w, h).unwrap(), n, BUDGET, &Silent).unwrap()
}

fn naive_to_value(v: NaiveValue) -> Value {
    match v {
        NaiveValue::Win(r) => Value::Win(r),
        NaiveValue::Loss(r) => Value::Loss(r),
        NaiveValue::Draw => Value::Draw,
    }
}

/// Every position reachable from the start has the naive value, remoteness included.
fn agree_with_naive(w: usize, h: usize, n: u8) -> usize {
    let naive = solve_naive(RefBoard { w, h }, n as u32);
    let t = tables(w, h, n);
    let board = t.board();
    let solved = retro::solve(&t, &retro::Request::exact(BUDGET), &Silent).unwrap();
    let mut draws = 0;
    for (r, &v) in &naive {
        let pos = common::to_position(board, r);
        assert_eq!(
            solved.value(&pos),
            Some(naive_to_value(v)),
            "{w}x{h} n={n} {r:?}"
        );
        draws += usize::from(v == NaiveValue::Draw);
    }
    assert!(naive.len() > 1);
    draws
}

#[test]
fn values_equal_naive_retrograde_2x3_and_3x3() {
    for (w, h, n) in [(2, 3, 1), (2, 3, 2), (3, 3, 1), (3, 3, 2)] {
        agree_with_naive(w, h, n);
    }
}

#[test]
fn values_equal_naive_retrograde_4x3_1_wall() {
    agree_with_naive(4, 3, 1);
}

/// Boards of height 2, where a player can be stuck (a draw), and 3x3 with no walls.
#[test]
fn values_equal_naive_retrograde_small_and_stuck() {
    for (w, h, n) in [
        (2, 2, 1),
        (2, 2, 2),
        (3, 2, 1),
        (3, 2, 2),
        (4, 2, 1),
        (3, 3, 0),
    ] {
        agree_with_naive(w, h, n);
    }
}

fn outcome(r: &RetroResult) -> Outcome {
    match r.winner {
        Some(p) => Outcome::winner(p),
        None => Outcome::Draw,
    }
}

/// Replays a line with the rules engine: every action legal, nobody home before the end.
/// Returns the positions, the start first.
fn replay(board: Board, n: u8, r: &RetroResult) -> Vec<Position> {
    let mut pos = Position::start(board, n).unwrap();
    let mut seen = vec![pos];
    for (i, &a) in r.line.iter().enumerate() {
        assert_eq!(pos.winner(board), None, "game over before ply {}", i + 1);
        assert_eq!(pos.why_illegal(board, a), None, "ply {}", i + 1);
        pos = pos.play(a);
        seen.push(pos);
    }
    seen
}

/// A win's line: exactly `plies` plies, ending with the winner on their goal row.
fn check_win_line(board: Board, n: u8, r: &RetroResult) {
    let plies = r.plies.expect("a win has a length");
    let winner = r.winner.expect("a win");
    assert_eq!(
        r.line.len(),
        plies as usize,
        "{}",
        format_moves(board, Player::One, &r.line)
    );
    assert_eq!(r.cycle_start, None);
    let seen = replay(board, n, r);
    assert_eq!(seen.last().unwrap().winner(board), Some(winner));
    assert_eq!(plies % 2, if winner == Player::One { 1 } else { 0 });
}

#[test]
fn retro_equals_proof_search_and_published_up_to_area_12() {
    let rows: Vec<_> = common::published()
        .into_iter()
        .filter(|(w, h, _, o)| w * h <= 12 && o != "?")
        .collect();
    assert!(rows.len() >= 44);
    let options = SolveOptions {
        method: Method::Search,
        max_depth: 80,
        threads: 2,
        memory_budget: BUDGET,
        tt_bytes: Some(64 << 20),
        ..SolveOptions::default()
    };
    let compact = SolveOptions {
        method: Method::Retro,
        precision: Some(Precision::Compact),
        ..options.clone()
    };
    for (w, h, n, want) in rows {
        let board = Board::new(w, h).unwrap();
        let t = tables(w, h, n);
        let r = retro::solve(&t, &retro::Request::exact(BUDGET), &Silent)
            .unwrap()
            .result();
        let search = quoridor_solver::cell::solver::solve(board, n, &options, &Silent).unwrap();
        let cell = format!("{w}x{h} with {n} walls");
        assert_eq!(outcome(&r).code(), want, "{cell}");
        assert_eq!(
            (outcome(&r), r.plies),
            (search.outcome, search.plies),
            "{cell}"
        );
        check_win_line(board, n, &r);
        // The compact analysis with the oracle-guided search for the length.
        let c = quoridor_solver::cell::solver::solve(board, n, &compact, &Silent).unwrap();
        assert_eq!(
            (c.outcome, c.plies),
            (search.outcome, search.plies),
            "{cell}"
        );
        assert_eq!(c.stats, Some(r.stats), "{cell}");
        assert_eq!(c.line.len(), search.line.len(), "{cell}");
        assert_eq!(c.method, MethodUsed::RetroSearch, "{cell}");
    }
}

/// Every reachable position of small cells, two-row boards among them: a proof search from
/// the position, sharing one table across all of them as the solver does (dominance as the
/// solver decides it), finds exactly the analysis's value: a win at its length and not two
/// plies sooner, or neither side winning for a draw. (Two rows are where a pawn can be
/// stuck and wall-stock dominance is not sound; on these cells, turning it on there anyway
/// still passed, so the guard rests on the argument in `tt.rs`.)
#[test]
fn proof_search_equals_retro_on_every_position() {
    let checked = search_against_retro_on_every_position(false);
    assert!(checked > 1000, "{checked}");
}

/// The same with the compact analysis's outcomes as the search's oracle (how `solve
/// --method retro` finds the length of a cell too large for the exact analysis): every
/// length is still exact.
#[test]
fn oracle_search_equals_retro_on_every_position() {
    let checked = search_against_retro_on_every_position(true);
    assert!(checked > 1000, "{checked}");
}

fn search_against_retro_on_every_position(with_oracle: bool) -> usize {
    use quoridor_solver::cell::solver::RetroOracle;
    use quoridor_solver::search::{Limits, Prover};
    let mut checked = 0;
    for (w, h, n) in [
        (3, 2, 3),
        (4, 2, 3),
        (5, 2, 2),
        (3, 3, 1),
        (2, 4, 1),
        (3, 3, 2),
    ] {
        let board = Board::new(w, h).unwrap();
        let t = tables(w, h, n);
        let solved = retro::solve(&t, &retro::Request::exact(BUDGET), &Silent).unwrap();
        let compact = retro::solve(&t, &retro::Request::outcomes(BUDGET), &Silent).unwrap();
        let oracle = RetroOracle(&compact);
        // One table for every question of the cell, as the search's own iterations share it.
        let prover = Prover::new(
            &t,
            &Limits {
                oracle: if with_oracle { Some(&oracle) } else { None },
                ..Limits::new(40, 16 << 20)
            },
        );
        let wins = |attacker: Player, pos: &Position, depth: u32| {
            prover.wins_within(pos, attacker, depth as u8)
        };
        for r in common::reference::reachable_slow(RefBoard { w, h }, n as u32) {
            let pos = common::to_position(board, &r);
            if pos.winner(board).is_some() {
                continue;
            }
            let cell = format!("{w}x{h} with {n} walls, {pos:?}");
            common::assert_search_gives(solved.value(&pos).unwrap(), &pos, wins, &cell);
            checked += 1;
        }
    }
    checked
}

#[test]
fn win_lines_replay_to_the_goal() {
    for (w, h, n) in [(4, 3, 3), (5, 3, 2), (3, 5, 2), (2, 7, 2), (3, 3, 1)] {
        let board = Board::new(w, h).unwrap();
        let r = retro::solve(&tables(w, h, n), &retro::Request::exact(BUDGET), &Silent)
            .unwrap()
            .result();
        check_win_line(board, n, &r);
    }
}

/// "Solving Quoridor" (docs/SOURCES.md): "8x3 with 3 walls per player is a draw", both players dancing left and
/// right for ever. About 6 s in release on 2 cores (about 70 s in a debug build).
#[test]
fn eight_by_three_with_three_walls_is_a_draw() {
    let (w, h, n) = (8, 3, 3);
    let board = Board::new(w, h).unwrap();
    let t = tables(w, h, n);
    let started = Instant::now();
    let r = retro::solve(&t, &retro::Request::exact(BUDGET), &Silent)
        .unwrap()
        .result();
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!((r.winner, r.plies), (None, None));
    let cycle = r.cycle_start.expect("a draw by repetition has a cycle");
    assert!(cycle < r.line.len());
    let seen = replay(board, n, &r);
    assert_eq!(
        seen.last(),
        seen.get(cycle),
        "the line ends where its cycle starts"
    );
    assert!(seen.iter().all(|p| p.winner(board).is_none()));
    assert!(r.stats.draws > 0);
    eprintln!(
        "8x3 w3: {} positions in {seconds:.1} s, line {} (cycle from {cycle})",
        r.stats.positions,
        format_moves(board, Player::One, &r.line)
    );
}

/// Calls `f` on every position of a cell, straight from the definition (flood fills, no
/// tables' reach masks).
fn for_each_position(t: &Tables, mut f: impl FnMut(&Position)) {
    let board = t.board();
    let n = t.walls_per_player();
    for id in 0..t.len() as u32 {
        let walls = t.walls(id);
        let edges = walls.edges(board);
        let reach = [Player::One, Player::Two].map(|p| edges.reach(board.goal(p)));
        let k = walls.len() as u8;
        for l1 in 0..=n {
            let Some(l2) = (2 * n).checked_sub(k + l1).filter(|&l2| l2 <= n) else {
                continue;
            };
            for p1 in 0..board.squares() as Square {
                for p2 in 0..board.squares() as Square {
                    if p1 == p2 || reach[0] >> p1 & 1 == 0 || reach[1] >> p2 & 1 == 0 {
                        continue;
                    }
                    for to_move in [Player::One, Player::Two] {
                        f(&Position {
                            walls,
                            pawns: [p1, p2],
                            left: [l1, l2],
                            to_move,
                        });
                    }
                }
            }
        }
    }
}

/// Counts the positions of a cell by outcome, each from `value`.
fn count_directly(t: &Tables, solved: &retro::Solved) -> RetroStats {
    let mut stats = RetroStats::default();
    for_each_position(t, |pos| {
        stats.positions += 1;
        match solved.value(pos).expect("a position of the cell") {
            Value::Draw => stats.draws += 1,
            Value::Win(_) if pos.to_move == Player::One => stats.p1_wins += 1,
            Value::Loss(_) if pos.to_move == Player::Two => stats.p1_wins += 1,
            _ => stats.p2_wins += 1,
        }
    });
    stats
}

/// The compact analysis (2 bits a position) gives every position the outcome of the exact
/// one, and the same counts, winner and draw line; it has no remoteness.
#[test]
fn compact_outcomes_equal_exact_values_position_by_position() {
    for (w, h, n) in [
        (3, 3, 2),
        (2, 3, 1),
        (3, 2, 2),
        (2, 2, 1),
        (4, 3, 3),
        (2, 5, 4),
        (3, 5, 2),
        (4, 4, 2),
        (8, 3, 3),
    ] {
        let t = tables(w, h, n);
        let exact = retro::solve(&t, &retro::Request::exact(BUDGET), &Silent).unwrap();
        let compact = retro::solve(&t, &retro::Request::outcomes(BUDGET), &Silent).unwrap();
        assert_eq!(compact.precision(), Precision::Compact);
        assert!(compact.keeps_all_layers());
        let mut checked = 0u64;
        // 8x3 (191 million positions, the draws) by its counts and line only: seconds in CI.
        let every = w * h < 24;
        for_each_position(&t, |pos| {
            if !every {
                return;
            }
            let want = exact.value(pos).map(Wdl::from);
            assert!(want.is_some());
            assert_eq!(compact.outcome(pos), want, "{w}x{h} {n} {pos:?}");
            assert_eq!(exact.outcome(pos), want, "{w}x{h} {n} {pos:?}");
            if pos.winner(t.board()).is_none() {
                assert_eq!(compact.value(pos), None, "no remoteness");
            }
            checked += 1;
        });
        assert!(!every || checked == exact.stats().positions);
        assert_eq!(compact.stats(), exact.stats(), "{w}x{h} {n}");
        let (e, c) = (exact.result(), compact.result());
        assert_eq!(c.winner, e.winner, "{w}x{h} {n}");
        assert_eq!(c.plies, None);
        if e.winner.is_none() {
            assert_eq!((&c.line, c.cycle_start), (&e.line, e.cycle_start));
        } else {
            assert!(c.line.is_empty());
        }
    }
}

/// A compact analysis that streams keeps the layers its budget allows, from layer 0 up,
/// answers there as the whole one does and nowhere else, and counts the same.
#[test]
fn compact_streaming_keeps_what_fits_and_equals_the_whole() {
    for (w, h, n) in [(4, 3, 3), (3, 5, 2), (2, 5, 4), (4, 4, 2)] {
        let t = tables(w, h, n);
        let e = retro::estimate(t.board(), n, &TableEstimate::new(t.board(), n).by_walls);
        let whole = retro::solve(&t, &retro::Request::outcomes(BUDGET), &Silent).unwrap();
        for kept in 2..e.layers {
            let budget = t.bytes() + e.peak(Precision::Compact, kept);
            // Keeping more can cost nothing more (the peak is elsewhere): then it does.
            let kept = e
                .kept_layers(Precision::Compact, budget - t.bytes())
                .unwrap();
            assert!(e.peak(Precision::Compact, kept) <= budget - t.bytes());
            if kept == e.layers {
                continue;
            }
            let part = retro::solve(&t, &retro::Request::outcomes(budget), &Silent).unwrap();
            assert_eq!(
                part.bytes(),
                e.peak(Precision::Compact, kept),
                "{w}x{h} {n}"
            );
            assert!(part.bytes() < e.peak(Precision::Compact, e.layers));
            assert_eq!(part.stats(), whole.stats());
            for_each_position(&t, |pos| {
                let want = if pos.winner(t.board()).is_some() || (pos.walls.len() as usize) < kept {
                    whole.outcome(pos)
                } else {
                    None
                };
                assert_eq!(part.outcome(pos), want, "{w}x{h} {n} kept {kept} {pos:?}");
            });
        }
        assert_eq!(whole.bytes(), e.peak(Precision::Compact, e.layers));
        let too_small = t.bytes() + e.peak(Precision::Compact, 2) - 1;
        let err = retro::solve(&t, &retro::Request::outcomes(too_small), &Silent)
            .err()
            .unwrap();
        assert!(matches!(err, Error::Memory { .. }), "{err}");
    }
}

#[test]
fn stats_add_up_and_equal_a_direct_count() {
    for (w, h, n) in [(3, 3, 2), (2, 3, 1), (3, 2, 2), (4, 3, 3), (2, 5, 4)] {
        let t = tables(w, h, n);
        let solved = retro::solve(&t, &retro::Request::exact(BUDGET), &Silent).unwrap();
        let s = solved.stats();
        assert_eq!(s.p1_wins + s.p2_wins + s.draws, s.positions, "{w}x{h} {n}");
        assert_eq!(count_directly(&t, &solved), s, "{w}x{h} {n}");
        let by_walls = TableEstimate::new(t.board(), n).by_walls;
        let e = retro::estimate(t.board(), n, &by_walls);
        assert!(e.positions >= s.positions as u128);
        assert_eq!(e.layers, t.layers());
        assert!(solved.keeps_all_layers());
        assert_eq!(e.all_layers_bytes, solved.bytes());
    }
}

#[test]
fn positions_outside_the_cell_have_no_value() {
    let t = tables(3, 3, 1);
    let board = t.board();
    let solved = retro::solve(&t, &retro::Request::exact(BUDGET), &Silent).unwrap();
    let start = Position::start(board, 1).unwrap();
    assert!(solved.value(&start).is_some());
    let same_cell = Position {
        pawns: [4, 4],
        ..start
    };
    assert_eq!(solved.value(&same_cell), None);
    let too_many_left = Position {
        left: [2, 0],
        ..start
    };
    assert_eq!(solved.value(&too_many_left), None);
    // b1h's neighbour a1h and the vertical wall b1v shut a1 and b1 in: the walls form a
    // configuration, but Player 1 on b1 is cut off, so that is not a position; on c1 it is.
    let wall = |anchor, orientation| Wall {
        anchor,
        orientation,
    };
    let shut = WallSet::EMPTY
        .with(wall(board.square(0, 0), Orientation::Horizontal))
        .with(wall(board.square(1, 0), Orientation::Vertical));
    assert!(t.id_of(shut).is_some());
    let cut = Position {
        walls: shut,
        left: [0, 0],
        ..start
    };
    assert_eq!(solved.value(&cut), None);
    let free = Position {
        pawns: [board.square(2, 0), start.pawns[1]],
        ..cut
    };
    assert!(solved.value(&free).is_some());
    let h = |anchor| wall(anchor, Orientation::Horizontal);
    let off_board = Position {
        walls: WallSet::EMPTY.with(h(board.square(2, 0))),
        left: [0, 1],
        ..start
    };
    assert_eq!(solved.value(&off_board), None);
}

#[test]
fn a_budget_too_small_is_refused_before_allocating() {
    let t = tables(4, 3, 2);
    let err = retro::solve(&t, &retro::Request::exact(t.bytes() + 1000), &Silent)
        .map(|s| s.result())
        .unwrap_err();
    assert!(matches!(err, Error::Memory { .. }), "{err}");
}

#[test]
fn results_do_not_depend_on_threads() {
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let t = tables(4, 3, 3);
            let compact = retro::solve(&t, &retro::Request::outcomes(BUDGET), &Silent).unwrap();
            let mut outcomes = Vec::new();
            for_each_position(&t, |pos| outcomes.push(compact.outcome(pos)));
            (
                retro::solve(&t, &retro::Request::exact(BUDGET), &Silent)
                    .unwrap()
                    .result(),
                outcomes,
            )
        })
    };
    assert_eq!(run(1), run(2));
}

/// Solves a cell twice, keeping every layer and streaming (a budget just big enough for two
/// layers), and returns both results with the streaming analysis's value store bytes.
fn both_modes(w: usize, h: usize, n: u8) -> (RetroResult, RetroResult) {
    let t = tables(w, h, n);
    let e = retro::estimate(t.board(), n, &TableEstimate::new(t.board(), n).by_walls);
    let all = retro::solve(&t, &retro::Request::exact(BUDGET), &Silent).unwrap();
    assert!(all.keeps_all_layers());
    let streaming = retro::solve(&t, &retro::Request::exact(t.bytes() + e.bytes), &Silent).unwrap();
    assert!(
        e.bytes < e.all_layers_bytes,
        "{w}x{h} {n}: two layers are all layers"
    );
    assert!(!streaming.keeps_all_layers());
    assert_eq!(streaming.bytes(), e.bytes, "{w}x{h} {n}");
    assert_eq!(all.bytes(), e.all_layers_bytes, "{w}x{h} {n}");
    // Layers 0 and 1 keep their values; deeper ones are gone.
    let board = t.board();
    for id in 0..t.len() as u32 {
        let walls = t.walls(id);
        let k = walls.len() as u8;
        for l1 in 0..=n {
            let Some(l2) = (2 * n).checked_sub(k + l1).filter(|&l2| l2 <= n) else {
                continue;
            };
            for (p1, p2) in [
                (0, board.squares() as Square - 1),
                (1, board.squares() as Square - 2),
            ] {
                for to_move in [Player::One, Player::Two] {
                    let pos = Position {
                        walls,
                        pawns: [p1, p2],
                        left: [l1, l2],
                        to_move,
                    };
                    let want = if k <= 1 { all.value(&pos) } else { None };
                    assert_eq!(streaming.value(&pos), want, "{w}x{h} {n} {pos:?}");
                }
            }
        }
    }
    (all.result(), streaming.result())
}

/// Streaming (two layers) gives the winner, the length and the counts of keeping every
/// layer; a line it gives is the same line, and a draw dancing in layer 0 keeps its cycle.
#[test]
fn streaming_equals_keeping_every_layer() {
    for (w, h, n) in [
        (3, 3, 2),
        (4, 3, 3),
        (3, 5, 2),
        (2, 5, 4),
        (4, 4, 2),
        (8, 3, 3),
    ] {
        let board = Board::new(w, h).unwrap();
        let (all, streaming) = both_modes(w, h, n);
        assert_eq!(
            (streaming.winner, streaming.plies, streaming.stats),
            (all.winner, all.plies, all.stats),
            "{w}x{h} {n}"
        );
        if !streaming.line.is_empty() {
            assert_eq!(
                (&streaming.line, streaming.cycle_start),
                (&all.line, all.cycle_start)
            );
        }
        if all.winner.is_none() {
            assert!(!streaming.line.is_empty(), "{w}x{h} {n}: the draw's cycle");
            replay(board, n, &streaming);
        } else {
            check_win_line(board, n, &all);
        }
    }
}

/// The targets fit 8 GiB when streaming, tables included (sized, not solved).
#[test]
fn the_largest_targets_fit_eight_gib_streaming() {
    for (w, h, n, positions) in [(5, 5, 10, 27_763_881_600u128), (3, 9, 10, 37_812_992_724)] {
        let board = Board::new(w, h).unwrap();
        let t = TableEstimate::new(board, n);
        let e = retro::estimate(board, n, &t.by_walls);
        assert_eq!(e.positions, positions, "{w}x{h}");
        assert_eq!(e.layers, 17);
        assert!(
            e.bytes + t.bytes < 6 << 30,
            "{w}x{h}: {} + {}",
            e.bytes,
            t.bytes
        );
        assert!(e.bytes < e.all_layers_bytes / 2);
    }
}

/// The value of a published cell in `results/table.csv` (the committed run): outcome code
/// (`1`, `2`, `D`) and plies.
fn committed(w: usize, h: usize, n: u8) -> (String, Option<u32>) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/results/table.csv");
    let text = std::fs::read_to_string(path).expect("results/table.csv is committed");
    let cell = format!("{w},{h},{n},");
    let row = text
        .lines()
        .find(|l| l.starts_with(&cell))
        .unwrap_or_else(|| panic!("{cell} is in results/table.csv"));
    let fields: Vec<&str> = row.split(',').collect();
    (fields[3].to_string(), fields[4].parse().ok())
}

/// Solves a cell, keeping every layer or streaming, prints the figures of the report, and
/// checks the value against the committed table (`committed`): a measurement of a wrong
/// answer is no measurement.
fn measure(w: usize, h: usize, n: u8, stream: bool) {
    let board = Board::new(w, h).unwrap();
    let by_walls = TableEstimate::new(board, n).by_walls;
    let e = retro::estimate(board, n, &by_walls);
    eprintln!(
        "{board} w{n}: estimate {} positions, {} layers, {:.2} GiB streaming, {:.2} GiB all layers",
        e.positions,
        e.layers,
        e.bytes as f64 / (1u64 << 30) as f64,
        e.all_layers_bytes as f64 / (1u64 << 30) as f64
    );
    quoridor_solver::support::memory::reset_peak();
    let started = Instant::now();
    let t = tables(w, h, n);
    let built = started.elapsed().as_secs_f64();
    let budget = if stream { t.bytes() + e.bytes } else { BUDGET };
    let solved = retro::solve(&t, &retro::Request::exact(budget), &Silent).unwrap();
    let seconds = started.elapsed().as_secs_f64() - built;
    let r = solved.result();
    eprintln!(
        "{board} w{n}: {:?} plies {:?}, longest {}, {} positions ({} P1, {} P2, {} draws), \
         tables {built:.1} s, retro {seconds:.1} s, {:.1} M positions/s, {}, store {:.2} GiB, \
         peak {:.2} GiB",
        outcome(&r),
        r.plies,
        solved.longest(),
        r.stats.positions,
        r.stats.p1_wins,
        r.stats.p2_wins,
        r.stats.draws,
        r.stats.positions as f64 / seconds / 1e6,
        if solved.keeps_all_layers() {
            "all layers"
        } else {
            "streaming"
        },
        solved.bytes() as f64 / (1u64 << 30) as f64,
        quoridor_solver::support::memory::peak_bytes() as f64 / (1u64 << 30) as f64
    );
    let code = match outcome(&r) {
        Outcome::Player1 => "1",
        Outcome::Player2 => "2",
        _ => "D",
    };
    assert_eq!(
        (code.to_string(), r.plies),
        committed(w, h, n),
        "{board} w{n}"
    );
}

/// Figures for the report, each cell's value checked: `scripts/ignored_tests.sh` (or
/// `cargo test --release --test retro -- --ignored --nocapture`).
#[test]
#[ignore = "minutes: each value checked against the table, with its rate and peak memory"]
fn mid_cells_match_the_table_with_their_rates() {
    for (w, h, n) in [
        (8, 3, 3),
        (5, 5, 2),
        (4, 5, 3),
        (5, 5, 3),
        (3, 7, 3),
        (5, 5, 4),
    ] {
        measure(w, h, n, false);
    }
    measure(5, 5, 4, true);
}

/// 5x5 with 10 walls, streaming: the target set for it is under 20 minutes and 8 GiB.
#[test]
#[ignore = "minutes: the value checked against the table, with its rate and peak memory"]
fn five_by_five_with_10_walls_matches_the_table_with_its_rate() {
    measure(5, 5, 10, true);
}

/// 3x9 with 10 walls, streaming: the target set for it is under 20 minutes and 8 GiB.
#[test]
#[ignore = "minutes: the value checked against the table, with its rate and peak memory"]
fn three_by_nine_with_10_walls_matches_the_table_with_its_rate() {
    measure(3, 9, 10, true);
}

/// The proof search's line is best play for both sides, by the analysis's values: before
/// each of its plies the player to move wins in exactly the plies left if they are the
/// winner, and loses in exactly that many if not (the loser's hold-outs, read from the
/// table where it knows them and searched where it does not, keep every ply the win needs).
#[test]
fn the_searched_line_is_best_play_by_the_analysis() {
    for (w, h, n) in [(3, 5, 4), (4, 4, 3), (5, 3, 4), (3, 6, 2), (4, 5, 2)] {
        let board = Board::new(w, h).unwrap();
        let t = tables(w, h, n);
        let solved = retro::solve(&t, &retro::Request::exact(BUDGET), &Silent).unwrap();
        for threads in [1, 2] {
            let options = SolveOptions {
                method: Method::Search,
                max_depth: 80,
                threads,
                memory_budget: BUDGET,
                tt_bytes: Some(64 << 20),
                ..SolveOptions::default()
            };
            let search = quoridor_solver::cell::solver::solve(board, n, &options, &Silent).unwrap();
            let cell = format!("{w}x{h} with {n} walls, {threads} threads");
            let winner = match search.outcome {
                Outcome::Player1 => Player::One,
                Outcome::Player2 => Player::Two,
                other => panic!("{cell}: not a win: {other:?}"),
            };
            let plies = search.plies.expect("a win has a length");
            assert_eq!(search.line.len(), plies as usize, "{cell}");
            let mut pos = Position::start(board, n).unwrap();
            for (i, &action) in search.line.iter().enumerate() {
                let left = plies - i as u32;
                let want = match pos.to_move == winner {
                    true => Value::Win(left),
                    false => Value::Loss(left),
                };
                assert_eq!(
                    solved.value(&pos),
                    Some(want),
                    "{cell}, before ply {}",
                    i + 1
                );
                pos = pos.play(action);
            }
            assert_eq!(pos.winner(board), Some(winner), "{cell}");
        }
    }
}
