//! What the analysis reads of a cell's wall configurations, from either numbering of them:
//! the eager tables (`Tables`, every record built) or the ranked numbering (`Ranked`, no
//! record: a cell whose tables do not fit memory). Both number the configurations alike
//! (`configs/ranked.rs`), so a solved cell's values are the same bytes whichever was used,
//! and the search's ids (eager tables) read them directly.
//!
//! The analysis asks per configuration of a layer (not per position): its walls, the cells
//! each player reaches, and its children with theirs. So a lookup here costs little beside
//! the blocks it serves, and the trait is used through `dyn`.

use crate::configs::ConfigId;
use crate::configs::{NO_CHILD, Ranked, Tables};
use crate::rules::geometry::{Board, Player};
use crate::rules::walls::WallSet;
use std::ops::Range;

/// A configuration one wall further, and the cells each player reaches in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Child {
    pub id: ConfigId,
    pub reach: [u64; 2],
}

pub trait ConfigSource: Sync {
    fn board(&self) -> Board;

    fn walls_per_player(&self) -> u8;

    /// Configurations with 0, 1, ... walls.
    fn by_walls(&self) -> Vec<usize>;

    /// The ids of the configurations with `k` walls.
    fn layer(&self, k: usize) -> Range<ConfigId>;

    /// Every configuration.
    fn len(&self) -> usize;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn walls(&self, id: ConfigId) -> WallSet;

    /// The walls of `first`, `first + 1`, ... into `out`: what a pass over a layer reads.
    fn walls_from(&self, first: ConfigId, out: &mut [WallSet]) {
        for (i, w) in out.iter_mut().enumerate() {
            *w = self.walls(first + i as ConfigId);
        }
    }

    /// The id of a wall set, if it is one of the cell's configurations.
    fn id_of(&self, walls: WallSet) -> Option<ConfigId>;

    /// Calls `f(parent walls, parent id)` for each configuration that `walls` (one of the
    /// cell's) is made from by one wall.
    fn parents(&self, walls: WallSet, f: &mut dyn FnMut(WallSet, ConfigId)) {
        for wall in walls.iter() {
            let parent = walls.without(wall);
            let id = self
                .id_of(parent)
                .expect("a configuration less a wall is a configuration");
            f(parent, id);
        }
    }

    /// The cells from which each player reaches their goal row in `id` (whose walls are
    /// `walls`).
    fn reach(&self, id: ConfigId, walls: WallSet) -> [u64; 2];

    /// The configurations one wall more than `id` (walls `walls`) into `out`, cleared first.
    fn children(&self, id: ConfigId, walls: WallSet, out: &mut Vec<Child>);

    /// The bytes the numbering holds.
    fn bytes(&self) -> u64;

    /// The number of layers: the most walls a configuration holds, plus one.
    fn layers(&self) -> usize {
        self.by_walls().len()
    }

    /// The eager tables, if these are them: what the search and the move generation of a
    /// solved cell's explorers read.
    fn tables(&self) -> Option<&Tables> {
        None
    }
}

impl ConfigSource for Tables {
    fn board(&self) -> Board {
        Tables::board(self)
    }

    fn walls_per_player(&self) -> u8 {
        Tables::walls_per_player(self)
    }

    fn by_walls(&self) -> Vec<usize> {
        Tables::by_walls(self)
    }

    fn layer(&self, k: usize) -> Range<ConfigId> {
        Tables::layer(self, k)
    }

    fn len(&self) -> usize {
        Tables::len(self)
    }

    fn walls(&self, id: ConfigId) -> WallSet {
        Tables::walls(self, id)
    }

    fn id_of(&self, walls: WallSet) -> Option<ConfigId> {
        if (walls.horizontal | walls.vertical) & !Tables::board(self).anchors() != 0 {
            return None;
        }
        Tables::id_of(self, walls)
    }

    fn reach(&self, id: ConfigId, _walls: WallSet) -> [u64; 2] {
        [Player::One, Player::Two].map(|p| super::board::narrow(Tables::reach(self, id, p)))
    }

    fn children(&self, id: ConfigId, _walls: WallSet, out: &mut Vec<Child>) {
        out.clear();
        out.extend(
            Tables::children(self, id)
                .iter()
                .filter(|&&c| c != NO_CHILD)
                .map(|&c| Child {
                    id: c,
                    reach: ConfigSource::reach(self, c, WallSet::EMPTY),
                }),
        );
    }

    fn bytes(&self) -> u64 {
        Tables::bytes(self)
    }

    fn tables(&self) -> Option<&Tables> {
        Some(self)
    }
}

impl ConfigSource for Ranked {
    fn board(&self) -> Board {
        Ranked::board(self)
    }

    fn walls_per_player(&self) -> u8 {
        Ranked::walls_per_player(self)
    }

    fn by_walls(&self) -> Vec<usize> {
        Ranked::by_walls(self)
    }

    fn layer(&self, k: usize) -> Range<ConfigId> {
        Ranked::layer(self, k)
    }

    fn len(&self) -> usize {
        Ranked::len(self)
    }

    fn walls(&self, id: ConfigId) -> WallSet {
        Ranked::walls(self, id)
    }

    fn walls_from(&self, first: ConfigId, out: &mut [WallSet]) {
        Ranked::walls_from(self, first, out)
    }

    fn id_of(&self, walls: WallSet) -> Option<ConfigId> {
        Ranked::id_of(self, walls)
    }

    fn parents(&self, walls: WallSet, f: &mut dyn FnMut(WallSet, ConfigId)) {
        self.for_each_parent_id(walls, |_, parent, id| f(parent, id));
    }

    fn reach(&self, _id: ConfigId, walls: WallSet) -> [u64; 2] {
        Ranked::reach(self, walls)
    }

    fn children(&self, _id: ConfigId, walls: WallSet, out: &mut Vec<Child>) {
        out.clear();
        self.for_each_child_id(walls, |_, child, id| {
            out.push(Child {
                id,
                reach: self.reach(child),
            })
        });
    }

    fn bytes(&self) -> u64 {
        Ranked::bytes(self)
    }
}

/// Whether a configuration is its own left-right mirror image.
pub fn symmetric(board: Board, walls: WallSet) -> bool {
    walls.mirror(board) == walls
}
