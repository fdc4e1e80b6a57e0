//! Exact retrograde analysis of a cell (W, H, N): the value of every position, with its
//! remoteness, and so the value of the start, its exact length and a principal line. Unlike
//! proof search it can prove a draw (8x3 with 3 walls is one), and it gives a second,
//! independent answer for every cell small enough to enumerate.
//!
//! Depends on the configuration tables (`configs/`), positions and move generation (for
//! the line); `cell/solver.rs` and the CLI sit above it.
//!
//! # Positions
//!
//! The positions of a cell are every configuration `c` of its tables (`k` walls on the
//! board), every split of walls left `(l1, l2)` with `l1 + l2 = 2N - k` and both at most
//! `N`, every pair of distinct pawn cells, and both sides to move, **except** those in which
//! a pawn cannot reach its goal row in `c`: a wall that cuts a pawn off is illegal, so no
//! legal play reaches them, and they are left out of everything (values and counts).
//! Positions that are over (Player 1's pawn on row H-1, else Player 2's on row 0) have
//! remoteness 0 and no moves; a position whose player to move has no legal action (only
//! possible with H = 2) is a draw.
//!
//! # Values
//!
//! From the view of the player to move: `Win(r)`, `Loss(r)` or `Draw`, where `r`, the
//! remoteness, is the number of plies to the end under best play: the winner hurries, the
//! loser holds out. A draw is a position in which neither player can force a win. The value
//! of the cell is the value of the start; a win's remoteness there is the smallest `d` such
//! that the winner can force reaching the goal within `d` plies, the length proof search
//! reports.
//!
//! # Method
//!
//! Walls only increase, so the layers by walls placed form a DAG; they are solved from the
//! most walls down to none. Inside a layer a *block* (configuration, split) is a pawn game
//! whose wall moves exit to the layer below, already solved; `engine/block.rs` solves it by
//! backward induction in order of increasing remoteness, and what stays undecided is a draw.
//! The groups of configurations of a layer run in parallel (`engine/layer.rs`), each block of an
//! orbit under the symmetries solved once; the answer does not depend on the thread count.
//!
//! # Memory
//!
//! Two precisions (`engine/store.rs`): **exact**, one byte per stored slot (`code.rs`), remoteness
//! included, up to `MAX_REMOTENESS` (252) plies, a longer one refused with an error (the
//! longest seen so far is 54, in 3x9 with 10 walls); **compact**, 2 bits per slot, win,
//! loss or draw only. Both solve the same blocks the same way; the compact one reads its
//! wall moves' outcomes without remoteness, so its blocks' outcomes are exact and their
//! remoteness is not, and it stores outcomes only. The caller finds the start's length by
//! a proof search that uses the outcomes as an oracle (`cell/solver.rs`).
//!
//! The store folds the mirror and the half turn that swaps the players (`engine/symmetry.rs`,
//! `engine/layout.rs`): it keeps only positions with Player 1 to move, of the configurations that
//! are not the mirror of a smaller one, and none that is over (its value is known):
//! `(S - W)^2` slots per block (padded to a multiple of 4), fewer than a quarter of the
//! `2 * S * (S - 1)` positions per block. Each orbit of blocks is solved once, so the work
//! is about a quarter too.
//!
//! Solving layer `k` reads only layer `k + 1` (the wall moves), and finer: the splits of a
//! layer are solved in pairs (`layout::split_pairs`), and a pair reads two splits of the
//! layer above that nothing else reads. So the analysis keeps layers `0..kept` to the end
//! and frees any other split once the pair that reads it is solved: the peak is about the
//! largest layer plus a pair of splits, not two whole layers (4x7 with 10 walls at a byte:
//! 11.6 GiB against 19.7 GiB).
//!
//! - the exact analysis keeps **every layer** when they fit the budget with the tables:
//!   then `value` answers for every position and `result` gives the full principal line;
//!   else **two layers** (*streaming*, `kept` = 2). The start's value, remoteness and the counts are exact as before, but `value`
//!   answers only in layers 0 and 1 and the principal line is given only when it stays
//!   there (a draw that dances in layer 0, such as 8x3 with 3 walls); otherwise it is
//!   empty, and the caller must take a win's line from proof search;
//! - the compact analysis keeps as many layers from layer 0 up as the budget allows (at
//!   least two): the more it keeps, the more of the search's nodes the oracle answers.
//!
//! # The door
//!
//! A caller asks for an analysis with one `Request` (precision, budget, the layers kept, and
//! where the layers go: memory, a directory, or a directory in parts) and runs it with
//! `run` (or `solve`, for one process or rank 0). The files, by what they do:
//!
//! - `engine/`: the algorithm, no file I/O (layout, symmetry, codes and packings, a block, a
//!   pair of splits, the configurations read, the queries on a solved cell and its line,
//!   the answer types, the ranks' trait);
//! - `format/`: what is on disk and reading it back (a saved table, its segments and
//!   hashing, a layer directory being written and its record, a table too large to load);
//!   it never runs the analysis;
//! - `run/`: running it: `sizing.rs` (every buffer, slack and rate, read by the estimate and
//!   the runners alike), `estimate.rs` (what each way takes before anything is allocated:
//!   `RetroEstimate::peak`, `bytes` the exact streaming peak and `all_layers_bytes` the
//!   exact peak keeping every layer; the layout's indices, at most 12 bytes per
//!   configuration, count in all, the tables in none), `driver.rs` (in memory), `parts.rs`
//!   (in parts through a directory), `across.rs` (across ranks), `through.rs` (into a saved
//!   table).
//!
//! Reading a saved table (`saved`, `saved_dir`, `sampled`) and the estimate stay public:
//! they do not run the analysis.
//!
//! # Pieces of work
//!
//! A *layer* (walls on the board) has a *split* per count of walls left to Player 1; splits
//! are solved in *pairs*; a *block* is one (configuration, split); a *group* is a stored
//! configuration and its half turn's; a *slot* is a position's place in a store. Through a
//! directory, a *part* is a run of whole groups solved at once, a *segment* a fixed run of
//! groups compressed as one zstd frame (gzip member), a *share* a rank's run of whole segments, and a
//! *piece* what is streamed of the layer above at a time (docs/ARCHITECTURE.md).

