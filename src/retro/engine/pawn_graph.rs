//! The pawn moves of one configuration: where a pawn may go from each pair of cells
//! (`dests`), the open steps from each cell (`steps`) and the cells from which a pawn may
//! move to each cell (`readers`). Pawn moves never change the
//! walls, so every split of walls left of the configuration shares this graph, and both
//! players use it (a move depends only on the mover's cell and the other pawn's cell).

use crate::rules::bitboard::{OpenEdges, bits};
use crate::rules::geometry::{Board, MAX_SQUARES, Square};
use crate::rules::walls::WallSet;

pub struct PawnGraph {
    cells: usize,
    /// The configuration's open edges (the bit-parallel solve in `levels.rs` shifts rows
    /// of positions along them).
    edges: OpenEdges<u64>,
    /// `steps[me]`: the cells one open step from `me` (where the pawn goes when the other
    /// pawn is not in the way).
    steps: [u64; MAX_SQUARES],
    /// `readers[to]`: the live cells from which a pawn may move to `to` (wherever the other
    /// pawn is): whose rows read the row of `to` (`levels.rs`).
    readers: [u64; MAX_SQUARES],
    /// The live cells with fewer than two open steps (only a pawn there can be stuck).
    narrow: u64,
    /// `dests[me * S + other]`: cells the pawn on `me` may move to, written only where
    /// `other` is one open step from `me` (see `dests()`).
    dests: Vec<u64>,
}

impl PawnGraph {
    pub fn new(board: Board) -> PawnGraph {
        let cells = board.squares();
        PawnGraph {
            cells,
            edges: WallSet::default().edges_in::<u64>(board),
            steps: [0; MAX_SQUARES],
            readers: [0; MAX_SQUARES],
            narrow: 0,
            dests: vec![0; cells * cells],
        }
    }

    /// Fills the graph for `config`. Only cells from which some pawn still reaches its goal
    /// are filled: a pawn move keeps a pawn in its component, and the other cells hold no
    /// position.
    pub fn build(&mut self, board: Board, walls: WallSet, reach: [u64; 2]) {
        // Open edges in one word: the analysis's boards have at most 64 cells.
        let edges = walls.edges_in::<u64>(board);
        self.edges = edges;
        let live = reach[0] | reach[1];
        self.narrow = 0;
        for to in bits(live) {
            self.readers[to as usize] = 0;
        }
        // Only pairs of live cells are read (a position's pawns are live, and a pawn move
        // stays in its component, which is live). Away from the other pawn a pawn just
        // steps: `dests` is written only for the other pawn one step away, where it may
        // jump (`dests()` answers the rest from `steps`; writing every pair took 4 % of
        // 5x5 w3's instructions).
        for me in bits(live) {
            let steps = edges.expand(1 << me);
            self.steps[me as usize] = steps;
            self.narrow |= u64::from(steps.count_ones() < 2) << me;
            let mut moves = steps;
            for other in bits(steps & live) {
                let d = edges.pawn_destinations(me, other);
                self.dests[me as usize * self.cells + other as usize] = d;
                moves |= d;
            }
            for to in bits(moves) {
                self.readers[to as usize] |= 1 << me;
            }
        }
    }

    /// The configuration's open edges.
    #[inline(always)]
    pub fn edges(&self) -> &OpenEdges<u64> {
        &self.edges
    }

    /// Cells one open step from the live cell `me`.
    #[inline(always)]
    pub fn steps(&self, me: Square) -> u64 {
        self.steps[me as usize]
    }

    /// The live cells from which a pawn may move to the live cell `to`.
    #[inline(always)]
    pub fn readers(&self, to: Square) -> u64 {
        self.readers[to as usize]
    }

    /// The live cells with fewer than two open steps: a pawn elsewhere always has a move.
    #[inline(always)]
    pub fn narrow_cells(&self) -> u64 {
        self.narrow
    }

    /// Squares the pawn on `me` may move to while the other pawn stands on `other` (both
    /// live).
    #[inline(always)]
    pub fn dests(&self, me: Square, other: Square) -> u64 {
        let steps = self.steps[me as usize];
        if steps >> other & 1 == 1 {
            self.dests[me as usize * self.cells + other as usize]
        } else {
            steps
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configs::ConfigId;
    use crate::configs::Tables;
    use crate::retro::narrow;
    use crate::rules::geometry::Player;
    use crate::support::progress::Silent;

    #[test]
    fn destinations_steps_and_reach_follow_the_rules() {
        let board = Board::new(4, 3).unwrap();
        let tables = Tables::build(board, 2, u64::MAX, &Silent).unwrap();
        let mut graph = PawnGraph::new(board);
        for config in 0..tables.len() as ConfigId {
            let reach = [Player::One, Player::Two].map(|p| narrow(tables.reach(config, p)));
            graph.build(board, tables.walls(config), reach);
            let edges = tables.walls(config).edges(board);
            let live = tables.reach(config, Player::One) | tables.reach(config, Player::Two);
            for me in bits(live) {
                let mut reach = 0;
                for other in bits(live & !(1 << me)) {
                    assert_eq!(
                        graph.dests(me, other),
                        narrow(edges.pawn_destinations(me, other))
                    );
                    reach |= graph.dests(me, other);
                }
                // With the other pawn out of the way (or off the board's live cells).
                assert_eq!(graph.steps(me), narrow(edges.pawn_destinations(me, me)));
                for to in bits(live) {
                    let moves = (reach | graph.steps(me)) >> to & 1 == 1;
                    assert_eq!(graph.readers(to) >> me & 1 == 1, moves);
                }
                let narrow = graph.narrow_cells() >> me & 1 == 1;
                assert_eq!(narrow, graph.steps(me).count_ones() < 2);
            }
        }
    }
}
