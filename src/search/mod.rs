//! Iterative-deepening proof search with (0, ∞) bounds ("Solving Quoridor", docs/SOURCES.md).
//!
//! The question at every node is boolean: can the *attacker* force their pawn onto their goal
//! row within `depth` plies, against every defence? Player 1 can only finish on odd plies
//! from the start, Player 2 on even ones, so the driver (`deepening.rs`) asks "Player 1
//! within d?" for odd d and "Player 2 within d?" for even d, d = 1, 2, 3, ...: the first yes
//! gives the winner and the exact length of the win.
//!
//! One entry, `solve` (or a `Prover` that answers many questions with one table); the
//! steps are private: `node` (the search's position and key), `order` (move generation and
//! ordering), `tt` (the transposition table), `pv` (the principal line).

mod checkpoint;
mod deepening;
mod no_win;
mod node;
mod order;
mod pv;
mod tt;
#[cfg(test)]
mod twin;

pub use checkpoint::{Checkpoint, Spent, remove_part_being_written};
pub use deepening::{INITIAL_TT_BYTES, Limits, Prover, SearchResult, Win, solve, solve_forgetting};
pub use no_win::NoWin;
pub use node::Node;

use crate::configs::ConfigTables;
use crate::rules::geometry::{Board, Player};
use crate::rules::walls::WallSet;
use crate::support::own_line::Tally;
use arrayvec::ArrayVec;
use node::{Key, MAX_MOVES, Move, NO_MOVE, WALL_BASE};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use tt::TranspositionTable;

/// Set by `request_stop` (a signal handler, on Ctrl-C): every search stops as at its
/// deadline.
static STOP: AtomicBool = AtomicBool::new(false);

/// Asks every search of the process to stop as at its deadline (safe in a signal handler:
/// one atomic swap). Returns whether a stop had been asked for already.
pub fn request_stop() -> bool {
    STOP.swap(true, Ordering::Relaxed)
}

/// Whether `request_stop` was called.
pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// Forgets a stop asked for, so that the next search runs: for a caller that goes on after
/// a stop (the Python binding, whose process outlives a Ctrl-C), never the command line,
/// whose stop ends the command.
pub fn clear_stop() {
    STOP.store(false, Ordering::Relaxed)
}

/// How many searches that keep a checkpoint are running: while one is, a stop is worth
/// waiting for (the search saves its table first); otherwise there is nothing to save and
/// a signal handler may end the process at once.
static SAVING: AtomicUsize = AtomicUsize::new(0);

/// Whether a search that keeps a checkpoint is running (safe in a signal handler).
pub fn checkpointed_search_running() -> bool {
    SAVING.load(Ordering::SeqCst) > 0
}

/// Counts a search that keeps a checkpoint as running until dropped.
pub(crate) struct Saving;

impl Saving {
    pub(crate) fn enter() -> Saving {
        SAVING.fetch_add(1, Ordering::SeqCst);
        Saving
    }
}

