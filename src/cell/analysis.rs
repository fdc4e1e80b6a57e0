//! The value of any position of a cell and of every move from it, for `analyze` and
//! `play`: from the exact retrograde analysis of the whole cell when every layer fits the
//! memory budget (then every answer is a lookup, draws included), else from proof search
//! with one transposition table over all the questions (wins and their lengths; a position
//! neither player wins within the depth limit is `Unknown`, never a guess).

use crate::cell::estimate::CellEstimate;
use crate::configs::Tables;
use crate::error::{Error, Result, count};
use crate::retro::{self, Precision, Solved, Value};
use crate::rules::cell::Cell;
use crate::rules::geometry::Player;
use crate::rules::position::{Action, Position};
use crate::search::{Limits, Prover};
use crate::support::progress::Progress;
use serde::Serialize;
use std::cmp::Reverse;
use std::ops::Range;

/// What is known of a position's value, from the view of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Verdict {
    /// The player to move wins in `plies` (the last ply theirs).
    Win { plies: u32 },
    /// The player to move loses in `plies`, holding out as long as possible.
    Loss { plies: u32 },
    /// Neither player can force a win.
    Draw,
    /// Neither player wins within `depth` plies (proof search cannot prove a draw); 0 when
    /// the time limit had passed before the search began.
    Unknown { depth: u32 },
}

impl Verdict {
    /// The verdict for the player who moved into a position of verdict `self`: a win in
    /// `n` for the one to move there is a loss in `n + 1` for the mover, and so on.
    pub fn before_move(self) -> Verdict {
        match self {
            Verdict::Win { plies } => Verdict::Loss { plies: plies + 1 },
            Verdict::Loss { plies } => Verdict::Win { plies: plies + 1 },
            Verdict::Draw => Verdict::Draw,
            // Depth 0: not searched at all (the time limit had passed); it stays so.
            Verdict::Unknown { depth: 0 } => Verdict::Unknown { depth: 0 },
            Verdict::Unknown { depth } => Verdict::Unknown { depth: depth + 1 },
        }
    }

    /// A key that sorts the best verdict first for the player it belongs to: the shortest
    /// win, then draws, then what is unknown (no win for either side within the depth),
    /// then the longest loss.
    pub fn rank(self) -> (u8, Reverse<u32>, u32) {
        match self {
            Verdict::Win { plies } => (0, Reverse(0), plies),
            Verdict::Draw => (1, Reverse(0), 0),
            Verdict::Unknown { .. } => (2, Reverse(0), 0),
            Verdict::Loss { plies } => (3, Reverse(plies), 0),
        }
    }

    /// Words for people, from the view of `player` (the one to move): "Player 1 wins in 5
    /// plies", "draw", "unknown (no win within 20 plies)".
    pub fn text(self, player: Player) -> String {
        match self {
            Verdict::Win { plies } => {
                format!("Player {} wins in {}", player.number(), count(plies, "ply"))
            }
            Verdict::Loss { plies } => format!(
                "Player {} wins in {}",
                player.other().number(),
                count(plies, "ply")
            ),
            Verdict::Draw => "draw".into(),
            Verdict::Unknown { depth: 0 } => {
                "unknown (not searched: the time limit had passed)".into()
            }
            Verdict::Unknown { depth } => {
                format!(
                    "unknown (no win for either player within {})",
                    count(depth, "ply")
                )
            }
        }
    }
}

impl From<Value> for Verdict {
    fn from(v: Value) -> Verdict {
        match v {
            Value::Win(plies) => Verdict::Win { plies },
            Value::Loss(plies) => Verdict::Loss { plies },
            Value::Draw => Verdict::Draw,
        }
    }
}

/// A legal action and the verdict after it, from the view of the player who takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveVerdict {
    pub action: Action,
    pub verdict: Verdict,
}

