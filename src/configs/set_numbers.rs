//! A number for every wall set of a cell that does not depend on which configurations a
//! store has built, or in what order. The on-demand store keys the transposition table by
//! it, so that the store can be emptied and rebuilt while the table's facts stay true
//! (`OnDemand::forget`). Two numberings, the first that fits a key's bits:
//!
//! - `AllSets` ("ranks-1"): the set's rank among all sets of at most `most` slots (the
//!   combinatorial number system), with no table: sets of `k` slots come after every
//!   smaller set, `rank = offset[k] + sum C(s_i, i + 1)` over the slots `s_0 < s_1 < ...`.
//!   Clashing wall sets get numbers too: unused ones, which at many walls are most of them
//!   (7x5 with 7 walls each: 5.6e11 sets of 14 slots, past the 39 bits of a key);
//! - `Configurations` ("profile-1"): the set's place among the configurations alone, layer
//!   by layer (`ProfileRank`, a table of kilobytes): 7x5 with 10 walls each numbers its
//!   3.3e9 configurations.

use super::{ProfileRank, SlotMap};
use crate::rules::geometry::Board;
use crate::rules::walls::WallSet;

/// The largest `ProfileRank` table a numbering takes (a board too wide has none).
const MOST_TABLE_BYTES: u64 = 64 << 20;

pub enum SetNumbers {
    AllSets(AllSets),
    Configurations {
        /// Boxed: a table's board and counts make it far larger than `AllSets`.
        rank: Box<ProfileRank>,
        /// `offset[k]`: how many configurations have fewer than `k` walls.
        offset: Vec<u64>,
    },
}

impl SetNumbers {
    /// The numbering of the wall sets of `board` with at most `most` walls, if every number
    /// is below `limit`.
    pub fn new(board: Board, slots: &SlotMap, most: usize, limit: u64) -> Option<SetNumbers> {
        match AllSets::new(slots.len(), most, limit) {
            Some(all) => Some(SetNumbers::AllSets(all)),
            None => SetNumbers::configurations(board, most, limit),
        }
    }

    /// The `Configurations` numbering, if its table is small and every number below `limit`.
    fn configurations(board: Board, most: usize, limit: u64) -> Option<SetNumbers> {
        if ProfileRank::estimate_bytes(board, most)? > MOST_TABLE_BYTES {
            return None;
        }
        let rank = Box::new(ProfileRank::new(board, most));
        let mut offset = vec![0u64];
        for k in 0..=most {
            offset.push(offset[k].checked_add(rank.count(k))?);
        }
        (offset[most + 1] <= limit).then_some(SetNumbers::Configurations { rank, offset })
    }

    /// The number of `walls` (a configuration of at most `most` walls).
    pub fn rank(&self, slots: &SlotMap, walls: WallSet) -> u64 {
        match self {
            SetNumbers::AllSets(all) => all.rank(slots, walls),
            SetNumbers::Configurations { rank, offset } => {
                let place = rank.rank(walls).expect("a configuration of the cell");
                offset[walls.len() as usize] + place
            }
        }
    }

    /// The name of the numbering (`ConfigTables::key_numbering`).
    pub fn name(&self) -> &'static str {
        match self {
            SetNumbers::AllSets(_) => "ranks-1",
            SetNumbers::Configurations { .. } => "profile-1",
        }
    }

    /// The bytes held.
    pub fn bytes(&self) -> u64 {
        match self {
            SetNumbers::AllSets(all) => all.bytes(),
            SetNumbers::Configurations { rank, offset } => rank.bytes() + 8 * offset.len() as u64,
        }
    }
}

/// The combinatorial number system over all sets of at most `most` slots.
pub struct AllSets {
    /// `binomial[s][i]` = C(s, i) for every slot `s` and `i <= most`.
    binomial: Vec<Vec<u64>>,
    /// `offset[k]`: how many sets have fewer than `k` slots.
    offset: Vec<u64>,
}

