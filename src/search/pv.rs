//! The principal line of a proven win: the winner's moves win in exactly the proven number of
//! plies, and the loser's moves hold out that long.
//!
//! Invariant (from the minimality of the proven length `L`): at an attacker node with `d`
//! plies left, the attacker wins within `d` but not within `d - 2`. The attacker plays a move
//! that wins within `d - 1`. At the defender's node, with `e = d - 1` plies left, the attacker
//! cannot win within `e - 2`, so the defender has a move after which the attacker cannot win
//! within `e - 3` (else the attacker would win within `e - 2`), and plays it; the invariant
//! holds again one ply on. So the line ends on the goal after exactly `L` plies.

use super::node::NO_MOVE;
use super::node::{Move, Node, WALL_BASE};
use super::order::Moves;
use super::{Search, Shared};
use crate::configs::ConfigTables;
use crate::rules::geometry::Player;

/// The line of `length` plies from `start` in which `attacker` wins (the win must be proven).
/// Where the configuration store fills meanwhile, the line stops before the ply being read
/// (a full store's searches answer nothing: a defender's move would look like a hold-out);
/// the caller empties the store and reads on from there (`deepening::solve_forgetting`).
pub fn principal_line<T: ConfigTables>(
    shared: &Shared<'_, T>,
    attacker: Player,
    start: &Node,
    length: u8,
) -> Vec<Move> {
    let tables = shared.tables;
    let goal = tables.board().goal(attacker);
    let mut search = Search::new(shared, attacker);
    let mut node = *start;
    let mut line = Vec::new();
    let mut left = length;
    while left > 0 {
        let dests = node.pawn_destinations(tables);
        let mut moves = Moves::new();
        moves.generate(tables, &node, dests, NO_MOVE, &shared.history, None);
        let attacking = node.to_move == attacker;
        let chosen = if attacking {
            moves.iter().find(|&m| {
                (m < WALL_BASE && goal >> m & 1 == 1)
                    || search.attack(&node.play(tables, m), left - 1)
            })
        } else {
            // Hold out: a move after which the attacker needs every remaining ply.
            known_hold_out(shared, attacker, &node, &moves, left).or_else(|| {
                moves
                    .iter()
                    .find(|&m| left < 3 || !search.attack(&node.play(tables, m), left - 3))
            })
        };
        if tables.exhausted() {
            break;
        }
        let Some(mv) = chosen else {
            break; // cannot happen for a proven, minimal win; the caller checks the length
        };
        line.push(mv);
        node = node.play(tables, mv);
        left -= 1;
        if goal >> node.pawn(attacker) & 1 == 1 {
            break;
        }
    }
    search.report();
    line
}

/// The first of the defender's `moves` at `node` (`left` plies to go) after which the table
/// already knows the attacker cannot win within `left - 3`: a probe a move, no search. The
/// iteration of depth `L - 2` stored such a refutation for the move it refuted with, and
/// the table usually still holds it; without it, every move tried before the hold-out is
/// proven a win within `left - 3`, a proof that can be as large as an iteration (6x5 with 8
/// walls: the line stopped at its first ply when those proofs filled a 16 GiB store twice).
/// The table's facts are proven, so the line's invariant holds as with a searched hold-out;
/// only which of several hold-outs the line takes may differ.
fn known_hold_out<T: ConfigTables>(
    shared: &Shared<'_, T>,
    attacker: Player,
    node: &Node,
    moves: &Moves,
    left: u8,
) -> Option<Move> {
    let tables = shared.tables;
    let needed = left.checked_sub(3)?;
    moves.iter().find(|&m| {
        let child = node.play(tables, m);
        shared.tt.probe(child.key(tables), attacker).refuted >= needed
    })
}