impl Drop for Saving {
    fn drop(&mut self) {
        SAVING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The attacker's own moves among the next `depth` plies, `attacking` if the attacker moves
/// first.
fn own_moves(depth: u8, attacking: bool) -> u8 {
    if attacking {
        depth.div_ceil(2)
    } else {
        depth / 2
    }
}

/// The most steps towards its goal the attacker's pawn can make in its next `own` moves,
/// the pawns `apart` squares apart (`Board::apart`), the attacker moving first if
/// `attacking`. A move is one step, or two when it jumps the other pawn; a jump needs the
/// pawns side by side, and each ply before brings them at most one square nearer (a step),
/// so the attacker's moves among the first `apart - 1` plies are single steps.
fn reach(own: u8, apart: usize, attacking: bool) -> u16 {
    let before = apart.saturating_sub(1).min(u8::MAX as usize) as u8;
    2 * own as u16 - own_moves(before, attacking).min(own) as u16
}

/// Whether the attacker's pawn, `dist` steps from its goal, cannot reach it in its next
/// `own` moves (`reach`). The cheap tests first: within `own` steps it always can, and
/// beyond `2 * own` it never can.
#[inline(always)]
fn beyond_reach(node: &Node, board: Board, dist: u8, own: u8, attacking: bool) -> bool {
    dist > own
        && (dist as u16 > 2 * own as u16
            || dist as u16 > reach(own, board.apart(node.pawns[0], node.pawns[1]), attacking))
}

/// At an attacker's node `dist` steps from its goal with `own` moves left, this one
/// included (at least 2): `None` when a move that brings the pawn no nearer (a wall) may
/// still win, else `Some(d)`: only a pawn move onto a cell at most `d` steps from the goal
/// can (the `reach` of the moves after it, the pawns at most one square nearer each other).
fn spare_tempo(node: &Node, board: Board, dist: u8, own: u8) -> Option<u8> {
    if dist < own {
        return None;
    }
    let apart = board.apart(node.pawns[0], node.pawns[1]);
    if dist as u16 <= reach(own - 1, apart, false) {
        return None;
    }
    Some(reach(own - 1, apart.saturating_sub(1).max(1), false) as u8)
}

/// Whether `attack` reaches the table at a node with `depth` plies left: not when the
/// attacker has one move left (only a goal step wins) nor when they have none.
fn probes_table(depth: u8, attacking: bool) -> bool {
    own_moves(depth, attacking) > if attacking { 1 } else { 0 }
}

/// What is known of a position's outcome without searching it (a retrograde analysis's
/// outcomes, of the cell or of the same board with fewer walls): the search then prunes
/// every node the attacker cannot win within the plies it has left.
pub trait Oracle: Sync {
    /// At least how many plies `player` needs to force a win from `node` (neither pawn
    /// home, both pawns reaching their goals): `NEVER` when they cannot win at all, `None`
    /// when nothing is known (a win of unknown length tells nothing either). `walls` gives
    /// the node's wall set, for an oracle that does not number configurations as the
    /// search's store does, and `memo` the word the store keeps with the node's
    /// configuration for it, if any (`ConfigTables::oracle_memo`).
    fn fewest_plies(
        &self,
        node: &Node,
        walls: &dyn Fn() -> WallSet,
        memo: Option<&AtomicU32>,
        player: Player,
    ) -> Option<u32>;

    /// At most how many plies `player` needs to force a win from `node`, when a win within
    /// that many is known (the search then proves the node without searching it); `None`
    /// when nothing is.
    fn most_plies(
        &self,
        _node: &Node,
        _walls: &dyn Fn() -> WallSet,
        _memo: Option<&AtomicU32>,
        _player: Player,
    ) -> Option<u32> {
        None
    }

    /// Whether `most_plies` ever answers: the search asks it at every node only then (the
    /// compact analysis's length search would pay a call a node for nothing).
    fn proves(&self) -> bool {
        false
    }
}

/// `Oracle::fewest_plies` of a player who cannot win.
pub const NEVER: u32 = u32::MAX;

/// Which side of the attacker's plies the search asks the oracle (`Oracle`).
#[derive(Clone, Copy)]
enum Side {
    /// At least (`fewest_plies`): refutes.
    Fewest,
    /// At most (`most_plies`): proves.
    Most,
}

/// Everything a search thread shares with the others.
struct Shared<'a, T: ConfigTables> {
    pub tables: &'a T,
    /// Known outcomes, if any: a node the attacker cannot win at all is refuted at once.
    pub oracle: Option<&'a dyn Oracle>,
    /// `oracle`, where it proves wins too (`Oracle::proves`).
    pub proving: Option<&'a dyn Oracle>,
    pub tt: TranspositionTable,
    /// Set when the time limit passes; an aborted search's answers are meaningless.
    pub abort: AtomicBool,
    pub deadline: Option<std::time::Instant>,
    /// Added to by every search as it ends, each thread on its own lines (`Tally`).
    pub nodes: Tally,
    pub history: order::History,
    /// Nodes with at least this many plies left split their moves over the threads
    /// (`u8::MAX`: never, as with one thread).
    pub split_depth: u8,
}

/// One thread's search for one attacker.
struct Search<'s, 'a, T: ConfigTables> {
    shared: &'s Shared<'a, T>,
    attacker: Player,
    nodes: u64,
    /// Calls of `aborted` until it next reads the clock.
    until_clock: u32,
    /// TranspositionTable entries this search claimed, not yet reported to the table.
    claimed: tt::Claimed,
}

/// Calls of `aborted` between two readings of the clock.
const CLOCK_EVERY: u32 = 1024;

impl<'s, 'a, T: ConfigTables> Search<'s, 'a, T> {
    pub fn new(shared: &'s Shared<'a, T>, attacker: Player) -> Self {
        Search {
            shared,
            attacker,
            nodes: 0,
            until_clock: 0,
            claimed: 0,
        }
    }

