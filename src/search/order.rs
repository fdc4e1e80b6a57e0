//! Move generation and ordering for the search. Moves are tried best first:
//! the transposition table's move, then by how much they improve the mover's race — the
//! opponent's goal distance gained minus the mover's own distance lost, read from the
//! configuration tables ("Solving Quoridor", docs/SOURCES.md: "moves that help yourself or hurt your opponent first").

use super::node::NO_MOVE;
use super::node::{Key, MAX_MOVES, MOVE_SPAN, Move, Node, WALL_BASE};
use crate::configs::ConfigTables;
use crate::rules::bitboard::Squares;
use crate::rules::bitboard::bits;
use crate::rules::geometry::Square;
use crate::support::own_line::{OwnLine, this_thread};
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicU32, Ordering};

/// How often each move decided a node (history heuristic), per player to move, kept by each
/// thread for itself: counters shared by the threads made the cores fight over their cache
/// lines at every decided node. It only orders moves, so it cannot change an answer.
pub struct History {
    /// Two blocks per thread (one per side to move), each on cache lines of its own.
    counts: Box<[OwnLine<[AtomicU32; MOVE_SPAN]>]>,
}

impl History {
    /// Counters for the threads of the current rayon pool.
    pub fn new() -> History {
        let blocks = 2 * rayon::current_num_threads();
        History {
            counts: (0..blocks)
                .map(|_| OwnLine(std::array::from_fn(|_| AtomicU32::new(0))))
                .collect(),
        }
    }

    /// The calling thread's counters for `side` (0 or 1), one per move value. Looked up once
    /// per node, not per move: finding the thread's block costs a division.
    fn block(&self, side: usize) -> &[AtomicU32] {
        &self.counts[this_thread(self.counts.len() / 2) * 2 + side].0
    }

    /// `mv` decided a node at `depth` plies for `side` (0 or 1).
    pub fn bump(&self, side: usize, mv: Move, depth: u8) {
        let d = depth as u32;
        self.block(side)[mv as usize].fetch_add(d * d, Ordering::Relaxed);
    }
}

/// A move's history score, from its side's block of counters.
#[inline(always)]
fn score(block: &[AtomicU32], mv: Move) -> i32 {
    block[mv as usize].load(Ordering::Relaxed).min(HISTORY_CAP) as i32
}

impl Default for History {
    fn default() -> Self {
        Self::new()
    }
}

const HISTORY_CAP: u32 = (1 << 16) - 1;

/// A move with its ordering score: one 8-byte item, so that sorting moves one item, not an
/// entry in each of two lists.
#[derive(Clone, Copy)]
pub struct ScoredMove {
    score: i32,
    pub mv: Move,
}

/// A node's legal moves with their ordering scores, best first after `generate`. Room for
/// the most moves of any board (215 on 16x8) but nothing written before it is used: a
/// zeroed list would cost every node over a kilobyte of writes.
pub struct Moves {
    list: ArrayVec<ScoredMove, MAX_MOVES>,
}

impl Default for Moves {
    fn default() -> Self {
        Self::new()
    }
}

