//! The outcomes of an analysis as the proof search's oracle: the compact analysis gives
//! who wins, and the search finds the length with them (`search::Oracle`).

use crate::retro::{Solved, Wdl};
use crate::rules::geometry::Player;
use crate::rules::walls::WallSet;
use crate::search::{Node, Oracle};

/// A retrograde analysis's outcomes (either precision) as the search's oracle.
pub struct RetroOracle<'s, 't>(pub &'s Solved<'t>);

impl Oracle for RetroOracle<'_, '_> {
    fn wins(&self, node: &Node, walls: &dyn Fn() -> WallSet, player: Player) -> Option<bool> {
        // The eager tables number configurations as the search does; else by wall set.
        let config = match self.0.tables() {
            Some(_) => node.config,
            None => self.0.configs().id_of(walls())?,
        };
        let mover = self
            .0
            .outcome_of(config, node.left, node.pawns, node.to_move)?;
        Some(match mover {
            Wdl::Win => node.to_move == player,
            Wdl::Loss => node.to_move != player,
            Wdl::Draw => false,
        })
    }
}
