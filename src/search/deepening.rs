//! The search's entry: iterative deepening from a position until one player is proven to
//! win, the depth limit, or the time limit; then the principal line of the win.

use super::node::Node;
use super::pv::principal_line;
use super::tt::{self, TranspositionTable};
use super::{Oracle, Search, Shared};
use crate::error::count;
use crate::geometry::Player;
use crate::position::{Action, Position};
use crate::progress::Progress;
use crate::tables::ConfigTables;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Plies left from which a node's moves are searched in parallel (when `parallel`).
const SPLIT_DEPTH: u8 = 11;

/// The transposition table's first size; once crowded, it grows to its full size between
/// iterations.
const INITIAL_TT_BYTES: u64 = 64 << 20;

/// What a search may spend, and what it may use.
#[derive(Clone, Copy)]
pub struct Limits<'a> {
    /// The deepest iteration, in plies.
    pub max_depth: u8,
    /// Stop (the answer is then "not decided") at this moment.
    pub deadline: Option<Instant>,
    /// The largest transposition table, in bytes.
    pub tt_bytes: u64,
    /// Whether deep nodes split their moves over the threads of the current rayon pool.
    /// The answers do not depend on it; node counts may.
    pub parallel: bool,
    /// Only this player's depths are searched, when the winner is known.
    pub winner: Option<Player>,
    /// Known outcomes to prune with (see `Oracle`).
    pub oracle: Option<&'a dyn Oracle>,
}

/// A proven win from the searched position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Win {
    pub winner: Player,
    /// Plies of the win under best play (the winner hurries, the loser holds out).
    pub plies: u8,
    /// The winner's line of exactly `plies` plies, with the loser holding out.
    pub line: Vec<Action>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None`: neither player wins within `depth_reached` plies (or the winner asked for,
    /// within it).
    pub win: Option<Win>,
    /// The deepest iteration completed.
    pub depth_reached: u8,
    pub nodes: u64,
    /// Whether the search stopped because its configuration store was full (else, if
    /// undecided below `max_depth`, its deadline stopped it).
    pub out_of_memory: bool,
}

/// A proof search over one cell's tables with one transposition table, for any number of
/// questions: what it proves for one stays in the table for the next.
pub struct Prover<'a, T: ConfigTables> {
    shared: Shared<'a, T>,
    tt_bytes: u64,
}

impl<'a, T: ConfigTables> Prover<'a, T> {
    pub fn new(tables: &'a T, limits: &Limits<'a>) -> Prover<'a, T> {
        // No more entries than the cell has positions: configurations x splits of walls
        // left x pawn placements x sides to move (an upper bound).
        let cells = tables.board().cells() as u128;
        let positions = tables.configurations()
            * (tables.walls_per_player() as u128 + 1)
            * cells
            * (cells - 1)
            * 2;
        let tt_bytes = limits
            .tt_bytes
            .min(
                u64::try_from(positions * TranspositionTable::ENTRY_BYTES as u128)
                    .unwrap_or(u64::MAX),
            )
            .max(1 << 16);
        Prover {
            shared: Shared {
                tables,
                oracle: limits.oracle,
                tt: TranspositionTable::new(
                    tt_bytes.min(INITIAL_TT_BYTES),
                    tt::dominance_holds(tables.board()),
                ),
                abort: Default::default(),
                deadline: limits.deadline,
                nodes: Default::default(),
                history: Default::default(),
                split_depth: if limits.parallel {
                    SPLIT_DEPTH
                } else {
                    u8::MAX
                },
            },
            tt_bytes,
        }
    }

    /// Whether `attacker` can force their pawn home within `depth` plies from `position`,
    /// which must not be over. Meaningless once the deadline has passed (`timed_out`).
    pub fn wins_within(&self, position: &Position, attacker: Player, depth: u8) -> bool {
        let node = Node::from_position(self.shared.tables, position)
            .expect("a position of the cell has a configuration in its tables");
        depth > 0 && Search::attack_root(&self.shared, attacker, &node, depth)
    }

    /// Whether the deadline, or a full configuration store, stopped a search.
    pub fn timed_out(&self) -> bool {
        self.shared.abort.load(Ordering::Relaxed) || self.shared.tables.exhausted()
    }

    /// Nodes visited so far, over every question.
    pub fn nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed)
    }

    /// Iterative deepening from `position` (not over): Player to move's win at depths 1,
    /// 3, 5, ..., the other's at 2, 4, ... (only the winner's, if `winner`), until one wins,
    /// `max_depth`, or the deadline. The first win found is the shortest.
    pub fn deepen(
        &mut self,
        position: &Position,
        max_depth: u8,
        winner: Option<Player>,
        progress: &dyn Progress,
    ) -> SearchResult {
        let tables = self.shared.tables;
        let start = Node::from_position(tables, position)
            .expect("a position of the cell has a configuration in its tables");
        let started = Instant::now();
        let mut result = SearchResult {
            win: None,
            depth_reached: 0,
            nodes: 0,
            out_of_memory: false,
        };
        let nodes_before = self.nodes();
        // No bar of depths: the depth of the win is what the search finds out.
        progress.begin("proof search", 0);
        for depth in 1..=max_depth {
            if self.shared.tt.crowded() && self.shared.tt.bytes() * 2 <= self.tt_bytes {
                // Straight to the full size: a cell that fills the first table goes on to
                // need far more (measured on 5x5 with 5 walls: 13.6 s against 14.4-15.3 s
                // when doubling, which copies the table four times and loses entries
                // meanwhile).
                self.shared.tt = self.shared.tt.grown(self.tt_bytes);
            }
            let attacker = if depth % 2 == 1 {
                position.to_move
            } else {
                position.to_move.other()
            };
            if winner.is_some_and(|w| w != attacker) {
                continue;
            }
            let nodes = self.nodes() - nodes_before;
            let seconds = started.elapsed().as_secs_f64();
            progress.status(&format!(
                "depth {depth} (Player {}), {} nodes so far, {}/s",
                attacker.number(),
                si(nodes as f64),
                si(nodes as f64 / seconds.max(1e-3)),
            ));
            let won = Search::attack_root(&self.shared, attacker, &start, depth);
            if self.timed_out() {
                break;
            }
            result.depth_reached = depth;
            progress.message(&format!(
                "depth {depth}: Player {} {} within {} ({}, {:.2} s)",
                attacker.number(),
                if won { "wins" } else { "cannot win" },
                count(depth, "ply"),
                count(self.nodes() - nodes_before, "node"),
                started.elapsed().as_secs_f64()
            ));
            if won {
                let line = principal_line(&self.shared, attacker, &start, depth);
                result.win = Some(Win {
                    winner: attacker,
                    plies: depth,
                    line: line.iter().map(|&m| Node::action(tables, m)).collect(),
                });
                break;
            }
        }
        progress.finish();
        result.nodes = self.nodes() - nodes_before;
        result.out_of_memory = tables.exhausted();
        result
    }
}

/// Proof search from `position` (not over) within `limits`: who wins, in how many plies,
/// and the line.
pub fn solve<T: ConfigTables>(
    tables: &T,
    position: &Position,
    limits: &Limits,
    progress: &dyn Progress,
) -> SearchResult {
    Prover::new(tables, limits).deepen(position, limits.max_depth, limits.winner, progress)
}

/// A count in about three digits with a metric suffix: 1234567 -> "1.235M".
fn si(x: f64) -> String {
    let (value, suffix) = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")]
        .into_iter()
        .find(|&(unit, _)| x >= unit)
        .map_or((x, ""), |(unit, s)| (x / unit, s));
    format!("{value:.3}{suffix}")
}