mod engine;
mod format;
mod run;

pub use engine::board::{MAX_SQUARES, check_board, handles, narrow};
pub use engine::code::MAX_REMOTENESS;
pub use engine::prefix::Prefix;
pub use engine::solved::{Solved, Wdl};
pub use engine::source::ConfigSource;
pub use engine::stop::{clear_stop, request_stop};
pub use engine::store::Precision;
pub use engine::value::{RetroResult, RetroStats, Value};
pub use engine::{ranks, source};
pub use format::{sampled, saved, saved_dir, spill};
pub use run::estimate::{Keep, LayerCost, RetroEstimate, cell_estimate, estimate, pushes_last};
pub use run::sizing::Above;

use crate::error::{Error, Result};
use crate::support::progress::Progress;
use saved_dir::Target;
use std::ops::Range;

/// What a caller asks of the analysis: the one way to run it (`run`).
#[derive(Clone, Debug)]
pub struct Request {
    /// A byte a position, value and remoteness (`Exact`), or 2 bits, the outcome only
    /// (`Compact`): see the module doc.
    pub precision: Precision,
    /// The bytes the analysis may take, the configurations' tables or numbering (already
    /// built) included, as for proof search. Checked before anything large is allocated.
    pub budget: u64,
    /// Which layers' values stay in memory to the end.
    pub keep: Layers,
    /// Where the layers go as they are solved.
    pub storage: Storage,
    /// Through a directory, what the analysis may take while its parts run, where more than
    /// `budget`: the parts are freed before it returns (all but the layers kept, which
    /// `budget` still bounds), so a caller that keeps the layers for later (the compact
    /// analysis's length search) can let the parts use the whole of its memory. Larger
    /// parts mean fewer passes over the layer above (5x5 with 5 walls, compact, layer 7:
    /// 32 parts 10.1 s, 8 parts 7.3 s, 2 parts 5.5 s). `None`: `budget`.
    pub parts_budget: Option<u64>,
}