    /// Reports this search's node count and claimed entries to the shared counters (once,
    /// at its end: shared counters written at every node would bounce between the cores).
    pub fn report(self) {
        self.shared.nodes.add(self.nodes);
        self.shared.tt.add_claimed(self.claimed);
    }

    /// Whether the search must stop: its deadline passed, its store is full or a stop was
    /// asked for (then every thread's search is told). The marks are read at every call
    /// (atomics that are almost never written), the clock at a search's first call and
    /// every `CLOCK_EVERY` calls after. (Reading them only when the node count was a
    /// multiple of 4096 missed a stop for over a minute on 9x9 with 3 walls: many
    /// parallel searches are shorter than that, and most nodes never get here.)
    fn aborted(&mut self) -> bool {
        let clock = self.until_clock == 0;
        self.until_clock = if clock {
            CLOCK_EVERY
        } else {
            self.until_clock - 1
        };
        if self.shared.tables.exhausted()
            || stop_requested()
            || clock
                && self
                    .shared
                    .deadline
                    .is_some_and(|deadline| std::time::Instant::now() >= deadline)
        {
            self.shared.abort.store(true, Ordering::Relaxed);
        }
        self.shared.abort.load(Ordering::Relaxed)
    }

    /// Can the attacker force a win within `depth` plies from `node`?
    ///
    /// Contract: `node` is not finished (neither pawn on its goal row). Returns `true` iff
    /// the attacker has a strategy that puts their pawn on their goal row within `depth`
    /// plies against every defence (given a correct oracle, if any: a `false` may rest on
    /// it, and a `true` where it knows a bound of the length); the defender reaching their own goal first, or a player
    /// being left without a legal action (a draw), counts as failure. The answer depends only
    /// on (`node`, `depth`), which is what makes the transposition table sound. When the
    /// search is aborted (time limit) the return value is meaningless and nothing is stored.
    #[inline(always)]
    pub fn attack(&mut self, node: &Node, depth: u8) -> bool {
        self.attack_keyed(node, depth, None)
    }

