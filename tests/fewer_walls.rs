//! A wall in hand never hurts (boards of three rows or more): the exact values of a cell
//! bound those of the same board with more walls, position by position; and the proof
//! search pruned by the outcomes of the board with fewer walls (`cell::oracle::FewerWalls`)
//! finds every exact value of the retrograde analysis.

mod common;

use common::reference::{RefBoard, reachable_slow};
use quoridor_solver::cell::oracle::FewerWalls;
use quoridor_solver::configs::Tables;
use quoridor_solver::retro::{self, Solved, Value};
use quoridor_solver::rules::geometry::{Board, Player};
use quoridor_solver::rules::position::Position;
use quoridor_solver::rules::walls::WallSet;
use quoridor_solver::search::{Limits, Node, Oracle, Prover};
use quoridor_solver::support::progress::Silent;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

const BUDGET: u64 = 8 << 30;

fn tables(w: usize, h: usize, n: u8) -> Tables {
    Tables::build(Board::new(w, h).unwrap(), n, BUDGET, &Silent).unwrap()
}

/// How good `value` (of the side to move, `to_move`) is for `player`: higher is better,
/// a shorter win better than a longer one, a longer loss better than a shorter one.
fn standing(value: Value, to_move: Player, player: Player) -> i64 {
    let for_mover = match value {
        Value::Win(k) => 1000 - i64::from(k),
        Value::Loss(k) => -1000 + i64::from(k),
        Value::Draw => 0,
    };
    if to_move == player {
        for_mover
    } else {
        -for_mover
    }
}

/// The positions reachable from the start of the cell, the finished ones left out.
fn positions(w: usize, h: usize, n: u8) -> Vec<Position> {
    let board = Board::new(w, h).unwrap();
    reachable_slow(RefBoard { w, h }, u32::from(n))
        .iter()
        .map(|r| common::to_position(board, r))
        .filter(|pos| pos.winner(board).is_none())
        .collect()
}

/// `pos` with the walls in hand of the other player than `player` cut by two: a position
/// of the cell with one wall fewer per player, if `player` holds no more than that many.
fn cut_for(pos: &Position, player: Player, fewer: u8) -> Option<Position> {
    let mut cut = *pos;
    let other = player.other().index();
    cut.left[other] = cut.left[other].checked_sub(2)?;
    (cut.left[player.index()] <= fewer).then_some(cut)
}

/// `pos` with `player`'s own walls in hand cut by two: a position of the cell with one
/// wall fewer per player, if the other player holds no more than that many.
fn cut_own(pos: &Position, player: Player, fewer: u8) -> Option<Position> {
    cut_for(pos, player.other(), fewer)
}

/// The theorem `FewerWalls` rests on, checked exhaustively by two exact analyses: no
/// player stands better in a position of the cell with `n` walls than in the same
/// position with the other player's walls in hand cut by two (a position of the cell with
/// `n - 1`), nor worse than with their own walls cut by two (the other side of the bound,
/// `Oracle::most_plies`).
#[test]
fn a_wall_in_hand_never_hurts() {
    let (mut compared, mut better) = (0, 0);
    let (mut compared_own, mut worse) = (0, 0);
    for (w, h, n) in [
        (3, 3, 2),
        (4, 3, 3),
        (3, 4, 2),
        (2, 5, 2),
        (5, 3, 2),
        (3, 5, 2),
    ] {
        let (more_t, fewer_t) = (tables(w, h, n), tables(w, h, n - 1));
        let more = retro::solve(&more_t, &retro::Request::exact(BUDGET), &Silent).unwrap();
        let fewer = retro::solve(&fewer_t, &retro::Request::exact(BUDGET), &Silent).unwrap();
        for pos in positions(w, h, n) {
            for player in [Player::One, Player::Two] {
                let Some(cut) = cut_for(&pos, player, n - 1) else {
                    continue;
                };
                let here = standing(more.value(&pos).unwrap(), pos.to_move, player);
                let there = standing(fewer.value(&cut).unwrap(), cut.to_move, player);
                assert!(
                    here <= there,
                    "{w}x{h} with {n} walls, {pos:?}: {player:?} stands {here} there, {there} \
                     with the other's walls cut"
                );
                compared += 1;
                better += usize::from(here < there);
            }
            for player in [Player::One, Player::Two] {
                let Some(cut) = cut_own(&pos, player, n - 1) else {
                    continue;
                };
                let here = standing(more.value(&pos).unwrap(), pos.to_move, player);
                let there = standing(fewer.value(&cut).unwrap(), cut.to_move, player);
                assert!(
                    here >= there,
                    "{w}x{h} with {n} walls, {pos:?}: {player:?} stands {here} there, {there} \
                     with their own walls cut"
                );
                compared_own += 1;
                worse += usize::from(here > there);
            }
        }
    }
    // The comparison is not between equal values only: walls in hand matter somewhere.
    assert!(compared > 10_000 && better > 100, "{compared} {better}");
    assert!(
        compared_own > 10_000 && worse > 100,
        "{compared_own} {worse}"
    );
}