/// Which layers' values an analysis keeps in memory to the end (the others are freed as soon
/// as nothing reads them, their values unknown to the `Solved`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layers {
    /// As many from layer 0 up as `budget` holds: the exact analysis every layer when they
    /// fit (then `value` answers for every position and the line is whole), else two (it
    /// streams, and a win's line comes back empty); the compact one as many as fit, at least
    /// two (each one more makes a better oracle for the length's search). Through a
    /// directory, the layers the start's value needs are read back at the end.
    Fitting,
    /// Only the layers from the most walls down to `start` are solved, and these kept (walls
    /// on the board): enough for the value of a position with `start` walls and of its
    /// moves; `result` needs `start == 0`. In memory only.
    Only(Range<usize>),
}

/// Where an analysis's layers go as they are solved.
#[derive(Clone, Debug)]
pub enum Storage {
    /// Nowhere: memory only.
    Memory,
    /// Into a directory (`format/spill.rs`): each layer written once solved, a run that was
    /// stopped going on from the layers written there (with `to.resume`), the directory a
    /// saved table when whole. When even two layers do not fit the budget, every layer is
    /// solved in parts through it. With `to.ranks`, every rank runs the same request over
    /// the directory they share, each solving its share of every layer.
    Dir(Target),
    /// As `Dir`, every layer in parts of at most `part_bytes`, whatever fits (the tests cut
    /// small parts so).
    Parts { to: Target, part_bytes: u64 },
}

impl Request {
    /// The exact analysis in memory within `budget`, keeping the layers that fit.
    pub fn exact(budget: u64) -> Request {
        Request {
            precision: Precision::Exact,
            budget,
            keep: Layers::Fitting,
            storage: Storage::Memory,
            parts_budget: None,
        }
    }

    /// The compact analysis (outcomes only) in memory within `budget`, keeping the layers
    /// that fit.
    pub fn outcomes(budget: u64) -> Request {
        Request {
            precision: Precision::Compact,
            ..Request::exact(budget)
        }
    }
}

/// Runs the analysis `request` asks for over the configurations of `configs`: the one way
/// in. Refuses a board it does not handle (`check_board`) and, before anything large is
/// allocated, a request that does not fit its budget. Returns the solved cell (the layers
/// kept, the counts of every position), or `None` on a rank other than rank 0 of a run
/// across ranks, which writes only its share.
pub fn run<'t>(
    configs: &'t dyn ConfigSource,
    request: &Request,
    progress: &dyn Progress,
) -> Result<Option<Solved<'t>>> {
    check_board(configs.board())?;
    let Request {
        precision, budget, ..
    } = *request;
    let budgets = (budget, request.parts_budget.unwrap_or(budget).max(budget));
    match (&request.keep, &request.storage) {
        (Layers::Fitting, Storage::Memory) => {
            run::driver::in_memory(configs, budget, precision, progress).map(Some)
        }
        (Layers::Only(layers), Storage::Memory) => {
            run::driver::keeping(configs, budget, precision, layers.clone(), progress).map(Some)
        }
        (Layers::Fitting, Storage::Dir(to)) => {
            run::through::through_dir(configs, (precision, budgets), to, None, progress)
        }
        (Layers::Fitting, Storage::Parts { to, part_bytes }) => {
            let part = Some(*part_bytes);
            run::through::through_dir(configs, (precision, budgets), to, part, progress)
        }
        (Layers::Only(_), _) => Err(Error::Argument(
            "an analysis through a directory solves and writes every layer: it keeps the \
             layers that fit, not those asked for"
                .into(),
        )),
    }
}

