//! A number for every wall set of a cell that does not depend on which configurations a
//! store has built, or in what order: the set's rank among all sets of at most `most`
//! slots (the combinatorial number system). The on-demand store keys the transposition
//! table by it, so that the store can be emptied and rebuilt while the table's facts stay
//! true (`OnDemand::forget`).
//!
//! Sets of `k` slots come after every smaller set: `rank = offset[k] + sum C(s_i, i + 1)`
//! over the slots `s_0 < s_1 < ...`, which numbers the sets of `k` slots `0..C(n, k)`
//! without gaps or repeats. Clashing wall sets get numbers too: a few unused ones.

use super::SlotMap;
use crate::rules::walls::WallSet;

pub struct SetNumbers {
    /// `binomial[s][i]` = C(s, i) for every slot `s` and `i <= most`.
    binomial: Vec<Vec<u64>>,
    /// `offset[k]`: how many sets have fewer than `k` slots.
    offset: Vec<u64>,
}

impl SetNumbers {
    /// The numbering of sets of at most `most` of `slots` slots, if every rank is below
    /// `limit`.
    pub fn new(slots: usize, most: usize, limit: u64) -> Option<SetNumbers> {
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
        Some(SetNumbers {
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
        let ranks = SetNumbers::new(n, 3, u64::MAX).unwrap();
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
        assert!(SetNumbers::new(slots, 6, 1 << 39).is_some());
        assert!(SetNumbers::new(slots, 8, 1 << 39).is_none());
        assert!(SetNumbers::new(210, 20, u64::MAX).is_none());
    }
}
