//! A cell's eager tables read as the configurations of the same board with fewer walls per
//! player. A wall set of the smaller cell (at most `2 * walls` walls) is one of the
//! larger's, and the tables number configurations layer by layer, so the smaller cell's
//! configurations are the tables' first layers, under the same ids. Its analysis then needs
//! no configurations of its own (4x7 with 6 walls: 3.63 GiB of tables not built beside
//! those of 7), which is what lets the search for the length after a compact analysis be
//! bounded by fewer walls where their own tables would not fit (`cell::fewer`).

use super::source::{Child, ConfigSource};
use crate::configs::{ConfigId, Tables};
use crate::rules::geometry::Board;
use crate::rules::walls::WallSet;
use std::ops::Range;

/// The first `2 * walls + 1` layers of `tables` (or all it has), as the cell of `walls`.
pub struct Prefix<'t> {
    tables: &'t Tables,
    walls: u8,
    layers: usize,
}

impl<'t> Prefix<'t> {
    /// The cell of the tables' board with `walls` per player; `None` unless `walls` is
    /// below the tables' own.
    pub fn new(tables: &'t Tables, walls: u8) -> Option<Prefix<'t>> {
        (walls < tables.walls_per_player()).then(|| Prefix {
            tables,
            walls,
            layers: (2 * walls as usize + 1).min(tables.layers()),
        })
    }

    /// The first id of the last layer: those configurations have no child here (every
    /// wall of the cell is placed).
    fn last_layer_start(&self) -> ConfigId {
        self.tables.layer(self.layers - 1).start
    }
}

impl ConfigSource for Prefix<'_> {
    fn board(&self) -> Board {
        self.tables.board()
    }

    fn walls_per_player(&self) -> u8 {
        self.walls
    }

    fn by_walls(&self) -> Vec<usize> {
        let mut counts = self.tables.by_walls();
        counts.truncate(self.layers);
        counts
    }

    fn layer(&self, k: usize) -> Range<ConfigId> {
        match k < self.layers {
            true => self.tables.layer(k),
            false => 0..0,
        }
    }

    fn len(&self) -> usize {
        self.tables.layer(self.layers - 1).end as usize
    }

    fn walls(&self, id: ConfigId) -> WallSet {
        self.tables.walls(id)
    }

    fn walls_from(&self, first: ConfigId, out: &mut [WallSet]) {
        ConfigSource::walls_from(self.tables, first, out)
    }

    fn id_of(&self, walls: WallSet) -> Option<ConfigId> {
        if walls.len() as usize >= self.layers {
            return None;
        }
        ConfigSource::id_of(self.tables, walls)
    }

    fn reach(&self, id: ConfigId, walls: WallSet) -> [u64; 2] {
        ConfigSource::reach(self.tables, id, walls)
    }

    fn children(&self, id: ConfigId, walls: WallSet, out: &mut Vec<Child>) {
        match id < self.last_layer_start() {
            true => ConfigSource::children(self.tables, id, walls, out),
            false => out.clear(),
        }
    }

    /// Nothing of its own: the tables are the larger cell's, held for it.
    fn bytes(&self) -> u64 {
        0
    }

    fn tables(&self) -> Option<&Tables> {
        Some(self.tables)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::support::progress::Silent;

    /// The prefix of 4 walls' tables is 2 walls' tables: the same layers, the same ids,
    /// walls, reach and children (but the last layer's, which have none).
    #[test]
    fn a_prefix_is_the_smaller_cells_tables() {
        let board = Board::new(4, 4).unwrap();
        let big = Tables::build(board, 4, u64::MAX, &Silent).unwrap();
        let small = Tables::build(board, 2, u64::MAX, &Silent).unwrap();
        let prefix = Prefix::new(&big, 2).unwrap();
        assert!(Prefix::new(&big, 4).is_none());
        assert_eq!(prefix.by_walls(), small.by_walls());
        assert_eq!(ConfigSource::len(&prefix), small.len());
        assert_eq!(prefix.walls_per_player(), 2);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for id in 0..small.len() as ConfigId {
            let walls = ConfigSource::walls(&small, id);
            assert_eq!(prefix.walls(id), walls);
            assert_eq!(prefix.id_of(walls), Some(id));
            assert_eq!(
                prefix.reach(id, walls),
                ConfigSource::reach(&small, id, walls)
            );
            prefix.children(id, walls, &mut a);
            ConfigSource::children(&small, id, walls, &mut b);
            assert_eq!(a, b, "children of {id}");
        }
        let beyond = ConfigSource::walls(&big, small.len() as ConfigId);
        assert_eq!(prefix.id_of(beyond), None);
        assert_eq!(prefix.layer(5), 0..0);
    }
}