impl Moves {
    pub fn new() -> Moves {
        Moves {
            list: ArrayVec::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn as_slice(&self) -> &[ScoredMove] {
        &self.list
    }

    /// The moves, in order.
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.list.iter().map(|r| r.mv)
    }

    fn push(&mut self, mv: Move, score: i32) {
        self.list.push(ScoredMove { score, mv });
    }

    /// Every legal move of `node` (pawn destinations `dests` already computed) but `skip`
    /// and the walls that lose at once (`futile_walls`), ordered. With `pawns_within =
    /// Some(d)` only pawn moves to cells at most `d` steps from the mover's goal are
    /// generated: the caller knows nothing else can succeed.
    pub fn generate<T: ConfigTables>(
        &mut self,
        tables: &T,
        node: &Node,
        dests: Squares,
        skip: Move,
        history: &History,
        pawns_within: Option<u8>,
    ) {
        self.list.clear();
        let me = node.to_move;
        let history = history.block(me.index());
        let op = me.other();
        let (my_cell, op_cell) = (node.pawn(me), node.pawn(op));
        let my_dist = tables.distance(node.config, me, my_cell) as i16;
        let op_dist = tables.distance(node.config, op, op_cell) as i16;
        let skipped_cell: Squares = if skip < WALL_BASE { 1 << skip } else { 0 };
        if pawns_within.is_none() {
            // The children's distances are read at random: start every load first.
            node.prefetch_walls(tables);
        }
        for cell in bits(dests & !skipped_cell) {
            let dist = tables.distance(node.config, me, cell);
            if pawns_within.is_some_and(|d| dist > d) {
                continue;
            }
            let gain = my_dist - dist as i16;
            let mv = cell as Move;
            self.push(mv, ((4 * gain) as i32) << 16 | score(history, mv));
        }
        if pawns_within.is_none() {
            let futile = futile_walls(tables, node);
            node.for_each_wall(tables, |mv, dists| {
                if mv == skip || futile && dists[op.index()] == 1 {
                    return;
                }
                let hurt = dists[op.index()] as i16 - op_dist;
                let cost = dists[me.index()] as i16 - my_dist;
                let primary = (4 * (hurt - cost) - 1) as i32;
                self.push(mv, primary << 16 | score(history, mv));
            });
        }
        self.sort();
    }

    /// Insertion sort, best score first, stable: lists are short and nearly sorted.
    fn sort(&mut self) {
        let list = self.list.as_mut_slice();
        for i in 1..list.len() {
            let item = list[i];
            let mut j = i;
            while j > 0 && list[j - 1].score < item.score {
                list[j] = list[j - 1];
                j -= 1;
            }
            list[j] = item;
        }
    }
}

/// Whether `generate` leaves out the walls after which the other player is one step from
/// their goal: with the pawns apart that step is theirs at once, so such a wall loses
/// whoever places it (the mover's own win is a pawn move, never a wall). The mover keeps a
/// move (their list is empty only for a draw): a pawn apart from the other can always step,
/// since it has an open side towards its goal and only the other pawn could stand there.
pub fn futile_walls<T: ConfigTables>(tables: &T, node: &Node) -> bool {
    !tables.board().adjacent(node.pawns[0], node.pawns[1])
}

/// Whether `mv` is a legal move of `node` that `generate` with `pawns_within` would list.
pub fn admissible<T: ConfigTables>(
    tables: &T,
    node: &Node,
    dests: Squares,
    mv: Move,
    pawns_within: Option<u8>,
) -> bool {
    if mv < WALL_BASE {
        dests >> mv & 1 == 1
            && pawns_within
                .is_none_or(|d| tables.distance(node.config, node.to_move, mv as Square) <= d)
    } else {
        let op = node.to_move.other();
        pawns_within.is_none()
            && node.wall_child(tables, mv).is_some_and(|child| {
                !futile_walls(tables, node) || tables.distance(child, op, node.pawn(op)) != 1
            })
    }
}

/// The left-right mirror image of a move.
fn mirror<T: ConfigTables>(tables: &T, mv: Move) -> Move {
    let board = tables.board();
    if mv < WALL_BASE {
        board.mirror_square(mv as Square) as Move
    } else {
        let wall = tables.slot_wall((mv - WALL_BASE) as usize);
        let (c, r) = (board.col(wall.anchor), board.row(wall.anchor));
        let anchor = board.square(board.width() - 2 - c, r);
        let mirrored = crate::rules::walls::Wall { anchor, ..wall };
        WALL_BASE + tables.slot(mirrored) as Move
    }
}

/// Whether `key` (the canonical key) is the node's mirror image's key rather than its own.
fn mirrored<T: ConfigTables>(tables: &T, node: &Node, key: Key) -> bool {
    node.own_key(tables) != key
}

/// A move stored under the canonical key, translated to this node's orientation.
pub fn mirror_move<T: ConfigTables>(tables: &T, node: &Node, key: Key, stored: Move) -> Move {
    if stored == NO_MOVE || !mirrored(tables, node, key) {
        stored
    } else {
        mirror(tables, stored)
    }
}

/// A move of this node, translated to the canonical key's orientation for storing.
pub fn key_move<T: ConfigTables>(tables: &T, node: &Node, key: Key, mv: Move) -> Move {
    mirror_move(tables, node, key, mv)
}
