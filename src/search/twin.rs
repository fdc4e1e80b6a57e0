//! The slow twin of the search's own move path: on every reachable position of small cells,
//! what `Moves::generate`, `admissible`, `Node::play`, `Node::finishes` and the mirrored
//! keys and moves say, against the rules engine (`Position::legal_actions` with a flood
//! fill per wall, itself checked against an independent reference engine in
//! tests/differential.rs). The search's fast path reads walls from the configuration tables
//! and distances; none of that is used on the slow side.

use super::node::NO_MOVE;
use super::node::{Key, Move, Node, WALL_BASE};
use super::order::{self, History, Moves};
use crate::configs::Tables;
use crate::rules::geometry::Board;
use crate::rules::position::{Action, Position};
use crate::support::progress::Silent;
use std::collections::{HashMap, HashSet};

/// Every position reachable from the start, by the rules engine.
fn reachable(board: Board, walls: u8) -> Vec<Position> {
    let start = Position::start(board, walls).unwrap();
    let mut seen = HashSet::from([start]);
    let mut stack = vec![start];
    while let Some(pos) = stack.pop() {
        for a in pos.legal_actions(board) {
            let next = pos.play(a);
            if seen.insert(next) {
                stack.push(next);
            }
        }
    }
    seen.into_iter().collect()
}

fn check_cell(w: usize, h: usize, walls: u8) -> usize {
    let board = Board::new(w, h).unwrap();
    let tables = Tables::build(board, walls, u64::MAX, &Silent).unwrap();
    let history = History::new();
    let slots = tables.children(0).len();
    let mut by_key: HashMap<Key, Position> = HashMap::new();
    let positions = reachable(board, walls);
    for pos in &positions {
        let cell = format!("{w}x{h} with {walls}: {pos:?}");
        let node = Node::from_position(&tables, pos).unwrap();
        assert_eq!(node.to_position(&tables), *pos, "{cell}");
        // Keys: a position and its mirror image share the key, and no other does.
        let mirror = pos.mirror(board);
        let mirror_node = Node::from_position(&tables, &mirror).unwrap();
        let key = node.key(&tables);
        assert_eq!(key, mirror_node.key(&tables), "{cell}");
        if let Some(other) = by_key.insert(key, *pos) {
            assert!(
                other == *pos || other == mirror,
                "{cell} and {other:?} share a key"
            );
        }
        if pos.winner(board).is_some() {
            continue;
        }
        let legal = pos.legal_actions(board);
        let dests = node.pawn_destinations(&tables);
        // The walls that lose at once: with the pawns apart, a wall after which the other
        // player can step onto their goal. The mover can then always step.
        let apart = !board.adjacent(pos.pawns[0], pos.pawns[1]);
        assert!(
            !apart || legal.iter().any(|a| matches!(a, Action::Pawn(_))),
            "{cell}"
        );
        let loses_at_once = |a: &Action| {
            let next = pos.play(*a);
            matches!(a, Action::Wall(_))
                && apart
                && next.legal_actions(board).iter().any(
                    |b| matches!(*b, Action::Pawn(c) if board.goal(next.to_move) >> c & 1 == 1),
                )
        };
        // Every move, generated and ordered, is a legal action and every legal action but
        // those is generated, each once.
        let mut moves = Moves::new();
        moves.generate(&tables, &node, dests, NO_MOVE, &history, None);
        let generated: Vec<Action> = moves.iter().map(|m| Node::action(&tables, m)).collect();
        let unique: HashSet<Action> = generated.iter().copied().collect();
        assert_eq!(unique.len(), generated.len(), "{cell}: a move twice");
        let listed: HashSet<Action> = legal
            .iter()
            .copied()
            .filter(|a| !loses_at_once(a))
            .collect();
        assert_eq!(unique, listed, "{cell}");
        // `admissible` says yes exactly to those, for every value a move can take.
        for mv in (0..WALL_BASE).chain(WALL_BASE..WALL_BASE + slots as Move) {
            let action = Node::action(&tables, mv);
            let is_legal = legal.contains(&action)
                && (mv >= WALL_BASE || (mv as usize) < board.squares())
                && !loses_at_once(&action);
            assert_eq!(
                order::admissible(&tables, &node, dests, mv, None),
                is_legal,
                "{cell}: move {mv}"
            );
        }
        for mv in moves.iter() {
            let action = Node::action(&tables, mv);
            // Playing a move gives the rules engine's next position.
            let child = node.play(&tables, mv);
            assert_eq!(
                child.to_position(&tables),
                pos.play(action),
                "{cell} {action:?}"
            );
            assert_eq!(Node::encode(&tables, action), mv);
            // A move stored under the mirror image's key comes back mirrored, and the
            // mirrored move is legal in the mirror image with the mirrored result.
            if mirror != *pos {
                let mirrored = order::mirror_move(&tables, &node, mirror_node.own_key(&tables), mv);
                let mirror_child = mirror_node.play(&tables, mirrored);
                assert_eq!(
                    mirror_child.to_position(&tables),
                    pos.play(action).mirror(board),
                    "{cell} {action:?}"
                );
                assert!(order::admissible(
                    &tables,
                    &mirror_node,
                    mirror_node.pawn_destinations(&tables),
                    mirrored,
                    None
                ));
                let back =
                    order::mirror_move(&tables, &mirror_node, node.own_key(&tables), mirrored);
                assert_eq!(back, mv, "{cell} {action:?}");
            }
        }
        // With `pawns_within`, only the pawn moves that many steps from the goal or nearer.
        let me = pos.to_move;
        for within in 0..4 {
            let mut near = Moves::new();
            near.generate(&tables, &node, dests, NO_MOVE, &history, Some(within));
            let got: HashSet<Action> = near.iter().map(|m| Node::action(&tables, m)).collect();
            let want: HashSet<Action> = legal
                .iter()
                .copied()
                .filter(|a| match *a {
                    Action::Pawn(c) => tables.distance(node.config, me, c) <= within,
                    Action::Wall(_) => false,
                })
                .collect();
            assert_eq!(got, want, "{cell} within {within}");
        }
        // `finishes`: the player to move can step onto their goal row now.
        let dist = tables.distance(node.config, me, pos.pawn(me));
        let finishes = legal.iter().any(|a| match *a {
            Action::Pawn(c) => board.goal(me) >> c & 1 == 1,
            Action::Wall(_) => false,
        });
        assert_eq!(node.finishes(&tables, dist), finishes, "{cell}");
    }
    positions.len()
}

#[test]
fn the_search_moves_as_the_rules_engine_on_every_reachable_position() {
    let mut checked = 0;
    for (w, h, walls) in [
        (3, 3, 2),
        (4, 3, 1),
        (3, 4, 1),
        (2, 5, 2),
        (5, 2, 2),
        (2, 3, 3),
    ] {
        checked += check_cell(w, h, walls);
    }
    assert!(checked > 10_000, "{checked}");
}