impl AllSets {
    /// The numbering of sets of at most `most` of `slots` slots, if every rank is below
    /// `limit`.
    pub fn new(slots: usize, most: usize, limit: u64) -> Option<AllSets> {
        let mut pascal = vec![vec![0u128; most + 2]; slots + 1];
        for n in 0..=slots {
            pascal[n][0] = 1;
            for k in 1..=most + 1 {
                pascal[n][k] = if n == 0 {
                    0
                } else {
                    pascal[n - 1][k - 1].saturating_add(pascal[n - 1][k])
                };
            }
        }
        let mut offset = vec![0u128; most + 2];
        for k in 1..=most + 1 {
            offset[k] = offset[k - 1].saturating_add(pascal[slots][k - 1]);
        }
        if offset[most + 1] > limit as u128 {
            return None;
        }
        Some(AllSets {
            binomial: pascal
                .iter()
                .map(|row| row[..=most].iter().map(|&c| c as u64).collect())
                .collect(),
            offset: offset[..=most].iter().map(|&o| o as u64).collect(),
        })
    }

    /// The rank of `walls` (at most `most` walls, each a slot of `slots`).
    pub fn rank(&self, slots: &SlotMap, walls: WallSet) -> u64 {
        // `WallSet::iter` lists walls by ascending slot (horizontal first, each by anchor).
        let (count, sum) = walls.iter().fold((0, 0), |(i, sum), w| {
            (i + 1, sum + self.binomial[slots.slot(w)][i + 1])
        });
        self.offset[count] + sum
    }

    fn bytes(&self) -> u64 {
        let binomial: usize = self.binomial.iter().map(|row| row.len()).sum();
        8 * (binomial + self.offset.len()) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Board;

    /// On a 3x3 board (8 slots), every set of at most 3 slots gets its own rank, and the
    /// ranks are exactly `0..` the number of such sets.
    #[test]
    fn ranks_number_every_small_set_once() {
        let board = Board::new(3, 3).unwrap();
        let slots = SlotMap::new(board);
        let n = slots.len();
        let ranks = AllSets::new(n, 3, u64::MAX).unwrap();
        let mut seen = Vec::new();
        for mask in 0u32..1 << n {
            if mask.count_ones() > 3 {
                continue;
            }
            let walls = (0..n)
                .filter(|s| mask >> s & 1 == 1)
                .fold(WallSet::EMPTY, |set, s| set.with(slots.wall(s)));
            seen.push(ranks.rank(&slots, walls));
        }
        seen.sort();
        let expected: Vec<u64> = (0..seen.len() as u64).collect();
        assert_eq!(seen, expected);
        // 1 + 8 + 28 + 56 sets.
        assert_eq!(seen.len(), 93);
    }

    /// 9x9 with 3 walls each fits the 39 bits of a key; with 4 each it does not.
    #[test]
    fn limits() {
        let slots = SlotMap::new(Board::new(9, 9).unwrap()).len();
        assert_eq!(slots, 128);
        assert!(AllSets::new(slots, 6, 1 << 39).is_some());
        assert!(AllSets::new(slots, 8, 1 << 39).is_none());
        assert!(AllSets::new(210, 20, u64::MAX).is_none());
    }

    /// Where all sets do not fit a key, the configurations alone may: 7x5 from 7 walls
    /// each (5.6e11 sets of 14 slots) to 10 (3.3e9 configurations).
    #[test]
    fn the_configurations_alone_number_7x5_to_10_walls() {
        let board = Board::new(7, 5).unwrap();
        let slots = SlotMap::new(board);
        let numbers = |most| SetNumbers::new(board, &slots, most, 1 << 39).map(|n| n.name());
        assert_eq!(numbers(12), Some("ranks-1"));
        assert_eq!(numbers(14), Some("profile-1"));
        assert_eq!(numbers(20), Some("profile-1"));
        let nine = Board::new(9, 9).unwrap();
        assert_eq!(
            SetNumbers::new(nine, &SlotMap::new(nine), 20, 1 << 39).map(|n| n.name()),
            None
        );
    }

    /// The configurations' numbers are `0..` their count, each once, on a small board.
    #[test]
    fn configuration_numbers_are_dense() {
        let board = Board::new(4, 4).unwrap();
        let slots = SlotMap::new(board);
        let profile = SetNumbers::configurations(board, 6, 1 << 39).unwrap();
        let tables =
            crate::configs::Tables::build(board, 3, u64::MAX, &crate::support::progress::Silent)
                .unwrap();
        let mut seen: Vec<u64> = (0..tables.len() as u32)
            .map(|id| profile.rank(&slots, tables.walls(id)))
            .collect();
        seen.sort();
        assert_eq!(seen, (0..tables.len() as u64).collect::<Vec<_>>());
    }
}
