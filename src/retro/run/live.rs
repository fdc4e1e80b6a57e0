//! The share of each layer's placements that the analysis solves, for its estimated time:
//! it skips every placement with a pawn cut off from its goal, and those grow with the
//! walls (6x5 with 10 walls: 31 % of layer 12's placements are solved, 92 % of layer 6's).
//! Timed layer by layer, the analysis in parts went at about 0.25e9 solved positions a
//! second on every layer of 6x5 with 10 walls whose layer above was held, where counted in
//! placements it went from 0.22e9 to 0.94e9 (docs/PERFORMANCE.md). The shares are sampled:
//! uniform configurations of the layer (`ProfileRank::unrank`), each counted exactly.

use crate::configs::ProfileRank;
use crate::rules::geometry::{Board, Player};
use crate::rules::walls::WallSet;

/// Configurations sampled a layer: a layer with no more is counted whole. The shares'
/// spread is about 1 % at this count (the standard error of a mean of shares between 0
/// and 1); the estimates they feed err by far more.
const SAMPLES: u64 = 1024;

/// The most bytes of the numbering built to sample (`ProfileRank::estimate_bytes`): past
/// it (boards of more than 12 columns) every placement is counted as solved.
const MOST_RANK_BYTES: u64 = 16 << 20;

/// For each layer (walls placed, `0..layers`) of `board`, the share of its placements
/// (configuration, ordered pair of distinct cells) in which both pawns can reach their
/// goal rows. All ones where the board has more than 64 cells or its numbering is too
/// large to build for an estimate.
pub fn live_shares(board: Board, layers: usize) -> Vec<f64> {
    let most = layers.saturating_sub(1);
    let small = ProfileRank::estimate_bytes(board, most).is_some_and(|b| b <= MOST_RANK_BYTES);
    if board.squares() > 64 || !small {
        return vec![1.0; layers];
    }
    let rank = ProfileRank::new(board, most);
    (0..layers).map(|k| layer_share(board, &rank, k)).collect()
}

/// The mean share of layer `k`: every configuration where it has at most `SAMPLES`, else
/// `SAMPLES` of them drawn uniformly (a fixed seed a layer: the estimate is the same each
/// time it is asked).
fn layer_share(board: Board, rank: &ProfileRank, k: usize) -> f64 {
    let count = rank.count(k);
    if count == 0 {
        return 1.0;
    }
    let mut seed = 0x9e37_79b9_7f4a_7c15 ^ k as u64;
    let drawn = count.min(SAMPLES);
    let sum: f64 = (0..drawn)
        .map(|i| {
            let r = match count <= SAMPLES {
                true => i,
                false => splitmix(&mut seed) % count,
            };
            config_share(board, rank.unrank(k, r))
        })
        .sum();
    sum / drawn as f64
}

/// The share of a configuration's ordered pairs of distinct cells in which each pawn can
/// reach its goal row: the pairs of the cells each reaches, less those on one cell.
fn config_share(board: Board, walls: WallSet) -> f64 {
    let edges = walls.edges_in::<u64>(board);
    let [one, two] = [Player::One, Player::Two].map(|p| edges.reach(board.goal(p) as u64));
    let cells = board.squares() as f64;
    let pairs = one.count_ones() as f64 * two.count_ones() as f64 - (one & two).count_ones() as f64;
    pairs / (cells * (cells - 1.0))
}

/// The next of a splitmix64 sequence: a well-mixed 64-bit draw from a counter.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configs::Ranked;

    /// Counted whole where a layer is small, the shares are exact: on 3x3 with 2 walls each
    /// (layers 0 to 4) they equal the count over every configuration of the numbering.
    #[test]
    fn a_small_layer_is_counted_whole_and_exactly() {
        let board = Board::new(3, 3).unwrap();
        let ranked = Ranked::build(board, 2);
        let shares = live_shares(board, 5);
        assert_eq!(shares[0], 1.0, "no wall cuts anything off");
        for (k, &share) in shares.iter().enumerate() {
            let ids = ranked.layer(k);
            let n = ids.len() as f64;
            let whole: f64 = ids.map(|id| config_share(board, ranked.walls(id))).sum();
            assert!(
                (share - whole / n).abs() < 1e-12,
                "layer {k}: {share} against {}",
                whole / n
            );
        }
        assert!(shares[4] < shares[1], "more walls cut more off");
    }

    /// Sampled where a layer is large: within 2 % of the counts of the analysis of 6x5
    /// with 10 walls (its positions against its placements, layer by layer, from
    /// results/strong/logs/6x5-w10-compact-474edb7-20261128T2146.err).
    #[test]
    fn a_large_layer_is_sampled_near_the_analysis_counts() {
        let board = Board::new(6, 5).unwrap();
        let shares = live_shares(board, 21);
        // (layer, positions solved, placements)
        for (k, solved, placed) in [
            (12, 69_362_738_532.0, 2.213e11),
            (10, 199_376_169_520.0, 3.634e11),
            (8, 102_419_338_428.0, 1.308e11),
            (6, 14_069_562_584.0, 1.521e10),
        ] {
            let share: f64 = solved / placed;
            assert!(
                (shares[k] - share).abs() < 0.02,
                "layer {k}: {} against {share}",
                shares[k]
            );
        }
        // Past 64 cells, every placement counts.
        assert_eq!(live_shares(Board::new(9, 9).unwrap(), 3), vec![1.0; 3]);
    }
}
