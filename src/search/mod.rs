//! Iterative-deepening proof search with (0, ∞) bounds (seeds/003, "Proof search").
//!
//! The question at every node is boolean: can the *attacker* force their pawn onto their goal
//! row within `depth` plies, against every defence? Player 1 can only finish on odd plies
//! from the start, Player 2 on even ones, so the driver (`solver.rs`) asks "Player 1 within
//! d?" for odd d and "Player 2 within d?" for even d, d = 1, 2, 3, ...: the first yes gives the
//! winner and the exact length of the win.

pub mod node;
pub mod order;
pub mod pv;
pub mod tt;

use crate::geometry::Player;
use crate::tables::Tables;
use node::{Move, Node, WALL_BASE};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use tt::{NO_MOVE, Table};

/// Everything a search thread shares with the others.
pub struct Shared<'a> {
    pub tables: &'a Tables,
    pub tt: &'a Table,
    /// Set when the time limit passes; an aborted search's answers are meaningless.
    pub abort: &'a AtomicBool,
    pub deadline: Option<std::time::Instant>,
    pub nodes: AtomicU64,
}

/// One thread's search for one attacker.
pub struct Search<'s, 'a> {
    shared: &'s Shared<'a>,
    attacker: Player,
    nodes: u64,
}

impl<'s, 'a> Search<'s, 'a> {
    pub fn new(shared: &'s Shared<'a>, attacker: Player) -> Self {
        Search {
            shared,
            attacker,
            nodes: 0,
        }
    }

    fn aborted(&mut self) -> bool {
        if self.nodes.is_multiple_of(4096)
            && let Some(deadline) = self.shared.deadline
            && std::time::Instant::now() >= deadline
        {
            self.shared.abort.store(true, Ordering::Relaxed);
        }
        self.shared.abort.load(Ordering::Relaxed)
    }

    /// Can the attacker force a win within `depth` plies from `node`?
    ///
    /// Contract: `node` is not finished (neither pawn on its goal row). Returns `true` iff
    /// the attacker has a strategy that puts their pawn on their goal row within `depth`
    /// plies against every defence; the defender reaching their own goal first, or a player
    /// being left without a legal action (a draw), counts as failure. The answer depends only
    /// on (`node`, `depth`), which is what makes the transposition table sound. When the
    /// search is aborted (time limit) the return value is meaningless and nothing is stored.
    pub fn attack(&mut self, node: &Node, depth: u8) -> bool {
        self.nodes += 1;
        if depth == 0 {
            return false;
        }
        let tables = self.shared.tables;
        let board = tables.board();
        let a = self.attacker;
        let attacking = node.to_move == a;
        let dests = node.pawn_destinations(tables);
        if attacking && dests & board.goal(a) != 0 {
            return true;
        }
        if !attacking && dests & board.goal(a.other()) != 0 {
            return false;
        }
        // Each own move brings the pawn at most two steps nearer (a jump), so the attacker
        // needs at least ceil(dist / 2) of the moves it has left.
        let own_moves = if attacking {
            depth.div_ceil(2)
        } else {
            depth / 2
        };
        let dist = tables.distance(node.config, a, node.pawn(a));
        if dist.div_ceil(2) > own_moves || own_moves <= 1 && attacking {
            // With one own move left, only an immediate step onto the goal (checked) wins.
            return false;
        }
        let key = node.key(tables);
        let fact = self.shared.tt.probe(key, a.index());
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
        let mut moves = order::Moves::new();
        moves.generate(tables, node, dests, best);
        if moves.is_empty() {
            return false; // the player to move is stuck: a draw, not a win
        }
        for &mv in moves.as_slice() {
            let child = node.play(tables, mv);
            if self.attack(&child, depth - 1) == attacking {
                return self.record(node, key, depth, attacking, mv);
            }
        }
        self.record(node, key, depth, !attacking, NO_MOVE)
    }

    /// Stores the answer (unless aborted) and returns it.
    fn record(&mut self, node: &Node, key: u64, depth: u8, won: bool, mv: Move) -> bool {
        if !self.shared.abort.load(Ordering::Relaxed) {
            let tables = self.shared.tables;
            let stored = order::key_move(tables, node, key, mv);
            self.shared
                .tt
                .store(key, self.attacker.index(), depth, won, stored);
        }
        won
    }

    /// `attack` at the root, with the root's moves split over the thread pool: the first
    /// move alone (it is the likeliest to decide), then the rest in parallel.
    pub fn attack_root(shared: &Shared, attacker: Player, node: &Node, depth: u8) -> bool {
        let tables = shared.tables;
        let attacking = node.to_move == attacker;
        let mut search = Search::new(shared, attacker);
        let dests = node.pawn_destinations(tables);
        let mut moves = order::Moves::new();
        moves.generate(tables, node, dests, NO_MOVE);
        let goal = tables.board().goal(node.to_move);
        let moves: Vec<Move> = moves.as_slice().to_vec();
        let wins_now = moves.iter().any(|&m| m < WALL_BASE && goal >> m & 1 == 1);
        if wins_now || moves.is_empty() {
            search.nodes += 1;
            shared.nodes.fetch_add(search.nodes, Ordering::Relaxed);
            return wins_now && attacking;
        }
        let Some((&first, rest)) = moves.split_first() else {
            unreachable!()
        };
        let decided = |mv: Move, search: &mut Search| {
            let child = node.play(tables, mv);
            depth > 0 && search.attack(&child, depth - 1) == attacking
        };
        let mut answer = if decided(first, &mut search) {
            attacking
        } else {
            let hit = rest.par_iter().any(|&mv| {
                let mut s = Search::new(shared, attacker);
                let d = decided(mv, &mut s);
                shared.nodes.fetch_add(s.nodes, Ordering::Relaxed);
                d
            });
            if hit { attacking } else { !attacking }
        };
        if depth == 0 {
            answer = false;
        }
        search.nodes += 1;
        shared.nodes.fetch_add(search.nodes, Ordering::Relaxed);
        answer
    }
}