/// How an `Analyst` answers.
enum Source<'t> {
    /// The exact analysis of the layers asked about (boxed: far larger than a prover).
    Retro(Box<Solved<'t>>),
    /// An exact analysis kept by someone else and shared by many analysts (`serve` keeps
    /// each saved table once and answers every request from it).
    Shared(&'t Solved<'t>),
    /// Proof search up to `max_depth` plies, one table for every question.
    Search {
        prover: Prover<'t, Tables>,
        max_depth: u8,
    },
    /// A saved table too large to load, read a few positions at a time
    /// (`retro::sampled::Reader`; exact): it answers for the positions `prepare` fetched.
    Read(Box<retro::sampled::Reader<'t>>),
}

/// Answers the value of positions of one cell (see the module doc).
pub struct Analyst<'t> {
    board: crate::rules::geometry::Board,
    /// The eager tables, where the analyst has them (for the legal actions, which are the
    /// same without them).
    tables: Option<&'t Tables>,
    source: Source<'t>,
}

impl<'t> Analyst<'t> {
    /// By the exact retrograde analysis of the cell of `tables`, solved from the most walls
    /// down to `layers.start` and keeping the layers of `layers` (walls on the board): the
    /// questions asked must stay in them. Refused (before anything large is allocated)
    /// when that does not fit `memory_budget` with the tables.
    pub fn retro(
        tables: &'t Tables,
        memory_budget: u64,
        layers: Range<usize>,
        progress: &dyn Progress,
    ) -> Result<Self> {
        // The analysis checks the memory (the same sum as `retro_bytes`) first.
        let request = retro::Request {
            keep: retro::Layers::Only(kept(tables, layers)),
            ..retro::Request::exact(memory_budget)
        };
        let solved = retro::solve(tables, &request, progress)?;
        Ok(Analyst {
            board: tables.board(),
            tables: Some(tables),
            source: Source::Retro(Box::new(solved)),
        })
    }

    /// From an exact analysis (read from a saved table, for one). It answers for the
    /// positions of the layers it kept: the caller asks for no other.
    pub fn from_solved(solved: Solved<'t>) -> Self {
        assert_eq!(solved.precision(), Precision::Exact);
        Analyst {
            board: solved.configs().board(),
            tables: solved.tables(),
            source: Source::Retro(Box::new(solved)),
        }
    }

    /// From an exact analysis that outlives the analyst and may serve others at the same
    /// time. It answers for the positions of the layers it kept, as `from_solved`.
    pub fn shared(solved: &'t Solved<'t>) -> Self {
        assert_eq!(solved.precision(), Precision::Exact);
        Analyst {
            board: solved.configs().board(),
            tables: solved.tables(),
            source: Source::Shared(solved),
        }
    }

    /// By proof search within `limits` (its depth limit and deadline bound each question).
    pub fn search(tables: &'t Tables, limits: &Limits<'t>) -> Self {
        Analyst {
            board: tables.board(),
            tables: Some(tables),
            source: Source::Search {
                prover: Prover::new(tables, limits),
                max_depth: limits.max_depth,
            },
        }
    }

    /// From an exact saved table too large to load, of `board` (`retro::sampled::Reader`):
    /// it answers for the positions `prepare` fetched.
    pub fn from_reader(
        board: crate::rules::geometry::Board,
        reader: retro::sampled::Reader<'t>,
    ) -> Self {
        Analyst {
            board,
            tables: None,
            source: Source::Read(Box::new(reader)),
        }
    }

    /// Makes sure the analyst can answer for `positions`: an analyst that reads a table a
    /// few positions at a time reads those it has not read (one pass over the files that
    /// hold them); any other has nothing to do.
    pub fn prepare(&mut self, positions: &[Position], progress: &dyn Progress) -> Result<()> {
        match &mut self.source {
            Source::Read(reader) => reader.fetch(positions, false, progress),
            _ => Ok(()),
        }
    }