/// `FewerWalls`, counting the nodes it answers.
struct Counted<'s, 't> {
    oracle: FewerWalls<'s, 't>,
    answered: AtomicU64,
    /// Nodes `most_plies` answered (exact analyses only).
    proved: AtomicU64,
}

impl Oracle for Counted<'_, '_> {
    fn fewest_plies(
        &self,
        node: &Node,
        walls: &dyn Fn() -> WallSet,
        memo: Option<&AtomicU32>,
        player: Player,
    ) -> Option<u32> {
        counted(
            self.oracle.fewest_plies(node, walls, memo, player),
            &self.answered,
        )
    }

    fn most_plies(
        &self,
        node: &Node,
        walls: &dyn Fn() -> WallSet,
        memo: Option<&AtomicU32>,
        player: Player,
    ) -> Option<u32> {
        counted(
            self.oracle.most_plies(node, walls, memo, player),
            &self.proved,
        )
    }

    fn proves(&self) -> bool {
        self.oracle.proves()
    }
}

/// `answer`, counted in `counter` when it says something.
fn counted(answer: Option<u32>, counter: &AtomicU64) -> Option<u32> {
    if answer.is_some() {
        counter.fetch_add(1, Ordering::Relaxed);
    }
    answer
}

/// The proof search pruned by the analysis of the board with one wall fewer per player,
/// of outcomes only or exact (then bounding the lengths too), finds the exact value of
/// every position reachable in the cell (what it takes from there is sound), and the
/// oracle does answer.
#[test]
fn the_search_pruned_by_fewer_walls_equals_the_analysis() {
    for exact_fewer in [false, true] {
        let (mut answered, mut proved) = (0, 0);
        for (w, h, n) in [(3, 3, 2), (4, 3, 2), (3, 4, 2), (2, 5, 2)] {
            let t = tables(w, h, n);
            let exact = retro::solve(&t, &retro::Request::exact(BUDGET), &Silent).unwrap();
            let fewer_t = tables(w, h, n - 1);
            let request = if exact_fewer {
                retro::Request::exact(BUDGET)
            } else {
                retro::Request::outcomes(BUDGET)
            };
            let fewer: Solved = retro::solve(&fewer_t, &request, &Silent).unwrap();
            let oracle = Counted {
                oracle: FewerWalls::new(&fewer, u32::from(n)).unwrap(),
                answered: AtomicU64::new(0),
                proved: AtomicU64::new(0),
            };
            let prover = Prover::new(
                &t,
                &Limits {
                    oracle: Some(&oracle),
                    ..Limits::new(40, 16 << 20)
                },
            );
            let wins = |attacker: Player, pos: &Position, k: u32| {
                prover.wins_within(pos, attacker, k as u8)
            };
            for pos in positions(w, h, n) {
                let cell = format!("{w}x{h} with {n} walls, {pos:?}, exact: {exact_fewer}");
                common::assert_search_gives(exact.value(&pos).unwrap(), &pos, wins, &cell);
            }
            answered += oracle.answered.load(Ordering::Relaxed);
            proved += oracle.proved.load(Ordering::Relaxed);
        }
        assert!(answered > 1000, "{answered}");
        // The other side of the bound answers where the analysis has lengths, only there.
        assert_eq!(proved > 1000, exact_fewer, "{proved}");
    }
}

