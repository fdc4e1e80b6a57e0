//! The configurations of a cell numbered as the eager tables number them, without a record
//! per configuration: what the retrograde analysis needs of a cell whose tables do not fit
//! memory (6x6 with 4 walls: 44 GiB of tables; 6x5 with 10 walls: 22.6 GiB of tables,
//! 92 M configurations, numbered here from a table of 0.5 MiB).
//!
//! The eager tables number layer `k` (configurations of `k` walls) in the lexicographic
//! order of their ascending key lists (`enumerate.rs`: grouped by parent, siblings by the
//! added wall). So a configuration's id is its layer's start plus its rank in the layer,
//! which `ProfileRank` (`rank.rs`) computes from its walls, and turns back into walls.
//!
//! What the records held is made from the wall set when asked: the cells each player
//! reaches (a flood fill), the children (the walls that fit, each ranked).
//! `tests::ids_and_records_match_the_eager_tables` holds every answer against `Tables`.

use super::SlotMap;
use crate::configs::{ConfigId, ProfileRank, count_by_walls};
use crate::rules::geometry::{Board, Player};
use crate::rules::walls::{Wall, WallSet};
use std::ops::Range;

pub struct Ranked {
    board: Board,
    walls_per_player: u8,
    slot_map: SlotMap,
    rank: ProfileRank,
    /// `layer_start[k]..layer_start[k + 1]`: the ids of layer `k`.
    layer_start: Vec<usize>,
}

impl Ranked {
    /// The bytes `build` will take for a cell of `layers` layers (`configs::count_by_walls`):
    /// the rank's table and a start per layer.
    pub fn estimate_bytes(board: Board, layers: usize) -> u64 {
        ProfileRank::estimate_bytes(board, layers.saturating_sub(1))
            .map_or(u64::MAX, |bytes| bytes + 8 * (layers as u64 + 1))
    }

    /// Numbers every configuration of `board` with `walls_per_player` walls each. The
    /// caller checks the budget against `estimate_bytes`; the board must have at most 64
    /// cells (`retro::check_board`), and the counts must fit a `ConfigId`.
    pub fn build(board: Board, walls_per_player: u8) -> Ranked {
        let by_walls = count_by_walls(board, 2 * walls_per_player as usize);
        let rank = ProfileRank::new(board, by_walls.len() - 1);
        let mut layer_start = vec![0usize];
        for (k, &count) in by_walls.iter().enumerate() {
            assert_eq!(
                rank.count(k) as u128,
                count,
                "layer {k}: the two counts agree"
            );
            layer_start.push(layer_start[k] + count as usize);
        }
        Ranked {
            board,
            walls_per_player,
            slot_map: SlotMap::new(board),
            rank,
            layer_start,
        }
    }

    pub fn board(&self) -> Board {
        self.board
    }

    pub fn walls_per_player(&self) -> u8 {
        self.walls_per_player
    }