/// `run` for a caller that gets the analysis: one process, or rank 0 of many.
pub fn solve<'t>(
    configs: &'t dyn ConfigSource,
    request: &Request,
    progress: &dyn Progress,
) -> Result<Solved<'t>> {
    Ok(run(configs, request, progress)?.expect("only a rank other than rank 0 gets no analysis"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configs::Tables;
    use crate::rules::geometry::Board;
    use crate::rules::geometry::Player;
    use crate::rules::position::Position;
    use crate::rules::walls::{Orientation, Wall, WallSet};
    use crate::support::progress::Silent;
    use engine::store::{self, Compact, Exact};
    use run::driver::{in_memory, run, run_keeping};

    /// The compact analysis with the `bitvec` packing: the same outcomes as the hand-packed
    /// one, layer by layer. Run under callgrind to compare their instructions (docs/ARCHITECTURE.md,
    /// "Dependencies"): `QS_PACKING=bitvec` or `hand` picks the one measured.
    #[test]
    #[ignore]
    fn bitvec_packing_for_callgrind() {
        let board = crate::rules::geometry::Board::new(3, 7).unwrap();
        let tables = Tables::build(board, 3, u64::MAX, &Silent).unwrap();
        let layers = tables.layers();
        let bitvec = || run::<store::CompactBitvec>(&tables, Precision::Compact, layers, &Silent);
        let hand = || run::<Compact>(&tables, Precision::Compact, layers, &Silent);
        match std::env::var("QS_PACKING").as_deref() {
            Ok("bitvec") => drop(bitvec().unwrap()),
            Ok("hand") => drop(hand().unwrap()),
            _ => assert_eq!(bitvec().unwrap().values, hand().unwrap().values),
        }
    }

    /// The estimate's peak is the peak the analysis reaches, whatever it keeps, at both
    /// precisions; and streaming by pairs of splits gives the same values as keeping all.
    #[test]
    fn the_estimated_peak_is_the_peak() {
        for (w, h, n) in [(3, 3, 2), (4, 3, 3), (3, 4, 2), (2, 5, 4)] {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let e = cell_estimate(&tables);
            let all = run::<Exact>(&tables, Precision::Exact, e.layers, &Silent).unwrap();
            for kept in 2..=e.layers {
                let exact = run::<Exact>(&tables, Precision::Exact, kept, &Silent).unwrap();
                assert_eq!(
                    exact.bytes(),
                    e.peak(Precision::Exact, kept),
                    "{w}x{h} {kept}"
                );
                assert_eq!(exact.stats(), all.stats());
                assert_eq!(exact.values[..kept], all.values[..kept]);
                let compact = run::<Compact>(&tables, Precision::Compact, kept, &Silent).unwrap();
                assert_eq!(compact.bytes(), e.peak(Precision::Compact, kept));
            }
            assert!(
                e.bytes < e.all_layers_bytes,
                "{w}x{h}: streaming saves nothing"
            );
        }
    }

    /// Solving only the layers from `keep.start` up, and keeping those of `keep`, gives the
    /// values of the full analysis there, at the estimated peak.
    #[test]
    fn an_analysis_from_a_layer_up_keeps_the_full_values_there() {
        for (w, h, n) in [(3, 3, 2), (4, 3, 3), (2, 5, 4)] {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let e = cell_estimate(&tables);
            let all = run::<Exact>(&tables, Precision::Exact, e.layers, &Silent).unwrap();
            for start in 1..e.layers - 1 {
                for keep in [start..start + 2, start..e.layers] {
                    let part = run_keeping::<Exact>(
                        &tables,
                        Precision::Exact,
                        keep.clone(),
                        None,
                        &Silent,
                    )
                    .unwrap();
                    assert_eq!(part.values[keep.clone()], all.values[keep.clone()]);
                    assert!(part.values[..start].iter().all(Vec::is_empty));
                    assert_eq!(
                        part.bytes(),
                        e.peak_keeping(Precision::Exact, keep.clone()),
                        "{w}x{h} {keep:?}"
                    );
                    assert!(!part.keeps_all_layers());
                }
            }
        }
    }

    /// 2x2 with the wall a1v, Player 1 on b1 and Player 2 on b2: the mover can neither
    /// step (the other pawn), jump straight (off the board) nor beside (the wall), and no
    /// other wall fits, so the position is a draw, whoever is to move.
    #[test]
    fn a_stuck_player_draws() {
        let board = Board::new(2, 2).unwrap();
        let tables = Tables::build(board, 1, u64::MAX, &Silent).unwrap();
        let solved = solve(&tables, &Request::exact(u64::MAX), &Silent).unwrap();
        let wall = Wall {
            anchor: board.square(0, 0),
            orientation: Orientation::Vertical,
        };
        for to_move in [Player::One, Player::Two] {
            let pos = Position {
                walls: WallSet::EMPTY.with(wall),
                pawns: [board.square(1, 0), board.square(1, 1)],
                left: [0, 1],
                to_move,
            };
            assert!(pos.legal_actions(board).is_empty(), "{to_move:?}");
            assert_eq!(solved.value(&pos), Some(Value::Draw), "{to_move:?}");
        }
    }

    #[test]
    fn the_longest_remoteness_is_the_starts_or_more() {
        let board = Board::new(3, 3).unwrap();
        let tables = Tables::build(board, 2, u64::MAX, &Silent).unwrap();
        let solved = solve(&tables, &Request::exact(u64::MAX), &Silent).unwrap();
        let r = solved.result();
        assert!(solved.longest() >= r.plies.unwrap());
        assert!(solved.longest() <= MAX_REMOTENESS as u32);
    }

    /// Every position of a small cell satisfies the negamax equation with remoteness over
    /// its legal actions (from the move generator, not the block's pawn graph): over at
    /// remoteness 0, a win one ply longer than its quickest move to a loss, a loss one ply
    /// longer than its longest move to a win when every move is one, else a draw. With the
    /// finished positions fixed, these equations have one solution, so this checks every
    /// value.
    #[test]
    fn every_value_obeys_the_negamax_equation() {
        for (w, h, n) in [(3, 3, 2), (4, 3, 2), (2, 2, 1), (3, 2, 2)] {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let solved = solve(&tables, &Request::exact(u64::MAX), &Silent).unwrap();
            let mut checked = 0;
            for id in 0..tables.len() as crate::configs::ConfigId {
                let walls = tables.walls(id);
                for l1 in 0..=n {
                    for p1 in 0..board.squares() as u8 {
                        for p2 in 0..board.squares() as u8 {
                            for to_move in [Player::One, Player::Two] {
                                let left = [l1, (2 * n).wrapping_sub(l1 + walls.len() as u8)];
                                let pos = Position {
                                    walls,
                                    pawns: [p1, p2],
                                    left,
                                    to_move,
                                };
                                let Some(v) = solved.value(&pos) else {
                                    continue;
                                };
                                assert_eq!(v, negamax(&solved, &pos), "{w}x{h} {pos:?}");
                                checked += 1;
                            }
                        }
                    }
                }
            }
            assert_eq!(checked, solved.stats().positions, "{w}x{h}");
        }
    }

    /// Each cell (width, height, walls) with both numberings of its configurations.
    fn both_numberings(
        cells: &[(usize, usize, u8)],
    ) -> impl Iterator<Item = (Board, u8, Tables, crate::configs::Ranked)> + '_ {
        cells.iter().map(|&(w, h, n)| {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            (board, n, tables, crate::configs::Ranked::build(board, n))
        })
    }

    /// The analysis over the ranked numbering (no records) stores the same bytes, counts
    /// the same positions and gives the same result as over the eager tables, at both
    /// precisions, on boards of every shape.
    #[test]
    fn ranked_numbering_solves_as_the_eager_tables() {
        let cells = [
            (3, 3, 2),
            (4, 3, 2),
            (3, 4, 3),
            (2, 5, 2),
            (5, 3, 1),
            (4, 4, 1),
        ];
        for (board, n, tables, ranked) in both_numberings(&cells) {
            for precision in [Precision::Exact, Precision::Compact] {
                let eager = in_memory(&tables, u64::MAX, precision, &Silent).unwrap();
                let lean = in_memory(&ranked, u64::MAX, precision, &Silent).unwrap();
                assert!(eager.keeps_all_layers() && lean.keeps_all_layers());
                assert!(eager.values == lean.values, "{board} {n} {precision:?}");
                assert_eq!(eager.stats, lean.stats);
                assert_eq!(eager.result(), lean.result(), "{board} {n} {precision:?}");
            }
        }
    }

    /// An analysis that pushes its last layer into the one above (`pushes_last`) stores
    /// the same bytes in every layer it keeps, and counts the same, as one that stores
    /// every layer, at both precisions, over either numbering, whatever the thread count.
    #[test]
    fn pushing_the_last_layer_changes_no_value() {
        let cells = [
            (3, 3, 2),
            (4, 3, 2),
            (3, 4, 3),
            (2, 5, 2),
            (5, 3, 1),
            (3, 3, 10),
            (2, 3, 1),
        ];
        for (board, n, tables, ranked) in both_numberings(&cells) {
            let layers = tables.layers();
            let keep = 0..layers - 1;
            assert_eq!(pushes_last(layers, &keep, false), layers >= 2);
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                pool.install(|| {
                    let all = run_keeping::<Exact>(&tables, Precision::Exact, 0..layers, None, &Silent).unwrap();
                    let exact = run_keeping::<Exact>(&ranked, Precision::Exact, keep.clone(), None, &Silent).unwrap();
                    for k in (0..layers - 1).rev() {
                        for (j, (a, b)) in exact.values[k].iter().zip(&all.values[k]).enumerate() {
                            let (a, b) = (a.as_ref().unwrap(), b.as_ref().unwrap());
                            if let Some(i) = (0..a.len()).find(|&i| a[i] != b[i]) {
                                let c = exact.layout.stored(k)[i / exact.layout.stored_len()];
                                panic!("{board} {n} layer {k} split {j} slot {i} (config {c}, {:?}): pushed {} stored {}", tables.walls(c), a[i], b[i]);
                            }
                        }
                    }
                    assert_eq!(exact.stats, all.stats, "{board} {n}");
                    let all = run_keeping::<Compact>(&tables, Precision::Compact, 0..layers, None, &Silent).unwrap();
                    let compact = run_keeping::<Compact>(&tables, Precision::Compact, keep.clone(), None, &Silent).unwrap();
                    assert!(compact.values[..layers - 1] == all.values[..layers - 1], "{board} {n}");
                    assert_eq!(compact.stats, all.stats);
                });
            }
        }
    }

    /// The value `pos` must have given the values of its children.
    fn negamax(solved: &Solved, pos: &Position) -> Value {
        let board = solved.configs().board();
        if let Some(p) = pos.winner(board) {
            return if p == pos.to_move {
                Value::Win(0)
            } else {
                Value::Loss(0)
            };
        }
        let children: Vec<Value> = pos
            .legal_actions(board)
            .into_iter()
            .map(|a| solved.value(&pos.play(a)).expect("a child is a position"))
            .collect();
        let quickest = children
            .iter()
            .filter_map(|v| match v {
                Value::Loss(r) => Some(r + 1),
                _ => None,
            })
            .min();
        let longest: Option<Vec<u32>> = children
            .iter()
            .map(|v| match v {
                Value::Win(r) => Some(r + 1),
                _ => None,
            })
            .collect();
        match (quickest, longest) {
            (Some(r), _) => Value::Win(r),
            (None, Some(rs)) if !rs.is_empty() => Value::Loss(*rs.iter().max().unwrap()),
            _ => Value::Draw,
        }
    }
}