    /// The legal actions of `pos`, with the tables where the analyst has them.
    fn legal_actions(&self, pos: &Position) -> Vec<Action> {
        match self.tables {
            Some(tables) => pos.legal_actions_with(self.board, tables),
            None => pos.legal_actions(self.board),
        }
    }

    /// Whether the answers come from the retrograde analysis (exact, draws included).
    pub fn is_retro(&self) -> bool {
        match &self.source {
            Source::Retro(_) | Source::Shared(_) => true,
            Source::Read(read) => read.is_exact(),
            Source::Search { .. } => false,
        }
    }

    /// The bytes of values it holds now (`Solved::held_bytes` for an analysis it owns; 0
    /// for one shared, a search or a reader): with its tables, what keeping it costs.
    pub fn held_bytes(&self) -> u64 {
        match &self.source {
            Source::Retro(solved) => solved.held_bytes(),
            Source::Shared(_) | Source::Search { .. } | Source::Read(_) => 0,
        }
    }

    /// Search nodes spent so far (0 for the retrograde analysis).
    pub fn nodes(&self) -> u64 {
        match &self.source {
            Source::Retro(_) | Source::Shared(_) | Source::Read(_) => 0,
            Source::Search { prover, .. } => prover.nodes(),
        }
    }

    /// The verdict of `pos`, which must be a position of the cell (`Position::validate`
    /// with the cell's walls per player).
    pub fn verdict(&mut self, pos: &Position, progress: &dyn Progress) -> Verdict {
        let board = self.board;
        if let Some(p) = pos.winner(board) {
            return if p == pos.to_move {
                Verdict::Win { plies: 0 }
            } else {
                Verdict::Loss { plies: 0 }
            };
        }
        let stuck =
            matches!(self.source, Source::Search { .. }) && self.legal_actions(pos).is_empty();
        match &mut self.source {
            Source::Retro(solved) => exact(solved, pos),
            Source::Shared(solved) => exact(solved, pos),
            Source::Read(reader) => reader.value(pos).expect("the position was prepared").into(),
            Source::Search { .. } if stuck => {
                // Stuck (only on boards 2 high): a draw by the rules.
                Verdict::Draw
            }
            Source::Search { prover, max_depth } => {
                let found = prover.deepen(pos, *max_depth, None, progress);
                match found.win {
                    Some(w) if w.winner == pos.to_move => Verdict::Win {
                        plies: w.plies as u32,
                    },
                    Some(w) => Verdict::Loss {
                        plies: w.plies as u32,
                    },
                    None => Verdict::Unknown {
                        depth: found.depth_reached as u32,
                    },
                }
            }
        }
    }

    /// Every legal action of `pos` with its verdict for the player to move, best first
    /// (`Verdict::rank`; equal verdicts in the order of `legal_actions`).
    pub fn moves(&mut self, pos: &Position, progress: &dyn Progress) -> Vec<MoveVerdict> {
        let mut moves: Vec<MoveVerdict> = self
            .legal_actions(pos)
            .into_iter()
            .map(|action| MoveVerdict {
                action,
                verdict: self.verdict(&pos.play(action), progress).before_move(),
            })
            .collect();
        moves.sort_by_key(|m| m.verdict.rank());
        moves
    }
}

/// The value of `pos` in an exact analysis that kept its layer.
fn exact(solved: &Solved, pos: &Position) -> Verdict {
    solved
        .value(pos)
        .expect("the position is one of the cell, in a layer kept")
        .into()
}

/// `layers` within the layers of the cell of `tables`.
fn kept(tables: &Tables, layers: Range<usize>) -> Range<usize> {
    let all = tables.layers();
    layers.start.min(all)..layers.end.min(all)
}

/// Whether the exact analysis of the cell of `tables` that keeps `layers` (walls on the
/// board; see `Analyst::retro`) fits `budget` with the tables.
pub fn retro_fits(tables: &Tables, layers: Range<usize>, budget: u64) -> bool {
    let keep = retro::Keep::Layers(kept(tables, layers));
    retro::cell_estimate(tables).exact_fits(tables.bytes(), budget, keep)
}