/// Not on a board of two rows (a player who cannot act draws there), nor from a cell
/// with as many walls.
#[test]
fn fewer_walls_refuses_two_rows_and_no_fewer_walls() {
    let two_rows = tables(4, 2, 1);
    let solved = retro::solve(&two_rows, &retro::Request::outcomes(BUDGET), &Silent).unwrap();
    assert!(FewerWalls::new(&solved, 2).is_none());
    let three_rows = tables(3, 3, 1);
    let solved = retro::solve(&three_rows, &retro::Request::outcomes(BUDGET), &Silent).unwrap();
    assert!(FewerWalls::new(&solved, 1).is_none());
    assert!(FewerWalls::new(&solved, 2).is_some());
}

/// `solve --fewer-walls`: the answer of the search alone, found with fewer nodes, and the
/// result says what pruned it; refused where it cannot hold or is not used.
#[test]
fn solve_with_fewer_walls_answers_as_the_search_alone() {
    use quoridor_solver::Error;
    use quoridor_solver::cell::solver::{self, Method, PrunedBy, SolveOptions};
    let board = Board::new(4, 5).unwrap();
    let options = SolveOptions {
        method: Method::Search,
        threads: 1,
        memory_budget: 2 << 30,
        ..SolveOptions::default()
    };
    let alone = solver::solve(board, 5, &options, &Silent).unwrap();
    let pruned = SolveOptions {
        fewer_walls: Some(4),
        ..options.clone()
    };
    let bounded = solver::solve(board, 5, &pruned, &Silent).unwrap();
    assert_eq!(
        (bounded.outcome, bounded.plies),
        (alone.outcome, alone.plies)
    );
    assert_eq!(bounded.plies, Some(23));
    assert!(
        bounded.nodes * 3 < alone.nodes,
        "{} {}",
        bounded.nodes,
        alone.nodes
    );
    assert_eq!(
        bounded.pruned_by,
        Some(PrunedBy {
            walls: 4,
            exact: true,
            first_layers: None,
        })
    );
    assert_eq!(alone.pruned_by, None);
    // Through a directory: outcomes only, and a second run reads them back.
    let dir = std::env::temp_dir().join(format!("qs-fewer-walls-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let through = SolveOptions {
        save: quoridor_solver::cell::solve::save_target(None, Some(&dir), false),
        ..pruned.clone()
    };
    for _ in 0..2 {
        let r = solver::solve(board, 5, &through, &Silent).unwrap();
        assert_eq!((r.outcome, r.plies), (alone.outcome, alone.plies));
        assert_eq!(
            r.pruned_by,
            Some(PrunedBy {
                walls: 4,
                exact: false,
                first_layers: None,
            })
        );
        assert!(r.nodes < alone.nodes);
    }
    assert!(dir.join("header.json").exists());
    std::fs::remove_dir_all(&dir).unwrap();
    // Exact through the directory when asked: both sides of the bound, read back too.
    let exact_through = SolveOptions {
        precision: Some(quoridor_solver::retro::Precision::Exact),
        ..through.clone()
    };
    for _ in 0..2 {
        let r = solver::solve(board, 5, &exact_through, &Silent).unwrap();
        assert_eq!((r.outcome, r.plies), (alone.outcome, alone.plies));
        assert_eq!(
            r.pruned_by,
            Some(PrunedBy {
                walls: 4,
                exact: true,
                first_layers: None,
            })
        );
        assert_eq!(r.nodes, bounded.nodes);
    }
    std::fs::remove_dir_all(&dir).unwrap();
    let refused = |board: Board, walls: u8, options: &SolveOptions| {
        solver::solve(board, walls, options, &Silent).unwrap_err()
    };
    // The exact analysis has no search to bound; the choice of the method neither.
    let exact = SolveOptions {
        method: Method::Retro,
        precision: Some(quoridor_solver::retro::Precision::Exact),
        ..pruned.clone()
    };
    assert!(matches!(refused(board, 5, &exact), Error::Argument(_)));
    let auto = SolveOptions {
        method: Method::Auto,
        ..pruned.clone()
    };
    assert!(matches!(refused(board, 5, &auto), Error::Unrun(_)));
    assert!(matches!(refused(board, 4, &pruned), Error::Limit { .. }));
    assert!(matches!(
        refused(Board::new(4, 2).unwrap(), 5, &pruned),
        Error::Argument(_)
    ));
}

/// The bound read back exact from a directory keeps its layers beside the ranked numbering
/// where full tables would leave room for fewer of them: every exact layer of 5x5 with 4
/// walls takes about 489 MiB, which fits 700 MiB (half of `--memory 1400M`) beside the
/// numbering (84 KiB) and not beside the tables (291 MiB).
#[test]
fn the_bound_read_back_exactly_takes_the_numbering_where_the_tables_crowd_its_layers() {
    use quoridor_solver::cell::fewer::{Configs, configs};
    use quoridor_solver::cell::solver::SolveOptions;
    use quoridor_solver::retro::{Precision, saved_dir::Target};
    let board = Board::new(5, 5).unwrap();
    let budget = 700 << 20;
    let at = |save: Option<Target>, precision| SolveOptions {
        save,
        precision,
        ..SolveOptions::default()
    };
    let dir = std::env::temp_dir().join(format!("qs-crowded-{}", std::process::id()));
    let through = at(Some(Target::scratch(dir.clone())), Some(Precision::Exact));
    let made = configs((board, 5, None), 4, (&through, budget), &Silent).unwrap();
    assert!(matches!(made, Configs::Ranked(_)));
    // In memory the tables stay (faster; `fewer::analyse` keeps what fits beside them), as
    // through a directory for outcomes only.
    for options in [
        at(None, Some(Precision::Exact)),
        at(Some(Target::scratch(dir)), None),
    ] {
        let made = configs((board, 5, None), 4, (&options, budget), &Silent).unwrap();
        assert!(matches!(made, Configs::Tables(_)));
    }
    // Given the cell's own tables, in memory their first layers are the configurations
    // (nothing built); through a directory they are not taken.
    let small = Board::new(3, 4).unwrap();
    let own = quoridor_solver::configs::Tables::build(small, 3, u64::MAX, &Silent).unwrap();
    let made = configs(
        (small, 3, Some(&own)),
        2,
        (&at(None, None), budget),
        &Silent,
    )
    .unwrap();
    assert!(matches!(made, Configs::Prefix(_)));
    let dir = std::env::temp_dir().join(format!("qs-prefix-{}", std::process::id()));
    let options = at(Some(Target::scratch(dir)), None);
    let made = configs((small, 3, Some(&own)), 2, (&options, budget), &Silent).unwrap();
    assert!(matches!(made, Configs::Tables(_)));
}

/// The search for the length after a compact analysis (`solve --method retro --precision
/// compact --fewer-walls M`) asks the cell's outcomes and the exact analysis of fewer walls
/// together (`oracle::Both`): the length of the exact analysis, with fewer nodes than the
/// outcomes alone; in memory over full tables, and over the ranked numbering through two
/// directories, where a second run reads both analyses back.
#[test]
fn the_length_after_a_compact_analysis_pruned_by_fewer_walls_is_the_exact_one() {
    use quoridor_solver::cell::solve::save_target;
    use quoridor_solver::cell::solver::{self, Method, PrunedBy, SolveOptions};
    use quoridor_solver::retro::Precision;
    let options = SolveOptions {
        method: Method::Retro,
        threads: 1,
        memory_budget: 2 << 30,
        ..SolveOptions::default()
    };
    // The outcomes alone (`--no-bound`): what the bound is measured against.
    let compact = SolveOptions {
        precision: Some(Precision::Compact),
        default_bound: false,
        ..options.clone()
    };
    let exact = SolveOptions {
        precision: Some(Precision::Exact),
        ..options.clone()
    };
    let bounded = |fewer: u8| SolveOptions {
        fewer_walls: Some(fewer),
        ..compact.clone()
    };
    let by_default = SolveOptions {
        default_bound: true,
        ..compact.clone()
    };
    for (w, h, walls) in [(4, 5, 5), (3, 5, 4), (4, 4, 4), (5, 3, 4)] {
        let board = Board::new(w, h).unwrap();
        let truth = solver::solve(board, walls, &exact, &Silent).unwrap();
        let alone = solver::solve(board, walls, &compact, &Silent).unwrap();
        assert_eq!((alone.outcome, alone.plies), (truth.outcome, truth.plies));
        assert_eq!(alone.pruned_by, None);
        let mut nodes = Vec::new();
        for fewer in [walls - 1, walls - 2] {
            let r = solver::solve(board, walls, &bounded(fewer), &Silent).unwrap();
            let cell = format!("{board} w{walls} by {fewer}");
            assert_eq!((r.outcome, r.plies), (truth.outcome, truth.plies), "{cell}");
            assert!(r.nodes < alone.nodes, "{cell}: {} {}", r.nodes, alone.nodes);
            let by = PrunedBy {
                walls: fewer,
                exact: true,
                first_layers: None,
            };
            assert_eq!(r.pruned_by, Some(by), "{cell}");
            nodes.push(r.nodes);
        }
        // Unasked, the bound is one wall fewer where it fits: the same search.
        let r = solver::solve(board, walls, &by_default, &Silent).unwrap();
        let by = r.pruned_by.map(|by| (by.walls, by.exact, by.first_layers));
        assert_eq!(by, Some((walls - 1, true, None)), "{board} w{walls}");
        assert_eq!(
            (r.plies, r.nodes),
            (truth.plies, nodes[0]),
            "{board} w{walls}"
        );
    }
    // Where the bound does not fit beside the cell's layers, none is run unasked.
    let board = Board::new(4, 5).unwrap();
    let small = SolveOptions {
        memory_budget: 32 << 20,
        ..by_default.clone()
    };
    let r = solver::solve(board, 5, &small, &Silent).unwrap();
    assert_eq!((r.plies, r.pruned_by), (Some(23), None));
    // A little more and it runs over the cell's own tables, keeping its first layers: the
    // same length, with fewer nodes than the outcomes alone.
    let alone = solver::solve(board, 5, &compact, &Silent).unwrap();
    let some = SolveOptions {
        memory_budget: 40 << 20,
        ..by_default.clone()
    };
    let r = solver::solve(board, 5, &some, &Silent).unwrap();
    let by = r.pruned_by.map(|by| (by.walls, by.exact, by.first_layers));
    assert_eq!(by, Some((4, true, Some([5, 9]))));
    assert_eq!(r.plies, Some(23));
    assert!(r.nodes < alone.nodes, "{} {}", r.nodes, alone.nodes);
    // Over the ranked numbering (a budget the tables do not fit beside two layers), both
    // analyses through directories of their own, the bound keeping the layers that fit.
    let board = Board::new(5, 5).unwrap();
    let truth = solver::solve(board, 3, &exact, &Silent).unwrap();
    let base = std::env::temp_dir().join(format!("qs-length-bound-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let through = SolveOptions {
        memory_budget: 128 << 20,
        save: save_target(None, Some(&base.join("cell")), false),
        fewer_scratch: save_target(None, Some(&base.join("bound")), false),
        ..bounded(2)
    };
    let mut runs = Vec::new();
    for _ in 0..2 {
        let r = solver::solve(board, 3, &through, &Silent).unwrap();
        assert_eq!((r.outcome, r.plies), (truth.outcome, truth.plies));
        assert!(r.pruned_by.is_some_and(|by| by.walls == 2 && by.exact));
        runs.push((r.nodes, r.pruned_by));
    }
    assert_eq!(
        runs[0], runs[1],
        "the second run reads the same analyses back"
    );
    assert!(base.join("bound/header.json").exists());
    assert!(base.join("cell/header.json").exists());
    std::fs::remove_dir_all(&base).unwrap();
}

/// `oracle::Both` lets the cell's outcomes and the bound of fewer walls share a
/// configuration's memo: a configuration of at most `2 M` walls has the same id in the
/// numbering of `M` walls per player as in that of more, full tables or ranked.
#[test]
fn a_configuration_has_one_id_with_fewer_walls_and_with_more() {
    use quoridor_solver::configs::Ranked;
    for (w, h, fewer, more) in [(3, 3, 1, 3), (4, 4, 2, 3), (3, 5, 2, 4), (5, 3, 1, 2)] {
        let board = Board::new(w, h).unwrap();
        let small = tables(w, h, fewer);
        let (ranked_small, ranked_large) =
            (Ranked::build(board, fewer), Ranked::build(board, more));
        let large = tables(w, h, more);
        assert!(large.len() > small.len());
        for id in 0..small.len() as u32 {
            let walls = small.walls(id);
            assert_eq!(large.id_of(walls), Some(id), "{board} {id}");
            assert_eq!(ranked_small.id_of(walls), Some(id), "{board} {id}");
            assert_eq!(ranked_large.id_of(walls), Some(id), "{board} {id}");
        }
    }
}

/// `solve --fewer-walls M --scratch DIR --bound-layers-only`: the bound's analysis keeps on
/// disk only the layers the search reads back, each layer above them deleted once the layer
/// below it is written, and bounds the search as the whole directory does (3x7 with 5
/// walls by 4 at 56 MiB, whose bound keeps 7 of its 9 layers). A second run reads it back,
/// and so does a third that finds the files of a layer marked gone (a run killed between
/// the mark and the deletion); `verify` refuses it as no table.
#[test]
fn the_bound_keeps_only_the_layers_it_reads_back_when_asked() {
    use quoridor_solver::cell::solver::{self, Method, SolveOptions};
    use quoridor_solver::cell::verify::verify;
    use quoridor_solver::retro::{Precision, saved_dir::Target};
    let base = std::env::temp_dir().join(format!("qs-bound-only-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let board = Board::new(3, 7).unwrap();
    let at = |name: &str, bound_only: bool| SolveOptions {
        method: Method::Search,
        threads: 1,
        memory_budget: 56 << 20,
        precision: Some(Precision::Exact),
        fewer_walls: Some(4),
        save: Some(Target {
            bound_only,
            ..Target::scratch(base.join(name))
        }),
        ..SolveOptions::default()
    };
    let files = |name: &str| std::fs::read_dir(base.join(name)).unwrap().count();
    let whole = solver::solve(board, 5, &at("whole", false), &Silent).unwrap();
    use quoridor_solver::cell::outcome::Outcome;
    assert_eq!((whole.outcome, whole.plies), (Outcome::Player1, Some(27)));
    let mut runs = Vec::new();
    let mut run = || {
        let r = solver::solve(board, 5, &at("kept", true), &Silent).unwrap();
        runs.push((r.outcome, r.plies, r.nodes));
    };
    run();
    run();
    assert!(base.join("whole/header.json").exists());
    assert!(!base.join("kept/header.json").exists());
    assert!(base.join("kept/progress.json").exists());
    // The split files: the whole table's but layer 7's two and layer 8's one (beside them,
    // the table's header and manifest; the kept layers' progress.json).
    assert_eq!(files("whole") - 2, files("kept") - 1 + 3);
    for name in ["layer-07-split-00.bin.zst", "layer-08-split-00.bin.zst"] {
        std::fs::copy(base.join("whole").join(name), base.join("kept").join(name)).unwrap();
    }
    run();
    assert_eq!(runs[0], (whole.outcome, whole.plies, whole.nodes));
    assert!(runs.iter().all(|r| *r == runs[0]), "{runs:?}");
    let refused = verify(&base.join("kept"), 1 << 30, &Silent, &mut |_, _| Ok(()));
    let said = refused.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(said.contains("--bound-layers-only"), "{said}");
    std::fs::remove_dir_all(&base).unwrap();
}