    /// `attack`, given `node.key` if the caller computed it already (`deciding_move`).
    fn attack_keyed(&mut self, node: &Node, depth: u8, key: Option<Key>) -> bool {
        self.nodes += 1;
        if depth == 0 {
            return false;
        }
        let tables = self.shared.tables;
        let a = self.attacker;
        let attacking = node.to_move == a;
        // Each own move brings the pawn at most one step nearer, two when it jumps, and
        // jumps wait until the pawns can meet (`reach`).
        let own_moves = own_moves(depth, attacking);
        let dist = tables.distance(node.config, a, node.pawn(a));
        if beyond_reach(node, tables.board(), dist, own_moves, attacking) {
            return false;
        }
        if attacking && own_moves <= 1 {
            // Only a move onto the goal wins (these nodes are a tenth of all: no table).
            return node.finishes(tables, dist);
        }
        // A node the attacker cannot win at any depth is refuted at every depth: this skips
        // every attacker's move that throws the win away. Asked at defender nodes only: an
        // attacker node below the root is reached by a defender's move from a node the
        // oracle let through, one the attacker wins, and every defender's move keeps such a
        // win, so the answer there would always be "wins" (a lookup, often a cache miss,
        // for nothing; the root is asked in `attack_root`).
        // Start loading the table's bucket now, so that its cache miss overlaps the goal test
        // (measured: 8% less time on 3x7 with 5 walls) and the oracle's.
        let key = key.unwrap_or_else(|| node.key(tables));
        self.shared.tt.prefetch(key);
        if !attacking && self.oracle_refutes(node, depth) {
            return false;
        }
        if self.oracle_proves(node, depth) {
            return true;
        }
        let mover_dist = if attacking {
            dist
        } else {
            tables.distance(node.config, node.to_move, node.pawn(node.to_move))
        };
        if node.finishes(tables, mover_dist) {
            return attacking; // the defender finishing first is a failure
        }
        // (Skipping the table near the leaves, where its probe is a cache miss, was measured:
        // no gain at 3, 4 or 5 plies left.)
        let fact = self.shared.tt.probe(key, a);
        if fact.win <= depth {
            return true;
        }
        if fact.refuted >= depth {
            return false;
        }
        if self.aborted() {
            return false;
        }
        let best = order::mirror_move(tables, node, key, fact.best);
        // Without a spare tempo (every own move must bring the pawn nearer), walls and pawn
        // moves that leave the goal out of reach of the remaining moves cannot win.
        let dests = node.pawn_destinations(tables);
        let pawns_within = attacking
            .then(|| spare_tempo(node, tables.board(), dist, own_moves))
            .flatten();
        // The table's move first, before generating the others: it usually decides, and
        // generating every wall is a quarter of the search's time.
        let tried = best != NO_MOVE && order::admissible(tables, node, dests, best, pawns_within);
        if tried && self.decides(node, best, depth) {
            return self.decided(node, key, depth, best);
        }
        let mut moves = order::Moves::new();
        let skip = if tried { best } else { NO_MOVE };
        moves.generate(
            tables,
            node,
            dests,
            skip,
            &self.shared.history,
            pawns_within,
        );
        if moves.is_empty() && !tried {
            // The player to move is stuck (a draw, not a win), or the attacker has no move
            // that keeps the goal within reach.
            return false;
        }
        match self.deciding_move(node, moves.as_slice(), depth, tried) {
            Some(mv) => self.decided(node, key, depth, mv),
            // (Remembering for an undecided node the child that took the most work, to try it
            // first when searched deeper, was measured: 1-2% more nodes.)
            None => self.record(node, key, depth, !attacking, NO_MOVE),
        }
    }

    /// Whether the oracle, if any, knows the attacker cannot win from `node` within
    /// `depth` plies.
    fn oracle_refutes(&self, node: &Node, depth: u8) -> bool {
        self.oracle_plies(node, Side::Fewest)
            .is_some_and(|plies| plies > u32::from(depth))
    }

    /// Whether the oracle, if any, knows the attacker wins from `node` within `depth`
    /// plies.
    fn oracle_proves(&self, node: &Node, depth: u8) -> bool {
        self.oracle_plies(node, Side::Most)
            .is_some_and(|plies| plies <= u32::from(depth))
    }

    /// What the oracle, if any, knows of the plies the attacker needs from `node`, on
    /// `side`.
    fn oracle_plies(&self, node: &Node, side: Side) -> Option<u32> {
        let tables = self.shared.tables;
        let oracle = match side {
            Side::Fewest => self.shared.oracle?,
            Side::Most => self.shared.proving?,
        };
        let walls = || tables.walls(node.config);
        let memo = tables.oracle_memo(node.config);
        match side {
            Side::Fewest => oracle.fewest_plies(node, &walls, memo, self.attacker),
            Side::Most => oracle.most_plies(node, &walls, memo, self.attacker),
        }
    }

    /// Whether the child after `mv` decides `node`: a win for the attacker at an attacker
    /// node, a refutation at a defender node.
    fn decides(&mut self, node: &Node, mv: Move, depth: u8) -> bool {
        let child = node.play(self.shared.tables, mv);
        self.child_decides(node, &child, None, depth)
    }

    /// `decides` for the child `child`, of key `key` if known.
    fn child_decides(&mut self, node: &Node, child: &Node, key: Option<Key>, depth: u8) -> bool {
        self.attack_keyed(child, depth - 1, key) == (node.to_move == self.attacker)
    }

    /// `mv` decided `node`: credit it and store the answer.
    fn decided(&mut self, node: &Node, key: Key, depth: u8, mv: Move) -> bool {
        self.shared.history.bump(node.to_move.index(), mv, depth);
        let attacking = node.to_move == self.attacker;
        self.record(node, key, depth, attacking, mv)
    }