    pub fn len(&self) -> usize {
        *self.layer_start.last().expect("layer 0 at least")
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Configurations per layer (walls on the board).
    pub fn by_walls(&self) -> Vec<usize> {
        self.layer_start.windows(2).map(|w| w[1] - w[0]).collect()
    }

    /// The ids of the configurations with `k` walls.
    pub fn layer(&self, k: usize) -> Range<ConfigId> {
        self.layer_start[k] as ConfigId..self.layer_start[k + 1] as ConfigId
    }

    /// The bytes held.
    pub fn bytes(&self) -> u64 {
        self.rank.bytes() + 8 * self.layer_start.len() as u64
    }

    /// The id of a wall set, if it is one of the cell's configurations.
    #[inline]
    pub fn id_of(&self, walls: WallSet) -> Option<ConfigId> {
        let k = walls.len() as usize;
        if k + 1 >= self.layer_start.len() {
            return None;
        }
        let rank = self.rank.rank(walls)?;
        Some((self.layer_start[k] + rank as usize) as ConfigId)
    }

    /// The layer of an id and its index in it.
    fn locate(&self, id: ConfigId) -> (usize, u64) {
        let id = id as usize;
        let k = self.layer_start.partition_point(|&s| s <= id) - 1;
        (k, (id - self.layer_start[k]) as u64)
    }

    /// The walls of configuration `id`.
    pub fn walls(&self, id: ConfigId) -> WallSet {
        let (k, i) = self.locate(id);
        self.rank.unrank(k, i)
    }

    /// The walls of the configurations `first`, `first + 1`, ... into `out` (all in one
    /// layer or several).
    pub fn walls_from(&self, first: ConfigId, out: &mut [WallSet]) {
        let (mut k, mut i) = self.locate(first);
        for w in out.iter_mut() {
            while self.layer_start[k] + i as usize >= self.layer_start[k + 1] {
                (k, i) = (k + 1, 0);
            }
            *w = self.rank.unrank(k, i);
            i += 1;
        }
    }

    /// The cells from which each player reaches their goal row (a flood fill).
    #[inline]
    pub fn reach(&self, walls: WallSet) -> [u64; 2] {
        let edges = walls.edges_in::<u64>(self.board);
        // Ranked cells have at most 64 cells (`retro::MAX_SQUARES`): a goal row fits a word.
        [Player::One, Player::Two].map(|p| edges.reach(self.board.goal(p) as u64))
    }

    /// Calls `f(wall, child walls, child id)` for every configuration one wall more than
    /// `walls` (a configuration of the cell), all ranked in one pass
    /// (`ProfileRank::child_ranks`).
    pub fn for_each_child_id(&self, walls: WallSet, mut f: impl FnMut(Wall, WallSet, ConfigId)) {
        let k = walls.len() as usize;
        if k + 2 >= self.layer_start.len() {
            return; // the top layer: no wall is left to place
        }
        let start = self.layer_start[k + 1];
        self.rank.child_ranks(walls, |wall, rank| {
            f(wall, walls.with(wall), (start + rank as usize) as ConfigId)
        });
    }

    /// Calls `f(wall, parent walls, parent id)` for every wall of `walls` (a configuration
    /// of the cell): the configuration without it, all ranked in one pass
    /// (`ProfileRank::parent_ranks`).
    pub fn for_each_parent_id(&self, walls: WallSet, mut f: impl FnMut(Wall, WallSet, ConfigId)) {
        let k = walls.len() as usize;
        if k == 0 {
            return;
        }
        let start = self.layer_start[k - 1];
        self.rank.parent_ranks(walls, |wall, rank| {
            f(
                wall,
                walls.without(wall),
                (start + rank as usize) as ConfigId,
            )
        });
    }

    pub fn slot_map(&self) -> &SlotMap {
        &self.slot_map
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configs::{NO_CHILD, Tables};
    use crate::rules::bitboard::Squares;
    use crate::support::progress::Silent;

    /// Every id, wall set, reach and child of the ranked numbering equals the eager
    /// tables', on boards of every shape and wall counts up to the whole board.
    #[test]
    fn ids_and_records_match_the_eager_tables() {
        for (w, h, n) in [
            (2, 3, 2),
            (3, 3, 3),
            (4, 3, 2),
            (3, 4, 10),
            (4, 4, 2),
            (5, 3, 2),
            (3, 5, 2),
            (6, 3, 3),
        ] {
            let board = Board::new(w, h).unwrap();
            let tables = Tables::build(board, n, u64::MAX, &Silent).unwrap();
            let ranked = Ranked::build(board, n);
            assert_eq!(ranked.by_walls(), tables.by_walls(), "{board} {n}");
            assert!(ranked.bytes() <= Ranked::estimate_bytes(board, tables.layers()));
            let mut from = vec![WallSet::EMPTY; tables.len()];
            ranked.walls_from(0, &mut from);
            for id in 0..tables.len() as ConfigId {
                let walls = tables.walls(id);
                assert_eq!(ranked.id_of(walls), Some(id), "{board} {n} id {id}");
                assert_eq!(ranked.walls(id), walls);
                assert_eq!(from[id as usize], walls);
                let reach = ranked.reach(walls);
                for p in [Player::One, Player::Two] {
                    assert_eq!(Squares::from(reach[p.index()]), tables.reach(id, p));
                }
                let mut by_pass = vec![NO_CHILD; tables.slots()];
                ranked.for_each_child_id(walls, |wall, child, child_id| {
                    assert_eq!(child, walls.with(wall));
                    by_pass[tables.slot(wall)] = child_id;
                });
                assert_eq!(by_pass, tables.children(id));
                let mut parents = 0;
                ranked.for_each_parent_id(walls, |wall, parent, parent_id| {
                    assert_eq!(parent, walls.without(wall));
                    assert_eq!(tables.walls(parent_id), parent);
                    parents += 1;
                });
                assert_eq!(parents, walls.len());
            }
            // A part of a layer, from an id in its middle.
            let mid = tables.len() as ConfigId / 2;
            let mut part = vec![WallSet::EMPTY; tables.len() - mid as usize];
            ranked.walls_from(mid, &mut part);
            assert_eq!(part, from[mid as usize..]);
        }
    }

    /// Sets of walls that are not configurations have no id.
    #[test]
    fn clashing_walls_have_no_id() {
        let board = Board::new(3, 3).unwrap();
        let ranked = Ranked::build(board, 2);
        let h = |a| Wall {
            anchor: a,
            orientation: crate::rules::walls::Orientation::Horizontal,
        };
        let v = |a| Wall {
            anchor: a,
            orientation: crate::rules::walls::Orientation::Vertical,
        };
        // a1h and b1h overlap; a1h and a1v cross.
        assert_eq!(ranked.id_of(WallSet::EMPTY.with(h(0)).with(h(1))), None);
        assert_eq!(ranked.id_of(WallSet::EMPTY.with(h(0)).with(v(0))), None);
        assert!(ranked.id_of(WallSet::EMPTY.with(h(0)).with(v(1))).is_some());
    }
}