impl Analyst<'_> {
    /// Whether the value of `pos` is the value of its best move (a position that is over
    /// has none; a player with no legal action has a draw): what every value of a correct
    /// analysis satisfies, checked position by position by `verify`.
    pub fn consistent(&mut self, pos: &Position, progress: &dyn Progress) -> bool {
        let value = self.verdict(pos, progress);
        if pos.winner(self.board).is_some() {
            return matches!(
                value,
                Verdict::Win { plies: 0 } | Verdict::Loss { plies: 0 }
            );
        }
        match self.moves(pos, progress).first() {
            Some(best) => best.verdict == value,
            None => value == Verdict::Draw,
        }
    }
}

/// Every position reachable from the start of the cell of `tables`, in the order of a
/// breadth-first search; `None` when there are more than `limit`.
pub fn reachable(tables: &Tables, limit: usize) -> Option<Vec<Position>> {
    let board = tables.board();
    let start = Position::start(board, tables.walls_per_player()).ok()?;
    let mut seen = std::collections::HashSet::from([start]);
    let mut order = vec![start];
    let mut next = 0;
    while let Some(&pos) = order.get(next) {
        next += 1;
        for a in pos.legal_actions_with(board, tables) {
            let child = pos.play(a);
            if seen.insert(child) {
                if order.len() == limit {
                    return None;
                }
                order.push(child);
            }
        }
    }
    Some(order)
}

/// The positions of `games` random games from the start of the cell of `tables` (a fixed
/// seed: the same positions every time), each to its end or to 200 plies.
pub fn random_games(tables: &Tables, games: usize) -> Vec<Position> {
    let board = tables.board();
    random_games_by(board, tables.walls_per_player(), games, |p| {
        p.legal_actions_with(board, tables)
    })
}

/// `random_games` on `board` with `walls` each, the legal actions given by `legal` (with
/// the tables or without: the same actions in the same order, so the same games).
pub fn random_games_by(
    board: crate::rules::geometry::Board,
    walls: u8,
    games: usize,
    legal: impl Fn(&Position) -> Vec<Action>,
) -> Vec<Position> {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut positions = Vec::new();
    for _ in 0..games {
        let Ok(mut pos) = Position::start(board, walls) else {
            break;
        };
        for _ in 0..200 {
            positions.push(pos);
            let actions = legal(&pos);
            if actions.is_empty() {
                break;
            }
            // A 64-bit linear congruential step (Knuth's MMIX constants); its high bits pick.
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            pos = pos.play(actions[(seed >> 33) as usize % actions.len()]);
        }
    }
    positions
}

/// Whether the saved table in `dir` is too large to load with the tables of its `cell`
/// within `budget`: its layers `layers` and the tables do not fit. Then
/// `analyze` and `play` read the positions they ask about from its files in one pass
/// (`retro::sampled`). A table of outcomes only is refused: they read an exact one.
pub fn saved_too_large(
    dir: &std::path::Path,
    cell: Cell,
    layers: Range<usize>,
    budget: u64,
) -> Result<bool> {
    let header = retro::saved::header(dir)?;
    let values: u64 = header
        .layers
        .iter()
        .enumerate()
        .filter(|(k, _)| layers.contains(k))
        .flat_map(|(_, files)| files.iter().map(|f| f.bytes))
        .sum();
    if retro::saved::precision_of(&header) != Some(Precision::Exact) {
        return Err(Error::Argument(format!(
            "{} holds outcomes only (a compact analysis: no lengths), which `verify` \
             checks; `analyze` and `play` read an exact table",
            dir.display()
        )));
    }
    let tables = CellEstimate::new(cell.board, cell.walls).tables.bytes;
    Ok(tables.saturating_add(values) > budget)
}