    /// The first move (in order) that decides the node. Deep nodes search the first move
    /// alone (unless `eldest_tried`: a move was already searched alone) and then the others
    /// in parallel ("young brothers wait"); which deciding move is returned may then vary,
    /// whether one exists does not.
    fn deciding_move(
        &mut self,
        node: &Node,
        moves: &[order::ScoredMove],
        depth: u8,
        eldest_tried: bool,
    ) -> Option<Move> {
        let tables = self.shared.tables;
        let rest = if eldest_tried {
            moves
        } else {
            let (first, rest) = moves.split_first()?;
            if self.decides(node, first.mv, depth) {
                return Some(first.mv);
            }
            rest
        };
        // The first move usually decides; when it did not, every other child will likely be
        // searched: start loading all their table buckets at once (if they probe at all),
        // keeping their keys for their searches.
        let attacking = node.to_move == self.attacker;
        let mut keys = ArrayVec::<Key, MAX_MOVES>::new();
        if probes_table(depth - 1, !attacking) {
            // A child's key reads its configuration's record (with an on-demand store):
            // those loads are started first too.
            if T::PREFETCHES {
                for r in rest.iter().filter(|r| r.mv >= WALL_BASE) {
                    tables.prefetch_key(node.play(tables, r.mv).config);
                }
            }
            for r in rest {
                let key = node.play(tables, r.mv).key(tables);
                self.shared.tt.prefetch(key);
                keys.push(key);
            }
        }
        let key = |i: usize| keys.get(i).copied();
        if depth < self.shared.split_depth {
            return rest.iter().enumerate().find_map(|(i, r)| {
                let child = node.play(tables, r.mv);
                self.child_decides(node, &child, key(i), depth)
                    .then_some(r.mv)
            });
        }
        let (shared, attacker) = (self.shared, self.attacker);
        rest.par_iter().enumerate().find_map_any(|(i, r)| {
            let mut search = Search::new(shared, attacker);
            let child = node.play(tables, r.mv);
            let hit = search.child_decides(node, &child, key(i), depth);
            search.report();
            hit.then_some(r.mv)
        })
    }

    /// Stores the answer (unless aborted) and returns it. A store that ran out of room
    /// may have answered this node's children wrongly before the next abort check: its
    /// mark is read here directly.
    fn record(&mut self, node: &Node, key: Key, depth: u8, won: bool, mv: Move) -> bool {
        let tables = self.shared.tables;
        if !self.shared.abort.load(Ordering::Relaxed) && !tables.exhausted() {
            let stored = order::key_move(tables, node, key, mv);
            self.claimed += self.shared.tt.store(key, self.attacker, depth, won, stored);
        }
        won
    }

    /// `attack` from the root of an iteration, adding its nodes to the shared count.
    pub fn attack_root(shared: &Shared<'a, T>, attacker: Player, node: &Node, depth: u8) -> bool {
        let mut search = Search::new(shared, attacker);
        let won = if node.to_move == attacker && search.oracle_refutes(node, depth) {
            search.nodes += 1; // a node answered, as `attack` counts every one
            false
        } else {
            search.attack(node, depth)
        };
        search.report();
        won
    }
}

#[cfg(test)]
mod tests {
    use super::{own_moves, reach};

    #[test]
    fn reach_counts_jumps_only_once_the_pawns_can_meet() {
        // Side by side: every move may be a jump.
        assert_eq!(reach(3, 1, true), 6);
        // Far apart: single steps only.
        assert_eq!(reach(3, 20, true), 3);
        assert_eq!(reach(3, 20, false), 3);
        // 4 squares apart: side by side after 3 plies at the soonest. Moving first, the
        // attacker's moves at plies 0 and 2 are steps, at 4 a jump; second, at ply 1 a
        // step, at 3 and 5 jumps.
        assert_eq!(reach(3, 4, true), 4);
        assert_eq!(reach(3, 4, false), 5);
        // Against the count of own moves it is built on, at every depth and distance.
        for depth in 0..=u8::MAX {
            for attacking in [false, true] {
                let own = own_moves(depth, attacking);
                for apart in 1..300 {
                    let r = reach(own, apart, attacking);
                    assert!(own as u16 <= r && r <= 2 * own as u16, "{depth} {apart}");
                    if apart > depth as usize {
                        assert_eq!(r, own as u16, "{depth} {apart}");
                    }
                }
            }
        }
    }
}
