//! The outcomes of an analysis as the proof search's oracle: the compact analysis gives
//! who wins, and the search finds the length with them (`search::Oracle`).

use crate::configs::NO_MEMO;
use crate::retro::{Solved, Wdl};
use crate::rules::geometry::Player;
use crate::rules::walls::WallSet;
use crate::search::{Node, Oracle};
use std::sync::atomic::{AtomicU32, Ordering};

/// A retrograde analysis's outcomes (either precision) as the search's oracle.
pub struct RetroOracle<'s, 't>(pub &'s Solved<'t>);

impl Oracle for RetroOracle<'_, '_> {
    fn wins(
        &self,
        node: &Node,
        walls: &dyn Fn() -> WallSet,
        memo: Option<&AtomicU32>,
        player: Player,
    ) -> Option<bool> {
        // The eager tables number configurations as the search does; else by wall set,
        // ranked once per configuration the store holds (the ranking was a fifth of the
        // length search's time on 6x5 with 9 walls: every node asks, and most share their
        // configuration with their parent).
        let rank = || self.0.configs().id_of(walls());
        let config = match (self.0.tables(), memo) {
            (Some(_), _) => node.config,
            (None, Some(memo)) => match memo.load(Ordering::Relaxed) {
                NO_MEMO => {
                    let id = rank()?;
                    memo.store(id, Ordering::Relaxed);
                    id
                }
                id => id,
            },
            (None, None) => rank()?,
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
